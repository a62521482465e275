package keyfirst_test

import (
	"context"
	"errors"
	"testing"

	"github.com/keyfirst/keyfirst"
)

// Two entity types of one Go type: a key one of them derived is refused by
// the other before any request, by every operation that takes a key.
func TestKeyOfAnotherEntityType(t *testing.T) {
	s := newShop(t, "")
	spec := orderSpec()
	spec.Type = "ARCHIVED_ORDER"
	spec.Keys, spec.Version = spec.Keys[:1], ""
	archived, err := keyfirst.NewEntity(s.table, spec)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	k := mustKey(t, s.orders, order("c1", "o1", Open, day))
	fail := func(op string, err error) {
		t.Helper()
		if !errors.Is(err, keyfirst.ErrWrongEntityType) {
			t.Errorf("%s with an ORDER key on ARCHIVED_ORDER: %v, want ErrWrongEntityType", op, err)
		}
	}
	_, err = archived.Get(ctx, noCalls{T: t}, k)
	fail("Get", err)
	_, err = archived.Modify(ctx, noCalls{T: t}, k, func(*Order) {})
	fail("Modify", err)
	_, err = archived.BatchGet(ctx, noCalls{T: t}, []keyfirst.Key[Order]{k})
	fail("BatchGet", err)
	fail("BatchWrite", s.table.BatchWrite(ctx, noCalls{T: t}, []keyfirst.WriteRequest{archived.DeleteRequest(k)}))
}
