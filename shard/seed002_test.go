package shard_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/internal/updates"
	"github.com/keyfirst/keyfirst/migrate"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/shard"
	"github.com/keyfirst/keyfirst/txn"
)

// ---- seed 002 as written: order_date is the order's own attribute ----
//
//	PK            entity   GSIs
//	ORDER#<id>    Order    OpenOrdersByDate (open_status_shard = OPEN#<n>; order_date), sparse, sharded by hash of the id
//	                       OrdersByStatusDate (status; order_date), every order
//
// Both GSIs sort on order_date, the field Date: stored once, never
// REMOVEd; open_status_shard alone decides whether an order is in
// OpenOrdersByDate.

// SeedOrder is seed 002's order, with the seed's attribute names.
type SeedOrder struct {
	ID       string `dynamodbav:"order_id"`
	Customer string `dynamodbav:"customer_id"`
	Status   string `dynamodbav:"status"`
	Date     string `dynamodbav:"order_date"`
	Total    string `dynamodbav:"total_amount"`
}

func (o SeedOrder) isOpen() bool { return o.Status == open }

var (
	// Both GSIs sort on the one attribute order_date: one side, whose
	// typed conditions (seedOrderDate.BeginsWith) read either.
	seedOrderDate  = keyfirst.Str("order_date")
	seedOpenByDate = keyfirst.OnIndex("OpenOrdersByDate", keyfirst.Str("open_status_shard"), seedOrderDate)
	seedByStatus   = keyfirst.OnIndex("OrdersByStatusDate", keyfirst.Str("status"), seedOrderDate)
	seedOpen3      = seedOpen(3, 0)
)

// seedOpen is OpenOrdersByDate on shards shards (previous: the count
// before a change), its sort key the field Date.
func seedOpen(shards, previous int) *shard.Index[SeedOrder, string] {
	return keyfirst.Must(shard.New(seedOpenByDate, shard.Spec[SeedOrder, string]{
		Base: "OPEN", Shards: shards, PreviousShards: previous, Field: "ID", SortField: "Date", When: SeedOrder.isOpen,
	}))
}

// seedSchema is the orders table with ix as its OpenOrdersByDate.
func seedSchema(ix *shard.Index[SeedOrder, string]) (*keyfirst.Table, *keyfirst.Entity[SeedOrder]) {
	table := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "orders", Key: orderByID,
		GSIs: []keyfirst.Index{seedOpenByDate.Index(), seedByStatus.Index()}}))
	return table, keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[SeedOrder]{Type: "Order",
		Keys: []keyfirst.Binding{orderByID.Fields("ID"), ix.Binding(), seedByStatus.Fields("Status", "Date")}}))
}

// seedShop is the table in DynamoDB Local, its entity bound to it, and a
// client that records the writes it sends.
type seedShop struct {
	client *updates.Recorder
	table  *keyfirst.Table
	orders *keyfirst.Entity[SeedOrder]
}

func localSeedShop(t *testing.T) (seedShop, context.Context) {
	t.Helper()
	schema, e := seedSchema(seedOpen3)
	table, ctx := localTable(t, schema)
	return seedShop{&updates.Recorder{Client: integration.Client(t)}, table, keyfirst.Must(e.In(table))}, ctx
}

// raw is the stored item of order id.
func (s seedShop) raw(t *testing.T, id string) map[string]types.AttributeValue {
	t.Helper()
	return shop{client: s.client.Client, table: s.table}.raw(t, id)
}

// seedAttrs are the attributes every order stores; an open one stores
// open_status_shard besides.
var seedAttrs = []string{"PK", "_type", "customer_id", "order_date", "order_id", "status", "total_amount"}

// checkStored asserts the stored shape of order o: exactly seedAttrs (and
// open_status_shard while open), order_date the order's date,
// open_status_shard its shard of shards.
func (s seedShop) checkStored(t *testing.T, step string, o SeedOrder, shards int) {
	t.Helper()
	item := s.raw(t, o.ID)
	want := slices.Clone(seedAttrs)
	if o.isOpen() {
		want = append(want, "open_status_shard")
	}
	slices.Sort(want)
	if got := slices.Sorted(maps.Keys(item)); !slices.Equal(got, want) {
		t.Errorf("%s: order %s (%s) stores %v, want %v", step, o.ID, o.Status, got, want)
	}
	if got := text(item["order_date"]); got != o.Date {
		t.Errorf("%s: order %s stores order_date %q, want %q", step, o.ID, got, o.Date)
	}
	if got, ok := item["open_status_shard"]; ok && text(got) != wantShard(o.ID, shards) {
		t.Errorf("%s: order %s stores open_status_shard %q, want %q", step, o.ID, text(got), wantShard(o.ID, shards))
	}
}

