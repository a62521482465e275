package query

import (
	"context"
	"iter"
	"slices"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// All returns an iterator over the query's items, page after page, up to
// [Query.Limit] items if set, to the end otherwise. Each request is sent
// when the loop needs its items, asking for no more than are still
// missing; breaking out of the loop sends nothing more.
//
// The iterator is single-use: ranging over it a second time yields
// [ErrReused] (call All again for a new one). Errors are yielded with the
// zero T and end the iteration: first the query's [*Error] (before any
// request), then a [*RequestError] or a [*DecodeError]. With
// [keyfirst.WithNext], the cursor after the last item yielded is
// stored when the iteration stops, however it stops (before an error is
// yielded, so that the loop can save it where it handles the error), so a
// loop that breaks in the middle of a page resumes exactly after its last
// item (and one that ends on a DecodeError resumes at the item that could
// not be decoded: its Skip resumes after it).
func (q Query[T]) All(ctx context.Context, client keyfirst.QueryAPI, optFns ...func(*keyfirst.Options)) iter.Seq2[T, error] {
	return q.all(ctx, client, optFns, nil)
}

// all is [Query.All]; grow, when set, is told the number of items of each
// response before they are yielded, so that a collector grows its slice
// once per response.
func (q Query[T]) all(ctx context.Context, client keyfirst.QueryAPI, optFns []func(*keyfirst.Options), grow func(n int)) iter.Seq2[T, error] {
	build := func() (*plan, error) { return q.plan(optFns) }
	return singleUse(build, client == nil, func(p *plan, yield func(T, error) bool) {
		var zero T
		pr := progress{resume: p.start}
		stored := false
		store := func() {
			stored = true
			if p.opts.Next != nil {
				next, _ := p.next(pr) // items returned by DynamoDB always hold their key
				*p.opts.Next = next
			}
		}
		defer func() {
			// When the loop body panics: the cursor is that of the last
			// item it finished.
			if !stored {
				store()
			}
		}()
		var stopped bool
		var itemErr error
		pr, err := pages(ctx, p.queryFetch(client), p.start, p.limit, false,
			func(items []item, cc *types.ConsumedCapacity) (int, int, bool) {
				addCapacity(cc, p.opts.Capacity)
				if grow != nil {
					grow(len(items))
				}
				returned := 0
				for i, it := range items {
					if p.expired != nil && p.expired(it) {
						pr.resume = it
						continue
					}
					v, err := q.decodeItem(it, p.decoding)
					if err != nil {
						itemErr = p.decodeError("Query", it, err, true)
						return i, returned, true
					}
					returned++
					if !yield(v, nil) {
						stopped = true
						return i + 1, returned, true
					}
					pr.resume = it
				}
				return len(items), returned, false
			})
		if err == nil {
			err = itemErr
		}
		store() // before the error is yielded: the loop may save it there
		if err != nil && !stopped {
			yield(zero, err)
		}
	})
}

// singleUse returns a single-use iterator: ranging over it a second time
// yields [ErrReused]. The first range plans the request and checks the
// client, yielding the error if either fails; otherwise body runs with the
// plan.
func singleUse[T any, P interface{ checkClient(bool) error }](plan func() (P, error), noClient bool, body func(P, func(T, error) bool)) iter.Seq2[T, error] {
	var used atomic.Bool
	return func(yield func(T, error) bool) {
		var zero T
		if used.Swap(true) {
			yield(zero, ErrReused)
			return
		}
		p, err := plan()
		if err == nil {
			err = p.checkClient(noClient)
		}
		if err != nil {
			yield(zero, err)
			return
		}
		body(p, yield)
	}
}

// Collect reads the query's items into a slice, as [Query.All] does: up to
// [Query.Limit] items if set, to the end otherwise. On an error it returns
// the items read before it. The slice grows once per response, by the
// response's items.
func (q Query[T]) Collect(ctx context.Context, client keyfirst.QueryAPI, optFns ...func(*keyfirst.Options)) ([]T, error) {
	var c collector[T]
	return c.collect(q.all(ctx, client, optFns, c.grow))
}

// collector gathers a sequence whose producer tells it, with grow, how
// many items are coming.
type collector[T any] struct{ out []T }

// grow makes room for n more items: exactly n for the first response.
func (c *collector[T]) grow(n int) {
	switch {
	case n == 0: // no items: a read of none returns nil, as before
		return
	case c.out == nil:
		c.out = make([]T, 0, n)
	default:
		c.out = slices.Grow(c.out, n)
	}
}

// collect gathers seq until its first error.
func (c *collector[T]) collect(seq iter.Seq2[T, error]) ([]T, error) {
	for v, err := range seq {
		if err != nil {
			return c.out, err
		}
		c.out = append(c.out, v)
	}
	return c.out, nil
}
