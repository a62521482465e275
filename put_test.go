package keyfirst_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/keyfirst/keyfirst"
)

// TestPutGetDeleteTwoEntityTypes: round trips of a customer and its orders
// in one table, with the consumed capacity reported.
func TestPutGetDeleteTwoEntityTypes(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	ctx := context.Background()
	c := Customer{ID: "c1", Name: "Ana", Admin: true}
	o1 := order("c1", "o1", Open, day)
	o2 := order("c1", "o2", Shipped, day)

	var putCost keyfirst.Capacity
	if _, err := s.customers.Put(ctx, client, c, keyfirst.WithCapacity(&putCost)); err != nil {
		t.Fatal(err)
	}
	for _, o := range []Order{o1, o2} {
		stored, err := s.orders.Put(ctx, client, o, keyfirst.WithCapacity(&putCost))
		if err != nil {
			t.Fatal(err)
		}
		if stored.Version != 1 {
			t.Fatalf("a new versioned item is stored with version %d", stored.Version)
		}
	}
	if putCost.Requests != 3 || putCost.Total <= 0 || putCost.Write != putCost.Total || putCost.Read != 0 || putCost.Table <= 0 {
		t.Fatalf("put capacity %+v", putCost)
	}
	// The open order and the admin write to their indexes, and the cost shows it.
	for _, ix := range []string{"GSI1", "by-status", "open-orders", "by-total"} {
		if putCost.Indexes[ix] <= 0 {
			t.Errorf("no capacity reported on %s: %+v", ix, putCost.Indexes)
		}
	}

	var getCost keyfirst.Capacity
	gotC, err := s.customers.Get(ctx, client, mustKey(t, s.customers, c), keyfirst.ConsistentRead(), keyfirst.WithCapacity(&getCost))
	if err != nil || gotC != c {
		t.Fatalf("customer %+v, %v", gotC, err)
	}
	for _, o := range []Order{o1, o2} {
		got, err := s.orders.Get(ctx, client, mustKey(t, s.orders, o), keyfirst.WithCapacity(&getCost))
		o.Version = 1
		if err != nil || !reflect.DeepEqual(got, o) {
			t.Fatalf("order %+v, %v", got, err)
		}
	}
	if getCost.Requests != 3 || getCost.Read <= 0 || getCost.Write != 0 {
		t.Fatalf("get capacity %+v", getCost)
	}

	// The customer's item collection holds the customer and its orders: a
	// query of the partition decodes each item into its own type.
	var kinds []string
	for _, item := range queryItems(t, client, s.table.Name(), "PK", "CUST#c1") {
		v, err := s.table.Decode(item)
		if err != nil {
			t.Fatal(err)
		}
		switch v := v.(type) {
		case Customer:
			kinds = append(kinds, "customer "+v.ID)
		case Order:
			kinds = append(kinds, "order "+v.ID)
		default:
			t.Fatalf("decoded a %T", v)
		}
	}
	if want := []string{"customer c1", "order o1", "order o2"}; !reflect.DeepEqual(kinds, want) {
		t.Fatalf("collection %v, want %v", kinds, want)
	}

	var delCost keyfirst.Capacity
	if err := s.customers.Delete(ctx, client, c, keyfirst.WithCapacity(&delCost)); err != nil {
		t.Fatal(err)
	}
	o1.Version = 1
	if err := s.orders.Delete(ctx, client, o1, keyfirst.WithCapacity(&delCost)); err != nil {
		t.Fatal(err)
	}
	if delCost.Requests != 2 || delCost.Write <= 0 {
		t.Fatalf("delete capacity %+v", delCost)
	}
	for name, get := range map[string]func() error{
		"customer": func() error { _, err := s.customers.Get(ctx, client, mustKey(t, s.customers, c)); return err },
		"order":    func() error { _, err := s.orders.Get(ctx, client, mustKey(t, s.orders, o1)); return err },
	} {
		var oe *keyfirst.OpError
		if err := get(); !errors.Is(err, keyfirst.ErrNotFound) || !errors.As(err, &oe) || oe.Op != "Get" {
			t.Fatalf("%s after Delete: %v", name, err)
		}
	}
	if _, err := s.orders.Get(ctx, client, mustKey(t, s.orders, o2)); err != nil {
		t.Fatalf("the other order: %v", err)
	}
}

