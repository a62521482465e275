package shard

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
)

// start checks the read and every shard query, before any request.
func (r Reader[T]) start(client keyfirst.QueryAPI, onePage bool, optFns []func(*keyfirst.Options)) (*merge[T], options, error) {
	var o options
	fail := func(p ReadProblem, detail string, err error) (*merge[T], options, error) {
		return nil, o, &ReadError{Index: r.index, Problem: p, Detail: detail, Err: err}
	}
	if r.on != nil {
		var err error
		if o, err = resolveOptions(r.index, r.opts, optFns); err != nil {
			return nil, o, err
		}
		r.secret = o.secret
	}
	switch {
	case r.on == nil:
		return fail(ReadSource, "start the read with shard.Query(entity, index), with a non-nil entity and index", nil)
	case r.otherDecl != "":
		return fail(ReadBinding, r.otherDecl, nil)
	case client == nil:
		return fail(ReadClient, "pass a *dynamodb.Client or another implementation", nil)
	case r.limited && r.limit <= 0:
		return fail(ReadLimit, fmt.Sprintf("Limit(%d): give a positive number of items, or no Limit", r.limit), nil)
	case r.concSet && r.conc <= 0:
		return fail(ReadConcurrency, fmt.Sprintf("Concurrency(%d): give a positive bound on the shard queries in flight", r.conc), nil)
	}
	shards := make([]*shardState[T], len(r.parts))
	var bind string
	for n, part := range r.parts {
		q := r.partQuery(part)
		f, err := q.Fingerprint()
		if err != nil {
			return fail(ReadQuery, "", err)
		}
		bind = f
		shards[n] = &shardState[T]{n: n, part: part, q: q, more: true}
	}
	m := &merge[T]{r: r, client: client, shards: shards, bind: bind, onePage: onePage}
	if r.after != "" {
		pos, place, err := r.resume(bind)
		if err != nil {
			return nil, o, err
		}
		// A shard the cursor has no position for (none of its items came
		// before the place, or it was added by a change of the shard
		// count) is read from its start; the place skips what precedes.
		for _, s := range shards {
			s.from, s.start = pos[s.part], pos[s.part]
		}
		m.after = place
	}
	return m, o, nil
}

// partQuery is the query of partition part, with the read's condition
// and direction.
func (r Reader[T]) partQuery(part string) query.Query[T] {
	q := r.sort(r.on(part, r.secret))
	if r.desc {
		q = q.Desc()
	}
	return q
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
	head        orderKey        // the place of that item, once computed
	more        bool            // the shard may hold items after its buffer
	fetching    bool
	pastRun     bool // the fetch is to see past a run of equal sort values
	fetches     int
	size        int // the limit of the last fetch
	// last is the last item taken in this call, run the same before the
	// run of the last item yielded (without a sort key: the last item
	// returned), the shard's position in the cursor.
	last, run spot[T]
	// prevRun is run as it was before the run being yielded was taken:
	// the position while no item of that run has been returned.
	prevRun spot[T]
	cost    ShardCost
}

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

// spot is an item of a fetched page; ok is false for none.
type spot[T any] struct {
	page query.Page[T]
	idx  int
	ok   bool
}

// pop takes the shard's head, whose place is h: it becomes the last item
// taken.
func (s *shardState[T]) pop(h orderKey) runItem[T] {
	page, _ := s.current()
	it := runItem[T]{v: page.Items[s.pos], place: h, s: s}
	s.last = spot[T]{page, s.pos, true}
	s.pos++
	s.head = nil
	return it
}

// headPlace is the place of the shard's head; nil when the buffer is
// empty.
func (s *shardState[T]) headPlace(order []string) orderKey {
	page, ok := s.current()
	if !ok {
		return nil
	}
	if s.head == nil {
		s.head = newOrderKey(page.Key(s.pos), order)
	}
	return s.head
}

// tailPlace is the place of the last item buffered; nil when the buffer
// is empty.
func (s *shardState[T]) tailPlace(order []string) orderKey {
	if s.buffered() == 0 {
		return nil
	}
	page := s.bufs[len(s.bufs)-1]
	return newOrderKey(page.Key(len(page.Items)-1), order)
}

// fetched is the result of one shard fetch.
type fetched[T any] struct {
	s        *shardState[T]
	page     query.Page[T]
	requests int
	err      error
}

