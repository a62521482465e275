package shard_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"go.uber.org/goleak"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/shard"
)

// Seed 002's list_open_orders(date_prefix), newest first with
// begins_with(order_date, prefix), over 3 shards: exactly the open orders
// of the prefix, item by item equal to the single-partition reference
// holding the same items, after create_order and close_order.
func TestListOpenOrdersEqualsReference(t *testing.T) {
	t.Parallel()
	m, ctx := localMerge(t)
	for i := range 60 {
		day := 1 + i%12
		o := order(fmt.Sprintf("o-%04d", i), open, fmt.Sprintf("2026-%02d-%02dT%02d:00:00Z", 5+i%3, day, i%24))
		if _, err := m.orders.Put(ctx, m.client, o, keyfirst.CreateOnly()); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 60; i += 7 { // close_order
		key, _ := m.orders.Key(Order{ID: fmt.Sprintf("o-%04d", i)})
		if _, err := m.orders.Modify(ctx, m.client, key, func(o *Order) { o.Status = closed }); err != nil {
			t.Fatal(err)
		}
	}
	for _, prefix := range []string{"2026-06", "2026-05-1", "2026"} {
		ref, err := query.On(m.orders, refByDate, "ALL#0").SortValue(refDate.BeginsWith(prefix)).Desc().Collect(ctx, m.client)
		if err != nil {
			t.Fatal(err)
		}
		got, err := shard.Query(m.orders, openOrders).SortValue(orderDate.BeginsWith(prefix)).Desc().Collect(ctx, m.client)
		if err != nil {
			t.Fatal(err)
		}
		g, w := orderIDs(got), inKeyOrder(ref, func(o Order) string { return o.Date }, func(o Order) string { return o.ID }, true)
		if len(ref) == 0 || !slices.Equal(g, w) {
			t.Errorf("prefix %s: merged %d orders, reference %d: %s", prefix, len(got), len(ref), firstDiff(g, w))
		}
		for _, o := range got {
			if !o.isOpen() || !strings.HasPrefix(o.Date, prefix) {
				t.Errorf("prefix %s: %+v", prefix, o)
			}
		}
	}
}

// inKeyOrder is the ids of vs in the merged order: by sort value, then
// by table key (PK = ORDER#<id>, so by id), both reversed when desc. A
// single partition agrees with it on the order of the sort values; inside
// a run of equal values DynamoDB orders by an internal hash of the table
// key, which is why the merge orders runs itself.
func inKeyOrder[V any](vs []V, sortOf, idOf func(V) string, desc bool) []string {
	vs = slices.Clone(vs)
	slices.SortStableFunc(vs, func(a, b V) int {
		c := strings.Compare(sortOf(a), sortOf(b))
		if c == 0 {
			c = strings.Compare(idOf(a), idOf(b))
		}
		if desc {
			return -c
		}
		return c
	})
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = idOf(v)
	}
	return out
}

