package snippet

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
)

// Status is the enum that leads the README's OrderStatusDate.
type Status string

// The statuses of an order.
const (
	Pending   Status = "PENDING"
	Shipped   Status = "SHIPPED"
	Delivered Status = "DELIVERED"
	Cancelled Status = "CANCELLED"
)

// Order is the README's order (examples/orders).
type Order struct {
	CustomerID string    `dynamodbav:"CustomerId"`
	ID         string    `dynamodbav:"OrderId"`
	Status     Status    `dynamodbav:"Status"`
	Date       time.Time `dynamodbav:"Date"`
}

// What the README's fragments run in: a context, an AWS configuration and
// a client, the quarter's bounds, and the schema declared once (Shop and
// Orders, as in the harness section).
var (
	ctx    = context.Background()
	cfg    aws.Config
	client *dynamodb.Client
	jul1   = time.Date(2019, 7, 1, 0, 0, 0, 0, time.UTC)
	oct1   = time.Date(2019, 10, 1, 0, 0, 0, 0, time.UTC)
	sep30  = time.Date(2019, 9, 30, 0, 0, 0, 0, time.UTC)
	Shop   *keyfirst.Table
	Orders *keyfirst.Entity[Order]
	// byStatusDate is the taste's index, for the fragments that name it.
	byStatusDate keyfirst.PatternRef
)
