package migrate_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/migrate"
)

// visits records what a Visit target was handed, from every segment.
type visits struct {
	mu       sync.Mutex
	byID     map[string]int // order id -> times visited
	byStatus map[Status]int
	segments map[int]bool
}

func newVisits() *visits {
	return &visits{byID: map[string]int{}, byStatus: map[Status]int{}, segments: map[int]bool{}}
}

func (v *visits) visit(_ context.Context, segment int, o Order) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.byID[o.ID]++
	v.byStatus[o.Status]++
	v.segments[segment] = true
	return nil
}

// TestVisitFolds: a backfill of a Visit target hands every order of the
// table to the visit once, decoded, from each of its segments, writes
// nothing without a budget, skips the customers, and reports an order
// that does not decode as a failure, not visited.
func TestVisitFolds(t *testing.T) {
	t.Parallel()
	client, name := liveShop(t)
	s := release(t, statusFirst, name)
	seeded := seedOrders(t, client, s, 300)
	bad := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "CUSTOMER#c0"}, "SK": &types.AttributeValueMemberS{Value: "ORDER#bad"},
		s.table.TypeAttribute(): &types.AttributeValueMemberS{Value: "Order"}, "Total": &types.AttributeValueMemberS{Value: "not a number"}}
	ctx, cancel := integration.Context(t)
	defer cancel()
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: bad}); err != nil {
		t.Fatal(err)
	}
	api := newCounting(client)
	v := newVisits()
	var failures []*migrate.Failure
	r := run(t, &migrate.Backfill{Name: "orders-by-status", Table: s.table, Entities: []migrate.Target{migrate.Visit(s.orders, v.visit)},
		Segments: 4, PageSize: 25, OnFailure: func(f *migrate.Failure) { failures = append(failures, f) }}, api)

	want := map[Status]int{}
	for _, o := range seeded {
		want[o.Status]++
		if n := v.byID[o.ID]; n != 1 {
			t.Errorf("order %s visited %d times", o.ID, n)
		}
	}
	for st, n := range want {
		if v.byStatus[st] != n {
			t.Errorf("%d %s orders visited, %d stored", v.byStatus[st], st, n)
		}
	}
	if len(v.byID) != 300 || len(v.segments) != 4 {
		t.Errorf("%d orders visited, from segments %v", len(v.byID), v.segments)
	}
	if r.Visited != 300 || r.Scanned != 311 || r.Skipped != 10 || r.Failed != 1 || r.Changed+r.Unchanged != 0 ||
		r.Entities["Order"].Visited != 300 || r.Checkpoint.Counts() != r.Counts || !r.Checkpoint.Done() {
		t.Errorf("report %+v, order's %+v", r.Counts, r.Entities["Order"].Counts)
	}
	if len(failures) != 1 || failures[0].Entity != "Order" || failures[0].Key["SK"].(*types.AttributeValueMemberS).Value != "ORDER#bad" {
		t.Errorf("failures %v", failures)
	}
	if n := api.calls.Load(); n != 0 {
		t.Errorf("a visit wrote %d times", n)
	}
}

// TestVisitCancelAndResume: a visiting backfill cancelled half-way and
// resumed from its checkpoint visits every order exactly once over the
// two runs (a cancelled run's checkpoint is exact), and an error of the
// visit stops the run before the item.
func TestVisitCancelAndResume(t *testing.T) {
	t.Parallel()
	client, name := liveShop(t)
	s := release(t, statusFirst, name)
	seedOrders(t, client, s, 200)
	v := newVisits()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	b := &migrate.Backfill{Name: "orders-by-status", Table: s.table, Segments: 3, PageSize: 10,
		Entities: []migrate.Target{migrate.Visit(s.orders, func(ctx context.Context, segment int, o Order) error {
			v.mu.Lock()
			if n++; n == 80 {
				cancel()
			}
			v.mu.Unlock()
			return v.visit(ctx, segment, o)
		})}}
	first, err := b.Run(ctx, client)
	if !errors.Is(err, context.Canceled) || first.Checkpoint.Done() || first.Visited < 80 || first.Visited > 83 {
		t.Fatalf("cancelled run: %v, %+v", err, first)
	}
	b.Resume = first.Checkpoint
	rest := run(t, b, client)
	if total := rest.Checkpoint.Counts(); total.Visited != 200 || first.Visited+rest.Visited != 200 || !rest.Checkpoint.Done() {
		t.Errorf("visited %d then %d, checkpoint %+v", first.Visited, rest.Visited, total)
	}
	for id, times := range v.byID {
		if times != 1 {
			t.Errorf("order %s visited %d times", id, times)
		}
	}
	if len(v.byID) != 200 {
		t.Errorf("%d orders visited", len(v.byID))
	}

	errVisit := errors.New("the fold failed")
	visited := 0
	stop := &migrate.Backfill{Name: "orders-failing", Table: s.table, Segments: 1,
		Entities: []migrate.Target{migrate.Visit(s.orders, func(context.Context, int, Order) error {
			if visited++; visited == 5 {
				return errVisit
			}
			return nil
		})}}
	r, err := stop.Run(context.Background(), client)
	if !errors.Is(err, errVisit) || r.Visited != 4 || r.Checkpoint.Counts().Visited != 4 {
		t.Errorf("a failing visit: %v, %+v", err, r)
	}
}

// TestVisitBadInputs: a Visit of no entity or without a function is no
// target, and a backfill that also brings an entity up to date needs its
// budget, before any request.
func TestVisitBadInputs(t *testing.T) {
	t.Parallel()
	s := release(t, statusFirst, "visit-bad-inputs")
	fold := func(context.Context, int, Order) error { return nil }
	for name, c := range map[string]struct {
		b    migrate.Backfill
		want migrate.ConfigProblem
	}{
		"nil entity":            {migrate.Backfill{Entities: []migrate.Target{migrate.Visit[Order](nil, fold)}}, migrate.ConfigNoEntities},
		"nil visit":             {migrate.Backfill{Entities: []migrate.Target{migrate.Visit[Order](s.orders, nil)}}, migrate.ConfigNoEntities},
		"writes without budget": {migrate.Backfill{Entities: []migrate.Target{migrate.Visit(s.orders, fold), migrate.Entity(s.customers)}}, migrate.ConfigBudget},
		"budget negative":       {migrate.Backfill{Entities: []migrate.Target{migrate.Visit(s.orders, fold)}, WCU: -1}, migrate.ConfigBudget},
		"visited twice":         {migrate.Backfill{Entities: []migrate.Target{migrate.Visit(s.orders, fold), migrate.Entity(s.orders)}, WCU: 10}, migrate.ConfigDuplicateEntity},
	} {
		t.Run(name, func(t *testing.T) {
			b := c.b
			b.Name, b.Table = "n", s.table
			_, err := b.Run(context.Background(), noCalls{T: t})
			var ce *migrate.ConfigError
			if !errors.As(err, &ce) || ce.Problem != c.want || !errors.Is(err, migrate.ErrInvalidBackfill) {
				t.Errorf("%v, want %v", err, c.want)
			}
		})
	}
}
