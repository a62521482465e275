package keyfirst_test

import (
	"context"
	"fmt"
	"github.com/keyfirst/keyfirst/internal/nocalls"
	"sort"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/keys"
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
// open-orders (sparse): openBucket = "OPEN" only while an order is open,
// sorted by its total.
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
				SortKey: []keyfirst.Attribute{keyfirst.NumberAttr("total")}, Projection: keyfirst.KeysOnly(), Scannable: true},
		},
		LSIs: []keyfirst.Index{
			{Name: "by-total", SortKey: []keyfirst.Attribute{keyfirst.NumberAttr("total")}, Projection: keyfirst.Include("status")},
		},
	}
}

// The shop's keys: CUST#<id>, ORDER#<id>, and GSI1's enum-first
// <status>#<placedAt>, whose ids refuse what a key codec refuses (an
// empty id, a separator).
var (
	shopCustomer     = keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUST"))
	shopOrderID      = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))
	shopStatusPlaced = keys.NewKey2(keys.ID[Status](), keys.Time(keys.Micro, keys.WithZ))

	shopOrders    = keyfirst.OnTable(keyfirst.Composite("PK", shopCustomer), keyfirst.Composite("SK", shopOrderID))
	shopCustomers = keyfirst.OnTable(keyfirst.Composite("PK", shopCustomer), keyfirst.Composite("SK", shopCustomer))
	// shopByStatus is GSI1 for orders: a customer's orders by status and
	// date; shopAdmins is GSI1 for customers: the admins, under "ADMIN".
	shopByStatus = keyfirst.OnIndex("GSI1", keyfirst.Composite("GSI1PK", shopCustomer), keyfirst.Composite("GSI1SK", shopStatusPlaced))
	shopAdmins   = keyfirst.OnIndex("GSI1", keyfirst.Const("GSI1PK", "ADMIN"), keyfirst.Composite("GSI1SK", shopCustomer))
	// shopOpen is the sparse open-orders index: openBucket = "OPEN" while
	// an order is open, sorted by the order's own total field.
	shopOpen = keyfirst.OnIndex("open-orders", keyfirst.Const("openBucket", "OPEN"), keyfirst.Num[int64]("total"))
)

// selfKey binds a table whose partition and sort key attributes are pk
// and sk to an entity's ID field, both <typ>#<ID>.
func selfKey(pk, sk, typ string) keyfirst.Binding {
	k := keys.NewKey1(keys.ID[string](), keys.WithPrefix(typ))
	return keyfirst.OnTable(keyfirst.Composite(pk, k), keyfirst.Composite(sk, k)).Fields("ID", "ID")
}

func isOpen(o Order) bool { return o.Status == Open }

func orderSpec() keyfirst.EntitySpec[Order] {
	return keyfirst.EntitySpec[Order]{
		Type: "ORDER",
		Keys: []keyfirst.Binding{
			shopOrders.Fields("Customer", "ID"),
			shopByStatus.Fields("Customer", "Status", "PlacedAt"),
			keyfirst.If(shopOpen.Fields("Total"), isOpen),
		},
		Version: "version",
	}
}

