package query_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/nocalls"
	"github.com/keyfirst/keyfirst/query"
)

// Lease expires: scores on a board with an expiry.
type Lease struct {
	Board   string    `dynamodbav:"Board"`
	Score   float64   `dynamodbav:"Score"`
	Expires time.Time `dynamodbav:"expires"`
}

func newLeases(t testing.TB) *keyfirst.Entity[Lease] {
	t.Helper()
	table, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "leases", Key: scoreByBoard, TimeToLive: "expires"})
	noErr(t, err)
	leases, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Lease]{Type: "LEASE", Keys: []keyfirst.Binding{scoreByBoard.Fields("Board", "Score")}, Expires: "Expires"})
	noErr(t, err)
	return leases
}

// TestWithoutExpired: a query returns the items whose expiry has passed
// (DynamoDB has not deleted them yet) unless WithoutExpired drops them;
// then Limit stays exact over further pages, the cursor resumes after the
// last item consumed, and the capacity counts the dropped items. The clock
// is set (the items expire in 2100 in DynamoDB's eyes, so Local keeps
// them), never slept.
func TestWithoutExpired(t *testing.T) {
	t.Parallel()
	client := integrationClient(t)
	schema := newLeases(t)
	leases := keyfirst.Must(schema.In(tableFor(t, schema.Table())))
	base := time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
	var reqs []keyfirst.WriteRequest
	for i := range 10 {
		// Scores 0..9; the even ones expire at base, the odd ones a year later.
		exp := base
		if i%2 == 1 {
			exp = base.AddDate(1, 0, 0)
		}
		reqs = append(reqs, leases.PutRequest(Lease{Board: "b", Score: float64(i), Expires: exp}))
	}
	write(t, client, leases.Table(), reqs...)
	ctx := context.Background()
	q := query.On(leases, scoreByBoard, "b")

	all, err := q.Collect(ctx, client)
	noErr(t, err)
	if len(all) != 10 {
		t.Fatalf("by default a read returns every item read, expired ones included: %d, want 10", len(all))
	}

	now := base.Add(time.Hour) // the even ones have expired
	c := &counting{QueryAPI: client}
	var capa keyfirst.Capacity
	live, err := q.WithoutExpired(now).Limit(3).Collect(ctx, c, keyfirst.WithCapacity(&capa))
	noErr(t, err)
	if fmt.Sprint(scores(live)) != "[1 3 5]" {
		t.Fatalf("WithoutExpired Limit 3: %v, want [1 3 5]", scores(live))
	}
	if c.requests() < 2 || capa.Read <= 0 {
		t.Errorf("requests %d, capacity %v: a Limit of 3 over dropped items needs more than one request, each counted", c.requests(), capa.Read)
	}

	page, err := q.WithoutExpired(now).Limit(2).Page(ctx, client)
	noErr(t, err)
	if fmt.Sprint(scores(page.Items)) != "[1 3]" || page.Expired != 2 {
		t.Fatalf("page: %v, %d expired; want [1 3], 2", scores(page.Items), page.Expired)
	}
	rest, err := q.WithoutExpired(now).After(page.Next).Collect(ctx, client)
	noErr(t, err)
	if fmt.Sprint(scores(rest)) != "[5 7 9]" {
		t.Fatalf("after the page: %v, want [5 7 9]", scores(rest))
	}
	if early, err := q.WithoutExpired(base.Add(-time.Second)).Collect(ctx, client); err != nil || len(early) != 10 {
		t.Fatalf("before any expiry: %d items, %v", len(early), err)
	}
}

func scores(ls []Lease) []float64 {
	var out []float64
	for _, l := range ls {
		out = append(out, l.Score)
	}
	return out
}

// TestWithoutExpiredRefused: an entity without an expiry cannot drop
// expired items, refused before any request.
func TestWithoutExpiredRefused(t *testing.T) {
	t.Parallel()
	_, scoresE := newBoardScores(t)
	_, err := query.On(scoresE, scoreByBoard, "b").WithoutExpired(time.Now()).Collect(context.Background(), nocalls.Client{T: t})
	var qe *query.Error
	if !errors.As(err, &qe) || qe.Problem != query.ProblemExpired {
		t.Fatalf("%v, want ProblemExpired", err)
	}
}
