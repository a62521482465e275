package txn_test

import (
	"context"
	"github.com/keyfirst/keyfirst/internal/nocalls"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/shard"
	"github.com/keyfirst/keyfirst/txn"
)

func TestMain(m *testing.M) { integration.Main(m) }

// The shop of seed 004, in one table:
//
//	PK              SK          entity    indexes
//	PRODUCT#<id>    PRODUCT     Product   (versioned: the stock)
//	CUST#<c>        ORDER#<id>  Order     open-orders (sparse: openBucket = OPEN, placedAt) while open;
//	                                      open-shard (sharded: open_shard = OPEN#<n>, open_date) while open
//	USER#<id>       USER        User      (versioned; email unique through markers)

type Product struct {
	ID      string `dynamodbav:"id"`
	Name    string `dynamodbav:"name"`
	Stock   int    `dynamodbav:"stock"`
	Version int64  `dynamodbav:"version"`
}

type Status string

const (
	Open   Status = "OPEN"
	Closed Status = "CLOSED"
)

type Order struct {
	Customer string `dynamodbav:"customer"`
	ID       string `dynamodbav:"id"`
	Product  string `dynamodbav:"product,omitempty"`
	Status   Status `dynamodbav:"status"`
	Placed   string `dynamodbav:"placed"` // 2026-06-23T10:00:00Z
	Note     string `dynamodbav:"note,omitempty"`
}

func (o Order) isOpen() bool { return o.Status == Open }

type User struct {
	ID      string `dynamodbav:"id"`
	Email   string `dynamodbav:"email,omitempty"`
	Name    string `dynamodbav:"name"`
	Version int64  `dynamodbav:"version"`
}

var (
	openShardPattern = keyfirst.OnIndex("open-shard", keyfirst.Str("open_shard"), keyfirst.Str("open_date"))
	openShards       = keyfirst.Must(shard.New(openShardPattern, shard.Spec[Order, string]{
		Base: "OPEN", Shards: 3, Field: "ID",
		Sort: func(o Order) string { return o.Placed },
		When: Order.isOpen,
	}))

	shopTable = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{
		Name:         "txn-shop",
		PartitionKey: keyfirst.StringAttr("PK"),
		SortKey:      keyfirst.StringAttr("SK"),
		GSIs: []keyfirst.Index{
			{Name: "open-orders", PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("openBucket")},
				SortKey: []keyfirst.Attribute{keyfirst.StringAttr("placedAt")}},
			openShardPattern.Index(),
		},
	}))

	customerKey = idKey("CUST")
	// openOrders is the sparse index of open orders: openBucket = "OPEN"
	// and the order's placed time while it is open.
	openOrders = keyfirst.OnIndex("open-orders", keyfirst.Const("openBucket", "OPEN"), keyfirst.Str("placedAt"))

	products = keyfirst.Must(keyfirst.NewEntity(shopTable, keyfirst.EntitySpec[Product]{
		Type:    "PRODUCT",
		Keys:    []keyfirst.Binding{typedKey("PRODUCT").Fields("ID")},
		Version: "version",
	}))
	orderSpec = keyfirst.EntitySpec[Order]{
		Type: "ORDER",
		Keys: []keyfirst.Binding{
			keyfirst.OnTable(keyfirst.Composite("PK", customerKey), keyfirst.Composite("SK", idKey("ORDER"))).Fields("Customer", "ID"),
			keyfirst.If(openOrders.Fields("Placed"), Order.isOpen),
			openShards.Binding(),
		},
	}
	orders = keyfirst.Must(keyfirst.NewEntity(shopTable, orderSpec))
	// archived is another entity type of the same Go type: its keys are
	// not orders' keys.
	archived = keyfirst.Must(keyfirst.NewEntity(shopTable, keyfirst.EntitySpec[Order]{
		Type: "ARCHIVED",
		Keys: []keyfirst.Binding{keyfirst.OnTable(keyfirst.Composite("PK", customerKey), keyfirst.Composite("SK", idKey("ARCHIVED"))).Fields("Customer", "ID")},
	}))
	users = keyfirst.Must(keyfirst.NewEntity(shopTable, keyfirst.EntitySpec[User]{
		Type:    "USER",
		Keys:    []keyfirst.Binding{typedKey("USER").Fields("ID")},
		Version: "version",
		Unique:  []string{"Email"},
	}))
)

