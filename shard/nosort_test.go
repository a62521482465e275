package shard_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/shard"
)

// An index without a sort key (by-region, every order on its region's
// shard) has no order to merge by: the read streams shard by shard, each
// in DynamoDB's order, without buffering a shard whole. A page of 3 reads
// a few items, not the index; the page chain equals the full read (no gap,
// no repeat); the full read is shard 0's orders, then shard 1's, and in
// reverse with Desc.
func TestReadWithoutSortKey(t *testing.T) {
	t.Parallel()
	s, ctx := localShop(t)
	reqs := make([]keyfirst.WriteRequest, 60)
	for i := range reqs {
		o := order(fmt.Sprintf("r-%03d", i), open, "2026-06-01T00:00:00Z")
		o.Region = []string{"eu", "us"}[i%2]
		reqs[i] = s.orders.PutRequest(o)
	}
	if err := s.table.BatchWrite(ctx, s.client, reqs); err != nil {
		t.Fatal(err)
	}
	for _, desc := range []bool{false, true} {
		r := shard.Query(s.orders, regionShards)
		if desc {
			r = r.Desc()
		}
		all, err := r.Collect(ctx, s.client)
		if err != nil || len(all) != 60 {
			t.Fatalf("desc %v: %v, %d orders", desc, err, len(all))
		}
		first := "eu"
		if desc {
			first = "us"
		}
		for i, o := range all {
			if want := i < 30 == (first == "eu"); (o.Region == "eu") != want {
				t.Fatalf("desc %v: order %d is of %s: not shard by shard", desc, i, o.Region)
			}
		}
		var chain []string
		for cur := shard.Cursor(""); ; {
			page, err := r.Limit(3).After(cur).Page(ctx, s.client)
			if err != nil {
				t.Fatal(err)
			}
			if page.Cost.Items > 20 {
				t.Fatalf("desc %v: a page of 3 read %d items", desc, page.Cost.Items)
			}
			chain = append(chain, orderIDs(page.Items)...)
			if cur = page.Next; cur == "" {
				break
			}
		}
		if !slices.Equal(chain, orderIDs(all)) {
			t.Errorf("desc %v: the chain of pages of 3: %s", desc, firstDiff(chain, orderIDs(all)))
		}
	}
}
