package migrate_test

import (
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/internal/observetest"
	"github.com/keyfirst/keyfirst/migrate"
)

// A backfill on an observed table: its Scan pages (per segment) and the
// rewrites are seen, and its progress reaches the Observer, the last
// report finished with every item scanned.
func TestBackfillObserved(t *testing.T) {
	t.Parallel()
	client, name := liveShop(t)
	old := release(t, dateFirst, name)
	seedOrders(t, client, old, 60)
	rec := &observetest.Recorder{}
	cur := release(t, statusFirst, name)
	table := cur.table.Observed(rec)
	orders := keyfirst.Must(cur.orders.In(table))
	ctx, cancel := integration.Context(t)
	defer cancel()
	b := &migrate.Backfill{Name: "observed", Table: table, Entities: []migrate.Target{migrate.Entity(orders)}, WCU: 1000, Segments: 2, PageSize: 20}
	report, err := b.Run(ctx, client)
	if err != nil {
		t.Fatal(err)
	}
	scanned, updates, segments := 0, 0, map[int]bool{}
	for _, s := range rec.Take() {
		switch r := s.Request; {
		case r.Operation == "Scan" && r.Call == "migrate.Backfill":
			scanned += s.Result.Read
			segments[r.Segment] = true
			if s.Result.Capacity.Requests != 1 {
				t.Errorf("scan page %d of segment %d: capacity %+v", r.Seq, r.Segment, s.Result.Capacity)
			}
		case r.Operation == "UpdateItem" && r.Entity == "Order":
			updates++
		}
	}
	if scanned != int(report.Scanned) || len(segments) != 2 || updates != int(report.Changed) || updates == 0 {
		t.Errorf("observed %d items scanned in segments %v and %d updates; the report: %+v", scanned, segments, updates, report.Counts)
	}
	reports := rec.Reports()
	if len(reports) == 0 {
		t.Fatal("no progress reported")
	}
	last := reports[len(reports)-1]
	if !last.Finished || last.Work != "migrate.Backfill" || last.Done != int64(report.Scanned) || last.Table != name || last.Rate <= 0 {
		t.Errorf("the last progress %+v, want finished with %d done", last, report.Scanned)
	}
}

// A backfill's failed Scan shows its Observer the error Run returns, with
// DynamoDB's code.
func TestBackfillObservedWithItsTypedError(t *testing.T) {
	t.Parallel()
	_, name := liveShop(t)
	cur := release(t, statusFirst, name)
	rec := &observetest.Recorder{}
	table := keyfirst.Must(cur.table.Observed(rec).Named(name + "-absent"))
	orders := keyfirst.Must(cur.orders.In(table))
	ctx, cancel := integration.Context(t)
	defer cancel()
	b := &migrate.Backfill{Name: "absent", Table: table, Entities: []migrate.Target{migrate.Entity(orders)}, WCU: 1000, Segments: 1}
	_, err := b.Run(ctx, integration.Client(t))
	if err == nil {
		t.Fatal("a backfill of a missing table succeeded")
	}
	if msg := observetest.SameError(rec.Take(), err, "ResourceNotFoundException"); msg != "" {
		t.Error(msg)
	}
}

// A backfill of an entity bound to an unobserved binding of its table
// still shows its rewrites to the Observer of the backfill's binding.
func TestBackfillRewritesObservedThroughItsTable(t *testing.T) {
	t.Parallel()
	client, name := liveShop(t)
	old := release(t, dateFirst, name)
	seedOrders(t, client, old, 10)
	rec := &observetest.Recorder{}
	cur := release(t, statusFirst, name) // cur.orders: bound to the unobserved binding
	ctx, cancel := integration.Context(t)
	defer cancel()
	b := &migrate.Backfill{Name: "rebound", Table: cur.table.Observed(rec), Entities: []migrate.Target{migrate.Entity(cur.orders)}, WCU: 1000}
	report, err := b.Run(ctx, client)
	if err != nil {
		t.Fatal(err)
	}
	updates := 0
	for _, s := range rec.Take() {
		if r := s.Request; r.Operation == "UpdateItem" && r.Entity == "Order" && r.Call == "Refresh" && r.Table == name {
			updates++
		}
	}
	if updates == 0 || updates != int(report.Changed) {
		t.Errorf("observed %d rewrites; the report: %+v", updates, report.Counts)
	}
}
