package snippet

import "github.com/keyfirst/keyfirst"

// Order is an order of the schema Shop.
type Order struct {
	ID string `dynamodbav:"id"`
}

// The schema declared once, at package level, as a service declares it.
var (
	Shop   *keyfirst.Table
	Orders *keyfirst.Entity[Order]
)
