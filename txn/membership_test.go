package txn_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/txn"
)

// The five transitions of the sparse index (enter, leave, move, stay out,
// stay in), each written by a transaction (with a product replaced beside
// it), checked in the sparse index open-orders, in the sharded index
// open-shard and in the raw item: while open the item has openBucket,
// placedAt, open_shard and open_date, with the values the order gives;
// closed it has none of them, never an empty string.
func TestMembershipInTransactions(t *testing.T) {
	t.Parallel()
	s, ctx := localShop(t)
	const at9, at7 = "2026-06-23T09:00:00Z", "2026-06-23T07:00:00Z"
	type write func(id string, before *Order, after Order) []txn.Action
	put := func(_ string, _ *Order, after Order) []txn.Action { return []txn.Action{txn.Put(s.orders, after)} }
	replace := func(_ string, _ *Order, after Order) []txn.Action { return []txn.Action{txn.Replace(s.orders, after)} }
	del := func(_ string, before *Order, _ Order) []txn.Action {
		return []txn.Action{txn.Delete(s.orders, *before)}
	}
	open := func(id, placed string) Order { return order("c1", id, Open, placed) }
	closed := func(id, placed string) Order { return order("c1", id, Closed, placed) }
	noted := func(o Order) Order { o.Note = "changed"; return o }
	cases := []struct {
		name    string
		before  func(id string) *Order
		after   func(id string) Order // deleted: the write ignores it
		write   write
		deleted bool
	}{
		{"enter (create)", nil, func(id string) Order { return open(id, at9) }, put, false},
		{"enter (reopen)", func(id string) *Order { o := closed(id, at9); return &o }, func(id string) Order { return open(id, at9) }, replace, false},
		{"leave (close)", func(id string) *Order { o := open(id, at9); return &o }, func(id string) Order { return closed(id, at9) }, replace, false},
		{"leave (close by put)", func(id string) *Order { o := open(id, at9); return &o }, func(id string) Order { return closed(id, at9) }, put, false},
		{"leave (delete)", func(id string) *Order { o := open(id, at9); return &o }, nil, del, true},
		{"move (placed)", func(id string) *Order { o := open(id, at9); return &o }, func(id string) Order { return open(id, at7) }, replace, false},
		{"stay out (create)", nil, func(id string) Order { return closed(id, at9) }, put, false},
		{"stay out (note)", func(id string) *Order { o := closed(id, at9); return &o }, func(id string) Order { return noted(closed(id, at9)) }, replace, false},
		{"stay in (note)", func(id string) *Order { o := open(id, at9); return &o }, func(id string) Order { return noted(open(id, at9)) }, replace, false},
	}
	p, err := s.products.Put(ctx, s.client, Product{ID: "p1", Name: "lamp", Stock: 100})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		id := fmt.Sprintf("o%d", i)
		var before *Order
		if c.before != nil {
			before = c.before(id)
			if _, err := s.orders.Put(ctx, s.client, *before); err != nil {
				t.Fatal(err)
			}
		}
		var after Order
		if c.after != nil {
			after = c.after(id)
		}
		p.Stock--
		replace := txn.Replace(s.products, p)
		mustWrite(t, ctx, s.client, append(c.write(id, before, after), replace)...)
		p, _ = replace.Item()

		item := s.raw(t, "CUST#c1", "ORDER#"+id)
		inSparse := slices.Contains(s.partition(t, "open-orders", "openBucket", "OPEN"), "ORDER#"+id)
		var shardName string
		for _, part := range openShards.Partitions() {
			if slices.Contains(s.partition(t, "open-shard", "open_shard", part), "ORDER#"+id) {
				shardName = part
			}
		}
		want := !c.deleted && after.isOpen()
		if c.deleted && item != nil {
			t.Errorf("%s: the deleted order is stored: %v", c.name, item)
		}
		if inSparse != want || (shardName != "") != want {
			t.Errorf("%s: in open-orders %v, in open-shard %q; want in both: %v", c.name, inSparse, shardName, want)
		}
		for _, attr := range []string{"openBucket", "placedAt", "open_shard", "open_date"} {
			v, has := item[attr]
			if has != want {
				t.Errorf("%s: attribute %s present %v (%v), want %v", c.name, attr, has, v, want)
			}
			if sv, ok := v.(*types.AttributeValueMemberS); has && (!ok || sv.Value == "") {
				t.Errorf("%s: attribute %s = %#v", c.name, attr, v)
			}
		}
		if want {
			n, err := openShards.Shard(after)
			if err != nil {
				t.Fatal(err)
			}
			if shardName != fmt.Sprintf("OPEN#%d", n) || text(item["open_shard"]) != shardName ||
				text(item["placedAt"]) != after.Placed || text(item["open_date"]) != after.Placed {
				t.Errorf("%s: shard %q (hash says OPEN#%d), item %v", c.name, shardName, n, item)
			}
		}
	}
	if got, err := s.products.Get(ctx, s.client, mustKey(t, s.products, p)); err != nil || got.Stock != 100-len(cases) || got.Version != int64(1+len(cases)) {
		t.Fatalf("product %+v %v", got, err)
	}
}

func text(av types.AttributeValue) string {
	if s, ok := av.(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}
