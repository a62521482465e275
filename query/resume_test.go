package query_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/resumecheck"
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

// resumable is a read, as resumecheck calls it.
type resumable[T any] = resumecheck.Read[query.Cursor, T, keyfirst.QueryAPI]

// queryStops are the ways a call of q stops (resumecheck.Stops, k items),
// on the real client api whose requests ask for 7 items at most: the
// second request of a call fails. And a Page of a limit k whose second
// request fails: it returns the items before the failure, and Next (and
// WithNext) resumes after them.
func queryStops[T any](api keyfirst.QueryAPI, q query.Query[T], k int) []resumecheck.Stop[query.Cursor, T, keyfirst.QueryAPI] {
	failing := func() keyfirst.QueryAPI { return &short{api: api, failOn: 2} }
	capped := func() keyfirst.QueryAPI { return &short{api: api} }
	page := func(ctx context.Context, _ resumable[T], cur query.Cursor) ([]T, query.Cursor, error) {
		var next query.Cursor
		p, err := q.Limit(k).After(cur).Page(ctx, failing(), keyfirst.WithNext(&next))
		if next != p.Next {
			err = fmt.Errorf("WithNext %q, Page.Next %q", next, p.Next)
		}
		return p.Items, next, err
	}
	return append(resumecheck.Stops[query.Cursor, T](k, capped, failing, errShort),
		resumecheck.Stop[query.Cursor, T, keyfirst.QueryAPI]{Name: "Page of a limit: the second request fails", Call: page, Want: errShort})
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

	events := auditLog(t, client, 100)

	gh := newGithub(t, "github")
	gh = gh.in(tableFor(t, gh.table))
	reqs := []keyfirst.WriteRequest{gh.repos.PutRequest(Repo{Name: "kf", Description: "keyfirst"})}
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
		for _, st := range queryStops(client, q, 23) {
			t.Run(fmt.Sprintf("desc %v: events: %s", desc, st.Name), func(t *testing.T) {
				if got := resumecheck.Chain(t, ctx, resumecheck.Of[Event, keyfirst.QueryAPI](q, keyfirst.WithNext), keyfirst.QueryAPI(client), st, eventID); !slices.Equal(got, wantIDs) {
					t.Errorf("resumed: %v, want %v", got, wantIDs)
				}
			})
		}
	}

	c := query.CollectionOn(gh.table, repoByName, "kf")
	want, err := c.Collect(ctx, client)
	if err != nil || len(want) != 81 {
		t.Fatalf("the full collection: %v, %d items", err, len(want))
	}
	wantIDs := make([]string, len(want))
	for i, v := range want {
		wantIDs[i] = describeItem(v)
	}
	for _, st := range queryStops(client, c, 11) {
		t.Run("collection: "+st.Name, func(t *testing.T) {
			if got := resumecheck.Chain(t, ctx, resumecheck.Of[any, keyfirst.QueryAPI](c, keyfirst.WithNext), keyfirst.QueryAPI(client), st, describeItem); !slices.Equal(got, wantIDs) {
				t.Errorf("resumed: %v, want %v", got, wantIDs)
			}
		})
	}
}
