// Command quickstart is keyfirst's flagship example: seed 000's orders.
//
// It starts DynamoDB Local in a container, describes a single table with a
// GSI whose sort key is the composite OrderStatusDate (enum first:
// CANCELLED#2019-07-01T00:00:00.000000), writes a customer's orders, reads
// one back, and answers "the customer's CANCELLED orders from 1 July through
// 30 September" with one key condition: no FilterExpression, no Scan.
//
//	make example
package main

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Status is an order's status: a closed set, so it can lead a sort key.
type Status string

// The statuses an order can have.
const (
	Pending   Status = "PENDING"
	Shipped   Status = "SHIPPED"
	Cancelled Status = "CANCELLED"
)

// Order is the entity: a plain struct; its keys derive from it.
type Order struct {
	CustomerID string    `dynamodbav:"CustomerId"`
	ID         string    `dynamodbav:"OrderId"`
	Status     Status    `dynamodbav:"Status"`
	Date       time.Time `dynamodbav:"Date"`
	Total      int       `dynamodbav:"Total"`
}

// The key codecs: typed, validated, byte order = value order.
var (
	customerKey = keys.Must(keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUSTOMER")))
	orderKey    = keys.Must(keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER")))
	statusDate  = keys.Must(keys.NewKey2(keys.Enum(Pending, Shipped, Cancelled), keys.Time(keys.Micro)))
)

// The access patterns, declared once with their key types: the table, the
// entity and the queries are built from them.
var (
	// An order by id: PK = CUSTOMER#c_42, SK = ORDER#o1.
	orderByID = keyfirst.OnTable(keyfirst.Composite("PK", customerKey), keyfirst.Composite("SK", orderKey))
	// A customer's orders by status and date: CustomerId = c_42,
	// OrderStatusDate = CANCELLED#2019-07-01T00:00:00.000000.
	ordersByStatus = keyfirst.OnIndex("ByStatusDate", keyfirst.Str("CustomerId"), keyfirst.Composite("OrderStatusDate", statusDate))
)

func main() {
	if err := run(context.Background()); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context) error {
	local, err := integration.Start(ctx)
	if err != nil {
		return err
	}
	defer local.Close()
	db := local.Client

	table, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "shop", Key: orderByID, GSIs: []keyfirst.Index{ordersByStatus.Index()}})
	if err != nil {
		return err
	}
	// Every key attribute is recomputed from these fields on every write,
	// so it can never go stale; CustomerId is the field itself.
	orders, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Order]{
		Type: "Order",
		Keys: []keyfirst.Binding{orderByID.Fields("CustomerID", "ID"), ordersByStatus.Fields("CustomerID", "Status", "Date")},
	})
	if err != nil {
		return err
	}

	if _, err := db.CreateTable(ctx, table.CreateTableInput()); err != nil {
		return fmt.Errorf("create table: %w", err)
	}
	if err := dynamodb.NewTableExistsWaiter(db).Wait(ctx,
		&dynamodb.DescribeTableInput{TableName: aws.String(table.Name())}, time.Minute); err != nil {
		return err
	}

	day := func(m time.Month, d int) time.Time { return time.Date(2019, m, d, 9, 30, 0, 0, time.UTC) }
	for _, o := range []Order{
		{"c_42", "o1", Cancelled, day(time.June, 30), 1500},
		{"c_42", "o2", Cancelled, day(time.July, 1), 2500},
		{"c_42", "o3", Shipped, day(time.August, 3), 990},
		{"c_42", "o4", Cancelled, day(time.September, 30), 4200},
		{"c_42", "o5", Cancelled, day(time.October, 1), 700},
		{"c_7", "o6", Cancelled, day(time.August, 15), 3100},
	} {
		if _, err := orders.Put(ctx, db, o); err != nil {
			return err
		}
	}

	// An item read back by its typed key.
	key, err := orders.Key(Order{CustomerID: "c_42", ID: "o2"})
	if err != nil {
		return err
	}
	got, err := orders.Get(ctx, db, key, keyfirst.ConsistentRead())
	if err != nil {
		return err
	}
	fmt.Printf("DynamoDB Local at %s\nread back %s: %+v\n", local.Endpoint, key, got)

	// CANCELLED orders from 1 July through 30 September: one key condition,
	// CustomerId = :c AND OrderStatusDate BETWEEN :lo AND :hi.
	jul1 := time.Date(2019, time.July, 1, 0, 0, 0, 0, time.UTC)
	oct1 := time.Date(2019, time.October, 1, 0, 0, 0, 0, time.UTC)
	fmt.Println(`key condition: CustomerId = "c_42" AND OrderStatusDate`, keys.Must(statusDate.With1(Cancelled).HalfOpen(jul1, oct1)))
	var cost keyfirst.Capacity
	found, err := query.On(orders, ordersByStatus, "c_42").Sort(statusDate.With1(Cancelled).HalfOpen(jul1, oct1)).
		Collect(ctx, db, query.TotalCapacity(&cost))
	if err != nil {
		return err
	}
	fmt.Printf("c_42's CANCELLED orders, 1 July - 30 September 2019 (%d read, %.1f RCU):\n", len(found), cost.Total)
	for _, o := range found {
		fmt.Printf("  %s  %s  %s  %d\n", o.ID, o.Status, o.Date.Format(time.DateOnly), o.Total)
	}
	return nil
}
