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

// all is [Query.All]; with c set, the items are appended to c instead
// of yielded (only the error is), c's slice grown once per response, by
// the response's items: Collect's loop, without a call per item.
func (q Query[T]) all(ctx context.Context, client keyfirst.QueryAPI, optFns []func(*keyfirst.Options), c *collector[T]) iter.Seq2[T, error] {
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
				// Collecting, out is c's slice until the response is
				// decoded, and the cursor moves when pages returns: no
				// loop body of the caller's runs in between.
				out := c.grown(len(items))
				var v T // the item to yield, when not collecting
				returned := 0
				for i, it := range items {
					if p.expired != nil && p.expired(it) {
						pr.resume = it
						continue
					}
					var err error
					if c != nil {
						out, err = appendItem(out, q.entity, q.src, it, p.decoding)
					} else {
						err = decodeInto(&v, q.entity, q.src, it, p.decoding)
					}
					if err != nil {
						itemErr = p.decodeError("Query", it, err, true)
						c.keep(out)
						return i, returned, true
					}
					returned++
					if c != nil {
						continue
					}
					if !yield(v, nil) {
						stopped = true
						return i + 1, returned, true
					}
					pr.resume = it
				}
				c.keep(out)
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
	return c.collect(q.all(ctx, client, optFns, &c))
}

// collector gathers the items of a read whose loop appends them itself
// (the read's all with the collector set), so that it yields errors only.
type collector[T any] struct{ out []T }

// grown is c's slice with room for n more items (exactly n for the first
// response), for the loop to append to and give back with keep; nil for
// a nil c.
func (c *collector[T]) grown(n int) []T {
	switch {
	case c == nil:
		return nil
	case n == 0: // no items: a read of none returns nil, as before
		return c.out
	case c.out == nil:
		return make([]T, 0, n)
	}
	return slices.Grow(c.out, n)
}

// keep stores out, the slice grown returned with the items appended; it
// does nothing for a nil c.
func (c *collector[T]) keep(out []T) {
	if c != nil {
		c.out = out
	}
}

// collect runs seq, which yields only its error, and returns the items
// gathered and that error.
func (c *collector[T]) collect(seq iter.Seq2[T, error]) ([]T, error) {
	for _, err := range seq {
		if err != nil {
			return c.out, err
		}
	}
	return c.out, nil
}
