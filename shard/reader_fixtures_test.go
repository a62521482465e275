package shard_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/shard"
)

// ---- the merge table: seed 002's sharded open orders, and a reference ----
//
// open-orders is sharded as in fixtures_test.go; all-open holds the same
// open orders in one partition (a sharded index of one shard: ALL#0), the
// single-partition reference a merge must equal. spread/spread-ref are
// the same pair for Item, on 10 shards chosen by Pick.

type Item struct {
	ID     string `dynamodbav:"item_id"`
	Bucket string `dynamodbav:"bucket"` // the sort value, shared by many items
	Shard  int    `dynamodbav:"shard"`  // the spread shard Pick returns
}

var (
	itemKey  = orderKey
	itemByID = keyfirst.OnTable(keyfirst.Composite("PK", itemKey), keyfirst.NoSort())

	// The sort sides, whose conditions the reads build.
	refDate     = keyfirst.Str("ref_date")
	spreadSK    = keyfirst.Str("spread_sk")
	spreadRefSK = keyfirst.Str("spread_ref_sk")

	refByDate   = keyfirst.OnIndex("all-open", keyfirst.Str("all_open"), refDate)
	spreadIx    = keyfirst.OnIndex("spread", keyfirst.Str("spread_shard"), spreadSK)
	spreadRefIx = keyfirst.OnIndex("spread-ref", keyfirst.Str("spread_all"), spreadRefSK)

	refOrders = keyfirst.Must(shard.New(refByDate, shard.Spec[Order, string]{
		Base: "ALL", Shards: 1, Field: "ID", Sort: func(o Order) string { return o.Date }, When: Order.isOpen,
	}))
	spreadShards = spreadSpec(10, 0)
	spreadRef    = keyfirst.Must(shard.New(spreadRefIx, shard.Spec[Item, string]{
		Base: "ALL", Shards: 1, Field: "ID", Sort: func(v Item) string { return v.Bucket },
	}))

	mergeSpec = keyfirst.TableSpec{
		Name: "merge",
		Key:  orderByID,
		GSIs: []keyfirst.Index{openByDate.Index(), refByDate.Index(), spreadIx.Index(), spreadRefIx.Index()},
	}
	mergeTable  = keyfirst.Must(keyfirst.NewTable(mergeSpec))
	mergeOrders = keyfirst.Must(keyfirst.NewEntity(mergeTable, keyfirst.EntitySpec[Order]{
		Type: "ORDER",
		Keys: []keyfirst.Binding{orderByID.Fields("ID"), openOrders.Binding(), refOrders.Binding()},
	}))
	mergeItems = keyfirst.Must(keyfirst.NewEntity(mergeTable, keyfirst.EntitySpec[Item]{
		Type: "ITEM",
		Keys: []keyfirst.Binding{itemByID.Fields("ID"), spreadShards.Binding(), spreadRef.Binding()},
	}))
)

// spreadSpec is the spread index on shards shards (previous: the count
// before a change): an item's Shard field, mod shards.
func spreadSpec(shards, previous int) *shard.Index[Item, string] {
	return keyfirst.Must(shard.New(spreadIx, shard.Spec[Item, string]{
		Base: "S", Shards: shards, PreviousShards: previous,
		Pick: func(v Item) int { return v.Shard % shards },
		Sort: func(v Item) string { return v.Bucket },
	}))
}

// merging is the merge table created in DynamoDB Local for one test.
type merging struct {
	client *dynamodb.Client
	table  *keyfirst.Table
	orders *keyfirst.Entity[Order]
	items  *keyfirst.Entity[Item]
}

func localMerge(t testing.TB) (merging, context.Context) {
	t.Helper()
	table, ctx := localTable(t, mergeTable)
	return merging{integration.Client(t), table, keyfirst.Must(mergeOrders.In(table)), keyfirst.Must(mergeItems.In(table))}, ctx
}

