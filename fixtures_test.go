package keyfirst_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
)

func TestMain(m *testing.M) { integration.Main(m) }

// The shop: customers and their orders in one table (single-table design).
//
//	PK            SK            entity
//	CUST#<id>     CUST#<id>     Customer
//	CUST#<id>     ORDER#<id>    Order
//
// GSI1 (overloaded, concatenated keys): orders by customer and
// "<status>#<placedAt>"; admins (sparse) under "ADMIN".
// by-status (native multi-attribute): customer / status, placedAt, from
// Order's own fields.
// open-orders (sparse): openBucket = "OPEN" only while an order is open.
// by-total (LSI): a customer's collection by order total.

type Status string

const (
	Open      Status = "OPEN"
	Shipped   Status = "SHIPPED"
	Cancelled Status = "CANCELLED"
)

type Order struct {
	Customer string    `dynamodbav:"customer"`
	ID       string    `dynamodbav:"id"`
	Status   Status    `dynamodbav:"status"`
	PlacedAt time.Time `dynamodbav:"placedAt"`
	Total    int64     `dynamodbav:"total"`
	Tags     []string  `dynamodbav:"tags,omitempty"`
	Note     string    `dynamodbav:"note,omitempty"`
	Version  int64     `dynamodbav:"version"`
}

type Customer struct {
	ID    string `dynamodbav:"id"`
	Name  string `dynamodbav:"name"`
	Admin bool   `dynamodbav:"admin"`
}

// errBadID is the error of the fixture's id segments.
var errBadID = errors.New("fixture: bad id")

// segment refuses what a key codec refuses: an empty id, a separator.
func segment(prefix, id string) (string, error) {
	if id == "" || strings.Contains(id, "#") {
		return "", fmt.Errorf("%w: %q", errBadID, id)
	}
	return prefix + "#" + id, nil
}

const placedLayout = "2006-01-02T15:04:05.000000Z"

func shopSpec() keyfirst.TableSpec {
	return keyfirst.TableSpec{
		Name:         "shop",
		PartitionKey: keyfirst.StringAttr("PK"),
		SortKey:      keyfirst.StringAttr("SK"),
		GSIs: []keyfirst.Index{
			{Name: "GSI1", PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("GSI1PK")}, SortKey: []keyfirst.Attribute{keyfirst.StringAttr("GSI1SK")}},
			{Name: "by-status", PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("customer")},
				SortKey: []keyfirst.Attribute{keyfirst.StringAttr("status"), keyfirst.StringAttr("placedAt")}},
			{Name: "open-orders", PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("openBucket")},
				SortKey: []keyfirst.Attribute{keyfirst.StringAttr("placedAt")}, Projection: keyfirst.KeysOnly(), Scannable: true},
		},
		LSIs: []keyfirst.Index{
			{Name: "by-total", SortKey: []keyfirst.Attribute{keyfirst.NumberAttr("total")}, Projection: keyfirst.Include("status")},
		},
	}
}

func orderSpec() keyfirst.EntitySpec[Order] {
	customerPK := keyfirst.S(func(o Order) (string, error) { return segment("CUST", o.Customer) })
	return keyfirst.EntitySpec[Order]{
		Type:         "ORDER",
		PartitionKey: customerPK,
		SortKey:      keyfirst.S(func(o Order) (string, error) { return segment("ORDER", o.ID) }),
		Indexes: map[string]keyfirst.IndexKeys[Order]{
			"GSI1": {
				"GSI1PK": customerPK,
				"GSI1SK": keyfirst.S(func(o Order) (string, error) {
					return string(o.Status) + "#" + o.PlacedAt.UTC().Format(placedLayout), nil
				}),
			},
			"open-orders": {
				"openBucket": keyfirst.SIf(func(o Order) (string, bool, error) { return "OPEN", o.Status == Open, nil }),
			},
		},
		Version: "version",
	}
}

func customerSpec() keyfirst.EntitySpec[Customer] {
	self := keyfirst.S(func(c Customer) (string, error) { return segment("CUST", c.ID) })
	return keyfirst.EntitySpec[Customer]{
		Type:         "CUSTOMER",
		PartitionKey: self,
		SortKey:      self,
		Indexes: map[string]keyfirst.IndexKeys[Customer]{
			"GSI1": {
				"GSI1PK": keyfirst.SIf(func(c Customer) (string, bool, error) { return "ADMIN", c.Admin, nil }),
				"GSI1SK": keyfirst.SIf(func(c Customer) (string, bool, error) {
					s, err := segment("CUST", c.ID)
					return s, c.Admin, err
				}),
			},
		},
	}
}

type shop struct {
	table     *keyfirst.Table
	orders    *keyfirst.Entity[Order]
	customers *keyfirst.Entity[Customer]
}

// newShop builds the schema and entities; name "" keeps the spec's name.
func newShop(t testing.TB, name string) shop {
	t.Helper()
	spec := shopSpec()
	if name != "" {
		spec.Name = name
	}
	table, err := keyfirst.NewTable(spec)
	if err != nil {
		t.Fatal(err)
	}
	orders, err := keyfirst.NewEntity(table, orderSpec())
	if err != nil {
		t.Fatal(err)
	}
	customers, err := keyfirst.NewEntity(table, customerSpec())
	if err != nil {
		t.Fatal(err)
	}
	return shop{table, orders, customers}
}

// localShop creates the shop's table in DynamoDB Local, for this test only.
func localShop(t testing.TB) (*dynamodb.Client, shop) {
	t.Helper()
	client := integration.Client(t)
	name := integration.CreateTable(t, newShop(t, "").table.CreateTableInput())
	return client, newShop(t, name)
}

var day = time.Date(2019, 7, 1, 0, 0, 0, 0, time.UTC)

func order(customer, id string, status Status, placed time.Time) Order {
	return Order{Customer: customer, ID: id, Status: status, PlacedAt: placed, Total: 100, Tags: []string{"a"}}
}

// noCalls is a client every method of which fails the test: bad input must
// be refused before any request.
type noCalls struct{ t testing.TB }

func (c noCalls) fail(op string) error {
	c.t.Helper()
	c.t.Errorf("unexpected %s request: bad input must be refused before any request", op)
	return errors.New("unexpected request")
}

func (c noCalls) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return nil, c.fail("GetItem")
}

func (c noCalls) PutItem(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return nil, c.fail("PutItem")
}

func (c noCalls) UpdateItem(context.Context, *dynamodb.UpdateItemInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	return nil, c.fail("UpdateItem")
}

func (c noCalls) DeleteItem(context.Context, *dynamodb.DeleteItemInput, ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	return nil, c.fail("DeleteItem")
}

func (c noCalls) BatchGetItem(context.Context, *dynamodb.BatchGetItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	return nil, c.fail("BatchGetItem")
}

func (c noCalls) BatchWriteItem(context.Context, *dynamodb.BatchWriteItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	return nil, c.fail("BatchWriteItem")
}

// must fails the test on an error.
func must[V any](t testing.TB, v V, err error) V {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	return v
}
