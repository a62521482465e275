package migrate_test

import (
	"context"
	"fmt"
	"github.com/keyfirst/keyfirst/internal/nocalls"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/migrate"
	"github.com/keyfirst/keyfirst/shard"
)

func TestMain(m *testing.M) { integration.Main(m) }

// ---- seed 000: orders whose GSI sort key was declared date first ----
//
//	PK             SK              entity    GSIs
//	CUSTOMER#<id>  ORDER#<id>      Order     ByDateStatus (CustomerId; DateStatus = <date>#<status>): the mistake
//	                                         ByStatusDate (CustomerId; StatusDate = <status>#<date>): the fix
//	                                         OpenOrders (OpenBucket; OpenDate): a sparse rule
//	CUSTOMER#<id>  CUSTOMER#<id>   Customer

type Status string

const (
	Pending   Status = "PENDING"
	Shipped   Status = "SHIPPED"
	Cancelled Status = "CANCELLED"
)

type Order struct {
	CustomerID string    `dynamodbav:"CustomerId"`
	ID         string    `dynamodbav:"OrderId"`
	Status     Status    `dynamodbav:"Status"`
	Date       time.Time `dynamodbav:"Date"`
	Total      int       `dynamodbav:"Total"`
}

type Customer struct {
	ID   string `dynamodbav:"Id"`
	Name string `dynamodbav:"Name"`
}

var (
	customerKey = keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUSTOMER"))
	orderKey    = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))
	dateStatus  = keys.NewKey2(keys.Time(keys.Micro), keys.Enum(Pending, Shipped, Cancelled))
	statusDate  = keys.NewKey2(keys.Enum(Pending, Shipped, Cancelled), keys.Time(keys.Micro))

	orderByID    = keyfirst.OnTable(keyfirst.Composite("PK", customerKey), keyfirst.Composite("SK", orderKey))
	customerByID = keyfirst.OnTable(keyfirst.Composite("PK", customerKey), keyfirst.Composite("SK", customerKey))
	byDateStatus = keyfirst.OnIndex("ByDateStatus", keyfirst.Str("CustomerId"), keyfirst.Composite("DateStatus", dateStatus))
	byStatusDate = keyfirst.OnIndex("ByStatusDate", keyfirst.Str("CustomerId"), keyfirst.Composite("StatusDate", statusDate))
	openOrders   = keyfirst.OnIndex("OpenOrders", keyfirst.Str("OpenBucket"), keyfirst.Str("OpenDate"))
)

// design is one release of the order entity.
type design struct {
	statusFirst bool   // binds ByStatusDate (seed 000's fix)
	open        Status // binds OpenOrders for the orders of that status ("": not bound)
}

var (
	dateFirst   = design{}
	statusFirst = design{statusFirst: true}
)

func shopSpec() keyfirst.TableSpec {
	return keyfirst.TableSpec{Name: "shop", Key: orderByID,
		GSIs: []keyfirst.Index{byDateStatus.Index(), byStatusDate.Index(), openOrders.Index()}}
}

// shop is one release of the service, bound to a table.
type shop struct {
	table     *keyfirst.Table
	orders    *keyfirst.Entity[Order]
	customers *keyfirst.Entity[Customer]
}

// release declares the shop of design d (a description of its own, as a
// release of the service has) and binds it to the table called name.
func release(t testing.TB, d design, name string) shop {
	t.Helper()
	desc := keyfirst.Must(keyfirst.NewTable(shopSpec()))
	s, err := declare(d, keyfirst.Must(desc.Named(name)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// declare declares the entities of design d on table.
func declare(d design, table *keyfirst.Table) (shop, error) {
	bindings := []keyfirst.Binding{orderByID.Fields("CustomerID", "ID"), byDateStatus.Fields("CustomerID", "Date", "Status")}
	if d.statusFirst {
		bindings = append(bindings, byStatusDate.Fields("CustomerID", "Status", "Date"))
	}
	if d.open != "" {
		status := d.open
		bindings = append(bindings, keyfirst.If(keyfirst.Func(openOrders, func(o Order) (string, string, bool) {
			return "OPEN", o.Date.UTC().Format(time.RFC3339Nano), true
		}), func(o Order) bool { return o.Status == status }))
	}
	orders, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Order]{Type: "Order", Keys: bindings})
	if err != nil {
		return shop{}, err
	}
	customers, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Customer]{Type: "Customer",
		Keys: []keyfirst.Binding{customerByID.Fields("ID", "ID")}})
	return shop{table, orders, customers}, err
}

