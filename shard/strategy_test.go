package shard_test

import (
	"slices"
	"testing"

	"github.com/keyfirst/keyfirst/shard"
)

// The two fetch strategies return the same newest 50 items over 10
// uneven shards; the default reads fewer items, LatencyFirst sends one
// round. The figures are logged for the package's note (go test -v).
// A read of 12 shards while 10 are written (PreviousShards) returns the
// same items.
func TestFetchStrategies(t *testing.T) {
	t.Parallel()
	m, ctx := localMerge(t)
	m.load(t, ctx, spreadItems(2000))
	spread12 := spreadSpec(10, 12) // read on 12 shards, written on 10
	var want []string
	for _, tc := range []struct {
		name string
		r    shard.Reader[Item]
	}{
		{"default", shard.Query(m.items, spreadShards).Desc().Limit(50)},
		{"latency-first", shard.Query(m.items, spreadShards).Desc().Limit(50).LatencyFirst()},
		{"sequential", shard.Query(m.items, spreadShards).Desc().Limit(50).Concurrency(1)},
		{"12 shards read", shard.Query(m.itemsOn(spread12), spread12).Desc().Limit(50)},
	} {
		page, err := tc.r.Page(ctx, m.client)
		if err != nil {
			t.Fatal(err)
		}
		ids := itemIDs(page.Items)
		if want == nil {
			want = ids
		}
		c := page.Cost
		t.Logf("%-14s requests %3d, items read %4d, read per returned %.2f, RCU %.1f, shards %d",
			tc.name, c.Requests, c.Items, float64(c.Items)/float64(c.Returned), c.Capacity.Total, len(c.Shards))
		if len(ids) != 50 || !slices.Equal(ids, want) {
			t.Errorf("%s: %d items, differ from the default's", tc.name, len(ids))
		}
		if tc.name == "latency-first" && c.Requests != 10 {
			t.Errorf("latency-first sent %d requests, want one round of 10", c.Requests)
		}
		if tc.name == "default" && c.Items >= 500 {
			t.Errorf("default read %d items, latency-first reads up to 500", c.Items)
		}
	}
}