func TestPutCreateOnly(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	ctx := context.Background()
	c := Customer{ID: "c1", Name: "Ana"}
	if _, err := s.customers.Put(ctx, client, c, keyfirst.CreateOnly()); err != nil {
		t.Fatal(err)
	}
	c2 := c
	c2.Name = "Impostor"
	_, err := s.customers.Put(ctx, client, c2, keyfirst.CreateOnly())
	var ce *keyfirst.ConditionError
	if !errors.Is(err, keyfirst.ErrAlreadyExists) || !errors.As(err, &ce) || !ce.Found || ce.FoundType != "CUSTOMER" {
		t.Fatalf("second create: %v", err)
	}
	if got, _ := s.customers.Get(ctx, client, mustKey(t, s.customers, c)); got.Name != "Ana" {
		t.Fatalf("the refused write changed the item: %+v", got)
	}
	// Without CreateOnly an unversioned Put replaces.
	if _, err := s.customers.Put(ctx, client, c2); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.customers.Get(ctx, client, mustKey(t, s.customers, c)); got.Name != "Impostor" {
		t.Fatalf("Put did not replace: %+v", got)
	}
}

func TestPutVersioned(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	ctx := context.Background()
	o := order("c1", "o1", Open, day)
	v1, err := s.orders.Put(ctx, client, o)
	if err != nil || v1.Version != 1 {
		t.Fatalf("create: %+v %v", v1, err)
	}
	// Version 0 means new: an existing item is not overwritten.
	if _, err := s.orders.Put(ctx, client, o); !errors.Is(err, keyfirst.ErrAlreadyExists) {
		t.Fatalf("second create: %v", err)
	}
	v1.Note = "second"
	v2, err := s.orders.Put(ctx, client, v1)
	if err != nil || v2.Version != 2 {
		t.Fatalf("overwrite: %+v %v", v2, err)
	}
	// A writer still holding version 1 loses.
	v1.Note = "stale"
	_, err = s.orders.Put(ctx, client, v1)
	var ce *keyfirst.ConditionError
	if !errors.Is(err, keyfirst.ErrVersionConflict) || !errors.As(err, &ce) || ce.Expected != 1 || ce.Actual != 2 {
		t.Fatalf("stale overwrite: %v", err)
	}
	got, err := s.orders.Get(ctx, client, mustKey(t, s.orders, o))
	if err != nil || got.Note != "second" || got.Version != 2 {
		t.Fatalf("stored %+v %v", got, err)
	}
	// Overwriting an item that is gone is a conflict too.
	gone := order("c1", "o9", Open, day)
	gone.Version = 4
	if _, err := s.orders.Put(ctx, client, gone); !errors.Is(err, keyfirst.ErrVersionConflict) || !errors.As(err, &ce) || ce.Found {
		t.Fatalf("overwrite of a missing item: %v", err)
	}
}

// ghostSpec has the customers' key derivation under another type name, to
// put two entity types under one key.
func ghostSpec() keyfirst.EntitySpec[Customer] {
	sp := customerSpec()
	sp.Type = "GHOST"
	sp.Keys = sp.Keys[:1]
	return sp
}

func TestOperationsNeverTouchAnotherEntityType(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	ctx := context.Background()
	ghosts, err := keyfirst.NewEntity(s.table, ghostSpec())
	if err != nil {
		t.Fatal(err)
	}
	c := Customer{ID: "c1", Name: "Ana"}
	if _, err := s.customers.Put(ctx, client, c); err != nil {
		t.Fatal(err)
	}
	k := mustKey(t, ghosts, c)
	checks := map[string]func() error{
		"Get":     func() error { _, err := ghosts.Get(ctx, client, k); return err },
		"Put":     func() error { _, err := ghosts.Put(ctx, client, Customer{ID: "c1", Name: "Ghost"}); return err },
		"Replace": func() error { _, err := ghosts.Replace(ctx, client, c); return err },
		"Delete":  func() error { return ghosts.Delete(ctx, client, c) },
		"Modify": func() error {
			_, err := ghosts.Modify(ctx, client, k, func(*Customer) {})
			return err
		},
	}
	for name, check := range checks {
		if err := check(); !errors.Is(err, keyfirst.ErrWrongEntityType) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if got, err := s.customers.Get(ctx, client, mustKey(t, s.customers, c)); err != nil || got != c {
		t.Fatalf("the customer changed: %+v %v", got, err)
	}
}
