package shard_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"go.uber.org/goleak"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/shard"
)

// stop is one way a call of a read stops before the end: it reads r from
// cursor cur through the real client api and returns the items the call
// returned, the cursor it handed out (NextCursor) and its error.
type stop[T any] struct {
	name string
	call func(ctx context.Context, r shard.Reader[T], cur shard.Cursor, api keyfirst.QueryAPI) ([]T, shard.Cursor, error)
	// want is the error a call that stopped early returns (nil: none).
	want error
}

// stops are the ways a call stops, on partition part of a read whose
// shards are read 7 items a request: part's query fails on its second
// page (All, Collect, and Page, whose page is then empty); the context is
// cancelled after k items; the loop breaks after k items; the loop body
// panics on item k+1; Limit k.
func stops[T any](part string, k int) []stop[T] {
	boom := errors.New("boom")
	failing := func(api keyfirst.QueryAPI) *faulty {
		return &faulty{api: api, page: 7, fail: func(p string, n int) error {
			if p == part && n == 2 {
				return boom
			}
			return nil
		}}
	}
	capped := func(api keyfirst.QueryAPI) *faulty { return &faulty{api: api, page: 7} }
	return []stop[T]{
		{"Collect: a shard fails on its second page", func(ctx context.Context, r shard.Reader[T], cur shard.Cursor, api keyfirst.QueryAPI) ([]T, shard.Cursor, error) {
			var next shard.Cursor
			got, err := r.After(cur).Collect(ctx, failing(api), shard.NextCursor(&next))
			return got, next, err
		}, boom},
		{"All: a shard fails on its second page", func(ctx context.Context, r shard.Reader[T], cur shard.Cursor, api keyfirst.QueryAPI) ([]T, shard.Cursor, error) {
			// The cursor is read where the error is handled, in the loop.
			var stored, atErr shard.Cursor
			var got []T
			var err error
			for v, e := range r.After(cur).All(ctx, failing(api), shard.NextCursor(&stored)) {
				if e != nil {
					err, atErr = e, stored
					continue // the error ends the iteration
				}
				got = append(got, v)
			}
			if err != nil && atErr != stored {
				return got, atErr, fmt.Errorf("the loop saw the cursor %q at the error, %q after the loop", atErr, stored)
			}
			return got, stored, err
		}, boom},
		{"Page of a limit: a shard fails on its second page", func(ctx context.Context, r shard.Reader[T], cur shard.Cursor, api keyfirst.QueryAPI) ([]T, shard.Cursor, error) {
			// The failed page returns nothing and hands out cur; the next
			// page goes on from it.
			var next shard.Cursor
			page, err := r.Limit(k).After(cur).Page(ctx, failing(api), shard.NextCursor(&next))
			if !errors.Is(err, boom) {
				return page.Items, next, err
			}
			if len(page.Items) != 0 || next != cur || page.Next != cur {
				return page.Items, next, fmt.Errorf("a failed page returned %d items and handed out another cursor than its own", len(page.Items))
			}
			page, err = r.Limit(k).After(next).Page(ctx, capped(api), shard.NextCursor(&next))
			if err == nil && next != page.Next {
				err = fmt.Errorf("NextCursor %q, Page.Next %q", next, page.Next)
			}
			return page.Items, next, err
		}, nil},
		{"the context is cancelled", func(ctx context.Context, r shard.Reader[T], cur shard.Cursor, api keyfirst.QueryAPI) ([]T, shard.Cursor, error) {
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			var next shard.Cursor
			var got []T
			var err error
			for v, e := range r.After(cur).All(ctx, capped(api), shard.NextCursor(&next)) {
				if e != nil {
					err = e
					continue
				}
				if got = append(got, v); len(got) == k {
					cancel()
				}
			}
			return got, next, err
		}, context.Canceled},
		{"the loop breaks", func(ctx context.Context, r shard.Reader[T], cur shard.Cursor, api keyfirst.QueryAPI) ([]T, shard.Cursor, error) {
			var next shard.Cursor
			var got []T
			for v, err := range r.After(cur).All(ctx, capped(api), shard.NextCursor(&next)) {
				if err != nil {
					return got, next, err
				}
				if got = append(got, v); len(got) == k {
					break
				}
			}
			return got, next, nil
		}, nil},
		{"the loop body panics", func(ctx context.Context, r shard.Reader[T], cur shard.Cursor, api keyfirst.QueryAPI) (got []T, next shard.Cursor, err error) {
			// The item the body panics on is not finished: the cursor
			// resumes at it.
			defer func() {
				if p := recover(); p != nil && p != "in the loop body" {
					panic(p)
				}
			}()
			for v, e := range r.After(cur).All(ctx, capped(api), shard.NextCursor(&next)) {
				if e != nil {
					return got, next, e
				}
				if len(got) == k {
					panic("in the loop body")
				}
				got = append(got, v)
			}
			return got, next, nil
		}, nil},
		{"Limit", func(ctx context.Context, r shard.Reader[T], cur shard.Cursor, api keyfirst.QueryAPI) ([]T, shard.Cursor, error) {
			var next shard.Cursor
			got, err := r.Limit(k).After(cur).Collect(ctx, capped(api), shard.NextCursor(&next))
			return got, next, err
		}, nil},
	}
}