// Seed 002 as written: create_order stores order_date once, as the
// order's own attribute, with open_status_shard = OPEN#<n>; close_order
// is SET status = "CLOSED" REMOVE open_status_shard: the order keeps its
// order_date, which OrdersByStatusDate still sorts it by, and leaves
// OpenOrdersByDate. list_open_orders is exact.
func TestSeed002AsWritten(t *testing.T) {
	t.Parallel()
	s, ctx := localSeedShop(t)
	at := func(day, h, m int) string { return fmt.Sprintf("2024-04-%02dT%02d:%02d:00", day, h, m) }
	created := []SeedOrder{
		{"ord123", "c_42", open, at(1, 9, 15), "129.90"},
		{"ord102", "c_8", open, "2024-03-28T16:20:00", "15.00"},
		{"ord103", "c_42", open, at(2, 14, 0), "42.00"},
		{"ord105", "c_17", open, at(3, 8, 30), "310.50"},
		{"ord108", "c_8", open, at(5, 17, 45), "9.99"},
		{"ord110", "c_17", open, at(8, 11, 0), "77.25"},
	}
	for _, o := range created {
		if _, err := s.orders.Put(ctx, s.client, o, keyfirst.CreateOnly()); err != nil {
			t.Fatal(err)
		}
		s.checkStored(t, "create_order", o, 3)
	}

	key, err := s.orders.Key(SeedOrder{ID: "ord123"})
	if err != nil {
		t.Fatal(err)
	}
	s.client.Reset()
	closed123, err := s.orders.Modify(ctx, s.client, key, func(o *SeedOrder) { o.Status = closed })
	if err != nil {
		t.Fatal(err)
	}
	s.checkStored(t, "close_order", closed123, 3)
	if len(s.client.Updates()) != 1 {
		t.Fatalf("close_order sent %d writes, want 1 UpdateItem", len(s.client.Updates()))
	}
	if w := s.client.Updates()[0]; !w.Sets("status") || text(w.Set["status"]) != closed || !w.Removes("open_status_shard") {
		t.Errorf("close_order: %s, want SET status = %q REMOVE open_status_shard", w, closed)
	}

	// OrdersByStatusDate shares order_date: the closed order is there.
	byStatus := func(status string) []string {
		t.Helper()
		got, err := query.On(s.orders, seedByStatus, status).SortValue(seedOrderDate.BeginsWith("2024-04")).Collect(ctx, s.client)
		if err != nil {
			t.Fatal(err)
		}
		return orderIDsOf(got)
	}
	if got := byStatus(closed); !slices.Equal(got, []string{"ord123"}) {
		t.Errorf("OrdersByStatusDate, CLOSED in April: %v, want [ord123]", got)
	}
	if got, want := byStatus(open), []string{"ord103", "ord105", "ord108", "ord110"}; !slices.Equal(got, want) {
		t.Errorf("OrdersByStatusDate, OPEN in April: %v, want %v", got, want)
	}

	// list_open_orders("2024-04"): every shard, newest first, by order_date.
	open, err := shard.Query(s.orders, seedOpen3).SortValue(seedOrderDate.BeginsWith("2024-04")).Desc().Collect(ctx, s.client)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := orderIDsOf(open), []string{"ord110", "ord108", "ord105", "ord103"}; !slices.Equal(got, want) {
		t.Errorf("list_open_orders(2024-04): %v, want %v", got, want)
	}
}

