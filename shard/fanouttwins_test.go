package shard_test

import (
	"fmt"
	"slices"
	"testing"

	"go.uber.org/goleak"
)

// TestFanoutTwinsAgree proves that the pair of BenchmarkFanout and
// BenchmarkFanout30 does the same work: against DynamoDB Local, over 10
// shards and over 30, keyfirst's default reader and the hand-written one
// send the same requests (each body with its object keys sorted; as a
// sorted list, since the shards are read concurrently) and return the
// same items. Before, the hand-written reader asked every shard for 50
// items where keyfirst asks for 13. Not parallel, so that goleak sees only
// the readers' goroutines.
func TestFanoutTwinsAgree(t *testing.T) {
	for _, shards := range []int{10, 30} {
		t.Run(fmt.Sprintf("%d shards", shards), func(t *testing.T) {
			f := newFanFixture(t, shards) // DynamoDB Local started before goleak's snapshot
			defer goleak.VerifyNone(t, goleak.IgnoreCurrent(),
				goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
				goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"))
			rec := newRecorder(f.m.client.Options().HTTPClient)
			c := withHTTP(f.m.client, rec)
			sent := map[string][]string{}
			items := map[string][]string{}
			for _, r := range f.reads {
				if r.name != "keyfirst" && r.name != "hand" {
					continue
				}
				got, err := r.read(f.ctx, c)
				if err != nil {
					t.Fatalf("%s: %v", r.name, err)
				}
				sent[r.name], items[r.name] = rec.take(), itemIDs(got)
			}
			if len(sent["keyfirst"]) != shards {
				t.Errorf("keyfirst sent %d requests, want one per shard (%d)", len(sent["keyfirst"]), shards)
			}
			if !slices.Equal(sent["keyfirst"], sent["hand"]) {
				t.Fatalf("the requests differ: %s", firstDiff(sent["hand"], sent["keyfirst"]))
			}
			if len(items["keyfirst"]) != fanLimit || !slices.Equal(items["keyfirst"], items["hand"]) {
				t.Fatalf("the items differ: %s", firstDiff(items["hand"], items["keyfirst"]))
			}
		})
	}
}

// TestFanoutHandRefills: the hand-written reader stays correct when a
// shard holds more than its share of the newest items (every item on
// shard 0 newer than the rest): it reads that shard again and returns the
// single partition's items.
func TestFanoutHandRefills(t *testing.T) {
	m, ctx := localMerge(t)
	items := fanItems(400, 10)
	for i := range items[len(items)-30:] {
		items[len(items)-30+i].Shard = 0
	}
	m.load(t, ctx, items)
	rec := newRecorder(m.client.Options().HTTPClient)
	got, err := handFanout(ctx, withHTTP(m.client, rec), m.table.Name(), 10)
	if err != nil {
		t.Fatal(err)
	}
	want := itemIDs(m.reference(t, ctx, true, nil)[:fanLimit])
	if !slices.Equal(itemIDs(got), want) {
		t.Fatalf("hand: %s", firstDiff(itemIDs(got), want))
	}
	if n := len(rec.take()); n <= 10 {
		t.Fatalf("%d requests: shard 0 was not read again", n)
	}
}
