// Command openorders is seed 002's write-sharded sparse index. The table
// orders (PK = ORDER#<order_id>) has the GSI OpenOrdersByDate, whose partition key
// open_status_shard only open orders carry, sorted by order_date. One
// partition "OPEN" would take the index writes of every open order: at a
// peak of 2,000 writes/s it would be hot, so it is split into
// shard.Count(2000) = 3 shards, OPEN#0 .. OPEN#2, an order's shard the
// frozen hash of its id. The order's own order_date is the index's sort
// key (shard.Spec.SortField), stored once: create_order writes
// open_status_shard beside it; close_order is SET status = "CLOSED"
// REMOVE open_status_shard, and the closed order keeps its order_date;
// list_open_orders(date_prefix) queries every shard with
// begins_with(order_date, prefix), newest first, and merges them by
// order_date. Then the peak grows to 6,000 writes/s: 8 shards, and
// Index.Reshard moves the open orders.
//
// Unlike the seed: the table's key is PK = ORDER#<order_id> beside the
// order_id attribute, and the index projects ALL (the seed INCLUDEs three
// attributes), as a read decodes whole orders from it.
package main

import (
	"context"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/examples/internal/demo"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/shard"
	"github.com/keyfirst/keyfirst/sparse"
)

// Order is an order, with the seed's attribute names.
type Order struct {
	ID         string `dynamodbav:"order_id"`
	CustomerID string `dynamodbav:"customer_id"`
	RepID      string `dynamodbav:"rep_id"`
	Date       string `dynamodbav:"order_date"` // 2024-04-01T09:15:00: the sort key of OpenOrdersByDate
	Status     string `dynamodbav:"status"`
	Total      string `dynamodbav:"total_amount"`
}

// IsOpen is the condition of OpenOrdersByDate.
func (o Order) IsOpen() bool { return o.Status == "OPEN" }

// peak is the peak write rate of orders under 1 KB: as many WCU/s on the index.
const peak = 2000

// The table, its sharded index and the entity, declared once.
var (
	// PK = ORDER#ord123: keyfirst derives a table's key, apart from the fields.
	orderByID = keyfirst.OnTable(keyfirst.Composite("PK", keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))), keyfirst.NoSort())
	// The sort side, the field order_date: its conditions are typed (orderDate.BeginsWith).
	orderDate  = keyfirst.Str("order_date")
	openByDate = keyfirst.OnIndex("OpenOrdersByDate", keyfirst.Str("open_status_shard"), orderDate)
	// open_status_shard = "OPEN#<FNV-1a(order_id) mod 3>" while open; the sort key is the field Date.
	// The sharded index, the schema and the entity of this deployment of the service.
	openOrders, OrdersTable, Orders = deployment("orders", shard.Count(peak), 0)
)

// deployment declares the sharded index, the table and the entity of a
// service whose orders are spread over shards, read also from previous.
func deployment(table string, shards, previous int) (*shard.Index[Order, string], *keyfirst.Table, *keyfirst.Entity[Order]) {
	x := keyfirst.Must(shard.New(openByDate, shard.Spec[Order, string]{Base: "OPEN", Shards: shards, PreviousShards: previous,
		Field: "ID", SortField: "Date", When: Order.IsOpen, Reads: []string{"Status"}}))
	// The index projects ALL: a read decodes whole orders.
	t := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: table, Key: orderByID, GSIs: []keyfirst.Index{openByDate.Index()}}))
	return x, t, keyfirst.Must(keyfirst.NewEntity(t, keyfirst.EntitySpec[Order]{Type: "Order",
		Keys: []keyfirst.Binding{orderByID.Fields("ID"), x.Binding()}}))
}

func main() { demo.Main(run) }