// The merged read of the sharded index, by the plain field order_date,
// equals the single partition OPEN of OrdersByStatusDate, which sorts
// the same open orders by the same attribute: item by item, in both
// directions, whole and paged (a cursor per page), over many equal
// dates.
func TestSeed002ShardedReadIsExact(t *testing.T) {
	t.Parallel()
	s, ctx := localSeedShop(t)
	var reqs []keyfirst.WriteRequest
	for i := range 90 {
		status := open
		if i%4 == 3 {
			status = closed
		}
		o := SeedOrder{ID: fmt.Sprintf("o-%03d", i), Customer: "c", Status: status, Date: fmt.Sprintf("2024-04-%02dT10:00:00", 1+i%12), Total: "1.00"}
		reqs = append(reqs, s.orders.PutRequest(o))
	}
	if err := s.table.BatchWrite(ctx, s.client, reqs); err != nil {
		t.Fatal(err)
	}
	// The reference: one partition, put in the merge's order (the sort
	// key, then the table's key) for the runs of equal dates.
	ref, err := query.On(s.orders, seedByStatus, open).Collect(ctx, s.client)
	if err != nil {
		t.Fatal(err)
	}
	if len(ref) != 68 {
		t.Fatalf("OrdersByStatusDate holds %d open orders, want 68", len(ref))
	}
	asc := slices.Clone(ref)
	slices.SortStableFunc(asc, func(a, b SeedOrder) int {
		return cmp.Or(cmp.Compare(a.Date, b.Date), cmp.Compare("ORDER#"+a.ID, "ORDER#"+b.ID))
	})
	desc := slices.Clone(asc)
	slices.Reverse(desc)
	for _, dir := range []struct {
		name string
		r    shard.Reader[SeedOrder]
		want []SeedOrder
	}{
		{"oldest first", shard.Query(s.orders, seedOpen3), asc},
		{"newest first", shard.Query(s.orders, seedOpen3).Desc(), desc},
	} {
		all, err := dir.r.Collect(ctx, s.client)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(all, dir.want) {
			t.Errorf("%s: %s", dir.name, firstDiff(orderIDsOf(all), orderIDsOf(dir.want)))
		}
		var paged []SeedOrder
		var next shard.Cursor
		for pages := 0; pages == 0 || next != ""; pages++ {
			page, err := dir.r.Limit(7).After(next).Page(ctx, s.client)
			if err != nil {
				t.Fatal(err)
			}
			paged, next = append(paged, page.Items...), page.Next
		}
		if !slices.Equal(paged, dir.want) {
			t.Errorf("%s, 7 a page: %s", dir.name, firstDiff(orderIDsOf(paged), orderIDsOf(dir.want)))
		}
	}
}

func orderIDsOf(os []SeedOrder) []string {
	ids := make([]string, len(os))
	for i, o := range os {
		ids[i] = o.ID
	}
	return ids
}

// Every write path keeps order_date, the order's own attribute, and sets
// or removes open_status_shard alone as the order opens and closes: Put,
// Replace, Modify, the puts of BatchWrite, a transaction's Put and
// Replace. No write REMOVEs order_date.
func TestSeed002EveryWritePath(t *testing.T) {
	t.Parallel()
	s, ctx := localSeedShop(t)
	paths := []struct {
		name  string
		write func(o SeedOrder) error
	}{
		{"Put", func(o SeedOrder) error { _, err := s.orders.Put(ctx, s.client, o); return err }},
		{"Replace", func(o SeedOrder) error { _, err := s.orders.Replace(ctx, s.client, o); return err }},
		{"Modify", func(o SeedOrder) error {
			key, err := s.orders.Key(o)
			if err == nil {
				_, err = s.orders.Modify(ctx, s.client, key, func(stored *SeedOrder) { *stored = o })
			}
			return err
		}},
		{"BatchWrite", func(o SeedOrder) error {
			return s.table.BatchWrite(ctx, s.client, []keyfirst.WriteRequest{s.orders.PutRequest(o)})
		}},
		{"txn.Put", func(o SeedOrder) error { return txn.Write(ctx, s.client, []txn.Action{txn.Put(s.orders, o)}) }},
		{"txn.Replace", func(o SeedOrder) error { return txn.Write(ctx, s.client, []txn.Action{txn.Replace(s.orders, o)}) }},
	}
	for i, path := range paths {
		o := SeedOrder{ID: fmt.Sprintf("o-%d", i), Customer: "c_1", Status: open, Date: "2024-04-01T09:15:00", Total: "1.00"}
		if _, err := s.orders.Put(ctx, s.client, o); err != nil {
			t.Fatal(err)
		}
		for _, step := range []struct {
			name string
			f    func(*SeedOrder)
		}{
			{"close", func(o *SeedOrder) { o.Status = closed }},
			{"change the date of the closed order", func(o *SeedOrder) { o.Date = "2024-04-02T10:00:00" }},
			{"reopen", func(o *SeedOrder) { o.Status = open }},
			{"change the date of the open order", func(o *SeedOrder) { o.Date = "2024-04-03T11:00:00" }},
		} {
			step.f(&o)
			s.client.Reset()
			if err := path.write(o); err != nil {
				t.Fatalf("%s, %s: %v", path.name, step.name, err)
			}
			s.checkStored(t, path.name+", "+step.name, o, 3)
			for _, w := range s.client.Updates() {
				if slices.Contains(w.Remove, "order_date") {
					t.Errorf("%s, %s: %s REMOVEs order_date", path.name, step.name, w)
				}
			}
		}
	}
	open, err := shard.Query(s.orders, seedOpen3).Desc().Collect(ctx, s.client)
	if err != nil {
		t.Fatal(err)
	}
	if len(open) != len(paths) {
		t.Errorf("OpenOrdersByDate holds %d orders, want the %d reopened ones", len(open), len(paths))
	}
}

