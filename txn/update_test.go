package txn_test

import (
	"errors"
	"math"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/avequal"
	"github.com/keyfirst/keyfirst/txn"
)

// purchase is seed 004's purchase as one transaction without a read: the
// stock decremented if it covers the order, and the order created.
func purchase(s shop, productID string, o Order) []txn.Action {
	return []txn.Action{
		txn.Update(s.products, keyfirst.Must(s.products.Key(Product{ID: productID})), keyfirst.Add("Stock", -1).If(keyfirst.Field("Stock").Ge(1))),
		txn.Create(s.orders, o),
	}
}

// An update beside a create, in one TransactWriteItems and no read: the
// stock decremented, the version incremented, the order stored.
func TestUpdateBesideCreate(t *testing.T) {
	t.Parallel()
	s, ctx := localShop(t)
	if _, err := s.products.Put(ctx, s.client, Product{ID: "p1", Name: "lamp", Stock: 5}); err != nil {
		t.Fatal(err)
	}
	c := &counting{Client: s.client}
	actions := purchase(s, "p1", order("c1", "o1", Open, "2026-06-23T10:00:00Z"))
	if err := txn.Write(ctx, c, actions); err != nil {
		t.Fatal(err)
	}
	p, err := s.products.Get(ctx, s.client, mustKey(t, s.products, Product{ID: "p1"}))
	if err != nil || p.Stock != 4 || p.Version != 2 || p.Name != "lamp" {
		t.Fatalf("product %+v %v, want stock 4 at version 2", p, err)
	}
	if got := s.partition(t, "", "PK", "CUST#c1"); len(got) != 1 || got[0] != "ORDER#o1" {
		t.Fatalf("orders stored %v, want ORDER#o1", got)
	}
	if w, r := c.writes.Load(), c.gets.Load()+c.txGets.Load()+c.updates.Load(); w != 1 || r != 0 {
		t.Fatalf("%d TransactWriteItems and %d other requests, want 1 and 0", w, r)
	}
	up := actions[0].(*txn.Op[Product])
	if v, ok := up.Item(); !ok || v != (Product{}) {
		t.Fatalf("Item() = %+v, %v: an update has no item (TransactWriteItems returns none), and succeeded", v, ok)
	}
}

// A failed condition of the update cancels the whole transaction: the
// action's error is the update's *keyfirst.ConditionError naming the part
// that failed, Stored gives the product as stored, and nothing is
// written (neither the product nor the order).
func TestUpdateConditionCancels(t *testing.T) {
	t.Parallel()
	s, ctx := localShop(t)
	if _, err := s.products.Put(ctx, s.client, Product{ID: "p1", Name: "lamp", Stock: 0}); err != nil {
		t.Fatal(err)
	}
	before := s.raw(t, "PRODUCT#p1", "PRODUCT")
	actions := purchase(s, "p1", order("c1", "o1", Open, "2026-06-23T10:00:00Z"))
	err := txn.Write(ctx, s.client, actions)
	var ce *txn.CanceledError
	if !errors.As(err, &ce) || len(ce.Failed) != 1 || ce.Failed[0].Position != 0 || ce.Failed[0].Part != "" {
		t.Fatalf("%v, want a cancellation naming action 0 alone", err)
	}
	var cond *keyfirst.ConditionError
	if !errors.As(ce.Failed[0].Err, &cond) || !errors.Is(err, keyfirst.ErrConditionFailed) || cond.Failed != "Stock >= 1" || !cond.Found {
		t.Fatalf("%v (%#v), want a *keyfirst.ConditionError wrapping ErrConditionFailed with Failed %q", err, cond, "Stock >= 1")
	}
	if errors.Is(err, keyfirst.ErrVersionConflict) || errors.Is(err, keyfirst.ErrNotFound) {
		t.Fatalf("%v: an out-of-stock is neither a version conflict nor a missing item", err)
	}
	if v, ok, derr := actions[0].(*txn.Op[Product]).Stored(err); !ok || derr != nil || v.Stock != 0 || v.Version != 1 {
		t.Fatalf("Stored = %+v, %v, %v, want the product as stored", v, ok, derr)
	}
	if !avequal.EqualMaps(before, s.raw(t, "PRODUCT#p1", "PRODUCT")) {
		t.Fatal("the product changed")
	}
	if got := s.partition(t, "", "PK", "CUST#c1"); len(got) != 0 {
		t.Fatalf("orders stored %v, want none", got)
	}
}

