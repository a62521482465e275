package shard_test

import (
	"cmp"
	"context"
	"github.com/keyfirst/keyfirst/internal/nocalls"
	"slices"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/shard"
)

func TestMain(m *testing.M) { integration.Main(m) }

// ---- seed 002: orders, and the write-sharded index of the open ones ----
//
//	PK            entity   GSIs
//	ORDER#<id>    Order    open-orders (open_status_shard = OPEN#<n>; order_date), sparse, sharded by hash of the id
//	                       by-region (region_shard = REGION#<n>), every item, sharded by Pick
//	                       open-by-customer (open_customer_shard = OPEN#<n>; order_date2), sharded by hash of the customer

type Order struct {
	ID       string `dynamodbav:"order_id"`
	Customer string `dynamodbav:"customer_id"`
	Status   string `dynamodbav:"status"`
	Date     string `dynamodbav:"date"` // 2026-06-23T10:00:00Z
	Region   string `dynamodbav:"region"`
}

const (
	open   = "OPEN"
	closed = "CLOSED"
)

func (o Order) isOpen() bool { return o.Status == open }

var regions = map[string]int{"eu": 0, "us": 1}

var (
	orderKey  = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))
	orderByID = keyfirst.OnTable(keyfirst.Composite("PK", orderKey), keyfirst.NoSort())

	orderDate  = keyfirst.Str("order_date") // open-orders' sort side: its conditions are typed
	openByDate = keyfirst.OnIndex("open-orders", keyfirst.Str("open_status_shard"), orderDate)
	byRegion   = keyfirst.OnIndex("by-region", keyfirst.Str("region_shard"), keyfirst.NoSort())
	byCustomer = keyfirst.OnIndex("open-by-customer", keyfirst.Str("open_customer_shard"), keyfirst.Str("order_date2"))

	// Seed 002: 2,000 writes/s gives 3 shards; the shard is the frozen
	// hash of the order id; only open orders are in the index.
	openOrders = keyfirst.Must(shard.New(openByDate, shard.Spec[Order, string]{
		Base:   "OPEN",
		Shards: shard.Count(2000),
		Field:  "ID",
		Sort:   func(o Order) string { return o.Date },
		When:   Order.isOpen,
	}))
	// Every order, on the shard of its region (Pick); an unknown region
	// has none.
	regionShards = keyfirst.Must(shard.New(byRegion, shard.Spec[Order, keyfirst.None]{
		Base:   "REGION",
		Shards: 2,
		Pick: func(o Order) int {
			if n, ok := regions[o.Region]; ok {
				return n
			}
			return -1
		},
	}))
	// Open orders again, hashed on the customer: a field that can be empty.
	customerShards = keyfirst.Must(shard.New(byCustomer, shard.Spec[Order, string]{
		Base:   "OPEN",
		Shards: 3,
		Field:  "Customer",
		Sort:   func(o Order) string { return o.Date },
		When:   Order.isOpen,
	}))

	shopTable = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{
		Name: "orders",
		Key:  orderByID,
		GSIs: []keyfirst.Index{openByDate.Index(), byRegion.Index(), byCustomer.Index()},
	}))
	// orders is seed 002's entity: its sharded indexes are keys like any
	// other.
	orders = keyfirst.Must(keyfirst.NewEntity(shopTable, keyfirst.EntitySpec[Order]{
		Type: "ORDER",
		Keys: []keyfirst.Binding{orderByID.Fields("ID"), openOrders.Binding(), regionShards.Binding()},
	}))
	// byCustomerOrders is the same Go type with the customer-hashed index.
	byCustomerOrders = keyfirst.Must(keyfirst.NewEntity(shopTable, keyfirst.EntitySpec[Order]{
		Type: "ORDER_C",
		Keys: []keyfirst.Binding{orderByID.Fields("ID"), customerShards.Binding()},
	}))
)

// shop is the orders table created in DynamoDB Local for one test.
type shop struct {
	client     *dynamodb.Client
	table      *keyfirst.Table
	orders     *keyfirst.Entity[Order]
	byCustomer *keyfirst.Entity[Order]
}