// liveShop creates the shop's table in DynamoDB Local for this test.
func liveShop(t testing.TB) (*dynamodb.Client, string) {
	t.Helper()
	desc := keyfirst.Must(keyfirst.NewTable(shopSpec()))
	return integration.Client(t), integration.CreateTable(t, desc.CreateTableInput())
}

var statuses = []Status{Pending, Shipped, Cancelled}

// seedOrders writes n orders of customers c0..c9 with s (deterministic
// statuses and dates over 2019) and the 10 customers, in batches.
func seedOrders(t testing.TB, client *dynamodb.Client, s shop, n int) []Order {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(n), 16))
	var reqs []keyfirst.WriteRequest
	var out []Order
	for i := range n {
		o := Order{CustomerID: fmt.Sprintf("c%d", i%10), ID: fmt.Sprintf("o%04d", i), Status: statuses[r.IntN(3)],
			Date: time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(r.IntN(365*24)) * time.Hour), Total: r.IntN(1000)}
		out = append(out, o)
		reqs = append(reqs, s.orders.PutRequest(o))
	}
	for i := range 10 {
		reqs = append(reqs, s.customers.PutRequest(Customer{ID: fmt.Sprintf("c%d", i), Name: "n"}))
	}
	ctx, cancel := integration.Context(t)
	defer cancel()
	if err := s.table.BatchWrite(ctx, client, reqs); err != nil {
		t.Fatal(err)
	}
	return out
}

// scanAll reads every item of the table, or of one of its indexes, with
// the SDK.
func scanAll(t testing.TB, client *dynamodb.Client, table, index string) []map[string]types.AttributeValue {
	t.Helper()
	in := &dynamodb.ScanInput{TableName: &table, ConsistentRead: aws.Bool(index == "")}
	if index != "" {
		in.IndexName = &index
	}
	var items []map[string]types.AttributeValue
	p := dynamodb.NewScanPaginator(client, in)
	for p.HasMorePages() {
		out, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, out.Items...)
	}
	return items
}

// ordersIn decodes the orders among items, by id.
func ordersIn(t testing.TB, s shop, items []map[string]types.AttributeValue) map[string]Order {
	t.Helper()
	out := map[string]Order{}
	for _, item := range items {
		if s.table.EntityType(item) != "Order" {
			continue
		}
		o, err := s.orders.Decode(item)
		if err != nil {
			t.Fatal(err)
		}
		out[o.ID] = o
	}
	return out
}

