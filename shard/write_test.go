package shard_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/shard"
)

// Seed 002's create_order on 3 shards: Put sets open_status_shard =
// "OPEN#<n>", n the frozen hash of the order id, and order_date; a closed
// order gets neither; each shard's partition holds exactly the open
// orders whose hash says so. The region index (Pick, no When) holds every
// order on its region's shard.
func TestCreateOrderSetsShard(t *testing.T) {
	t.Parallel()
	s, ctx := localShop(t)
	var stored []Order
	for i := 1; i <= 15; i++ {
		status := open
		if i%5 == 0 {
			status = closed
		}
		o := order(fmt.Sprintf("o-%04d", i), status, fmt.Sprintf("2026-06-%02dT10:00:00Z", i))
		if _, err := s.orders.Put(ctx, s.client, o, keyfirst.CreateOnly()); err != nil {
			t.Fatal(err)
		}
		stored = append(stored, o)
	}
	s.checkShards(t, "create", stored)
	for _, o := range stored {
		if got, want := text(s.raw(t, o.ID)["region_shard"]), fmt.Sprintf("REGION#%d", regions[o.Region]); got != want {
			t.Errorf("order %s in %s: region_shard = %q, want %q", o.ID, o.Region, got, want)
		}
	}
	// The hash spreads the twelve open orders over all three shards.
	for _, part := range openOrders.Partitions() {
		if len(s.shardIDs(t, openByDate, part)) == 0 {
			t.Errorf("shard %s is empty", part)
		}
	}
}

// Seed 002's close_order, by Replace and by Modify, REMOVEs
// open_status_shard and order_date; reopening puts the order back on the
// same shard; rewriting an open order (another customer) keeps its shard.
func TestCloseOrderRemovesShard(t *testing.T) {
	t.Parallel()
	s, ctx := localShop(t)
	stored := []Order{
		order("o-0001", open, "2026-06-01T10:00:00Z"),
		order("o-0002", open, "2026-06-02T10:00:00Z"),
		order("o-0003", open, "2026-06-03T10:00:00Z"),
		order("o-0004", open, "2026-06-04T10:00:00Z"),
	}
	for _, o := range stored {
		if _, err := s.orders.Put(ctx, s.client, o); err != nil {
			t.Fatal(err)
		}
	}
	s.checkShards(t, "create", stored)

	stored[0].Status = closed
	if _, err := s.orders.Replace(ctx, s.client, stored[0]); err != nil {
		t.Fatal(err)
	}
	s.checkShards(t, "close o-0001 by Replace", stored)

	modify := func(i int, f func(*Order)) {
		t.Helper()
		key, err := s.orders.Key(stored[i])
		if err != nil {
			t.Fatal(err)
		}
		if stored[i], err = s.orders.Modify(ctx, s.client, key, func(o *Order) { f(o) }); err != nil {
			t.Fatal(err)
		}
	}
	modify(1, func(o *Order) { o.Status = closed })
	s.checkShards(t, "close o-0002 by Modify", stored)

	modify(1, func(o *Order) { o.Status = open })
	s.checkShards(t, "reopen o-0002 by Modify", stored)

	stored[2].Customer = "someone else"
	if _, err := s.orders.Replace(ctx, s.client, stored[2]); err != nil {
		t.Fatal(err)
	}
	s.checkShards(t, "rewrite o-0003", stored)
}

// BatchWrite's puts set and remove the sharded attributes as Put does.
func TestBatchWriteShards(t *testing.T) {
	t.Parallel()
	s, ctx := localShop(t)
	var stored []Order
	var reqs []keyfirst.WriteRequest
	for i := range 40 {
		status := open
		if i%4 == 3 {
			status = closed
		}
		o := order(fmt.Sprintf("b-%03d", i), status, fmt.Sprintf("2026-05-%02dT%02d:00:00Z", 1+i%28, i%24))
		stored = append(stored, o)
		reqs = append(reqs, s.orders.PutRequest(o))
	}
	if err := s.table.BatchWrite(ctx, s.client, reqs); err != nil {
		t.Fatal(err)
	}
	s.checkShards(t, "batch create", stored)

	reqs = reqs[:0]
	for i := range stored {
		if i%3 == 0 {
			stored[i].Status = map[string]string{open: closed, closed: open}[stored[i].Status]
			reqs = append(reqs, s.orders.PutRequest(stored[i]))
		}
	}
	if err := s.table.BatchWrite(ctx, s.client, reqs); err != nil {
		t.Fatal(err)
	}
	s.checkShards(t, "batch close and reopen", stored)
}