// Refresh and a backfill bring items another program wrote up to the
// definition by open_status_shard alone: a closed order that still has
// it loses it, an open one without it gains it, and neither's order_date
// is touched.
func TestSeed002RefreshAndBackfill(t *testing.T) {
	t.Parallel()
	s, ctx := localSeedShop(t)
	// putRaw stores o as another program would: with the shard attribute
	// when withShard, whatever o's status.
	putRaw := func(o SeedOrder, withShard bool) map[string]types.AttributeValue {
		t.Helper()
		item, err := s.orders.Item(SeedOrder{ID: o.ID, Customer: o.Customer, Status: open, Date: o.Date, Total: o.Total})
		if err != nil {
			t.Fatal(err)
		}
		item["status"] = &types.AttributeValueMemberS{Value: o.Status}
		if !withShard {
			delete(item, "open_status_shard")
		}
		if _, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table.Name()), Item: item}); err != nil {
			t.Fatal(err)
		}
		return item
	}
	staleClosed := SeedOrder{ID: "r-1", Customer: "c", Status: closed, Date: "2024-04-01T09:15:00", Total: "1.00"}
	missingOpen := SeedOrder{ID: "r-2", Customer: "c", Status: open, Date: "2024-04-02T09:15:00", Total: "1.00"}
	for _, tt := range []struct {
		o               SeedOrder
		set, remove     []string
		storedWithShard bool
	}{
		{staleClosed, nil, []string{"open_status_shard"}, true},
		{missingOpen, []string{"open_status_shard"}, nil, false},
	} {
		res, err := s.orders.Refresh(ctx, s.client, putRaw(tt.o, tt.storedWithShard))
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != keyfirst.RefreshChanged || !slices.Equal(res.Set, tt.set) || !slices.Equal(res.Remove, tt.remove) {
			t.Errorf("Refresh of %s: %s, SET %v REMOVE %v; want changed, SET %v REMOVE %v", tt.o.ID, res.Outcome, res.Set, res.Remove, tt.set, tt.remove)
		}
		s.checkStored(t, "Refresh", tt.o, 3)
	}

	staleClosed.ID, missingOpen.ID = "b-1", "b-2"
	putRaw(staleClosed, true)
	putRaw(missingOpen, false)
	s.client.Reset()
	report, err := (&migrate.Backfill{Name: "seed002", Table: s.table, Entities: []migrate.Target{migrate.Entity(s.orders)}, WCU: 100}).Run(ctx, s.client)
	if err != nil {
		t.Fatal(err)
	}
	if c := report.Checkpoint.Counts(); c.Changed != 2 {
		t.Errorf("the backfill changed %d items, want 2 (%+v)", c.Changed, c)
	}
	s.checkStored(t, "backfill", staleClosed, 3)
	s.checkStored(t, "backfill", missingOpen, 3)
	// Each write is the change: SET or REMOVE open_status_shard.
	for _, w := range s.client.Updates() {
		if !(w.Sets("open_status_shard") && w.Removes()) && !(w.Sets() && w.Removes("open_status_shard")) {
			t.Errorf("the backfill wrote %s", w)
		}
	}
}