func customerSpec() keyfirst.EntitySpec[Customer] {
	return keyfirst.EntitySpec[Customer]{
		Type: "CUSTOMER",
		Keys: []keyfirst.Binding{
			shopCustomers.Fields("ID", "ID"),
			keyfirst.If(shopAdmins.Fields("ID"), func(c Customer) bool { return c.Admin }),
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

// in returns the shop bound to table, a binding of its description.
func (s shop) in(table *keyfirst.Table) shop {
	return shop{table, keyfirst.Must(s.orders.In(table)), keyfirst.Must(s.customers.In(table))}
}

// localShop creates the shop's table in DynamoDB Local, for this test only.
func localShop(t testing.TB) (*dynamodb.Client, shop) {
	t.Helper()
	s := newShop(t, "")
	return integration.Client(t), s.in(localBinding(t, s.table))
}

// localBinding creates table's table in DynamoDB Local, for this test only,
// and returns table's description bound to the name it got.
func localBinding(t testing.TB, table *keyfirst.Table) *keyfirst.Table {
	t.Helper()
	return integration.TableOf(t, table)
}

var day = time.Date(2019, 7, 1, 0, 0, 0, 0, time.UTC)

func order(customer, id string, status Status, placed time.Time) Order {
	return Order{Customer: customer, ID: id, Status: status, PlacedAt: placed, Total: 100, Tags: []string{"a"}}
}

// noCalls fails the test on any request: bad input must be refused
// before any request.
type noCalls = nocalls.Client

// mustItem is e.Item(v), failing the test on an error.
func mustItem[T any](t testing.TB, e *keyfirst.Entity[T], v T) map[string]types.AttributeValue {
	t.Helper()
	item, err := e.Item(v)
	if err != nil {
		t.Fatal(err)
	}
	return item
}

// mustKey is e.Key(v), failing the test on an error.
func mustKey[T any](t testing.TB, e *keyfirst.Entity[T], v T) keyfirst.Key[T] {
	t.Helper()
	k, err := e.Key(v)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// rawItem reads the stored item with a plain GetItem (nil when missing).
func rawItem(t testing.TB, client *dynamodb.Client, table string, key map[string]types.AttributeValue) map[string]types.AttributeValue {
	t.Helper()
	out, err := client.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: &table, Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	return out.Item
}

// queryIDs runs a raw SDK Query with an equality on each partition
// attribute and, when skName is set, begins_with(skName, skPrefix), and
// returns the "id" (or, for KEYS_ONLY indexes, the SK) of each item.
func queryIDs(t testing.TB, client *dynamodb.Client, table, index string, pk map[string]string, skName, skPrefix string) []string {
	t.Helper()
	var kc expression.KeyConditionBuilder
	first := true
	for _, name := range sortedKeys(pk) {
		c := expression.Key(name).Equal(expression.Value(pk[name]))
		if first {
			kc, first = c, false
		} else {
			kc = kc.And(c)
		}
	}
	if skName != "" {
		kc = kc.And(expression.Key(skName).BeginsWith(skPrefix))
	}
	x, err := expression.NewBuilder().WithKeyCondition(kc).Build()
	if err != nil {
		t.Fatal(err)
	}
	in := &dynamodb.QueryInput{
		TableName:                 &table,
		KeyConditionExpression:    x.KeyCondition(),
		ExpressionAttributeNames:  x.Names(),
		ExpressionAttributeValues: x.Values(),
	}
	if index != "" {
		in.IndexName = &index
	}
	var ids []string
	p := dynamodb.NewQueryPaginator(client, in)
	for p.HasMorePages() {
		out, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, item := range out.Items {
			if id, ok := item["id"].(*types.AttributeValueMemberS); ok {
				ids = append(ids, id.Value)
			} else {
				ids = append(ids, item["SK"].(*types.AttributeValueMemberS).Value)
			}
		}
	}
	return ids
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// localTable creates the shop's table in DynamoDB Local for this test and
// returns it without entities, for tests that register their own.
func localTable(t testing.TB) (*dynamodb.Client, *keyfirst.Table) {
	t.Helper()
	return localTableOf(t, shopSpec())
}

// localTableOf creates the table of spec in DynamoDB Local for this test.
func localTableOf(t testing.TB, spec keyfirst.TableSpec) (*dynamodb.Client, *keyfirst.Table) {
	t.Helper()
	table, err := keyfirst.NewTable(spec)
	if err != nil {
		t.Fatal(err)
	}
	return integration.Client(t), localBinding(t, table)
}

type typesAV = types.AttributeValue

func sAV(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }

func ptr[V any](v V) *V { return &v }

// avText prints a scalar attribute value.
func avText(av types.AttributeValue) string {
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		return x.Value
	case *types.AttributeValueMemberN:
		return x.Value
	case nil:
		return ""
	}
	return fmt.Sprintf("%T", av)
}

// queryItems returns the items of one partition of the table.
func queryItems(t testing.TB, client *dynamodb.Client, table, pkName, pk string) []map[string]types.AttributeValue {
	t.Helper()
	x, err := expression.NewBuilder().WithKeyCondition(expression.Key(pkName).Equal(expression.Value(pk))).Build()
	if err != nil {
		t.Fatal(err)
	}
	out, err := client.Query(context.Background(), &dynamodb.QueryInput{
		TableName: &table, KeyConditionExpression: x.KeyCondition(),
		ExpressionAttributeNames: x.Names(), ExpressionAttributeValues: x.Values(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.Items
}

// mustPut is e.Put(v), failing the test on an error.
func mustPut[T any](t testing.TB, client keyfirst.PutItemAPI, e *keyfirst.Entity[T], v T) T {
	t.Helper()
	out, err := e.Put(context.Background(), client, v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// putRaw writes item with a plain PutItem, as another program would.
func putRaw(t testing.TB, client *dynamodb.Client, table string, item map[string]types.AttributeValue) {
	t.Helper()
	if _, err := client.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: &table, Item: item}); err != nil {
		t.Fatal(err)
	}
}
