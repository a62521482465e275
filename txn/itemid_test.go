package txn_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// TestItemIDIsTheItem: two ItemIDs are equal exactly when they name one
// item, whichever way they were made and whatever their keys share (the
// digest an ItemID keeps of its key: the values' lengths and last bytes).
func TestItemIDIsTheItem(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	other := keyfirst.Must(shopTable.Named("other"))
	type item struct {
		table *keyfirst.Table
		pk    types.AttributeValue
		sk    types.AttributeValue
	}
	items := []item{
		{shopTable, s("CUST#c1"), s("ORDER#o10")},
		{shopTable, s("CUST#c1"), s("ORDER#o20")}, // the same digest
		{shopTable, s("CUST#c2"), s("ORDER#o10")},
		{shopTable, s("CUST#d1"), s("ORDER#o10")}, // the same digest
		{shopTable, s("CUST#c1"), s("ORDER#o1")},
		{shopTable, s("CUST#c1"), n("10")},
		{shopTable, s("CUST#c1"), s("10")},
		{shopTable, s(""), s("")},
		{other, s("CUST#c1"), s("ORDER#o10")},
	}
	id := func(it item) keyfirst.ItemID {
		return it.table.ItemID(map[string]types.AttributeValue{"PK": it.pk, "SK": it.sk, "note": s("x")})
	}
	for i, a := range items {
		for j, b := range items {
			if got := id(a) == id(b); got != (i == j) {
				t.Errorf("items %d and %d: equal ItemIDs %v, want %v", i, j, got, i == j)
			}
		}
	}
	// An entity's ItemID of a key is the table's of the item.
	o := order("c1", "o10", Open, "2026-06-23T10:00:00Z")
	k, err := orders.Key(o)
	if err != nil {
		t.Fatal(err)
	}
	if orders.ItemID(k) != id(items[0]) {
		t.Errorf("the entity's ItemID %v, the table's %v", orders.ItemID(k), id(items[0]))
	}
}