// localShop creates it, and returns it with a context for the test's
// requests (integration.Context, cancelled when the test ends).
func localShop(t testing.TB) (shop, context.Context) {
	t.Helper()
	table, ctx := localTable(t, shopTable)
	return shop{integration.Client(t), table, keyfirst.Must(orders.In(table)), keyfirst.Must(byCustomerOrders.In(table))}, ctx
}

// localTable creates a table of schema in DynamoDB Local for this test and
// returns its binding, with a context for the test's requests
// (integration.Context, cancelled when the test ends).
func localTable(t testing.TB, schema *keyfirst.Table) (*keyfirst.Table, context.Context) {
	t.Helper()
	table := integration.TableOf(t, schema)
	ctx, cancel := integration.Context(t)
	t.Cleanup(cancel)
	return table, ctx
}

func order(id, status, date string) Order {
	region := "eu"
	if len(id)%2 == 0 {
		region = "us"
	}
	return Order{ID: id, Customer: "c-" + id, Status: status, Date: date, Region: region}
}

// wantShard is the shard the package doc's hash gives, computed by the
// test's own FNV-1a.
func wantShard(id string, n int) string {
	return "OPEN#" + strconv.Itoa(int(fnv1a32(id)%uint32(n)))
}

// raw is the stored item of order id, as DynamoDB holds it.
func (s shop) raw(t testing.TB, id string) map[string]types.AttributeValue {
	t.Helper()
	ctx, cancel := integration.Context(t)
	defer cancel()
	pk, err := orderByID.PartitionValues(id)
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(s.table.Name()), Key: map[string]types.AttributeValue{"PK": pk[0]}, ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.Item == nil {
		t.Fatalf("order %s is not stored", id)
	}
	return out.Item
}

// shardIDs reads one partition of a sharded index with the query package,
// newest first, and returns the ids in the order read.
func (s shop) shardIDs(t testing.TB, p keyfirst.Pattern[string, string], partition string) []string {
	t.Helper()
	ctx, cancel := integration.Context(t)
	defer cancel()
	got, err := query.On(s.orders, p, partition).Desc().Collect(ctx, s.client)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(got))
	for i, o := range got {
		ids[i] = o.ID
	}
	return ids
}

// checkShards asserts that every order of stored is on the shard its hash
// says while it is open and on none while it is closed: the raw item
// carries open_status_shard and order_date or neither, and each shard's
// partition holds exactly its open orders, newest first.
func (s shop) checkShards(t testing.TB, step string, stored []Order) {
	t.Helper()
	parts := openOrders.Partitions()
	want := make(map[string][]Order, len(parts))
	for _, o := range stored {
		item := s.raw(t, o.ID)
		shardAV, hasShard := item["open_status_shard"]
		dateAV, hasDate := item["order_date"]
		switch {
		case o.isOpen() && (!hasShard || !hasDate):
			t.Errorf("%s: open order %s has open_status_shard %v, order_date %v", step, o.ID, hasShard, hasDate)
		case o.isOpen() && (text(shardAV) != wantShard(o.ID, 3) || text(dateAV) != o.Date):
			t.Errorf("%s: open order %s is stored with open_status_shard = %q, order_date = %q; want %q, %q",
				step, o.ID, text(shardAV), text(dateAV), wantShard(o.ID, 3), o.Date)
		case !o.isOpen() && (hasShard || hasDate):
			t.Errorf("%s: closed order %s still has open_status_shard %v, order_date %v", step, o.ID, hasShard, hasDate)
		}
		if o.isOpen() {
			want[wantShard(o.ID, 3)] = append(want[wantShard(o.ID, 3)], o)
		}
	}
	for _, part := range parts {
		w := want[part]
		slices.SortFunc(w, func(a, b Order) int { return cmp.Compare(b.Date, a.Date) })
		var wantIDs []string
		for _, o := range w {
			wantIDs = append(wantIDs, o.ID)
		}
		if got := s.shardIDs(t, openByDate, part); !slices.Equal(got, wantIDs) {
			t.Errorf("%s: shard %s holds %v, want %v", step, part, got, wantIDs)
		}
	}
}

func text(av types.AttributeValue) string {
	if s, ok := av.(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

// noCalls fails the test on any request: bad input must be refused
// before any request.
type noCalls = nocalls.Client
