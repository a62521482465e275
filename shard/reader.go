package shard

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// Reader is a read of a sharded index as one query: every shard's
// partition is queried (query.On with the same sort key condition and
// direction), concurrently, and the results are merged in the index's
// order. Build it with [Query]; like a [query.Query] it is a value, every
// method returns a modified copy, and the terminal calls ([Reader.Page],
// [Reader.All], [Reader.Collect]) check everything and return the first
// problem before any request.
//
// The merge orders items by the index's sort key, as DynamoDB orders one
// partition (S and B by their bytes, N by value), then by the table's key
// (its partition key, then its sort key, compared the same way): one
// total order, the same whatever the number of shards and whichever shard
// holds an item. DynamoDB itself returns the items of one partition that
// share a sort value in the order of an internal hash of their table key,
// so the merge reads each run of equal sort values whole (from every
// shard) before it yields the run's first item: a run is buffered in
// memory, and a Limit that ends inside a run still reads all of it. An
// index without a sort key is read shard by shard instead (see the
// package doc).
type Reader[T any] struct {
	index   string
	on      func(partition string, secret []byte) query.Query[T]
	parts   []string
	order   []string // the merged order: the index's sort key, then the table's key
	nSort   int      // the number of sort key attributes at the start of order
	pkey    string   // the index's partition key attribute, which holds parts
	secret  []byte   // the resolved CursorKey, set by start
	opts    []func(*keyfirst.Options)
	sort    func(query.Query[T]) query.Query[T]
	desc    bool
	limit   int
	limited bool
	after   Cursor
	conc    int
	concSet bool
	latency bool
	// otherDecl describes an entity that binds the index's pattern with
	// another declaration than ix: a ReadBinding.
	otherDecl string
}

// Query starts a read of sharded index ix through entity e, which binds
// ix ([Index.Binding]); optFns apply to every terminal call, before the
// call's own (see [Reader.All] for those it takes). The read
// covers [Index.ReadPartitions]. ix must be the very declaration whose
// Binding is in e's [keyfirst.EntitySpec.Keys]: another declaration of
// the same pattern (of another shard count, which would read some of the
// shards only) is refused by every terminal call before any request, with
// a [*ReadError] ([ReadBinding]).
func Query[T, S any](e *keyfirst.Entity[T], ix *Index[T, S], optFns ...func(*keyfirst.Options)) Reader[T] {
	r := Reader[T]{sort: func(q query.Query[T]) query.Query[T] { return q }}
	if e == nil || ix == nil {
		return r
	}
	if e.Binds(ix.p.ID()) && !e.BindsWith(ix.binding) {
		// An entity that does not bind the pattern at all is the shard
		// queries' ProblemPattern.
		r.otherDecl = fmt.Sprintf("entity %s binds pattern %s with another declaration than this Index (%d shards, reading %d): read through the Index whose Binding is in its EntitySpec.Keys",
			e.Type(), ix.p, len(ix.parts), len(ix.read))
	}
	r.index, r.parts, r.opts = ix.p.IndexName(), ix.read, slices.Clone(optFns)
	r.on = func(part string, secret []byte) query.Query[T] {
		if secret == nil {
			return query.On(e, ix.p, part)
		}
		return query.On(e, ix.p, part, keyfirst.WithCursorKey(secret))
	}
	r.pkey = ix.p.Index().PartitionKey[0].Name
	for _, a := range ix.p.Index().SortKey {
		r.order = append(r.order, a.Name)
	}
	r.nSort = len(r.order)
	for _, a := range e.Table().PrimaryKey().Attributes() {
		r.order = append(r.order, a.Name)
	}
	return r
}

// Sort sets the sort key condition every shard query takes, as
// [query.Query.Sort] (errs takes the error of the condition's
// construction).
func (r Reader[T]) Sort(c keys.Cond, errs ...error) Reader[T] {
	r.sort = func(q query.Query[T]) query.Query[T] { return q.Sort(c, errs...) }
	return r
}

// SortValue sets the typed sort key condition every shard query takes,
// as [query.Query.SortValue]: for a sort key stored as a value
// ([keyfirst.Str], [keyfirst.Num], ...), the condition built by the
// pattern's own sort side (seed 002's begins_with on a date is
// orderDate.BeginsWith("2024-04")). A condition of another side, or one
// that could not be built, is refused before any request.
func (r Reader[T]) SortValue(c keyfirst.SortCond) Reader[T] {
	r.sort = func(q query.Query[T]) query.Query[T] { return q.SortValue(c) }
	return r
}