// An open order without a valid shard is refused before any request by
// every write path, with an ItemError (ItemDerive) wrapping the
// PickError: an empty hash field, a Pick result out of range. A closed
// order needs no shard: its empty customer is no error.
func TestNoShardRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	ctx, client := t.Context(), noCalls{T: t}
	emptyCustomer := order("o-0001", open, "2026-06-01T10:00:00Z")
	emptyCustomer.Customer = ""
	unknownRegion := order("o-0002", open, "2026-06-01T10:00:00Z")
	unknownRegion.Region = "mars"
	tests := []struct {
		name    string
		entity  *keyfirst.Entity[Order]
		item    Order
		index   string
		problem shard.PickProblem
	}{
		{"empty hash field", byCustomerOrders, emptyCustomer, "open-by-customer", shard.PickEmptyField},
		{"pick out of range", orders, unknownRegion, "by-region", shard.PickOutOfRange},
	}
	for _, tt := range tests {
		writes := map[string]func() error{
			"Put":     func() error { _, err := tt.entity.Put(ctx, client, tt.item); return err },
			"Replace": func() error { _, err := tt.entity.Replace(ctx, client, tt.item); return err },
			"BatchWrite": func() error {
				return shopTable.BatchWrite(ctx, client, []keyfirst.WriteRequest{tt.entity.PutRequest(tt.item)})
			},
		}
		for name, write := range writes {
			err := write()
			var ie *keyfirst.ItemError
			var pe *shard.PickError
			if !errors.As(err, &ie) || ie.Problem != keyfirst.ItemDerive || !errors.Is(err, shard.ErrNoShard) ||
				!errors.As(err, &pe) || pe.Problem != tt.problem || pe.Index != tt.index {
				t.Errorf("%s, %s: %v, want an ItemError (ItemDerive) wrapping a PickError (%s) of %s", tt.name, name, err, tt.problem, tt.index)
			}
		}
	}
	closedEmpty := emptyCustomer
	closedEmpty.Status = closed
	item, err := byCustomerOrders.Item(closedEmpty)
	if err != nil {
		t.Fatalf("a closed order with no customer: %v", err)
	}
	if _, ok := item["open_customer_shard"]; ok {
		t.Error("a closed order is in the open-by-customer index")
	}
}

// Modify that empties the hash field of an open order fails before its
// write, and the stored order keeps its shard.
func TestModifyToNoShardKeepsStoredItem(t *testing.T) {
	t.Parallel()
	s, ctx := localShop(t)
	o := order("o-0001", open, "2026-06-01T10:00:00Z")
	if _, err := s.byCustomer.Put(ctx, s.client, o); err != nil {
		t.Fatal(err)
	}
	key, err := s.byCustomer.Key(o)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.byCustomer.Modify(ctx, s.client, key, func(o *Order) { o.Customer = "" })
	var pe *shard.PickError
	if !errors.As(err, &pe) || pe.Problem != shard.PickEmptyField || pe.Field != "Customer" {
		t.Fatalf("Modify emptying the customer: %v, want a PickError (empty hash field)", err)
	}
	item := s.raw(t, o.ID)
	if got := text(item["open_customer_shard"]); got != wantShard(o.Customer, 3) || text(item["customer_id"]) != o.Customer {
		t.Errorf("after the refused Modify the stored order has open_customer_shard %q, customer %q", got, text(item["customer_id"]))
	}
}
