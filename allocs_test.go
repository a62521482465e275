package keyfirst_test

import (
	"context"
	"testing"
)

// TestPutAllocations holds the allocations of a Put of the benchmark's
// item against a stub API (BenchmarkPutGet): the item's (TestItemAllocations),
// the PutItemInput and the stub's answer, nothing else: no Options made
// on the heap for a call without option functions, no types.Put built
// only to be copied into the input.
func TestPutAllocations(t *testing.T) {
	e := benchEntity(t, "bench")
	stub := &stubClient{}
	ctx := context.Background()
	if _, err := e.Put(ctx, stub, benchValue); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(200, func() {
		if _, err := e.Put(ctx, stub, benchValue); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 15 {
		t.Errorf("Put makes %v allocations, want at most 15 (13 of the item, the input, the answer)", allocs)
	}
}

// TestGetAllocations holds the allocations of a Get against a stub API
// (BenchmarkPutGet): the key map (2) with its two values made together
// (1), the GetItemInput, the T decoded; no Options on the heap.
func TestGetAllocations(t *testing.T) {
	e := benchEntity(t, "bench")
	stub := &stubClient{}
	var err error
	if stub.get.Item, err = e.Item(benchValue); err != nil {
		t.Fatal(err)
	}
	k, err := e.Key(benchValue)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	allocs := testing.AllocsPerRun(200, func() {
		if _, err := e.Get(ctx, stub, k); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 6 {
		t.Errorf("Get makes %v allocations, want at most 6", allocs)
	}
}

// TestBatchGetAllocations holds the allocations of a BatchGet of 100 keys
// against the benchmark's fake (BenchmarkBatchGet): per key its map (2),
// the values of a request's keys made together (one per request).
func TestBatchGetAllocations(t *testing.T) {
	s := newShop(t, "bench")
	cs := customers(100)
	api := newFakeBatchGetter(cs)
	ks, _ := batchGetKeys(t, s, cs)
	ctx := context.Background()
	allocs := testing.AllocsPerRun(50, func() {
		if got, err := s.customers.BatchGet(ctx, api, ks); err != nil || len(got) != len(cs) {
			t.Fatalf("%d customers, %v", len(got), err)
		}
	})
	if allocs > 230 {
		t.Errorf("BatchGet of 100 keys makes %v allocations, want at most 230", allocs)
	}
}