// runItem is an item of a run of equal sort values, with its place and
// its shard.
type runItem[T any] struct {
	v     T
	place orderKey
	s     *shardState[T]
}

// merge is one call's merge of the shards.
type merge[T any] struct {
	r       Reader[T]
	client  keyfirst.QueryAPI
	shards  []*shardState[T]
	bind    string
	onePage bool
	after   orderKey     // the place the call resumes after; nil from the start
	last    orderKey     // the place of the last item yielded
	pending []runItem[T] // the run being yielded, from index ri
	ri      int
	// runReturned reports that an item of the pending run was returned:
	// until then a shard's position is the one before the previous run
	// (a loop that panics on a run's first item leaves the place at the
	// previous run's last item, which that position does not pass).
	runReturned bool
	// returned counts the items yielded; done is set when no shard
	// holds more.
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
		if m.ri < len(m.pending) {
			if m.r.limited && m.returned >= m.r.limit {
				return nil
			}
			it := m.pending[m.ri]
			m.pending[m.ri] = runItem[T]{}
			m.ri++
			// The item counts as returned once yield returns, also when
			// it stops the merge; not when the caller's loop panics in it.
			more := yield(it.v)
			m.last = it.place
			m.returned++
			m.runReturned = true
			if m.r.nSort == 0 {
				it.s.run = it.s.last // see takeHead
			}
			if !more {
				return nil
			}
			continue
		}
		if m.exhausted() {
			m.done = true
			return nil
		}
		if m.r.limited && m.returned >= m.r.limit {
			return nil
		}
		// The next run: every shard shows its head, and every shard
		// whose buffer ends inside the run shows an item past it.
		v, headless := m.nextSort()
		waiting, refill := false, false
		for _, s := range m.shards {
			need, past := s.buffered() == 0 && s.more, false
			if !need && !headless && s.more && m.r.nSort > 0 {
				need = m.sameSort(s.tailPlace(m.r.order), v)
				past = need
			}
			if !need {
				continue
			}
			waiting = true
			if !s.fetching {
				if m.onePage && !m.r.limited && s.fetches > 0 && m.returned > 0 {
					return nil // the first round's items are all merged
				}
				s.fetching, s.pastRun = true, past
				queue = append(queue, s)
				refill = refill || (s.fetches > 0 && !past)
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
		if m.r.nSort == 0 {
			m.takeHead()
		} else {
			m.take(v)
		}
	}
}

// takeHead moves the head of the first shard that has one (in shard
// order, reversed by Desc) into m.pending: the merge of an index without
// a sort key, which has no order to merge by. Its items come shard by
// shard, each shard in DynamoDB's order, and a shard's position in the
// cursor is after its last item returned: run moves past the item when
// yield returns (not when the caller's loop panics in it).
func (m *merge[T]) takeHead() {
	for i := range m.shards {
		s := m.shards[i]
		if m.r.desc {
			s = m.shards[len(m.shards)-1-i]
		}
		h := s.headPlace(m.r.order)
		if h == nil {
			continue
		}
		m.pending, m.ri = append(m.pending[:0], s.pop(h)), 0
		return
	}
}

// exhausted reports that no shard holds or may hold another item.
func (m *merge[T]) exhausted() bool {
	for _, s := range m.shards {
		if s.more || s.buffered() > 0 {
			return false
		}
	}
	return true
}

// nextSort is the sort value of the next run: the first of the shards'
// heads in the read's direction; headless reports that a shard that may
// hold items has none buffered, so the run is not known yet.
func (m *merge[T]) nextSort() (v orderKey, headless bool) {
	for _, s := range m.shards {
		h := s.headPlace(m.r.order)
		if h == nil {
			headless = headless || s.more
			continue
		}
		if v == nil || m.compare(h[:m.r.nSort], v) < 0 {
			v = h[:m.r.nSort]
		}
	}
	return v, headless
}

// sameSort reports that place p has sort value v.
func (m *merge[T]) sameSort(p, v orderKey) bool {
	return p != nil && compareOrder(p[:m.r.nSort], v) == 0
}

// compare orders two places (or sort values) in the read's direction.
func (m *merge[T]) compare(a, b orderKey) int {
	if m.r.desc {
		return compareOrder(b, a)
	}
	return compareOrder(a, b)
}

// take moves the run of sort value v out of every shard's buffer into
// m.pending, in the merged order, without the items at or before the place
// the call resumes after and without repeats (an item read on two shards
// while it moved between them).
func (m *merge[T]) take(v orderKey) {
	m.pending, m.ri, m.runReturned = m.pending[:0], 0, false
	for _, s := range m.shards {
		s.prevRun, s.run = s.run, s.last
		for h := s.headPlace(m.r.order); m.sameSort(h, v); h = s.headPlace(m.r.order) {
			m.pending = append(m.pending, s.pop(h))
		}
	}
	slices.SortFunc(m.pending, func(a, b runItem[T]) int { return m.compare(a.place, b.place) })
	out := m.pending[:0]
	for _, it := range m.pending {
		if m.after != nil && m.compare(it.place, m.after) <= 0 {
			continue
		}
		if len(out) > 0 && m.compare(out[len(out)-1].place, it.place) == 0 {
			continue
		}
		out = append(out, it)
	}
	clear(m.pending[len(out):])
	m.pending = out
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
			s.fetching, s.pastRun = true, false
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

// fetchSize is the limit of shard s's next fetch (0: none, one DynamoDB
// page).
func (m *merge[T]) fetchSize(s *shardState[T]) int {
	if !m.r.limited {
		return 0
	}
	missing := m.r.limit - m.returned
	switch {
	case s.pastRun:
		// The rest of a run of equal sort values and one item past it,
		// however many the limit still misses: doubling, so a long run
		// takes a few round trips.
		return 2 * max(s.size, 1)
	case m.r.latency:
		return missing
	case s.fetches == 0:
		return min(missing, firstShare(m.r.limit, len(m.shards)))
	}
	return min(missing, 2*s.size)
}

// firstShare is the first fetch of each of n shards for a read of limit
// items: the expected share of one shard, limit/n, with a margin of three
// standard deviations of that share when the items spread evenly (a
// binomial count of limit draws with probability 1/n), and one more so
// that the merge can tell the shard's last needed item from its end. With
// items spread by the frozen hash, one round trip is then almost always
// enough (for 50 items over 10 shards, each shard is asked for 13).
func firstShare(limit, n int) int {
	mean := float64(limit) / float64(n)
	sd := math.Sqrt(mean * (1 - 1/float64(n)))
	return int(math.Ceil(mean+3*sd)) + 1
}

// receive takes a fetch's result into its shard's buffer.
func (m *merge[T]) receive(f fetched[T]) error {
	s := f.s
	s.fetching = false
	s.fetches++
	s.cost.Requests += f.requests
	s.cost.Items += len(f.page.Items)
	s.cost.Capacity.Add(f.page.Capacity)
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

// next is the merged cursor after the last item returned, however the
// merge stopped (the limit, the caller, an error, the end of ctx): the
// place of that item, and for each shard the start of that item's run, as
// the shard buffers stand until the next run is taken. It is empty when
// the merge is done, and the cursor the call started from when no item
// was returned (or, with the error, when no cursor can be made: resuming
// there repeats items rather than skip any).
func (m *merge[T]) next() (Cursor, error) {
	switch {
	case m.done && m.ri >= len(m.pending):
		return "", nil
	case m.returned == 0:
		return m.r.after, nil
	}
	place, err := placeOf(m.last, m.r.order)
	if err != nil {
		return m.r.after, err
	}
	pos := cursorPayload{L: place, P: make(map[string]string, len(m.shards))}
	for _, s := range m.shards {
		c := s.start
		sp := s.run
		if m.r.nSort > 0 && !m.runReturned {
			sp = s.prevRun
		}
		if sp.ok {
			var err error
			if c, err = sp.page.CursorAfter(sp.idx); err != nil {
				return m.r.after, &ShardError{Shard: s.n, Partition: s.part, Err: err}
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
		c.Capacity.Add(s.cost.Capacity)
	}
	return c
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

// orderKey is an item's place in the merged order: its values of the
// index's sort key attributes, then of the table's key attributes.
type orderKey []types.AttributeValue

func newOrderKey(key map[string]types.AttributeValue, order []string) orderKey {
	out := make(orderKey, len(order))
	for i, name := range order {
		out[i] = key[name]
	}
	return out
}
