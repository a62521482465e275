package keyfirst_test

import (
	"context"
	"fmt"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
)

// Product is the shop's stock of one product (seed 004).
type Product struct {
	ID    string `dynamodbav:"id"`
	Stock int64  `dynamodbav:"stock"`
	Price int64  `dynamodbav:"price"`
}

// A purchase is one update, no read: the stock decremented on the
// condition that it covers the order. TransactUpdate shows the action it
// sends (Entity.Update sends the same UpdateItem): the ADD, and the
// condition that the item is a Product, that the result fits the int64
// field, and the caller's Stock >= 1.
func ExampleEntity_TransactUpdate() {
	productKey := keys.NewKey1(keys.ID[string](), keys.WithPrefix("PRODUCT"))
	byID := keyfirst.OnTable(keyfirst.Composite("PK", productKey), keyfirst.NoSort())
	table := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "shop", Key: byID}))
	products := keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[Product]{Type: "Product", Keys: []keyfirst.Binding{byID.Fields("ID")}}))

	id := keyfirst.Must(products.Key(Product{ID: "toy-story-dvd"}))
	w, err := products.TransactUpdate(id, keyfirst.Add("Stock", -1).If(keyfirst.Field("Stock").Ge(1)))
	if err != nil {
		panic(err)
	}
	up := w.Action().Update
	fmt.Println(*up.UpdateExpression)
	fmt.Println(*up.ConditionExpression)
	fmt.Println(up.ExpressionAttributeNames)

	// A field the key reads cannot change: the update is refused before
	// any request (no client is needed to see it).
	_, err = products.Update(context.Background(), nil, id, keyfirst.Set("ID", "another"))
	fmt.Println(err)
	// Output:
	// ADD #1 :3
	//
	// ((#0 = :0) AND ((attribute_not_exists (#1)) OR (#1 >= :1))) AND (#1 >= :2)
	// map[#0:_type #1:stock]
	// keyfirst: invalid update: field of the primary key (entity "Product", field "ID"): the table's key attribute PK reads field ID: an update cannot move an item; Put the new item and Delete the old
}