// 5,000 items over 10 shards, one empty and one holding half, 40 sort
// values: for Limit 1, 7, 50 and 1000 and both directions, the merged
// sequence (All) and the page chain (cursor after cursor) equal the
// single-partition reference, with no duplicate and no gap. The chains of
// Limit 1 and 7 run on a sort key range of about 600 items (every page
// sends ten queries); those of 50 and 1000 on all 5,000.
func TestMergeEqualsReference(t *testing.T) {
	t.Parallel()
	m, ctx := localMerge(t)
	items := spreadItems(5000)
	m.load(t, ctx, items)
	key := keyfirst.WithCursorKey([]byte("0123456789abcdef0123456789abcdef"))
	rng := spreadSK.Between("B10", "B14")
	refRng := spreadRefSK.Between("B10", "B14")
	bucket, id := func(v Item) string { return v.Bucket }, func(v Item) string { return v.ID }
	for _, desc := range []bool{false, true} {
		ref := m.reference(t, ctx, desc, nil)
		refPart := m.reference(t, ctx, desc, &refRng)
		r := shard.Query(m.items, spreadShards, key)
		if desc {
			r = r.Desc()
		}
		all, err := r.Collect(ctx, m.client)
		if w := inKeyOrder(ref, bucket, id, desc); err != nil || len(ref) != 5000 || !slices.Equal(itemIDs(all), w) {
			t.Fatalf("desc %v: All: %v, %s", desc, err, firstDiff(itemIDs(all), w))
		}
		part, err := r.SortValue(rng).Collect(ctx, m.client)
		if w := inKeyOrder(refPart, bucket, id, desc); err != nil || len(refPart) < 500 || !slices.Equal(itemIDs(part), w) {
			t.Fatalf("desc %v: All of the range: %v, %s", desc, err, firstDiff(itemIDs(part), w))
		}
		for _, limit := range []int{1, 7, 50, 1000} {
			rl, want := r.Limit(limit), itemIDs(all)
			if limit < 50 {
				rl, want = rl.SortValue(rng), itemIDs(part)
			}
			// Limit n: exactly the first n of the merged order.
			first, err := rl.Collect(ctx, m.client)
			if err != nil || !slices.Equal(itemIDs(first), want[:limit]) {
				t.Fatalf("desc %v limit %d: Collect: %v, %s", desc, limit, err, firstDiff(itemIDs(first), want[:limit]))
			}
			// The page chain, cursor after cursor: the merged order, item
			// by item, so no duplicate and no gap.
			var chain []string
			var cost shard.Cost
			cur, pages := shard.Cursor(""), 0
			for {
				page, err := rl.After(cur).Page(ctx, m.client, shard.WithCost(&cost))
				if err != nil {
					t.Fatalf("desc %v limit %d page %d: %v", desc, limit, pages, err)
				}
				if len(page.Items) > limit || (page.Next != "" && len(page.Items) != limit) {
					t.Fatalf("desc %v limit %d page %d: %d items, next %q", desc, limit, pages, len(page.Items), page.Next)
				}
				if cost.Requests != page.Cost.Requests || page.Cost.Returned != len(page.Items) || page.Cost.Items < len(page.Items) || len(page.Cost.Shards) != 10 {
					t.Fatalf("cost %+v", page.Cost)
				}
				chain = append(chain, itemIDs(page.Items)...)
				pages++
				if cur = page.Next; cur == "" {
					break
				}
			}
			if !slices.Equal(chain, want) {
				t.Errorf("desc %v limit %d: %d pages: %s", desc, limit, pages, firstDiff(chain, want))
			}
		}
	}
}