// itemsOn is m's items bound with ix as their spread index instead of
// spreadShards: the entity of another description of the merge table (a
// deployment that declares ix), bound to m's table.
func (m merging) itemsOn(ix *shard.Index[Item, string]) *keyfirst.Entity[Item] {
	desc := keyfirst.Must(keyfirst.NewTable(mergeSpec))
	items := keyfirst.Must(keyfirst.NewEntity(desc, keyfirst.EntitySpec[Item]{
		Type: "ITEM",
		Keys: []keyfirst.Binding{itemByID.Fields("ID"), ix.Binding(), spreadRef.Binding()},
	}))
	return keyfirst.Must(items.In(keyfirst.Must(desc.Named(m.table.Name()))))
}

// spreadItems are n items over 10 shards, unevenly: shard 9 empty, shard 0
// half of them, the rest over 1..8; 40 distinct sort values, so many equal.
func spreadItems(n int) []Item {
	out := make([]Item, n)
	for i := range out {
		sh := 0
		if i%2 == 1 {
			sh = 1 + (i/2)%8
		}
		out[i] = Item{ID: fmt.Sprintf("i-%05d", (i*7919)%n), Bucket: fmt.Sprintf("B%02d", (i*31)%40), Shard: sh}
	}
	return out
}

// load writes items with BatchWrite.
func (m merging) load(t testing.TB, ctx context.Context, items []Item) {
	t.Helper()
	reqs := make([]keyfirst.WriteRequest, len(items))
	for i, v := range items {
		reqs[i] = m.items.PutRequest(v)
	}
	if err := m.table.BatchWrite(ctx, m.client, reqs); err != nil {
		t.Fatal(err)
	}
}

// reference reads the single-partition reference of the spread index.
func (m merging) reference(t testing.TB, ctx context.Context, desc bool, cond *keyfirst.SortCond) []Item {
	t.Helper()
	q := query.On(m.items, spreadRefIx, "ALL#0")
	if desc {
		q = q.Desc()
	}
	if cond != nil {
		q = q.SortValue(*cond)
	}
	got, err := q.Collect(ctx, m.client)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func itemIDs(items []Item) []string {
	ids := make([]string, len(items))
	for i, v := range items {
		ids[i] = v.ID
	}
	return ids
}

func orderIDs(orders []Order) []string {
	ids := make([]string, len(orders))
	for i, o := range orders {
		ids[i] = o.ID
	}
	return ids
}

// firstDiff describes where two id sequences differ.
func firstDiff(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("at %d: %s, want %s (of %d, want %d)", i, got[i], want[i], len(got), len(want))
		}
	}
	return fmt.Sprintf("lengths %d, want %d", len(got), len(want))
}

// faulty wraps the real client: a fault per partition, by the request's
// partition value.
type faulty struct {
	api keyfirst.QueryAPI
	mu  sync.Mutex
	n   map[string]int // requests per partition
	// fail makes request number n (from 1) of a partition fail.
	fail func(part string, n int) error
	// delay holds a request of a partition until it returns (or ctx ends).
	delay func(ctx context.Context, part string)
	// page, when positive, caps the items of each request: DynamoDB Local
	// then ends a page early, as DynamoDB does at 1 MB.
	page int32
}

func (f *faulty) Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	part := partitionOf(in)
	f.mu.Lock()
	if f.n == nil {
		f.n = map[string]int{}
	}
	f.n[part]++
	n := f.n[part]
	f.mu.Unlock()
	if f.delay != nil {
		f.delay(ctx, part)
	}
	if f.fail != nil {
		if err := f.fail(part, n); err != nil {
			return nil, err
		}
	}
	if f.page > 0 && (in.Limit == nil || *in.Limit > f.page) {
		capped := *in
		capped.Limit = aws.Int32(f.page)
		in = &capped
	}
	return f.api.Query(ctx, in, optFns...)
}

// partitionOf is the partition value a request names (the value with '#').
func partitionOf(in *dynamodb.QueryInput) string {
	for _, v := range in.ExpressionAttributeValues {
		if s, ok := v.(*types.AttributeValueMemberS); ok && strings.Contains(s.Value, "#") {
			return s.Value
		}
	}
	return ""
}