// SortAttr sets a raw condition on the first attribute of a tuple sort
// key ([keyfirst.Tuple2] .. Tuple4) every shard query takes, as
// [query.Query.SortAttr]. A sort key of a keys definition takes
// [Reader.Sort], one stored as a value [Reader.SortValue]: on those the
// shard queries refuse a raw condition before any request.
func (r Reader[T]) SortAttr(c query.AttrCond) Reader[T] {
	r.sort = func(q query.Query[T]) query.Query[T] { return q.SortAttr(c) }
	return r
}

// Desc reads the merged order in reverse: newest first.
func (r Reader[T]) Desc() Reader[T] {
	r.desc = true
	return r
}

// Limit returns at most n items in all: the first n of the merged order,
// never n per shard. n must be positive.
func (r Reader[T]) Limit(n int) Reader[T] {
	r.limit, r.limited = n, true
	return r
}

// After resumes the merged order exactly after the item at which c was
// made ([Page.Next], [keyfirst.WithNext]). The empty Cursor starts from the
// beginning. A cursor of another index, condition or direction, a
// changed or malformed one is refused before any request (see [Cursor]).
func (r Reader[T]) After(c Cursor) Reader[T] {
	r.after = c
	return r
}

// Concurrency bounds the shard queries in flight at once; n must be
// positive. The default is one per shard.
func (r Reader[T]) Concurrency(n int) Reader[T] {
	r.conc, r.concSet = n, true
	return r
}

// LatencyFirst asks every shard for Limit items in the first round (one
// round trip when Limit items fit, at the price of reading up to shards
// times Limit items). The default asks each shard for its share of Limit
// with a margin of three standard deviations first, and more only from
// the shards that run out: one round trip as well when the items spread
// evenly (the frozen hash), a second one when they do not, and a fraction
// of the items read. See the package doc for the measurements.
func (r Reader[T]) LatencyFirst() Reader[T] {
	r.latency = true
	return r
}

// Page is one page of a read of a sharded index.
type Page[T any] struct {
	// Items are the page's items, in the merged order.
	Items []T
	// Next resumes the merged order after the last item of Items (the
	// cursor the call started from when Items is empty); empty when every
	// shard is done.
	Next Cursor
	// Cost is what the page's requests cost, per shard and in total.
	Cost Cost
}

// Cost is what a read of a sharded index cost.
type Cost struct {
	// Requests, Items and Capacity add up the shards: the Query
	// requests sent, the items they read, the capacity they consumed.
	Requests int
	Items    int
	Capacity keyfirst.Capacity
	// Returned is the number of items the read returned: Items/Returned
	// is the items read per item returned.
	Returned int
	// Shards is the cost of each shard, in shard order.
	Shards []ShardCost
}

// ShardCost is what the queries of one shard cost.
type ShardCost struct {
	Partition string
	Requests  int
	Items     int
	Capacity  keyfirst.Capacity
}

// options are what a [Reader]'s calls take of [keyfirst.Options].
type options struct {
	// capacity, when set, receives the capacity the call consumed, added
	// to what it holds ([keyfirst.WithCapacity]).
	capacity *keyfirst.Capacity
	// cost, when set, receives the cost of the call ([WithCost]).
	cost *Cost
	// next, when set, receives the cursor after the last item the call
	// returned ([keyfirst.WithNext] of a *shard.Cursor).
	next *Cursor
	// secret is the CursorKey: it signs the reader's cursors and the
	// shard queries'.
	secret []byte
}

// WithCost stores the cost of a [Reader]'s call in c (replacing what it
// held), per shard and in total, also when the call ends early or with an
// error (a call refused before any request leaves it as it was). The
// capacity alone is [keyfirst.WithCapacity], as for every other call.
func WithCost(c *Cost) func(*keyfirst.Options) { return keyfirst.WithSetting("WithCost", c) }

