package shard_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"go.uber.org/goleak"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/resumecheck"
	"github.com/keyfirst/keyfirst/shard"
)

// resumable is a read, as resumecheck calls it.
type resumable[T any] = resumecheck.Read[shard.Cursor, T, keyfirst.QueryAPI]

// stops are the ways a call of r stops (resumecheck.Stops, k items), on
// the real client api whose requests ask for 7 items at most: the query
// of partition part fails on its second page. And a Page of a limit k
// that fails there: its page is empty and it hands out (Next and
// WithNext) the cursor it started from; the next page goes on from it.
func stops[T any](api keyfirst.QueryAPI, r shard.Reader[T], part string, k int) []resumecheck.Stop[shard.Cursor, T, keyfirst.QueryAPI] {
	boom := errors.New("boom")
	failing := func() keyfirst.QueryAPI {
		return &faulty{api: api, page: 7, fail: func(p string, n int) error {
			if p == part && n == 2 {
				return boom
			}
			return nil
		}}
	}
	capped := func() keyfirst.QueryAPI { return &faulty{api: api, page: 7} }
	page := func(ctx context.Context, _ resumable[T], cur shard.Cursor) ([]T, shard.Cursor, error) {
		var next shard.Cursor
		p, err := r.Limit(k).After(cur).Page(ctx, failing(), keyfirst.WithNext(&next))
		if errors.Is(err, boom) {
			if len(p.Items) != 0 || next != cur || p.Next != cur {
				return p.Items, next, fmt.Errorf("a failed page returned %d items and handed out %q, Next %q: not its own cursor", len(p.Items), next, p.Next)
			}
			p, err = r.Limit(k).After(cur).Page(ctx, capped(), keyfirst.WithNext(&next))
		}
		if err == nil && next != p.Next {
			err = fmt.Errorf("WithNext %q, Page.Next %q", next, p.Next)
		}
		return p.Items, next, err
	}
	return append(resumecheck.Stops[shard.Cursor, T](k, capped, failing, boom),
		resumecheck.Stop[shard.Cursor, T, keyfirst.QueryAPI]{Name: "Page of a limit: a shard fails on its second page", Call: page})
}

// A resumed read never repeats an item: however a call stops (a shard's
// query fails on its second page, the context is cancelled, the loop
// breaks or panics, the limit), the cursor it hands out (WithNext) resumes exactly
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
		for _, st := range stops(m.client, items, "S#0", 23) {
			t.Run(fmt.Sprintf("desc %v: spread: %s", desc, st.Name), func(t *testing.T) {
				got := resumecheck.Chain(t, ctx, resumecheck.Of[Item, keyfirst.QueryAPI](items, keyfirst.WithNext), keyfirst.QueryAPI(m.client), st, func(v Item) string { return v.ID })
				if !slices.Equal(got, itemIDs(want)) {
					t.Errorf("resumed: %s", firstDiff(got, itemIDs(want)))
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
		for _, st := range stops(s.client, regions, first, 9) {
			t.Run(fmt.Sprintf("desc %v: by-region: %s", desc, st.Name), func(t *testing.T) {
				got := resumecheck.Chain(t, ctx, resumecheck.Of[Order, keyfirst.QueryAPI](regions, keyfirst.WithNext), keyfirst.QueryAPI(s.client), st, func(o Order) string { return o.ID })
				if !slices.Equal(got, orderIDs(wantOrders)) {
					t.Errorf("resumed: %s", firstDiff(got, orderIDs(wantOrders)))
				}
			})
		}
	}
}
