package snippet

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
)

// Product is seed 004's product, versioned.
type Product struct {
	SKU     string
	Stock   int
	Version int64
}

// Order is seed 004's order.
type Order struct {
	ID  string
	SKU string
}

// What the doc's fragment runs in: a context, a client, the entities, the
// product p as read, its key id, and the order o to create.
var (
	id       keyfirst.Key[Product]
	ctx      = context.Background()
	client   *dynamodb.Client
	products *keyfirst.Entity[Product]
	orders   *keyfirst.Entity[Order]
	p        Product
	o        Order
)
