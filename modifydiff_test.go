package keyfirst_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/avequal"
	"github.com/keyfirst/keyfirst/internal/updates"
)

// Modify of an unversioned entity, whose condition compares every
// attribute the entity knows to the item it read, sends what fn changed
// and nothing else: the attributes whose value changes, a sparse index's
// attributes as the item enters or leaves it, and for a write that
// changes nothing the entity type alone. The stored item after each is
// the complete item a Replace of the same value stores, and an attribute
// the entity does not know is kept.
func TestModifySendsTheChange(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	rec := &updates.Recorder{Client: client}
	ctx := context.Background()
	c := Customer{ID: "c1", Name: "Ana"}
	item := mustItem(t, s.customers, c)
	item["legacy"] = sAV("another program's")
	putRaw(t, client, s.table.Name(), item)
	key := mustKey(t, s.customers, c)
	for _, step := range []struct {
		name         string
		fn           func(*Customer)
		set, removes []string
	}{
		{"rename", func(c *Customer) { c.Name = "Ana Lima" }, []string{"name"}, nil},
		{"make admin", func(c *Customer) { c.Admin = true }, []string{"admin", "GSI1PK", "GSI1SK"}, nil},
		{"rename an admin", func(c *Customer) { c.Name = "Ana" }, []string{"name"}, nil},
		{"no longer admin", func(c *Customer) { c.Admin = false }, []string{"admin"}, []string{"GSI1PK", "GSI1SK"}},
		{"no change", func(*Customer) {}, []string{"_type"}, nil},
	} {
		rec.Reset()
		v, err := s.customers.Modify(ctx, rec, key, func(c *Customer) { step.fn(c) })
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if u := rec.Updates(); len(u) != 1 || !u[0].Sets(step.set...) || !u[0].Removes(step.removes...) {
			t.Errorf("%s: sent %v, want SET %v REMOVE %v", step.name, u, step.set, step.removes)
		}
		want := mustItem(t, s.customers, v)
		want["legacy"] = sAV("another program's")
		if got := rawItem(t, client, s.table.Name(), keyOf(want)); !avequal.Equal(&types.AttributeValueMemberM{Value: got}, &types.AttributeValueMemberM{Value: want}) {
			t.Errorf("%s: stored %v, want %v", step.name, got, want)
		}
	}
}

// A versioned entity's condition compares its version alone: Modify
// sends the whole item, as Replace does, so that a writer that changed
// an attribute without the version cannot leave a derived key stale.
func TestModifyOfVersionedEntitySendsTheWholeItem(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	rec := &updates.Recorder{Client: client}
	ctx := context.Background()
	o := mustPut(t, client, s.orders, order("c1", "o1", Open, day))
	v, err := s.orders.Modify(ctx, rec, mustKey(t, s.orders, o), func(o *Order) { o.Note = "gift" })
	if err != nil {
		t.Fatal(err)
	}
	want := mustItem(t, s.orders, v)
	delete(want, "PK")
	delete(want, "SK")
	var names []string
	for n := range want {
		names = append(names, n)
	}
	if u := rec.Updates(); len(u) != 1 || !u[0].Sets(names...) {
		t.Errorf("Modify of a versioned order sent %v, want SET %v", u, names)
	}
}

func keyOf(item map[string]types.AttributeValue) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": item["PK"], "SK": item["SK"]}
}
