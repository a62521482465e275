package shard

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

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
// partition (S and B by their bytes, N by value); items with equal sort
// values come out shard by shard (shard 0 first, last with [Reader.Desc]),
// each shard's in DynamoDB's order. That order is one stable order (the
// same read returns the same sequence, and a cursor resumes it exactly),
// but it is not the table's key order: DynamoDB itself orders the items
// of equal index keys by an internal hash of their table key, so even one
// partition does not return ties in key order, and no merge can
// reproduce a single partition's tie order.
type Reader[T any] struct {
	index   string
	on      func(partition string) query.Query[T]
	parts   []string
	order   []keyfirst.Attribute // the merge's key: the index's sort key
	secret  []byte
	sort    func(query.Query[T]) query.Query[T]
	desc    bool
	limit   int
	limited bool
	after   Cursor
	conc    int
	concSet bool
	latency bool
}

// Query starts a read of sharded index ix through entity e, which binds
// ix ([Index.Binding]); optFns are the query package's options of every
// shard query (a CursorKey also signs the reader's cursors). The read
// covers [Index.ReadPartitions].
func Query[T, S any](e *keyfirst.Entity[T], ix *Index[T, S], optFns ...func(*query.Options)) Reader[T] {
	r := Reader[T]{sort: func(q query.Query[T]) query.Query[T] { return q }}
	if ix == nil {
		return r
	}
	var o query.Options
	for _, fn := range optFns {
		if fn != nil {
			fn(&o)
		}
	}
	r.index, r.parts, r.secret = ix.p.IndexName(), ix.read, o.CursorKey
	r.on = func(part string) query.Query[T] { return query.On(e, ix.p, part, optFns...) }
	r.order = ix.p.Index().SortKey
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
// made ([Page.Next], [WithNext]). The empty Cursor starts from the
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
// times Limit items). The default asks each shard for ceil(Limit/shards)+1
// items first; when a shard runs out while the merge still needs items,
// it and every shard that may run out too are asked again in the same
// round trip (doubling each one's request, up to the items still
// missing): fewer items read, usually one more round trip. See the
// package doc for the measurements.
func (r Reader[T]) LatencyFirst() Reader[T] {
	r.latency = true
	return r
}

// Page is one page of a read of a sharded index.
type Page[T any] struct {
	// Items are the page's items, in the merged order.
	Items []T
	// Next resumes the merged order after the last item of Items; empty
	// when every shard is done.
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
	// held), also when it ends early or with an error.
	Cost *Cost
	// Next, when set, receives the cursor after the last item the call
	// returned, however it stopped.
	Next *Cursor
}

// WithCost stores the call's cost in c.
func WithCost(c *Cost) func(*Options) { return func(o *Options) { o.Cost = c } }

// WithNext stores in c the cursor after the last item the call returned.
func WithNext(c *Cursor) func(*Options) { return func(o *Options) { o.Next = c } }

// Page reads one page: with Limit n, exactly the first min(n, remaining)
// items of the merged order; without a limit, the items the first round
// of shard queries (one DynamoDB page each) orders for certain. On an
// error, the page is empty (never a partial merge): resume with the
// reader's own cursor.
func (r Reader[T]) Page(ctx context.Context, client keyfirst.QueryAPI, optFns ...func(*Options)) (Page[T], error) {
	var page Page[T]
	m, err := r.start(client, true)
	if err == nil {
		err = m.run(ctx, func(v T) bool { page.Items = append(page.Items, v); return true })
	}
	opts := callOptions(optFns)
	if m != nil {
		page.Cost = m.cost()
		next, nerr := m.next(err)
		page.Next = next
		err = errors.Join(err, nerr)
		opts.store(page.Cost, next)
	}
	if err != nil {
		return Page[T]{Cost: page.Cost}, err
	}
	return page, nil
}

// All returns an iterator over the merged order, up to Limit items if
// set, to the end otherwise. Items are yielded as soon as the merge
// allows: when every shard that can still hold items has one buffered.
// Errors are yielded with the zero T and end the iteration: first a
// [*ReadError] (before any request), then a [*ShardError]. Breaking out of
// the loop, cancelling ctx or an error in one shard stops every shard
// query; the iterator returns when all of them have.
func (r Reader[T]) All(ctx context.Context, client keyfirst.QueryAPI, optFns ...func(*Options)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		opts := callOptions(optFns)
		m, err := r.start(client, false)
		if err != nil {
			yield(zero, err)
			return
		}
		stopped := false
		err = m.run(ctx, func(v T) bool {
			if !yield(v, nil) {
				stopped = true
				return false
			}
			return true
		})
		next, nerr := m.next(err)
		opts.store(m.cost(), next)
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

// start checks the read and every shard query, before any request.
func (r Reader[T]) start(client keyfirst.QueryAPI, onePage bool) (*merge[T], error) {
	fail := func(p ReadProblem, detail string, err error) (*merge[T], error) {
		return nil, &ReadError{Index: r.index, Problem: p, Detail: detail, Err: err}
	}
	switch {
	case r.on == nil:
		return fail(ReadSource, "start the read with shard.Query(entity, index), with a non-nil index", nil)
	case client == nil:
		return fail(ReadClient, "pass a *dynamodb.Client or another implementation", nil)
	case r.limited && r.limit <= 0:
		return fail(ReadLimit, fmt.Sprintf("Limit(%d): give a positive number of items, or no Limit", r.limit), nil)
	case r.concSet && r.conc <= 0:
		return fail(ReadConcurrency, fmt.Sprintf("Concurrency(%d): give a positive bound on the shard queries in flight", r.conc), nil)
	}
	base := r.desc
	shards := make([]*shardState[T], len(r.parts))
	var bind string
	for n, part := range r.parts {
		q := r.sort(r.on(part))
		if base {
			q = q.Desc()
		}
		f, err := q.Fingerprint()
		if err != nil {
			return fail(ReadQuery, "", err)
		}
		bind = f
		shards[n] = &shardState[T]{n: n, part: part, q: q, more: true}
	}
	m := &merge[T]{r: r, client: client, shards: shards, bind: bind, onePage: onePage}
	if r.after != "" {
		pos, err := r.after.open(bind, r.secret)
		if err != nil {
			return fail(ReadCursor, "", err)
		}
		if pos.N != len(shards) {
			return fail(ReadCursor, fmt.Sprintf("the cursor covers %d shards, the read %d: a cursor does not resume across a change of the shard count", pos.N, len(shards)), query.ErrCursorMismatch)
		}
		for _, s := range shards {
			c := query.Cursor(pos.P[s.part])
			if _, err := s.q.After(c).Fingerprint(); err != nil {
				return nil, &ShardError{Shard: s.n, Partition: s.part, Err: err}
			}
			s.from, s.start = c, c
		}
	}
	return m, nil
}

// shardState is one shard in a merge.
type shardState[T any] struct {
	n    int
	part string
	q    query.Query[T] // with the condition and direction
	// from is where the next fetch starts, start the shard's position
	// when the call began.
	from, start query.Cursor
	bufs        []query.Page[T] // the buffer: pages fetched, in order
	pos         int             // next item of bufs[0]
	head        orderKey        // the key of that item, once computed
	more        bool            // the shard may hold items after its buffer
	fetching    bool
	fetches     int
	size        int // the limit of the last fetch
	// last is the page and index of the last item consumed in this call.
	lastPage query.Page[T]
	lastIdx  int
	consumed bool
	cost     ShardCost
}

// ready reports that the shard has a head or can have none.
func (s *shardState[T]) ready() bool { return s.buffered() > 0 || !s.more }

// buffered is the number of items fetched that the merge has not taken.
func (s *shardState[T]) buffered() int {
	n := -s.pos
	for _, b := range s.bufs {
		n += len(b.Items)
	}
	return n
}

// current is the page of the shard's head (its item pos), after dropping
// the pages the merge has taken whole; false when the buffer is empty.
func (s *shardState[T]) current() (query.Page[T], bool) {
	for len(s.bufs) > 0 && s.pos >= len(s.bufs[0].Items) {
		s.bufs, s.pos = s.bufs[1:], 0
	}
	if len(s.bufs) == 0 {
		return query.Page[T]{}, false
	}
	return s.bufs[0], true
}

// fetched is the result of one shard fetch.
type fetched[T any] struct {
	s        *shardState[T]
	page     query.Page[T]
	requests int
	err      error
}

// merge is one call's merge of the shards.
type merge[T any] struct {
	r        Reader[T]
	client   keyfirst.QueryAPI
	shards   []*shardState[T]
	bind     string
	onePage  bool
	returned int
	done     bool
}

// run merges the shards, handing each item to yield until it returns
// false, the limit is reached, the shards are done or (onePage without a
// limit) a shard needs a second fetch. Every fetch goroutine has returned
// when run does.
func (m *merge[T]) run(ctx context.Context, yield func(T) bool) error {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	results := make(chan fetched[T], len(m.shards))
	conc := len(m.shards)
	if m.r.concSet {
		conc = m.r.conc
	}
	inFlight := 0
	var queue []*shardState[T]
	launch := func(s *shardState[T]) {
		s.fetching = true
		s.size = m.fetchSize(s)
		inFlight++
		wg.Add(1)
		go func(q query.Query[T]) {
			defer wg.Done()
			counter := &countingClient{api: m.client}
			page, err := q.Page(ctx, counter)
			results <- fetched[T]{s: s, page: page, requests: counter.n, err: err}
		}(m.shardQuery(s))
	}
	for {
		if m.r.limited && m.returned >= m.r.limit {
			return nil
		}
		waiting, refill := false, false
		for _, s := range m.shards {
			if s.ready() {
				continue
			}
			waiting = true
			if !s.fetching {
				if m.onePage && !m.r.limited && s.fetches > 0 {
					return nil // the first round's items are all merged
				}
				s.fetching = true
				queue = append(queue, s)
				refill = refill || s.fetches > 0
			}
		}
		if refill && m.r.limited && !m.r.latency {
			queue = m.prefetch(queue)
		}
		for len(queue) > 0 && inFlight < conc {
			launch(queue[0])
			queue = queue[1:]
		}
		if waiting {
			var f fetched[T]
			select {
			case f = <-results:
			case <-ctx.Done():
				return ctx.Err()
			}
			inFlight--
			if err := m.receive(f); err != nil {
				return err
			}
			continue
		}
		s := m.min()
		if s == nil {
			m.done = true
			return nil
		}
		page, _ := s.current()
		v := page.Items[s.pos]
		s.lastPage, s.lastIdx, s.consumed = page, s.pos, true
		s.pos++
		s.head = nil
		m.returned++
		if !yield(v) {
			return nil
		}
	}
}

// prefetch adds to queue, when a shard ran out before the limit, every
// other shard that may run out too: one with more items to fetch and fewer
// buffered than its share of the items still missing. Their refills share
// one round trip instead of following one another as each buffer empties.
func (m *merge[T]) prefetch(queue []*shardState[T]) []*shardState[T] {
	missing, active := m.r.limit-m.returned, 0
	for _, s := range m.shards {
		if s.more || s.buffered() > 0 {
			active++
		}
	}
	share := (missing+active-1)/active + 1
	for _, s := range m.shards {
		if s.more && !s.fetching && s.buffered() < share {
			s.fetching = true
			queue = append(queue, s)
		}
	}
	return queue
}

// shardQuery is the next fetch of shard s.
func (m *merge[T]) shardQuery(s *shardState[T]) query.Query[T] {
	q := s.q.After(s.from)
	if s.size > 0 {
		q = q.Limit(s.size)
	}
	return q
}

// fetchSize is the limit of shard s's next fetch (0: none).
func (m *merge[T]) fetchSize(s *shardState[T]) int {
	if !m.r.limited {
		return 0
	}
	missing := m.r.limit - m.returned
	switch {
	case m.r.latency:
		return missing
	case s.fetches == 0:
		return min(missing, (m.r.limit+len(m.shards)-1)/len(m.shards)+1)
	}
	return min(missing, 2*s.size)
}

// receive takes a fetch's result into its shard's buffer.
func (m *merge[T]) receive(f fetched[T]) error {
	s := f.s
	s.fetching = false
	s.fetches++
	s.cost.Requests += f.requests
	s.cost.Items += len(f.page.Items)
	addCapacity(&s.cost.Capacity, f.page.Capacity)
	if f.err != nil {
		return &ShardError{Shard: s.n, Partition: s.part, Err: f.err}
	}
	if s.buffered() == 0 {
		s.head = nil
	}
	s.bufs = append(s.bufs, f.page)
	s.more = f.page.Next != ""
	s.from = f.page.Next
	return nil
}

// min is the shard whose head comes first in the merged order, nil when
// every shard is done.
func (m *merge[T]) min() *shardState[T] {
	var best *shardState[T]
	for _, s := range m.shards {
		page, ok := s.current()
		if !ok {
			continue
		}
		if s.head == nil {
			s.head = newOrderKey(page.Key(s.pos), m.r.order)
		}
		if best == nil || m.before(s, best) {
			best = s
		}
	}
	return best
}

// before reports that the head of shard a comes before the head of shard
// b in the read's direction: by sort key, then by shard.
func (m *merge[T]) before(a, b *shardState[T]) bool {
	c := compareOrder(a.head, b.head)
	if c == 0 {
		c = a.n - b.n
	}
	if m.r.desc {
		return c > 0
	}
	return c < 0
}

// next is the merged cursor after the last item returned: empty when the
// merge is done; on an error, the cursor the call started from.
func (m *merge[T]) next(err error) (Cursor, error) {
	if err != nil {
		return m.r.after, nil
	}
	if m.done || m.returned == 0 {
		if m.done {
			return "", nil
		}
		return m.r.after, nil
	}
	pos := cursorPayload{P: make(map[string]string, len(m.shards)), N: len(m.shards)}
	for _, s := range m.shards {
		c := s.start
		if s.consumed {
			var err error
			if c, err = s.lastPage.CursorAfter(s.lastIdx); err != nil {
				return "", &ShardError{Shard: s.n, Partition: s.part, Err: err}
			}
		}
		if c != "" {
			pos.P[s.part] = string(c)
		}
	}
	return seal(m.bind, pos, m.r.secret), nil
}

// cost adds up the shards' costs.
func (m *merge[T]) cost() Cost {
	c := Cost{Returned: m.returned, Shards: make([]ShardCost, len(m.shards))}
	for i, s := range m.shards {
		s.cost.Partition = s.part
		c.Shards[i] = s.cost
		c.Requests += s.cost.Requests
		c.Items += s.cost.Items
		addCapacity(&c.Capacity, s.cost.Capacity)
	}
	return c
}

// addCapacity adds b to a.
func addCapacity(a *keyfirst.Capacity, b keyfirst.Capacity) {
	a.Total += b.Total
	a.Read += b.Read
	a.Write += b.Write
	a.Table += b.Table
	a.Requests += b.Requests
	for name, u := range b.Indexes {
		if a.Indexes == nil {
			a.Indexes = map[string]float64{}
		}
		a.Indexes[name] += u
	}
}

// countingClient counts the Query requests of one fetch.
type countingClient struct {
	api keyfirst.QueryAPI
	n   int
}

func (c *countingClient) Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.n++
	return c.api.Query(ctx, in, optFns...)
}

// orderKey is an item's position in the merged order: its values of the
// index's sort key attributes.
type orderKey []types.AttributeValue

func newOrderKey(key map[string]types.AttributeValue, order []keyfirst.Attribute) orderKey {
	out := make(orderKey, len(order))
	for i, a := range order {
		out[i] = key[a.Name]
	}
	return out
}