// An update of a missing item is refused by DynamoDB with the action's
// ErrNotFound (an UpdateItem would create a partial item): the
// transaction is cancelled, no product and no order written.
func TestUpdateMissingItem(t *testing.T) {
	t.Parallel()
	s, ctx := localShop(t)
	err := txn.Write(ctx, s.client, purchase(s, "p1", order("c1", "o1", Open, "2026-06-23T10:00:00Z")))
	var ae *txn.ActionError
	var cond *keyfirst.ConditionError
	if !errors.Is(err, keyfirst.ErrNotFound) || !errors.As(err, &ae) || ae.Position != 0 || !errors.As(err, &cond) || cond.Found {
		t.Fatalf("%v, want action 0's ErrNotFound", err)
	}
	if s.raw(t, "PRODUCT#p1", "PRODUCT") != nil {
		t.Fatal("a partial product was created")
	}
	if got := s.partition(t, "", "PK", "CUST#c1"); len(got) != 0 {
		t.Fatalf("orders stored %v, want none", got)
	}
}

// Bad input to txn.Update is refused before any request: the action's
// error, naming its position, wraps the update's *keyfirst.UpdateError.
func TestUpdateBadInput(t *testing.T) {
	t.Parallel()
	s, ctx := localShop(t)
	pk := mustKey(t, s.products, Product{ID: "p1"})
	create := txn.Create(s.orders, order("c1", "o1", Open, "2026-06-23T10:00:00Z"))
	for name, tc := range map[string]struct {
		action  txn.Action
		problem keyfirst.UpdateProblem
	}{
		"no change":           {txn.Update(s.products, pk, keyfirst.Update{}), keyfirst.UpdateEmpty},
		"unknown field":       {txn.Update(s.products, pk, keyfirst.Add("stock", 1)), keyfirst.UpdateUnknownField},
		"key field":           {txn.Update(s.products, pk, keyfirst.Set("ID", "p2")), keyfirst.UpdateKeyField},
		"version by hand":     {txn.Update(s.products, pk, keyfirst.Set("Version", int64(9))), keyfirst.UpdateVersionField},
		"wrong Go type":       {txn.Update(s.products, pk, keyfirst.Set("Stock", "ten")), keyfirst.UpdateValueType},
		"add a fraction":      {txn.Update(s.products, pk, keyfirst.Add("Stock", 0.5)), keyfirst.UpdateValueType},
		"add to a string":     {txn.Update(s.products, pk, keyfirst.Add("Name", 1)), keyfirst.UpdateNotNumber},
		"set op on non-set":   {txn.Update(s.products, pk, keyfirst.AddToSet("Name", "x")), keyfirst.UpdateNotSet},
		"NaN in a condition":  {txn.Update(s.products, pk, keyfirst.Add("Stock", 1).If(keyfirst.Field("Stock").Lt(math.NaN()))), keyfirst.UpdateValueType},
		"one field twice":     {txn.Update(s.products, pk, keyfirst.Add("Stock", 1).Set("Stock", 3)), keyfirst.UpdateFieldTwice},
		"undeclared function": {txn.Update(s.orders, mustKey(t, s.orders, order("c1", "o2", Open, "")), keyfirst.Set("Note", "n")), keyfirst.UpdateUndeclared},
	} {
		t.Run(name, func(t *testing.T) {
			err := txn.Write(ctx, noCalls{T: t}, []txn.Action{create, tc.action})
			var ae *txn.ActionError
			var ue *keyfirst.UpdateError
			if !errors.As(err, &ae) || ae.Position != 1 || !errors.As(err, &ue) || ue.Problem != tc.problem || !errors.Is(err, keyfirst.ErrInvalidUpdate) {
				t.Fatalf("%v, want action 1's %v", err, tc.problem)
			}
		})
	}
	// An invalid value is the item's error, as in every write.
	err := txn.Write(ctx, noCalls{T: t}, []txn.Action{create, txn.Update(s.products, pk, keyfirst.Set("Name", "\xff"))})
	var ae *txn.ActionError
	var ie *keyfirst.ItemError
	if !errors.As(err, &ae) || ae.Position != 1 || !errors.As(err, &ie) || !errors.Is(err, keyfirst.ErrInvalidItem) {
		t.Fatalf("%v, want action 1's *keyfirst.ItemError", err)
	}
}
