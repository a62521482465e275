package migrate_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"go.uber.org/goleak"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/faulthttp"
	"github.com/keyfirst/keyfirst/internal/observetest"
	"github.com/keyfirst/keyfirst/migrate"
)

// A backfill whose first Scan fails (DescribeTable having succeeded on
// DynamoDB Local; the Scan answered at the HTTP level with a
// ValidationException, which Local cannot be made to send) shows its
// Observer the error Run returns, with its code, and leaves no goroutine
// behind. Not parallel, so that goleak sees only its own.
func TestBackfillObservedWithItsFailedScan(t *testing.T) {
	client, name := liveShop(t) // DynamoDB Local started before goleak's snapshot
	defer goleak.VerifyNone(t, leakOptions()...)
	old := release(t, dateFirst, name)
	seedOrders(t, client, old, 10)
	var fault *faulthttp.Client
	api := dynamodb.New(client.Options(), func(o *dynamodb.Options) {
		fault = faulthttp.New(o.HTTPClient, "DynamoDB_20120810.Scan", "ValidationException")
		o.HTTPClient = fault
	})
	rec := &observetest.Recorder{}
	cur := release(t, statusFirst, name)
	table := cur.table.Observed(rec)
	orders := keyfirst.Must(cur.orders.In(table))
	b := &migrate.Backfill{Name: "failed-scan", Table: table, Entities: []migrate.Target{migrate.Entity(orders)}, WCU: 1000, Segments: 1}
	_, err := b.Run(context.Background(), api)
	if err == nil || fault.Failed() != 1 {
		t.Fatalf("a backfill whose Scan failed (%d failed): %v", fault.Failed(), err)
	}
	seen := rec.Take()
	if msg := observetest.SameError(seen, err, "ValidationException"); msg != "" {
		t.Error(msg)
	}
	if f, _ := observetest.Failed(seen); f.Request.Operation != "Scan" || f.Request.Call != "migrate.Backfill" {
		t.Errorf("the failed request: %s %s; observed %q", f.Request.Operation, f.Request.Call, observetest.Calls(seen))
	}
	if len(seen) == 0 || seen[0].Request.Operation != "DescribeTable" || seen[0].Result.Err != nil {
		t.Errorf("observed %q, want DescribeTable to succeed first", observetest.Calls(seen))
	}
}