// Bad inputs are refused with typed errors before any request.
func TestReaderBadInputs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := merging{orders: mergeOrders, items: mergeItems}
	key := keyfirst.WithCursorKey([]byte("0123456789abcdef0123456789abcdef"))
	r := shard.Query(m.items, spreadShards, key).SortValue(spreadSK.Ge("B1"))
	// A real cursor of r, made from canned pages.
	cur := cursorOf(t, r)
	other := shard.Query(m.items, spreadShards, key).SortValue(spreadSK.Ge("B2"))
	tampered := []byte(cur)
	tampered[5] ^= 1
	cases := []struct {
		name    string
		read    shard.Reader[Item]
		problem shard.ReadProblem
		is      error
	}{
		{"Limit(0)", r.Limit(0), shard.ReadLimit, nil},
		{"Limit(-1)", r.Limit(-1), shard.ReadLimit, nil},
		{"Concurrency(0)", r.Concurrency(0), shard.ReadConcurrency, nil},
		{"cursor of another condition", other.After(cur), shard.ReadCursor, query.ErrCursorMismatch},
		{"cursor of another direction", r.Desc().After(cur), shard.ReadCursor, query.ErrCursorMismatch},
		{"cursor of another index", shard.Query(m.items, spreadRef, key).After(cur), shard.ReadCursor, query.ErrCursorMismatch},
		{"tampered cursor", r.After(shard.Cursor(tampered)), shard.ReadCursor, query.ErrCursorTampered},
		{"unsigned cursor", r.After(shard.Cursor(strings.Split(string(cur), ".")[0])), shard.ReadCursor, query.ErrCursorTampered},
		{"malformed cursor", shard.Query(m.items, spreadShards).After("!!"), shard.ReadCursor, query.ErrCursorMalformed},
		{"another pattern's condition", r.SortValue(orderDate.Ge("x")), shard.ReadQuery, query.ErrInvalidQuery},
		{"another side of the same attribute", r.SortValue(keyfirst.Str("spread_sk").Ge("B1")), shard.ReadQuery, query.ErrInvalidQuery},
		{"a raw condition on the value sort side", r.SortAttr(query.Attr("spread_sk").Ge(query.S("B1"))), shard.ReadQuery, query.ErrInvalidQuery},
		{"a condition that could not be built", r.SortValue(spreadSK.BeginsWith("")), shard.ReadQuery, query.ErrInvalidQuery},
		// The entity binds spreadShards: another declaration of the same
		// pattern is another index to it, whatever its shard count.
		{"another declaration: 3 shards of the entity's 10", shard.Query(m.items, spreadSpec(3, 0), key), shard.ReadBinding, nil},
		{"another declaration: 12 shards of the entity's 10", shard.Query(m.items, spreadSpec(12, 0), key), shard.ReadBinding, nil},
		{"another declaration: the same spec", shard.Query(m.items, spreadSpec(10, 0), key), shard.ReadBinding, nil},
		{"another declaration: a re-shard from 3", shard.Query(m.items, spreadSpec(10, 3), key), shard.ReadBinding, nil},
	}
	for _, c := range cases {
		var re *shard.ReadError
		_, err := c.read.Page(ctx, noCalls{T: t})
		if !errors.As(err, &re) || re.Problem != c.problem || !errors.Is(err, shard.ErrInvalidRead) || (c.is != nil && !errors.Is(err, c.is)) {
			t.Errorf("%s: Page: %v, want a *ReadError %s", c.name, err, c.problem)
		}
		for _, err := range c.read.All(ctx, noCalls{T: t}) {
			if !errors.As(err, &re) || re.Problem != c.problem {
				t.Errorf("%s: All: %v", c.name, err)
			}
		}
	}
	// The sort conditions, by the shard queries' own problem: another
	// side's condition (even of the same attribute name) and a raw one on
	// a sort key stored as a value are foreign; one that could not be
	// built keeps its error.
	for _, c := range []struct {
		name    string
		read    shard.Reader[Item]
		problem query.Problem
	}{
		{"another pattern's condition", r.SortValue(orderDate.Ge("x")), query.ProblemForeignCondition},
		{"another side of the same attribute", r.SortValue(keyfirst.Str("spread_sk").Ge("B1")), query.ProblemForeignCondition},
		{"a raw condition on the value sort side", r.SortAttr(query.Attr("spread_sk").Ge(query.S("B1"))), query.ProblemForeignCondition},
		{"a condition that could not be built", r.SortValue(spreadSK.BeginsWith("")), query.ProblemSortKey},
	} {
		var qe *query.Error
		if _, err := c.read.Page(ctx, noCalls{T: t}); !errors.As(err, &qe) || qe.Problem != c.problem {
			t.Errorf("%s: Page: %v, want a *query.Error %s", c.name, err, c.problem)
		}
	}
	if _, err := shard.Query[Item, string](m.items, nil).Page(ctx, noCalls{T: t}); !errors.Is(err, shard.ErrInvalidRead) {
		t.Errorf("nil index: %v", err)
	}
}

// Seed 002's orders bind open-orders with 3 shards; a 2-shard declaration
// of the same pattern would query OPEN#0 and OPEN#1 only (27 of 46 open
// orders, no error): every terminal call refuses it before any request,
// with ReadBinding; the entity's own declaration is read.
func TestReadOtherDeclaration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	two := keyfirst.Must(shard.New(openByDate, shard.Spec[Order, string]{
		Base: "OPEN", Shards: 2, Field: "ID", Sort: func(o Order) string { return o.Date }, When: Order.isOpen,
	}))
	r := shard.Query(orders, two).Desc()
	var next shard.Cursor
	var cost shard.Cost
	calls := map[string]func() error{
		"Page": func() error {
			_, err := r.Page(ctx, noCalls{T: t}, keyfirst.WithNext(&next), shard.WithCost(&cost))
			return err
		},
		"Collect": func() error { _, err := r.Collect(ctx, noCalls{T: t}); return err },
		"All": func() error {
			for _, err := range r.Limit(5).All(ctx, noCalls{T: t}) {
				return err
			}
			return nil
		},
	}
	for name, call := range calls {
		var re *shard.ReadError
		if err := call(); !errors.As(err, &re) || re.Problem != shard.ReadBinding || re.Index != "open-orders" || !errors.Is(err, shard.ErrInvalidRead) {
			t.Errorf("%s: %v, want a *ReadError %s", name, err, shard.ReadBinding)
		}
	}
	if _, err := shard.Query(orders, openOrders).Page(ctx, cannedShard{}); err != nil {
		t.Errorf("the entity's own declaration: %v", err)
	}
}

