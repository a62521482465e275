package harness_test

import (
	"context"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/keys"
)

type Order struct {
	Customer string `dynamodbav:"customer"`
	ID       string `dynamodbav:"id"`
	Total    int    `dynamodbav:"total"`
}

// The schema, declared once at package level, as a service declares it.
var (
	orderByID = keyfirst.OnTable(
		keyfirst.Composite("PK", keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUST"))),
		keyfirst.Composite("SK", keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))))
	Shop   = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "shop", Key: orderByID}))
	Orders = keyfirst.Must(keyfirst.NewEntity(Shop, keyfirst.EntitySpec[Order]{
		Type: "ORDER", Keys: []keyfirst.Binding{orderByID.Fields("Customer", "ID")}}))
)

func TestMain(m *testing.M) { integration.Main(m) }

func TestOrders(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	client := integration.Client(t) // DynamoDB Local, one per test binary
	// A table of this test's own, for the schema declared once.
	table := integration.TableOf(t, Shop)
	orders := keyfirst.Must(Orders.In(table))

	if _, err := orders.Put(ctx, client, Order{Customer: "c1", ID: "o1", Total: 42}); err != nil {
		t.Fatal(err)
	}
	key, err := orders.Key(Order{Customer: "c1", ID: "o1"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := orders.Get(ctx, client, key, keyfirst.ConsistentRead())
	if err != nil || got.Total != 42 {
		t.Fatalf("got %+v, %v", got, err)
	}
}
