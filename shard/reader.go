package shard

import (
	"context"
	"errors"
	"fmt"
	"iter"

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
	on      func(partition string) query.Query[T]
	parts   []string
	order   []string // the merged order: the index's sort key, then the table's key
	nSort   int      // the number of sort key attributes at the start of order
	pkey    string   // the index's partition key attribute, which holds parts
	secret  []byte
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
// ix ([Index.Binding]); optFns are the query package's options of every
// shard query (a CursorKey also signs the reader's cursors). The read
// covers [Index.ReadPartitions]. ix must be the very declaration whose
// Binding is in e's [keyfirst.EntitySpec.Keys]: another declaration of
// the same pattern (of another shard count, which would read some of the
// shards only) is refused by every terminal call before any request, with
// a [*ReadError] ([ReadBinding]).
func Query[T, S any](e *keyfirst.Entity[T], ix *Index[T, S], optFns ...func(*query.Options)) Reader[T] {
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
	r.index, r.parts, r.secret = ix.p.IndexName(), ix.read, cursorKey(optFns)
	r.on = func(part string) query.Query[T] { return query.On(e, ix.p, part, optFns...) }
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

// SortAttr sets a raw sort key condition every shard query takes, as
// [query.Query.SortAttr]: for a sort key that is a plain string or number
// (begins_with on a date).
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
// made ([Page.Next], [NextCursor]). The empty Cursor starts from the
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

// Options configure a terminal call of a [Reader].
type Options struct {
	// Cost, when set, receives the cost of the call (replacing what it
	// held), also when it ends early or with an error (a call refused
	// before any request leaves it as it was).
	Cost *Cost
	// Next, when set, receives the cursor after the last item the call
	// returned, however it stopped: at its limit, at the end of a Page,
	// when the loop over All breaks, when ctx ends or a shard's query
	// fails (the cursor the call started from when no item was returned,
	// as a failed Page returns none). Resumed with [Reader.After], the
	// read goes on exactly after that item: no item is repeated or
	// skipped. It is empty once the read is done. A call refused before
	// any request (a [*ReadError]) leaves it as it was.
	Next *Cursor
}

// WithCost stores the call's cost in c.
func WithCost(c *Cost) func(*Options) { return func(o *Options) { o.Cost = c } }

// cursorKey is the CursorKey the query package's options set, if any.
func cursorKey(optFns []func(*query.Options)) []byte {
	var o query.Options
	for _, fn := range optFns {
		if fn != nil {
			fn(&o)
		}
	}
	return o.CursorKey
}

// NextCursor stores in c the cursor after the last item the call returned
// (named apart from query.WithNext, whose cursor is a query.Cursor).
func NextCursor(c *Cursor) func(*Options) { return func(o *Options) { o.Next = c } }

// Page reads one page: with Limit n, exactly the first min(n, remaining)
// items of the merged order; without a limit, the items the first round
// of shard queries (one DynamoDB page each) orders for certain. On an
// error, the page is empty (never a partial merge) and its Next (and
// [NextCursor]) is the cursor the call started from.
func (r Reader[T]) Page(ctx context.Context, client keyfirst.QueryAPI, optFns ...func(*Options)) (Page[T], error) {
	m, err := r.start(client, true)
	if err != nil {
		return Page[T]{}, err
	}
	opts := callOptions(optFns)
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
// query; the iterator returns when all of them have. However it stops,
// [NextCursor] receives the cursor after the last item yielded (before the
// error is yielded), so that a resumed read neither repeats nor skips an
// item; when the loop body panics, after the last item it finished.
func (r Reader[T]) All(ctx context.Context, client keyfirst.QueryAPI, optFns ...func(*Options)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		m, err := r.start(client, false)
		if err != nil {
			yield(zero, err)
			return
		}
		opts := callOptions(optFns)
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
func (r Reader[T]) Collect(ctx context.Context, client keyfirst.QueryAPI, optFns ...func(*Options)) ([]T, error) {
	var out []T
	for v, err := range r.All(ctx, client, optFns...) {
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}

func callOptions(fns []func(*Options)) Options {
	var o Options
	for _, fn := range fns {
		if fn != nil {
			fn(&o)
		}
	}
	return o
}

// store hands the call's cost and cursor to the caller.
func (o Options) store(c Cost, next Cursor) {
	if o.Cost != nil {
		*o.Cost = c
	}
	if o.Next != nil {
		*o.Next = next
	}
}
