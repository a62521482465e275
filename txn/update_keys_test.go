package txn_test

import (
	"errors"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/internal/avequal"
	"github.com/keyfirst/keyfirst/txn"
)

// The "low stock" index of the txn package doc: a product is in it while
// its stock is below 3, so its membership reads Stock.
var (
	lowStock      = keyfirst.OnIndex("low-stock", keyfirst.Const("lowBucket", "LOW"), keyfirst.Str("lowID"))
	lowStockTable = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{
		Name:         "txn-low-stock",
		PartitionKey: keyfirst.StringAttr("PK"),
		SortKey:      keyfirst.StringAttr("SK"),
		GSIs:         []keyfirst.Index{lowStock.Index()},
	}))
	stockedProducts = keyfirst.Must(keyfirst.NewEntity(lowStockTable, keyfirst.EntitySpec[Product]{
		Type:    "PRODUCT",
		Version: "version",
		Keys: []keyfirst.Binding{
			typedKey("PRODUCT").Fields("ID"),
			keyfirst.If(lowStock.Fields("ID"), func(p Product) bool { return p.Stock < 3 }).Reads("Stock"),
		},
	}))
)

// txn.Update keeps every derived key of the item fresh, as
// keyfirst.Entity.Update does: an Add to the stock, which the low-stock
// index's membership reads, is refused before any request with the index
// named (the new stock is not known before the write); a Set of it is
// written with the index's attributes recomputed in the same transaction,
// the item stored exactly as the item plan builds it.
func TestUpdateKeepsIndexesFresh(t *testing.T) {
	t.Parallel()
	table := integration.TableOf(t, lowStockTable)
	products := keyfirst.Must(stockedProducts.In(table))
	client := integration.Client(t)
	ctx, cancel := integration.Context(t)
	defer cancel()
	if _, err := products.Put(ctx, client, Product{ID: "p1", Name: "lamp", Stock: 5}); err != nil {
		t.Fatal(err)
	}
	key := mustKey(t, products, Product{ID: "p1"})

	err := txn.Write(ctx, noCalls{T: t}, []txn.Action{txn.Update(products, key, keyfirst.Add("Stock", -3))})
	var ue *keyfirst.UpdateError
	if !errors.As(err, &ue) || ue.Problem != keyfirst.UpdateStaleKey || ue.Index != "low-stock" || ue.Field != "Stock" {
		t.Fatalf("%v, want the low-stock index's UpdateStaleKey on Stock", err)
	}

	if err := txn.Write(ctx, client, []txn.Action{txn.Update(products, key, keyfirst.Set("Stock", 2))}); err != nil {
		t.Fatal(err)
	}
	s := shop{client: client, table: table}
	stored := s.raw(t, "PRODUCT#p1", "PRODUCT")
	want, err := products.Item(Product{ID: "p1", Name: "lamp", Stock: 2, Version: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !avequal.EqualMaps(stored, want) {
		t.Fatalf("stored %v, want the item plan's %v", stored, want)
	}
	if got := s.partition(t, "low-stock", "lowBucket", "LOW"); len(got) != 1 {
		t.Fatalf("low-stock holds %v, want the product", got)
	}
}
