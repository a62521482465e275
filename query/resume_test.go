package query_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
)

// short wraps the real client: each request asks for at most 7 items
// (DynamoDB Local then ends the page early, as DynamoDB does at 1 MB),
// and request number failOn (from 1; 0: none) fails.
type short struct {
	api    keyfirst.QueryAPI
	failOn int
	mu     sync.Mutex
	n      int
}

var errShort = errors.New("short: the injected failure")

func (c *short) Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.mu.Lock()
	c.n++
	n := c.n
	c.mu.Unlock()
	if n == c.failOn {
		return nil, errShort
	}
	if in.Limit == nil || *in.Limit > 7 {
		capped := *in
		capped.Limit = aws.Int32(7)
		in = &capped
	}
	return c.api.Query(ctx, in, optFns...)
}

// queryStop is one way a call of a query stops before the end: it reads q
// from cursor cur through the real client api and returns the items the
// call returned, the cursor it handed out (WithNext) and its error.
type queryStop[T any] struct {
	name string
	call func(ctx context.Context, q query.Query[T], cur query.Cursor, api keyfirst.QueryAPI) ([]T, query.Cursor, error)
	want error // the error of a call that stopped early (nil: none)
}

// queryStops are the ways a call stops: its second request fails (All,
// Collect, and a Page of a limit, which returns the items before the
// failure); the context is cancelled after k items; the loop breaks after
// k items; the loop body panics on item k+1; Limit k.
func queryStops[T any](k int) []queryStop[T] {
	return []queryStop[T]{
		{"Collect: the second request fails", func(ctx context.Context, q query.Query[T], cur query.Cursor, api keyfirst.QueryAPI) ([]T, query.Cursor, error) {
			var next query.Cursor
			got, err := q.After(cur).Collect(ctx, &short{api: api, failOn: 2}, query.WithNext(&next))
			return got, next, err
		}, errShort},
		{"All: the second request fails", func(ctx context.Context, q query.Query[T], cur query.Cursor, api keyfirst.QueryAPI) (got []T, next query.Cursor, err error) {
			// The cursor is read where the error is handled, in the loop.
			var stored, atErr query.Cursor
			for v, e := range q.After(cur).All(ctx, &short{api: api, failOn: 2}, query.WithNext(&stored)) {
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
		}, errShort},
		{"Page of a limit: the second request fails", func(ctx context.Context, q query.Query[T], cur query.Cursor, api keyfirst.QueryAPI) ([]T, query.Cursor, error) {
			var next query.Cursor
			page, err := q.Limit(k).After(cur).Page(ctx, &short{api: api, failOn: 2}, query.WithNext(&next))
			if next != page.Next {
				return page.Items, next, fmt.Errorf("WithNext %q, Page.Next %q", next, page.Next)
			}
			return page.Items, next, err
		}, errShort},
		{"the context is cancelled", func(ctx context.Context, q query.Query[T], cur query.Cursor, api keyfirst.QueryAPI) (got []T, next query.Cursor, err error) {
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			for v, e := range q.After(cur).All(ctx, &short{api: api}, query.WithNext(&next)) {
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
		{"the loop breaks", func(ctx context.Context, q query.Query[T], cur query.Cursor, api keyfirst.QueryAPI) (got []T, next query.Cursor, err error) {
			for v, e := range q.After(cur).All(ctx, &short{api: api}, query.WithNext(&next)) {
				if e != nil {
					return got, next, e
				}
				if got = append(got, v); len(got) == k {
					break
				}
			}
			return got, next, nil
		}, nil},
		{"the loop body panics", func(ctx context.Context, q query.Query[T], cur query.Cursor, api keyfirst.QueryAPI) (got []T, next query.Cursor, err error) {
			defer func() {
				if p := recover(); p != nil && p != "in the loop body" {
					panic(p)
				}
			}()
			for v, e := range q.After(cur).All(ctx, &short{api: api}, query.WithNext(&next)) {
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
		{"Limit", func(ctx context.Context, q query.Query[T], cur query.Cursor, api keyfirst.QueryAPI) ([]T, query.Cursor, error) {
			var next query.Cursor
			got, err := q.Limit(k).After(cur).Collect(ctx, &short{api: api}, query.WithNext(&next))
			return got, next, err
		}, nil},
	}
}

// queryChain reads q call after call, each stopped by s and resumed from
// the cursor the last one handed out, until a call hands out the empty
// cursor; it returns the ids of every item returned, in order. The first
// call is a page of 5, so that every stopped call starts from a cursor.
func queryChain[T any](t *testing.T, ctx context.Context, q query.Query[T], api keyfirst.QueryAPI, s queryStop[T], id func(T) string) []string {
	t.Helper()
	first, err := q.Limit(5).Page(ctx, api)
	if err != nil || first.Next == "" {
		t.Fatalf("the first page: %v, next %q", err, first.Next)
	}
	var out []string
	seen := map[string]bool{}
	add := func(vs []T) (repeated int) {
		for _, v := range vs {
			out = append(out, id(v))
			if seen[id(v)] {
				repeated++
			}
			seen[id(v)] = true
		}
		return repeated
	}
	add(first.Items)
	cur := first.Next
	stopped := 0
	for call := 1; ; call++ {
		got, next, err := s.call(ctx, q, cur, api)
		if err != nil && (s.want == nil || !errors.Is(err, s.want)) {
			t.Fatalf("call %d: %v", call, err)
		}
		if n := add(got); n > 0 {
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

// A resumed query never repeats an item: however a call stops (its second
// request fails, the context is cancelled, the loop breaks or panics, the
// limit), the cursor it hands out (WithNext) resumes exactly after the
// last item it returned. Call after call, each stopped the same way, the
// items returned equal the full read item by item: an entity query (an
// audit log), in both directions, and a mixed collection (a repo, its
// issues and its stars).
func TestQueryResumeNeverRepeats(t *testing.T) {
	t.Parallel()
	client := integrationClient(t)
	ctx := context.Background()

	auditTable, events := localAudit(t)
	base := time.Date(2026, 6, 23, 0, 0, 0, 0, time.UTC)
	var reqs []keyfirst.WriteRequest
	for i := range 100 {
		reqs = append(reqs, events.PutRequest(Event{Actor: "u_8814", At: base.Add(time.Duration(i) * time.Second), Action: fmt.Sprint(i)}))
	}
	write(t, client, auditTable, reqs...)

	gh := newGithub(t, "github")
	gh = gh.in(tableFor(t, gh.table))
	reqs = []keyfirst.WriteRequest{gh.repos.PutRequest(Repo{Name: "kf", Description: "keyfirst"})}
	for i := range 40 {
		reqs = append(reqs, gh.issues.PutRequest(Issue{Repo: "kf", Number: uint32(i + 1), Title: fmt.Sprint("issue ", i+1)}))
		reqs = append(reqs, gh.stars.PutRequest(Star{Repo: "kf", User: fmt.Sprintf("user-%02d", i)}))
	}
	write(t, client, gh.table, reqs...)

	eventID := func(e Event) string { return e.Action }
	for _, desc := range []bool{false, true} {
		q := query.On(events, eventsByActor, "u_8814")
		if desc {
			q = q.Desc()
		}
		want, err := q.Collect(ctx, client)
		if err != nil || len(want) != 100 {
			t.Fatalf("desc %v: the full read: %v, %d events", desc, err, len(want))
		}
		wantIDs := make([]string, len(want))
		for i, e := range want {
			wantIDs[i] = eventID(e)
		}
		for _, st := range queryStops[Event](23) {
			t.Run(fmt.Sprintf("desc %v: events: %s", desc, st.name), func(t *testing.T) {
				if got := queryChain(t, ctx, q, client, st, eventID); !slices.Equal(got, wantIDs) {
					t.Errorf("resumed: %v, want %v", got, wantIDs)
				}
			})
		}
	}

	itemID := func(v any) string {
		switch v := v.(type) {
		case Repo:
			return "repo " + v.Name
		case Issue:
			return fmt.Sprint("issue ", v.Number)
		case Star:
			return "star " + v.User
		}
		return fmt.Sprintf("%T", v)
	}
	c := query.CollectionOn(gh.table, repoByName, "kf")
	want, err := c.Collect(ctx, client)
	if err != nil || len(want) != 81 {
		t.Fatalf("the full collection: %v, %d items", err, len(want))
	}
	wantIDs := make([]string, len(want))
	for i, v := range want {
		wantIDs[i] = itemID(v)
	}
	for _, st := range queryStops[any](11) {
		t.Run("collection: "+st.name, func(t *testing.T) {
			if got := queryChain(t, ctx, c, client, st, itemID); !slices.Equal(got, wantIDs) {
				t.Errorf("resumed: %v, want %v", got, wantIDs)
			}
		})
	}
}
