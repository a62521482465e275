package query_test

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
)

// pageThrough reads q page by page, size items at a time, following the
// cursors, and returns what it read and how many pages it took.
func pageThrough[T any](t *testing.T, q query.Query[T], client keyfirst.QueryAPI, size int, optFns ...func(*keyfirst.Options)) ([]T, int) {
	t.Helper()
	var all []T
	var next query.Cursor
	for pages := 1; ; pages++ {
		page, err := q.Limit(size).After(next).Page(context.Background(), client, optFns...)
		if err != nil {
			t.Fatalf("page %d: %v", pages, err)
		}
		if len(page.Items) > size || (page.Next != "" && len(page.Items) != size) {
			t.Fatalf("page %d: %d items, next %q", pages, len(page.Items), page.Next)
		}
		all = append(all, page.Items...)
		if page.Next == "" {
			return all, pages
		}
		if pages > 10000 {
			t.Fatal("paging does not end")
		}
		next = page.Next
	}
}

// Paging through 1,000 items 7 at a time with cursors gives the same
// sequence as one pass: no duplicate, no gap. On the table (an audit log)
// and on a native multi-attribute GSI whose sort key values repeat (ties
// broken by the table key, which the cursor carries), in both directions,
// with and without a signed cursor.
func TestPagingEqualsOnePass(t *testing.T) {
	t.Parallel()
	client := integrationClient(t)
	ctx := context.Background()

	events := auditLog(t, client, 1000)

	sc, s := localShop(t)
	var reqs []keyfirst.WriteRequest
	for i := range 1000 {
		day := micro("2019-07-01T00:00:00").Add(time.Duration(i%37) * 24 * time.Hour) // 37 distinct dates: ties
		reqs = append(reqs, s.orders.PutRequest(Order{CustomerID: "c1", ID: fmt.Sprintf("o%04d", i), Status: Cancelled, Date: day}))
	}
	write(t, sc, s.table, reqs...)

	key := make([]byte, 32)
	rand.Read(key)
	audit := query.On(events, eventsByActor, "u_8814")
	cancelled := query.On(s.orders, byStatusDateNative, "c1").Sort(statusDate.With1(Cancelled).BeginsWith())

	type run struct {
		name string
		page func(t *testing.T) ([]string, int)
		once func(t *testing.T) []string
	}
	eventsOf := func(es []Event) []string {
		out := make([]string, len(es))
		for i, e := range es {
			out[i] = e.Action
		}
		return out
	}
	var runs []run
	for _, desc := range []bool{false, true} {
		for _, signed := range []bool{false, true} {
			var opts []func(*keyfirst.Options)
			if signed {
				opts = append(opts, keyfirst.WithCursorKey(key))
			}
			a, c := audit, cancelled
			if desc {
				a, c = a.Desc(), c.Desc()
			}
			suffix := fmt.Sprintf("desc=%t/signed=%t", desc, signed)
			runs = append(runs,
				run{"table/" + suffix,
					func(t *testing.T) ([]string, int) {
						es, n := pageThrough(t, a, client, 7, opts...)
						return eventsOf(es), n
					},
					func(t *testing.T) []string { es, err := a.Collect(ctx, client); noErr(t, err); return eventsOf(es) }},
				run{"native GSI/" + suffix,
					func(t *testing.T) ([]string, int) { os, n := pageThrough(t, c, sc, 7, opts...); return orderIDs(os), n },
					func(t *testing.T) []string { os, err := c.Collect(ctx, sc); noErr(t, err); return orderIDs(os) }},
			)
		}
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			paged, pages := r.page(t)
			once := r.once(t)
			if len(once) != 1000 {
				t.Fatalf("one pass read %d items", len(once))
			}
			if !slices.Equal(paged, once) {
				t.Fatalf("paged sequence differs from one pass (%d vs %d items)", len(paged), len(once))
			}
			if seen := map[string]bool{}; len(slices.DeleteFunc(slices.Clone(paged), func(s string) bool { d := seen[s]; seen[s] = true; return d })) != 1000 {
				t.Fatal("duplicates")
			}
			if pages != 143 { // 142 pages of 7, then 6 items and DynamoDB says it is done
				t.Fatalf("%d pages, want 143", pages)
			}
		})
	}
}

// A loop over All that breaks in the middle of a page stores the cursor of
// its last item, and resuming from it continues exactly there; the
// broken-off iteration sends no further request.
func TestAllBreakResumesAfterLastItem(t *testing.T) {
	t.Parallel()
	client := integrationClient(t)
	table, events := localAudit(t)
	base := time.Date(2026, 6, 23, 0, 0, 0, 0, time.UTC)
	var reqs []keyfirst.WriteRequest
	for i := range 100 {
		reqs = append(reqs, events.PutRequest(Event{Actor: "u_1", At: base.Add(time.Duration(i) * time.Minute), Action: fmt.Sprint(i)}))
	}
	write(t, client, table, reqs...)
	q := query.On(events, eventsByActor, "u_1").Desc()
	ctx := context.Background()

	for _, limit := range []int{0, 30} { // one page of 100; pages of 30
		t.Run(fmt.Sprintf("limit=%d", limit), func(t *testing.T) {
			qq := q
			if limit > 0 {
				qq = q.Limit(limit)
			}
			var got []string
			var next query.Cursor
			counter := &counting{QueryAPI: client}
			for e, err := range qq.All(ctx, counter, keyfirst.WithNext(&next)) {
				noErr(t, err)
				got = append(got, e.Action)
				if len(got) == 5 {
					break
				}
			}
			if counter.requests() != 1 || next == "" {
				t.Fatalf("%d requests, next %q", counter.requests(), next)
			}
			for e, err := range qq.After(next).All(ctx, client) {
				noErr(t, err)
				got = append(got, e.Action)
			}
			want := []string{}
			n := 100
			if limit > 0 {
				n = 5 + limit
			}
			for i := range n {
				want = append(want, fmt.Sprint(99-i))
			}
			if !slices.Equal(got, want) {
				t.Fatalf("got %v,\nwant %v", got, want)
			}
		})
	}

	// A cursor of this query in another partition is refused, as are
	// cursors of other queries, before any request.
	page, err := q.Limit(3).Page(ctx, client)
	noErr(t, err)
	for _, tt := range []struct {
		name string
		q    query.Query[Event]
		want error
	}{
		{"another partition", query.On(events, eventsByActor, "u_2").Desc(), query.ErrCursorPartition},
		{"another direction", query.On(events, eventsByActor, "u_1"), query.ErrCursorMismatch},
		{"another condition", q.Sort(eventSK.Range().BeginsWith()), query.ErrCursorMismatch},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.q.After(page.Next).Page(ctx, noCalls{T: t})
			var qe *query.Error
			if !errors.Is(err, tt.want) || !errors.As(err, &qe) || qe.Problem != query.ProblemCursor {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
}
