package stream_test

import (
	"context"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/shard"
	"github.com/keyfirst/keyfirst/stream"
)

func TestMain(m *testing.M) { integration.Main(m) }

// ---- a shop of seed 002's orders and their customers ----
//
//	PK            entity    GSIs
//	ORDER#<id>    Order     open-orders (open_bucket = "OPEN"; order_date) while open, sparse
//	                        open-sharded (open_shard = OPEN#<n>; order_date) while open, 3 shards
//	                        by-customer (cust = CUSTOMER#<id>; status_date = <status>#<date>), every order
//	CUSTOMER#<id> Customer  none

type Order struct {
	ID       string `dynamodbav:"order_id"`
	Customer string `dynamodbav:"customer_id"`
	Status   string `dynamodbav:"status"`
	Date     string `dynamodbav:"order_date"`
	Total    int64  `dynamodbav:"total"`
}

func (o Order) isOpen() bool { return o.Status == "OPEN" }

type Customer struct {
	ID   string `dynamodbav:"customer_id"`
	Name string `dynamodbav:"name"`
}

var (
	orderKey    = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))
	customerKey = keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUSTOMER"))
	statusDate  = keys.NewKey2(keys.ID[string](), keys.ID[string]())

	orderByID    = keyfirst.OnTable(keyfirst.Composite("PK", orderKey), keyfirst.NoSort())
	customerByID = keyfirst.OnTable(keyfirst.Composite("PK", customerKey), keyfirst.NoSort())
	openByDate   = keyfirst.OnIndex("open-orders", keyfirst.Const("open_bucket", "OPEN"), keyfirst.Str("order_date"))
	shardedOpen  = keyfirst.OnIndex("open-sharded", keyfirst.Str("open_shard"), keyfirst.Str("order_date"))
	byCustomer   = keyfirst.OnIndex("by-customer", keyfirst.Composite("cust", customerKey), keyfirst.Composite("status_date", statusDate))

	openSharded = keyfirst.Must(shard.New(shardedOpen, shard.Spec[Order, string]{Base: "OPEN", Shards: 3,
		Field: "ID", SortField: "Date", When: Order.isOpen, Reads: []string{"Status"}}))

	Shop = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "stream-shop", Key: orderByID,
		GSIs:   []keyfirst.Index{openByDate.Index(), shardedOpen.Index(), byCustomer.Index()},
		Stream: types.StreamViewTypeNewAndOldImages}))
	Orders = keyfirst.Must(keyfirst.NewEntity(Shop, keyfirst.EntitySpec[Order]{Type: "Order", Keys: []keyfirst.Binding{
		orderByID.Fields("ID"),
		keyfirst.If(openByDate.Fields("Date"), Order.isOpen).Reads("Status"),
		openSharded.Binding(),
		byCustomer.Fields("Customer", "Status", "Date"),
	}}))
	Customers = keyfirst.Must(keyfirst.NewEntity(Shop, keyfirst.EntitySpec[Customer]{Type: "Customer", Keys: []keyfirst.Binding{
		customerByID.Fields("ID"),
	}}))
)

// local is a shop on a table of the test's own on DynamoDB Local, with
// clients of DynamoDB and of DynamoDB Streams.
type local struct {
	db        *dynamodb.Client
	streams   *dynamodbstreams.Client
	table     *keyfirst.Table
	orders    *keyfirst.Entity[Order]
	customers *keyfirst.Entity[Customer]
}

func newLocal(t *testing.T) *local {
	t.Helper()
	l := integration.Shared(t)
	table := integration.TableOf(t, Shop)
	return &local{db: l.Client, streams: streamsClient(l.Endpoint), table: table,
		orders: keyfirst.Must(Orders.In(table)), customers: keyfirst.Must(Customers.In(table))}
}

func streamsClient(endpoint string) *dynamodbstreams.Client {
	return dynamodbstreams.New(dynamodbstreams.Options{Region: integration.Region, BaseEndpoint: aws.String(endpoint),
		Credentials: credentials.NewStaticCredentialsProvider("local", "local", "")})
}

// log collects the changes a router hands out, in order.
type log struct {
	mu        sync.Mutex
	orders    []stream.Change[Order]
	customers []stream.Change[Customer]
}

func (g *log) router(t *testing.T, table *keyfirst.Table, orders *keyfirst.Entity[Order], customers *keyfirst.Entity[Customer]) *stream.Router {
	t.Helper()
	r, err := stream.NewRouter(table,
		stream.On(orders, func(_ context.Context, c stream.Change[Order]) error {
			g.mu.Lock()
			defer g.mu.Unlock()
			g.orders = append(g.orders, c)
			return nil
		}),
		stream.On(customers, func(_ context.Context, c stream.Change[Customer]) error {
			g.mu.Lock()
			defer g.mu.Unlock()
			g.customers = append(g.customers, c)
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func (g *log) takeOrders() []stream.Change[Order] {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := g.orders
	g.orders = nil
	return out
}