// resolveOptions applies base then call and refuses what a read does not
// take: a [*ReadError] (ReadOption) wrapping a [*keyfirst.OptionError].
func resolveOptions(index string, base, call []func(*keyfirst.Options)) (options, error) {
	refuse := func(err error) (options, error) {
		return options{}, &ReadError{Index: index, Problem: ReadOption, Err: err}
	}
	ko, err := keyfirst.Apply("Read", append(slices.Clip(base), call...))
	if err != nil {
		return refuse(err)
	}
	o := options{capacity: ko.Capacity, secret: ko.CursorKey}
	take := func(s keyfirst.Setting) bool {
		switch v := s.Value.(type) {
		case *Cost:
			o.cost = v
		case *Cursor:
			o.next = v
		default:
			return false
		}
		return true
	}
	if err := ko.Refuse("Read", take, "a shard read takes WithCost and WithNext of a *shard.Cursor only"); err != nil {
		return refuse(err)
	}
	if err := ko.RefuseOthers("Read", keyfirst.TakesCursorKey, "a shard read takes WithCapacity, WithCost, WithNext and WithCursorKey"); err != nil {
		return refuse(err)
	}
	return o, nil
}

// Page reads one page: with Limit n, exactly the first min(n, remaining)
// items of the merged order; without a limit, the items the first round
// of shard queries (one DynamoDB page each) orders for certain. On an
// error, the page is empty (never a partial merge) and its Next (and
// [keyfirst.WithNext]) is the cursor the call started from.
func (r Reader[T]) Page(ctx context.Context, client keyfirst.QueryAPI, optFns ...func(*keyfirst.Options)) (Page[T], error) {
	m, opts, err := r.start(client, true, optFns)
	if err != nil {
		return Page[T]{}, err
	}
	var page Page[T]
	err = m.run(ctx, func(v T) bool { page.Items = append(page.Items, v); return true })
	page.Cost = m.cost()
	if err == nil {
		page.Next, err = m.next()
	}
	if err != nil {
		page = Page[T]{Next: r.after, Cost: page.Cost}
		page.Cost.Returned = 0
		opts.store(page.Cost, page.Next)
		return page, err
	}
	opts.store(page.Cost, page.Next)
	return page, nil
}

// All returns an iterator over the merged order, up to Limit items if
// set, to the end otherwise. Items are yielded as soon as the merge
// allows: the items of a sort value when every shard that can still hold
// items has shown one past it (or ended).
// Errors are yielded with the zero T and end the iteration: first a
// [*ReadError] (before any request), then a [*ShardError]. Breaking out of
// the loop, cancelling ctx or an error in one shard stops every shard
// query; the iterator returns when all of them have.
//
// The calls take, given to [Query] or to the call, [keyfirst.WithCursorKey]
// (it signs the reader's cursors and the shard queries'),
// [keyfirst.WithCapacity] (the capacity the call consumed, added to what
// it holds), [WithCost] (the cost per shard) and [keyfirst.WithNext] of a
// *[Cursor]; any other option is a [*ReadError] (ReadOption) before any
// request. However the call stops, WithNext receives the cursor after
// the last item yielded (before the error is yielded), so that a resumed
// read neither repeats nor skips an item; when the loop body panics,
// after the last item it finished. WithNext, WithCost and WithCapacity
// are stored also when the call ends early or with an error; a call
// refused before any request leaves them as they were.
func (r Reader[T]) All(ctx context.Context, client keyfirst.QueryAPI, optFns ...func(*keyfirst.Options)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		m, opts, err := r.start(client, false, optFns)
		if err != nil {
			yield(zero, err)
			return
		}
		stored := false
		defer func() {
			if !stored { // the loop body panicked
				next, _ := m.next()
				opts.store(m.cost(), next)
			}
		}()
		stopped := false
		err = m.run(ctx, func(v T) bool {
			if !yield(v, nil) {
				stopped = true
				return false
			}
			return true
		})
		next, nerr := m.next()
		opts.store(m.cost(), next)
		stored = true
		if err = errors.Join(err, nerr); err != nil && !stopped {
			yield(zero, err)
		}
	}
}

// Collect reads the merged order into a slice, as [Reader.All] does. On an
// error it returns the items read before it.
func (r Reader[T]) Collect(ctx context.Context, client keyfirst.QueryAPI, optFns ...func(*keyfirst.Options)) ([]T, error) {
	var out []T
	for v, err := range r.All(ctx, client, optFns...) {
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}

// store hands the call's cost, capacity and cursor to the caller.
func (o options) store(c Cost, next Cursor) {
	if o.cost != nil {
		*o.cost = c
	}
	if o.capacity != nil {
		o.capacity.Add(c.Capacity)
	}
	if o.next != nil {
		*o.next = next
	}
}