// idKey is the key <prefix>#<id>, which refuses an empty id.
func idKey(prefix string) keys.Key1[string] {
	return keys.NewKey1(keys.ID[string](), keys.WithPrefix(prefix))
}

// typedKey is the table key of an entity type typ stored under
// PK = <typ>#<id>, SK = <typ>.
func typedKey(typ string) keyfirst.Pattern[string, keyfirst.None] {
	return keyfirst.OnTable(keyfirst.Composite("PK", idKey(typ)), keyfirst.Const("SK", typ))
}

// shop is the table created in DynamoDB Local for one test, with its
// entities bound to it.
type shop struct {
	client   *dynamodb.Client
	table    *keyfirst.Table
	products *keyfirst.Entity[Product]
	orders   *keyfirst.Entity[Order]
	archived *keyfirst.Entity[Order]
	users    *keyfirst.Entity[User]
}

// localShop creates the shop's table for this test, and returns it with a
// context for the test's requests.
func localShop(t testing.TB) (shop, context.Context) {
	t.Helper()
	table := integration.TableOf(t, shopTable)
	ctx, cancel := integration.Context(t)
	t.Cleanup(cancel)
	return shop{
		client:   integration.Client(t),
		table:    table,
		products: keyfirst.Must(products.In(table)),
		orders:   keyfirst.Must(orders.In(table)),
		archived: keyfirst.Must(archived.In(table)),
		users:    keyfirst.Must(users.In(table)),
	}, ctx
}

func order(customer, id string, s Status, placed string) Order {
	return Order{Customer: customer, ID: id, Status: s, Placed: placed}
}

// raw reads the stored item with key (nil when missing), consistently.
func (s shop) raw(t testing.TB, pk, sk string) map[string]types.AttributeValue {
	t.Helper()
	out, err := s.client.GetItem(context.Background(), &dynamodb.GetItemInput{
		TableName: aws.String(s.table.Name()), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"PK": sv(pk), "SK": sv(sk)},
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.Item
}

// partition returns the SK of every item of a partition of the table or
// of an index (index ""), under the partition key attribute pkAttr.
func (s shop) partition(t testing.TB, index, pkAttr, pk string) []string {
	t.Helper()
	x, err := expression.NewBuilder().WithKeyCondition(expression.Key(pkAttr).Equal(expression.Value(pk))).Build()
	if err != nil {
		t.Fatal(err)
	}
	in := &dynamodb.QueryInput{TableName: aws.String(s.table.Name()), KeyConditionExpression: x.KeyCondition(),
		ExpressionAttributeNames: x.Names(), ExpressionAttributeValues: x.Values()}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	var sks []string
	p := dynamodb.NewQueryPaginator(s.client, in)
	for p.HasMorePages() {
		out, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			sks = append(sks, it["SK"].(*types.AttributeValueMemberS).Value)
		}
	}
	return sks
}

func sv(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }

func mustKey[T any](t testing.TB, e *keyfirst.Entity[T], v T) keyfirst.Key[T] {
	t.Helper()
	k, err := e.Key(v)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func mustWrite(t testing.TB, ctx context.Context, client txn.WriteAPI, actions ...txn.Action) {
	t.Helper()
	if err := txn.Write(ctx, client, actions); err != nil {
		t.Fatal(err)
	}
}

// noCalls fails the test on any request: bad input must be refused
// before any request.
type noCalls = nocalls.Client