// resumeChain reads r call after call, each stopped by s and resumed from
// the cursor the last one handed out, until a call hands out the empty
// cursor; it returns the ids of every item returned, in order. The first
// call is a page of 5, so that every stopped call starts from a cursor.
func resumeChain[T any](t *testing.T, ctx context.Context, r shard.Reader[T], api keyfirst.QueryAPI, s stop[T], id func(T) string) []string {
	t.Helper()
	first, err := r.Limit(5).Page(ctx, api)
	if err != nil || first.Next == "" {
		t.Fatalf("the first page: %v, next %q", err, first.Next)
	}
	var out []string
	for _, v := range first.Items {
		out = append(out, id(v))
	}
	cur := first.Next
	stopped := 0
	for call := 1; ; call++ {
		got, next, err := s.call(ctx, r, cur, api)
		if err != nil && (s.want == nil || !errors.Is(err, s.want)) {
			t.Fatalf("call %d: %v", call, err)
		}
		seen := repeats(out)
		for _, v := range got {
			out = append(out, id(v))
		}
		if n := repeats(out) - seen; n > 0 {
			t.Fatalf("call %d (from a cursor after %d items): %d of its %d items were returned before", call, len(out)-len(got), n, len(got))
		}
		if err != nil {
			stopped++
		}
		if next == "" {
			if (s.want != nil && stopped == 0) || call < 3 {
				t.Fatalf("%d calls, %d stopped by %v: the test does not stop the read", call, stopped, s.want)
			}
			if err != nil {
				t.Fatalf("call %d: %v and the empty cursor after %d items", call, err, len(out))
			}
			return out
		}
		if len(got) == 0 && next == cur {
			t.Fatalf("call %d: no item and the same cursor: the chain does not progress", call)
		}
		cur = next
	}
}

// A resumed read never repeats an item: however a call stops (a shard's
// query fails on its second page, the context is cancelled, the loop
// breaks, the limit), the cursor it hands out (NextCursor) resumes exactly
// after the last item it returned. Call after call, each stopped the same
// way, the items returned equal the full read item by item, in both
// directions, on an index with a sort key (runs of equal values spread
// over 10 shards, one empty) and on one without (shard after shard).
// Not parallel, so that goleak sees only its own goroutines.
func TestResumeNeverRepeats(t *testing.T) {
	m, ctx := localMerge(t)
	s, _ := localShop(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent(),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"))
	m.load(t, ctx, spreadItems(200))
	reqs := make([]keyfirst.WriteRequest, 60)
	for i := range reqs {
		o := order(fmt.Sprintf("r-%03d", i), open, "2026-06-01T00:00:00Z")
		o.Region = []string{"eu", "us"}[i%3%2]
		reqs[i] = s.orders.PutRequest(o)
	}
	if err := s.table.BatchWrite(ctx, s.client, reqs); err != nil {
		t.Fatal(err)
	}
	for _, desc := range []bool{false, true} {
		items, regions := shard.Query(m.items, spreadShards), shard.Query(s.orders, regionShards)
		if desc {
			items, regions = items.Desc(), regions.Desc()
		}
		want, err := items.Collect(ctx, m.client)
		if err != nil || len(want) != 200 {
			t.Fatalf("desc %v: the full read: %v, %d items", desc, err, len(want))
		}
		for _, st := range stops[Item]("S#0", 23) {
			t.Run(fmt.Sprintf("desc %v: spread: %s", desc, st.name), func(t *testing.T) {
				got := resumeChain(t, ctx, items, m.client, st, func(v Item) string { return v.ID })
				if !slices.Equal(got, itemIDs(want)) {
					t.Errorf("resumed: %s; %d repeated", firstDiff(got, itemIDs(want)), repeats(got))
				}
			})
		}
		wantOrders, err := regions.Collect(ctx, s.client)
		if err != nil || len(wantOrders) != 60 {
			t.Fatalf("desc %v: the full read of by-region: %v, %d orders", desc, err, len(wantOrders))
		}
		first := "REGION#0"
		if desc {
			first = "REGION#1"
		}
		for _, st := range stops[Order](first, 9) {
			t.Run(fmt.Sprintf("desc %v: by-region: %s", desc, st.name), func(t *testing.T) {
				got := resumeChain(t, ctx, regions, s.client, st, func(o Order) string { return o.ID })
				if !slices.Equal(got, orderIDs(wantOrders)) {
					t.Errorf("resumed: %s; %d repeated", firstDiff(got, orderIDs(wantOrders)), repeats(got))
				}
			})
		}
	}
}

// repeats counts the ids that occur more than once.
func repeats(ids []string) int {
	seen, n := map[string]bool{}, 0
	for _, id := range ids {
		if seen[id] {
			n++
		}
		seen[id] = true
	}
	return n
}
