package snippet

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// Status is the enum that leads OrderStatusDate.
type Status string

// Cancelled is a Status.
const Cancelled Status = "CANCELLED"

// Order is the query package doc's order.
type Order struct {
	CustomerID string    `dynamodbav:"CustomerId"`
	ID         string    `dynamodbav:"OrderId"`
	Status     Status    `dynamodbav:"Status"`
	Date       time.Time `dynamodbav:"Date"`
}

// What the doc's fragments run in: a context, a client, the pattern
// ordersByStatus and its entity orders, the quarter's bounds, the query q
// of the first fragment.
var (
	ctx            = context.Background()
	client         *dynamodb.Client
	statusDate     = keys.NewKey2(keys.Enum(Cancelled), keys.Time(keys.Micro))
	ordersByStatus = keyfirst.OnIndex("ByStatusDate", keyfirst.ID("CustomerId"), keyfirst.Composite("OrderStatusDate", statusDate))
	orders         *keyfirst.Entity[Order]
	jul1           = time.Date(2019, 7, 1, 0, 0, 0, 0, time.UTC)
	oct1           = time.Date(2019, 10, 1, 0, 0, 0, 0, time.UTC)
	q              query.Query[Order]
)
