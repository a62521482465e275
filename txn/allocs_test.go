package txn_test

import (
	"context"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/txn"
)

// TestWrite10Allocations holds the allocations of the 10 puts of
// BenchmarkWrite10 against its fake API, the actions made beforehand:
// the items' (6 each: their plans), the steps with the puts, the request
// with the transaction's items, the options, the fake's answer; no item
// moved to the heap for its plan, no Put made alone.
func TestWrite10Allocations(t *testing.T) {
	table := keyfirst.Must(shopTable.Named("bench"))
	e := keyfirst.Must(orders.In(table))
	os := benchOrders()
	actions := make([]txn.Action, len(os))
	for i, o := range os {
		actions[i] = txn.Put(e, o)
	}
	ctx := context.Background()
	token := txn.Token(benchToken)
	allocs := testing.AllocsPerRun(100, func() {
		if err := txn.Write(ctx, fakeWrite{}, actions, token); err != nil {
			t.Fatal(err)
		}
	})
	limit := 66.0
	if raceEnabled {
		limit += 10 // at most one arena per item made anew
	}
	if allocs > limit {
		t.Errorf("Write of 10 puts makes %v allocations, want at most %v (90 when each put moved its item to the heap and made its Put alone)", allocs, limit)
	}
}
