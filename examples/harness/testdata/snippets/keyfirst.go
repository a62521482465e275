package snippet

import (
	"time"

	"github.com/keyfirst/keyfirst/keys"
)

// Status is the enum that leads OrderStatusDate.
type Status string

// Order is the root package doc's order.
type Order struct {
	CustomerID string
	ID         string
	Status     Status
	Date       time.Time
}

// The key definitions the doc's prose names.
var (
	customerKey = keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUSTOMER"))
	orderKey    = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))
	statusDate  = keys.NewKey2(keys.Enum[Status]("PENDING", "CANCELLED"), keys.Time(keys.Micro))
	orderSK     = statusDate
)
