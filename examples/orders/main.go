// Command orders is keyfirst's flagship example, seed 000's composite sort
// key <STATUS>#<ISO-8601 date>: "a customer's CANCELLED orders between 1 July
// and 30 September".
//
// The table CustomerOrders holds a customer's orders in one partition.
// The GSI OrderStatusDateGSI sorts a customer's orders by OrderStatusDate,
// status first (CANCELLED#2019-07-01), so the question is one key condition,
// a range of whole days; a native multi-attribute GSI answers it with the
// same keys condition over OrderStatus and OrderDate, with nothing
// concatenated. Beside them, the same question as a FilterExpression on the
// table, sent with the raw SDK: what keyfirst never sends, and what it would
// have read.
//
//	make example
package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/examples/internal/demo"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// Status is an order's status: a closed set, so it can lead a sort key.
type Status string

// The statuses an order can have.
const (
	Pending   Status = "PENDING"
	Shipped   Status = "SHIPPED"
	Delivered Status = "DELIVERED"
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

// The key codecs (typed, validated; byte order is the values' order), the
// access patterns, the table and the entity, declared once.
var (
	customerKey = keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUSTOMER"))
	orderKey    = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))
	// statusDate is OrderStatusDate, CANCELLED#2019-07-01: the enum first,
	// then the date (keys.Day: the seed's ISO-8601 date, fixed width).
	statusDate = keys.NewKey2(keys.Enum(Pending, Shipped, Delivered, Cancelled), keys.Time(keys.Day))

	// An order by id: PK = CUSTOMER#c_42, SK = ORDER#o063.
	orderByID = keyfirst.OnTable(keyfirst.Composite("PK", customerKey), keyfirst.Composite("SK", orderKey))
	// A customer's orders by status and date; CustomerId is the field itself,
	// an id (c_42: CUSTOMER#c_42 is refused, not a query that finds nothing).
	byStatusDate = keyfirst.OnIndex("OrderStatusDateGSI", keyfirst.ID("CustomerId"), keyfirst.Composite("OrderStatusDate", statusDate))
	// The same two segments, one attribute each: a native multi-attribute sort key.
	byStatusDateNative = keyfirst.OnIndex("OrderStatusDateNativeGSI", keyfirst.ID("CustomerId"), keyfirst.Native(statusDate, "OrderStatus", "OrderDate"))

	CustomerOrders = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "CustomerOrders", Key: orderByID,
		GSIs: []keyfirst.Index{byStatusDate.Index(), byStatusDateNative.Index()}}))
	// Every key attribute is recomputed from these fields on every write:
	// none can go stale.
	Orders = keyfirst.Must(keyfirst.NewEntity(CustomerOrders, keyfirst.EntitySpec[Order]{Type: "Order", Keys: []keyfirst.Binding{
		orderByID.Fields("CustomerID", "ID"),
		byStatusDate.Fields("CustomerID", "Status", "Date"),
		byStatusDateNative.Fields("CustomerID", "Status", "Date"),
	}}))
)

func main() { demo.Main(run) }

func run(ctx context.Context, w io.Writer, client *dynamodb.Client) (err error) {
	db := demo.New(w, client)
	defer db.Close(ctx, &err)
	table, err := db.Create(ctx, CustomerOrders)
	if err != nil {
		return err
	}
	orders := keyfirst.Must(Orders.In(table)) // a binding of its own schema: In cannot fail

	// c_42 ordered every third day of 2019, and cancelled every seventh
	// order; c_7's cancelled order is in another partition.
	statuses := []Status{Cancelled, Pending, Shipped, Delivered, Pending, Shipped, Delivered}
	reqs := []keyfirst.WriteRequest{orders.PutRequest(Order{"c_7", "o900", Cancelled, day(8, 15), 31})}
	for i := range 120 {
		reqs = append(reqs, orders.PutRequest(Order{"c_42", fmt.Sprintf("o%03d", i), statuses[i%7], day(1, 1+3*i), 100 + i}))
	}
	var wrote keyfirst.Capacity
	if err := table.BatchWrite(ctx, db, reqs, keyfirst.WithCapacity(&wrote)); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %d orders: %g WCU, %g on the table and %g on its two GSIs\n", len(reqs), wrote.Total, wrote.Table, wrote.Total-wrote.Table)

	fmt.Fprintln(w, "\nc_42's CANCELLED orders, 1 July - 30 September 2019, through OrderStatusDateGSI, then OrderStatusDateNativeGSI:")
	for _, q := range []query.Query[Order]{query.On(orders, byStatusDate, "c_42"), query.On(orders, byStatusDateNative, "c_42")} {
		// Days, so the range is the calendar's: 1 July through all of 30 September.
		found, err := q.Sort(statusDate.With1(Cancelled).Between(day(7, 1), day(9, 30))).Collect(ctx, db)
		if err != nil {
			return err
		}
		show(w, db, found)
	}

	// What keyfirst does not send: the table's partition, filtered after the
	// read, over the same stored strings. Every order of c_42 is read and
	// billed. (Its 120 items fit one page; a larger partition needs
	// dynamodb.NewQueryPaginator.)
	expr, err := expression.NewBuilder().WithKeyCondition(expression.Key("PK").Equal(expression.Value("CUSTOMER#c_42"))).
		WithFilter(expression.Name("OrderStatus").Equal(expression.Value("CANCELLED")).
			And(expression.Name("OrderDate").Between(expression.Value("2019-07-01"), expression.Value("2019-09-30")))).Build()
	if err != nil {
		return err
	}
	// keyfirst.Send shows the raw request to the table's Observer, like keyfirst's own.
	in := &dynamodb.QueryInput{TableName: aws.String(table.Name()), KeyConditionExpression: expr.KeyCondition(),
		FilterExpression: expr.Filter(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()}
	out, err := keyfirst.Send(ctx, table, keyfirst.Request{Call: "raw SDK", Input: in},
		func(ctx context.Context) (*dynamodb.QueryOutput, error) { return client.Query(ctx, in) })
	if err != nil {
		return err
	}
	var viaFilter []Order
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &viaFilter); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nthe same with a FilterExpression on the table (raw SDK):")
	show(w, db, viaFilter)
	return nil
}

// day is midnight UTC of a day of 2019 (days past the month's end roll over).
func day(month time.Month, d int) time.Time { return time.Date(2019, month, d, 0, 0, 0, 0, time.UTC) }

// show prints orders, then the requests that read them and what they cost
// (db.Report).
func show(w io.Writer, db *demo.DB, orders []Order) {
	for _, o := range orders {
		fmt.Fprintf(w, "  %s  %s  %-9s  %s  %d\n", o.CustomerID, o.ID, o.Status, o.Date.Format(time.DateOnly), o.Total)
	}
	db.Report()
}
