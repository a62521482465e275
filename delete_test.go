package keyfirst_test

import (
	"context"
	"errors"
	"testing"

	"github.com/keyfirst/keyfirst"
)

func TestDelete(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	ctx := context.Background()

	// Unversioned: deleting a missing item succeeds (idempotent).
	if err := s.customers.Delete(ctx, client, Customer{ID: "nobody"}); err != nil {
		t.Fatalf("delete of a missing customer: %v", err)
	}

	// Versioned: the stored version must match.
	stored, err := s.orders.Put(ctx, client, order("c1", "o1", Open, day))
	if err != nil {
		t.Fatal(err)
	}
	updated := stored
	updated.Note = "changed"
	if updated, err = s.orders.Replace(ctx, client, updated); err != nil {
		t.Fatal(err)
	}
	err = s.orders.Delete(ctx, client, stored)
	var ce *keyfirst.ConditionError
	if !errors.Is(err, keyfirst.ErrVersionConflict) || !errors.As(err, &ce) || ce.Expected != 1 || ce.Actual != 2 {
		t.Fatalf("delete with a stale version: %v", err)
	}
	if err := s.orders.Delete(ctx, client, updated); err != nil {
		t.Fatalf("delete with the stored version: %v", err)
	}
	if err := s.orders.Delete(ctx, client, updated); !errors.Is(err, keyfirst.ErrVersionConflict) || !errors.As(err, &ce) || ce.Found {
		t.Fatalf("second delete: %v", err)
	}
	if _, err := s.orders.Get(ctx, client, mustKey(t, s.orders, stored)); !errors.Is(err, keyfirst.ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}
}