// Reshard from 3 shards to 8 moves the open orders by open_status_shard
// alone: every order keeps its order_date, and the read on 8 shards
// equals OrdersByStatusDate's OPEN partition.
func TestSeed002Reshard(t *testing.T) {
	t.Parallel()
	s, ctx := localSeedShop(t)
	var reqs []keyfirst.WriteRequest
	var stored []SeedOrder
	for i := range 40 {
		o := SeedOrder{ID: fmt.Sprintf("o-%03d", i), Customer: "c", Status: open, Date: fmt.Sprintf("2024-04-%02dT10:00:00", 1+i%9), Total: "1.00"}
		stored = append(stored, o)
		reqs = append(reqs, s.orders.PutRequest(o))
	}
	if err := s.table.BatchWrite(ctx, s.client, reqs); err != nil {
		t.Fatal(err)
	}
	seedOpen8 := seedOpen(8, 3)
	schema8, e8 := seedSchema(seedOpen8)
	during := keyfirst.Must(e8.In(keyfirst.Must(schema8.Named(s.table.Name()))))
	s.client.Reset()
	st, err := seedOpen8.Reshard(ctx, during, s.client)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, o := range stored {
		s.checkStored(t, "Reshard", o, 8)
		if wantShard(o.ID, 3) != wantShard(o.ID, 8) {
			want++
		}
	}
	if st.Moved != want || len(s.client.Updates()) != want {
		t.Errorf("Reshard moved %d orders in %d writes, %d have another shard on 8", st.Moved, len(s.client.Updates()), want)
	}
	// Each move is SET open_status_shard, nothing else.
	for _, w := range s.client.Updates() {
		if !w.Sets("open_status_shard") || !w.Removes() {
			t.Errorf("a move wrote %s", w)
		}
	}
	got, err := shard.Query(during, seedOpen8).Desc().Collect(ctx, s.client)
	if err != nil {
		t.Fatal(err)
	}
	wantIDs := orderIDsOf(stored)
	slices.SortFunc(wantIDs, func(a, b string) int { return cmp.Compare(b, a) })
	slices.SortStableFunc(wantIDs, func(a, b string) int { return cmp.Compare(dateOf(stored, b), dateOf(stored, a)) })
	if ids := orderIDsOf(got); !slices.Equal(ids, wantIDs) {
		t.Errorf("after Reshard: %s", firstDiff(ids, wantIDs))
	}
}

func dateOf(os []SeedOrder, id string) string {
	for _, o := range os {
		if o.ID == id {
			return o.Date
		}
	}
	return ""
}

// SeedOrderOmit is SeedOrder with an optional date.
type SeedOrderOmit struct {
	ID     string `dynamodbav:"order_id"`
	Status string `dynamodbav:"status"`
	Date   string `dynamodbav:"order_date,omitempty"`
}

// An open order whose order_date cannot be OpenOrdersByDate's sort key is
// refused by every write path before any request: an empty date
// (ItemEmptyKey: DynamoDB refuses "" for an attribute that is a key of an
// index), an omitted one (ItemMissingKey: the order belongs to the index,
// which cannot hold it). A closed order may omit it.
func TestSeed002BadDateRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	ctx, client := t.Context(), noCalls{T: t}
	schema, orders := seedSchema(seedOpen3)
	omitIndex := keyfirst.Must(shard.New(seedOpenByDate, shard.Spec[SeedOrderOmit, string]{
		Base: "OPEN", Shards: 3, Field: "ID", SortField: "Date", When: func(o SeedOrderOmit) bool { return o.Status == open },
	}))
	omitSchema := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "orders", Key: orderByID, GSIs: []keyfirst.Index{seedOpenByDate.Index()}}))
	omitted := keyfirst.Must(keyfirst.NewEntity(omitSchema, keyfirst.EntitySpec[SeedOrderOmit]{Type: "Order",
		Keys: []keyfirst.Binding{orderByID.Fields("ID"), omitIndex.Binding()}}))
	tests := []struct {
		name    string
		writes  map[string]func() error
		problem keyfirst.ItemProblem
	}{
		{"empty date", writesOf(ctx, client, schema, orders, SeedOrder{ID: "o-1", Status: open}), keyfirst.ItemEmptyKey},
		{"omitted date", writesOf(ctx, client, omitSchema, omitted, SeedOrderOmit{ID: "o-1", Status: open}), keyfirst.ItemMissingKey},
	}
	for _, tt := range tests {
		for name, write := range tt.writes {
			var ie *keyfirst.ItemError
			if err := write(); !errors.As(err, &ie) || ie.Problem != tt.problem || ie.Attribute != "order_date" {
				t.Errorf("%s, %s: %v, want an ItemError (%s) on order_date", tt.name, name, err, tt.problem)
			}
		}
	}
	item, err := omitted.Item(SeedOrderOmit{ID: "o-1", Status: closed})
	if err != nil {
		t.Fatalf("a closed order without a date: %v", err)
	}
	if _, ok := item["open_status_shard"]; ok {
		t.Errorf("a closed order without a date is stored as %v", item)
	}
}

// writesOf are the write paths of item, sent to client.
func writesOf[T any](ctx context.Context, client noCalls, table *keyfirst.Table, e *keyfirst.Entity[T], item T) map[string]func() error {
	return map[string]func() error{
		"Put":        func() error { _, err := e.Put(ctx, client, item); return err },
		"Replace":    func() error { _, err := e.Replace(ctx, client, item); return err },
		"BatchWrite": func() error { return table.BatchWrite(ctx, client, []keyfirst.WriteRequest{e.PutRequest(item)}) },
		"txn.Put":    func() error { return txn.Write(ctx, client, []txn.Action{txn.Put(e, item)}) },
	}
}
