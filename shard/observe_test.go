package shard_test

import (
	"errors"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/observetest"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/shard"
)

// A sharded read sends a query per shard, each seen by the Observer; a
// shard's failed request shows the *RequestError the read's *ShardError
// wraps, with DynamoDB's code.
func TestObserverSeesEachShardAndItsTypedError(t *testing.T) {
	s, ctx := localShop(t)
	rec := &observetest.Recorder{}
	observed := keyfirst.Must(orders.In(s.table.Observed(rec)))
	if _, err := shard.Query(observed, openOrders).Collect(ctx, s.client); err != nil {
		t.Fatal(err)
	}
	seen := rec.Take()
	indexes := map[string]int{}
	for _, x := range seen {
		if x.Request.Operation == "Query" && x.Result.Err == nil {
			indexes[x.Request.Index]++
		}
	}
	if indexes["open-orders"] != 3 {
		t.Fatalf("observed %q, want a Query of open-orders per shard (3)", observetest.Calls(seen))
	}

	gone := keyfirst.Must(orders.In(keyfirst.Must(s.table.Observed(rec).Named(s.table.Name() + "-absent"))))
	_, err := shard.Query(gone, openOrders).Collect(ctx, s.client)
	var se *shard.ShardError
	var re *query.RequestError
	if !errors.As(err, &se) || !errors.As(err, &re) {
		t.Fatalf("a sharded read of a missing table: %v, want a *ShardError of a *RequestError", err)
	}
	if msg := observetest.SameError(rec.Take(), err, "ResourceNotFoundException"); msg != "" {
		t.Error(msg)
	}
}
