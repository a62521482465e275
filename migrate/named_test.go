package migrate_test

import (
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/migrate"
)

// twinShop is the release of seed 000's fix declared once, at package
// level, as a service declares it; the test binds it to two tables.
var twinShop = keyfirst.Must(declare(statusFirst, keyfirst.Must(keyfirst.NewTable(shopSpec()))))

// bindTwin binds twinShop to the table called name.
func bindTwin(t *testing.T, name string) shop {
	t.Helper()
	table := keyfirst.Must(twinShop.table.Named(name))
	return shop{table, keyfirst.Must(twinShop.orders.In(table)), keyfirst.Must(twinShop.customers.In(table))}
}

// twinTable is a table of the twins' test: its binding, the orders seeded
// in it under the previous release, and its backfill's outcome.
type twinTable struct {
	shop
	seeded map[string]Order
	report *migrate.Report
	err    error
}

// Two bindings of one package-level schema, each seeded with its own
// stale orders under the same keys: Entity.Refresh of a bound entity
// writes its table only, two backfills run at once each change exactly
// their table's items, and a checkpoint of one is refused by the other
// before any request.
func TestTwoTablesOneSchema(t *testing.T) {
	t.Parallel()
	client := integration.Client(t)
	ctx, cancel := integration.Context(t)
	defer cancel()
	var twins []*twinTable
	for _, n := range []int{40, 70} { // other counts, other orders under the same keys
		_, name := liveShop(t)
		tw := &twinTable{shop: bindTwin(t, name), seeded: map[string]Order{}}
		for _, o := range seedOrders(t, client, release(t, dateFirst, name), n) {
			tw.seeded[o.ID] = o
		}
		twins = append(twins, tw)
	}
	a, b := twins[0], twins[1]
	if a.table.Name() == b.table.Name() || !a.table.SameSchema(b.table) || a.seeded["o0000"] == b.seeded["o0000"] {
		t.Fatalf("tables %q and %q, o0000 %+v and %+v", a.table.Name(), b.table.Name(), a.seeded["o0000"], b.seeded["o0000"])
	}

	// Refresh of one order through each binding: its table's item is up
	// to date, the other's is not.
	for i, tw := range twins {
		other := twins[1-i]
		id := []string{"o0000", "o0001"}[i]
		res, err := tw.orders.Refresh(ctx, client, tw.rawOrder(t, client, id))
		if err != nil || res.Outcome != keyfirst.RefreshChanged {
			t.Fatalf("Refresh of %s in %s: %v %v", id, tw.table.Name(), res.Outcome, err)
		}
		if res := tw.plan(t, tw.rawOrder(t, client, id)); res.Outcome != keyfirst.RefreshUnchanged {
			t.Fatalf("%s in %s after its Refresh: %v %v", id, tw.table.Name(), res.Outcome, res.Set)
		}
		if res := other.plan(t, other.rawOrder(t, client, id)); res.Outcome != keyfirst.RefreshChanged {
			t.Fatalf("%s in %s after the Refresh in %s: %v", id, other.table.Name(), tw.table.Name(), res.Outcome)
		}
	}

	// Two backfills at once.
	var wg sync.WaitGroup
	for _, tw := range twins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tw.report, tw.err = tw.backfill(nil).Run(ctx, client)
		}()
	}
	wg.Wait()
	for _, tw := range twins {
		if tw.err != nil {
			t.Fatal(tw.err)
		}
		n := len(tw.seeded)
		want := migrate.Counts{Scanned: int64(n + 10), Changed: int64(n - 1), Unchanged: 11}
		if got := tw.report.Counts; got != want || !tw.report.Checkpoint.Done() {
			t.Errorf("backfill of %s: %+v, want %+v", tw.table.Name(), got, want)
		}
		stored := ordersIn(t, tw.shop, scanAll(t, client, tw.table.Name(), ""))
		if len(stored) != n {
			t.Errorf("%s holds %d orders, %d seeded", tw.table.Name(), len(stored), n)
		}
		for id, o := range tw.seeded {
			if got := stored[id]; got.CustomerID != o.CustomerID || got.Status != o.Status || !got.Date.Equal(o.Date) || got.Total != o.Total {
				t.Errorf("%s in %s: stored %+v, seeded %+v", id, tw.table.Name(), got, o)
			}
		}
		upToDate(t, client, tw.shop)
	}
	_, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(twinShop.table.Name())})
	if rnf := new(types.ResourceNotFoundException); !errors.As(err, &rnf) {
		t.Fatalf("the declared table %q: %v, want ResourceNotFoundException", twinShop.table.Name(), err)
	}

	// A's checkpoint, as it is and through its JSON, is refused by B's
	// backfill (same name, same definitions) before any request.
	data, err := json.Marshal(a.report.Checkpoint)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := migrate.ParseCheckpoint(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, cp := range []*migrate.Checkpoint{a.report.Checkpoint, parsed} {
		report, err := b.backfill(cp).Run(ctx, noCalls{T: t})
		var ce *migrate.CheckpointError
		if !errors.Is(err, migrate.ErrCheckpoint) || !errors.As(err, &ce) || ce.Problem != migrate.CheckpointTable ||
			ce.Want != b.table.Name() || ce.Got != a.table.Name() || report != nil {
			t.Fatalf("A's checkpoint resumed on B: %v, want CheckpointTable", err)
		}
	}
}

// backfill is the twin's backfill of seed 000's fix, resumed from cp
// (nil: from the start).
func (tw *twinTable) backfill(cp *migrate.Checkpoint) *migrate.Backfill {
	return &migrate.Backfill{Name: "orders-status-first", Table: tw.table,
		Entities: []migrate.Target{migrate.Entity(tw.orders), migrate.Entity(tw.customers)},
		WCU:      1000, Segments: 2, PageSize: 10, Resume: cp}
}

// rawOrder reads the order with id as stored in the twin's table.
func (tw *twinTable) rawOrder(t *testing.T, client *dynamodb.Client, id string) map[string]types.AttributeValue {
	t.Helper()
	o := tw.seeded[id]
	for _, item := range scanAll(t, client, tw.table.Name(), "") {
		if got, err := tw.orders.Decode(item); err == nil && got.ID == id && got.CustomerID == o.CustomerID {
			return item
		}
	}
	t.Fatalf("no order %s in %s", id, tw.table.Name())
	return nil
}

// plan is the twin's PlanRefresh of a stored order.
func (tw *twinTable) plan(t *testing.T, item map[string]types.AttributeValue) keyfirst.RefreshResult {
	t.Helper()
	res, err := tw.orders.PlanRefresh(item)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