// upToDate fails the test for every order or customer of the table that
// s's definitions would write otherwise.
func upToDate(t testing.TB, client *dynamodb.Client, s shop) {
	t.Helper()
	bad := 0
	for _, item := range scanAll(t, client, s.table.Name(), "") {
		var res keyfirst.RefreshResult
		var err error
		if s.table.EntityType(item) == "Order" {
			res, err = s.orders.PlanRefresh(item)
		} else {
			res, err = s.customers.PlanRefresh(item)
		}
		if err != nil || res.Outcome != keyfirst.RefreshUnchanged {
			if bad++; bad < 5 {
				t.Errorf("%s not up to date: %v set %v remove %v, %v", res.Key, res.Outcome, res.Set, res.Remove, err)
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d items not up to date", bad)
	}
}

// counting wraps a client: it counts requests, records the keys of the
// successful UpdateItems, and can fail or hook requests.
type counting struct {
	*dynamodb.Client
	scans, describes atomic.Int64
	mu               sync.Mutex
	updated          map[string]int // key text -> successful updates
	// afterUpdate, when set, is called after each successful UpdateItem.
	afterUpdate func(n int)
	// inject, when set, is called before each Scan and UpdateItem (op,
	// number of the request of that kind): an error it returns is the
	// request's, which is then not sent.
	inject func(op string, n int64) error
	calls  atomic.Int64
}

func newCounting(c *dynamodb.Client) *counting {
	return &counting{Client: c, updated: map[string]int{}}
}

var errThrottled = &types.ProvisionedThroughputExceededException{Message: aws.String("throttled by the test")}

func (c *counting) Scan(ctx context.Context, in *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	n := c.scans.Add(1)
	if c.inject != nil {
		if err := c.inject("Scan", n); err != nil {
			return nil, err
		}
	}
	return c.Client.Scan(ctx, in, optFns...)
}

func (c *counting) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	c.describes.Add(1)
	return c.Client.DescribeTable(ctx, in, optFns...)
}

func (c *counting) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	n := c.calls.Add(1)
	if c.inject != nil {
		if err := c.inject("UpdateItem", n); err != nil {
			return nil, err
		}
	}
	out, err := c.Client.UpdateItem(ctx, in, optFns...)
	if err == nil {
		key := fmt.Sprint(in.Key["PK"].(*types.AttributeValueMemberS).Value, "/", in.Key["SK"].(*types.AttributeValueMemberS).Value)
		c.mu.Lock()
		c.updated[key]++
		total := 0
		for _, v := range c.updated {
			total += v
		}
		c.mu.Unlock()
		if c.afterUpdate != nil {
			c.afterUpdate(total)
		}
	}
	return out, err
}

// writtenOnce fails the test unless want items were updated, each once.
func (c *counting) writtenOnce(t testing.TB, want int) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.updated) != want {
		t.Errorf("%d items written, want %d", len(c.updated), want)
	}
	for k, n := range c.updated {
		if n != 1 {
			t.Errorf("%s written %d times", k, n)
		}
	}
}

// noCalls fails the test on any request: bad input must be refused
// before any request.
type noCalls = nocalls.Client

// ---- seed 002: the open orders on a write-sharded index ----

type ShardedOrder struct {
	ID      string `dynamodbav:"order_id"`
	Status  string `dynamodbav:"status"`
	Date    string `dynamodbav:"date"`
	Version int64  `dynamodbav:"version"`
}

var (
	shardedByID = keyfirst.OnTable(keyfirst.Composite("PK", orderKey), keyfirst.NoSort())
	openByDate  = keyfirst.OnIndex("open-orders", keyfirst.Str("open_status_shard"), keyfirst.Str("order_date"))
)

// shardedRelease declares the sharded orders with shards shards (and
// previous, the count before) and binds them to the table called name.
func shardedRelease(t testing.TB, shards, previous int, name string) (*keyfirst.Table, *shard.Index[ShardedOrder, string], *keyfirst.Entity[ShardedOrder]) {
	t.Helper()
	ix, err := shard.New(openByDate, shard.Spec[ShardedOrder, string]{
		Base: "OPEN", Shards: shards, PreviousShards: previous, Field: "ID",
		Sort: func(o ShardedOrder) string { return o.Date },
		When: func(o ShardedOrder) bool { return o.Status == "OPEN" },
	})
	if err != nil {
		t.Fatal(err)
	}
	desc := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "sharded", Key: shardedByID, GSIs: []keyfirst.Index{openByDate.Index()}}))
	if name == "" {
		return desc, ix, nil
	}
	table := keyfirst.Must(desc.Named(name))
	orders, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[ShardedOrder]{Type: "ShardedOrder", Version: "version",
		Keys: []keyfirst.Binding{shardedByID.Fields("ID"), ix.Binding()}})
	if err != nil {
		t.Fatal(err)
	}
	return table, ix, orders
}

// run runs b and fails the test on an error.
func run(t testing.TB, b *migrate.Backfill, api migrate.API, optFns ...func(*keyfirst.Options)) *migrate.Report {
	t.Helper()
	ctx, cancel := integration.Context(t)
	defer cancel()
	r, err := b.Run(ctx, api, optFns...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