// cursorOf makes a cursor of r against canned responses: two items on
// shard 3, of which the page takes one.
func cursorOf(t *testing.T, r shard.Reader[Item]) shard.Cursor {
	t.Helper()
	c := cannedShard{part: "S#3", item: mergeItems, vs: []Item{{ID: "i-1", Bucket: "B3", Shard: 3}, {ID: "i-2", Bucket: "B4", Shard: 3}}}
	page, err := r.Limit(1).Page(context.Background(), c)
	if err != nil || page.Next == "" || len(page.Items) != 1 {
		t.Fatalf("canned page: %v %+v", err, page)
	}
	return page.Next
}

// Faults injected at the client: one shard fails on its second page; one
// shard is slow; the context is cancelled mid-merge; the loop breaks
// early. Each ends with the typed error or a clean stop, and every
// goroutine has ended. Not parallel, so that goleak sees only its own.
func TestReaderFaults(t *testing.T) {
	m, ctx := localMerge(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent(),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"))
	items := spreadItems(600)
	m.load(t, ctx, items)
	all, err := shard.Query(m.items, spreadShards).Collect(ctx, m.client)
	if err != nil || len(all) != 600 {
		t.Fatalf("%v, %d items", err, len(all))
	}
	want := itemIDs(all)
	r := shard.Query(m.items, spreadShards).Limit(400)
	boom := errors.New("boom")

	t.Run("one shard fails on its second page", func(t *testing.T) {
		f := &faulty{api: m.client, fail: func(part string, n int) error {
			if part == "S#0" && n == 2 {
				return boom
			}
			return nil
		}}
		page, err := r.Page(ctx, f)
		var se *shard.ShardError
		if !errors.As(err, &se) || se.Shard != 0 || se.Partition != "S#0" || !errors.Is(err, boom) || len(page.Items) != 0 || page.Next != "" {
			t.Fatalf("Page: %v, %d items, next %q: want a *ShardError for S#0 and no partial page", err, len(page.Items), page.Next)
		}
		f.n = nil
		got, err := r.Collect(ctx, f)
		if !errors.As(err, &se) || se.Shard != 0 || !slices.Equal(itemIDs(got), want[:len(got)]) {
			t.Fatalf("Collect: %v after %d items", err, len(got))
		}
	})
	t.Run("one shard slow", func(t *testing.T) {
		f := &faulty{api: m.client, delay: func(ctx context.Context, part string) {
			if part == "S#5" {
				select {
				case <-time.After(50 * time.Millisecond):
				case <-ctx.Done():
				}
			}
		}}
		got, err := r.Concurrency(3).Collect(ctx, f)
		if err != nil || !slices.Equal(itemIDs(got), want[:400]) {
			t.Fatalf("%v, %s", err, firstDiff(itemIDs(got), want[:400]))
		}
	})
	t.Run("context cancelled mid-merge", func(t *testing.T) {
		// S#0 holds half the items: its buffer runs out after the first
		// round, and its refill meets the cancelled context.
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var err error
		n := 0
		for v, e := range r.All(cctx, m.client) {
			if e != nil {
				err = e
				break
			}
			if v.ID != want[n] {
				t.Fatalf("item %d: %s, want %s", n, v.ID, want[n])
			}
			if n++; n == 10 {
				cancel()
			}
		}
		if !errors.Is(err, context.Canceled) || n >= 400 {
			t.Fatalf("after %d items: %v, want context.Canceled", n, err)
		}
	})
	t.Run("caller breaks early", func(t *testing.T) {
		var next shard.Cursor
		n := 0
		for v, err := range shard.Query(m.items, spreadShards).All(ctx, m.client, keyfirst.WithNext(&next)) {
			if err != nil {
				t.Fatal(err)
			}
			if v.ID != want[n] {
				t.Fatalf("item %d: %s, want %s", n, v.ID, want[n])
			}
			if n++; n == 17 {
				break
			}
		}
		rest, err := shard.Query(m.items, spreadShards).After(next).Collect(ctx, m.client)
		if err != nil || !slices.Equal(itemIDs(rest), want[17:]) {
			t.Fatalf("resumed after the break: %v, %s", err, firstDiff(itemIDs(rest), want[17:]))
		}
	})
}

// cannedShard answers the query of partition part with items vs (one
// DynamoDB page, the last), the other partitions with nothing.
type cannedShard struct {
	part string
	item *keyfirst.Entity[Item]
	vs   []Item
}

func (c cannedShard) Query(_ context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	out := &dynamodb.QueryOutput{}
	if partitionOf(in) != c.part {
		return out, nil
	}
	for _, v := range c.vs {
		it, err := c.item.Item(v)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, it)
	}
	return out, nil
}