func run(ctx context.Context, w io.Writer, client *dynamodb.Client) (err error) {
	db := demo.New(w, client)
	defer db.Close(ctx, &err)
	table, err := db.Create(ctx, OrdersTable)
	if err != nil {
		return err
	}
	// A binding of its own schema, an estimator of a table: neither can fail.
	orders, estimator := keyfirst.Must(Orders.In(table)), keyfirst.Must(sparse.NewEstimator(table))

	fmt.Fprintf(w, "peak %d writes/s of orders under 1 KB: %d WCU/s on OpenOrdersByDate\nshard.Count(%d) = ceil(%d / %d) = ceil(%g) = %d shards\n\n",
		peak, peak, peak, peak, shard.WCUPerShard, float64(peak)/shard.WCUPerShard, shard.Count(peak))

	// create_order: CreateOnly, and open_status_shard beside order_date.
	created := []Order{
		{"ord123", "c_42", "r_7", "2024-04-01T09:15:00", "OPEN", "129.90"}, {"ord102", "c_8", "r_3", "2024-03-28T16:20:00", "OPEN", "15.00"},
		{"ord103", "c_42", "r_7", "2024-04-02T14:00:00", "OPEN", "42.00"}, {"ord105", "c_17", "r_3", "2024-04-03T08:30:00", "OPEN", "310.50"},
		{"ord108", "c_8", "r_7", "2024-04-05T17:45:00", "OPEN", "9.99"}, {"ord110", "c_17", "r_3", "2024-04-08T11:00:00", "OPEN", "77.25"},
	}
	for _, o := range created {
		if _, err := orders.Put(ctx, db, o, keyfirst.CreateOnly()); err != nil {
			return err
		}
		n, _ := openOrders.Shard(o) // Put has checked that it has one
		fmt.Fprintf(w, "create_order %s  %s  -> OPEN#%d\n", o.ID, o.Date, n)
	}
	if err := db.Stored(ctx, table, "ord123", "ORDER#ord123"); err != nil {
		return err
	}

	list := func(x *shard.Index[Order, string], e *keyfirst.Entity[Order], prefix string) error {
		fmt.Fprintf(w, "\nlist_open_orders(%q): every shard, newest first, merged by order_date\n", prefix)
		for o, err := range shard.Query(e, x).SortValue(orderDate.BeginsWith(prefix)).Desc().All(ctx, db) {
			if err != nil {
				return err
			}
			n, _ := x.Shard(o)
			fmt.Fprintf(w, "  OPEN#%d  %s  %s  %s  %s\n", n, o.Date, o.ID, o.CustomerID, o.Total)
		}
		db.Report() // each shard's query and what it cost
		return nil
	}
	if err := list(openOrders, orders, "2024-04"); err != nil {
		return err
	}

	// close_order: one UpdateItem, no read: status = "CLOSED", and since When reads
	// only Status (Spec.Reads), the update REMOVEs open_status_shard; order_date stays.
	fmt.Fprintln(w, "\nclose_order ord123:")
	key := keyfirst.Must(orders.Key(Order{ID: "ord123"})) // a non-empty order_id: Key cannot fail
	closed, err := orders.Update(ctx, db, key, keyfirst.Set("Status", "CLOSED"), keyfirst.WithCapacity(&keyfirst.Capacity{}))
	db.Report()
	if err != nil {
		return err
	}
	// What sparse's estimator says the write costs, beside what DynamoDB reported.
	c, err := sparse.EstimateItems(estimator, orders, &created[0], &closed)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "  estimate: table %d WCU + %s %s = %d WCU\n", c.TableWCU, c.Indexes[0].Index, c.Indexes[0].Transition, c.WCU())
	if err := db.Stored(ctx, table, "ord123", "ORDER#ord123"); err != nil {
		return err
	}

	// Re-shard: deploy Shards 8 with PreviousShards 3 (reads cover both), then move the items.
	fmt.Fprintf(w, "\npeak 6000 writes/s: shard.Count(6000) = %d shards; Shards: 8, PreviousShards: 3, then Index.Reshard\n", shard.Count(6000))
	x8, t8, orders8 := deployment(table.Name(), shard.Count(6000), len(openOrders.Partitions())) // the next deployment, on the same table
	// The pass's requests print nothing; its progress prints when it ends (demo's ProgressOnly).
	if _, err := x8.Reshard(ctx, keyfirst.Must(orders8.In(t8.Observed(db.ProgressOnly()))), db); err != nil {
		return err
	}
	return list(x8, keyfirst.Must(orders8.In(t8.Observed(db))), "2024-04") // the open orders on their new shards
}
