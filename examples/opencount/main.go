// Command opencount keeps seed 002's open orders counted per day, in an
// item of its own per day (PK = OPENCOUNT#<day>), from the table's stream:
// a stream.Consumer hands each order's change to the counter, which adds 1
// to the day of an order that entered the sparse index OpenOrdersByDate,
// subtracts 1 from the day of one that left it, and does both for one that
// moved within it (its order_date changed). Delivery is at least once, so
// each count item keeps, per shard, the sequence number of the last record
// applied to it (a watermark), and an update at or below it is refused by
// its condition: a record delivered again changes nothing.
//
// Four writers create, close and move orders at the same time; a first
// consumer crashes mid-batch; a second resumes from the checkpoint the
// first saved (as JSON) and catches up. The counts kept then equal the
// counts of the open orders read from the index (a Query, key condition
// only).
//
// Then the counts are wiped and rebuilt from scratch, with the consumer
// stopped and writers writing throughout. A Scan of a live table is no
// snapshot: it reads each order at some moment between the stream's
// position P0 when the rebuild starts (the consumer's, caught up) and P1
// when it ends. So rebuild reads both: a backfill visits every order
// (migrate.Visit) and keeps the open ones by id; then a consumer reads the
// stream from P0 to its end, P1, and each order with a record there takes
// its last record's new image instead (removed: none). An order with no
// record between P0 and P1 did not change while the Scan read it; the
// others' last images are their state at P1; so the rebuilt counts are
// those of the table at P1, and the count items are written with P1's
// sequence numbers as their watermarks. A consumer resumed from P1 applies
// exactly the changes after it. (Resuming from P0 would count twice each
// change the Scan saw; from P1 without the stream's pass, miss each change
// it read the order before. On AWS a record appears in the stream up to a
// few seconds after its write: wait that long after the Scan before
// reading to P1.) The open orders are held in memory by id, one entry
// each (a larger table keeps them in a table of its own).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/examples/internal/demo"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/stream"
)

// Order is an order, with the seed's attribute names.
type Order struct {
	ID       string `dynamodbav:"order_id"`
	Customer string `dynamodbav:"customer_id"`
	Date     string `dynamodbav:"order_date"` // 2024-04-01T09:15:00: the sort key of OpenOrdersByDate
	Status   string `dynamodbav:"status"`
}

// IsOpen is the condition of OpenOrdersByDate.
func (o Order) IsOpen() bool { return o.Status == "OPEN" }

// Day is the day of the order's date.
func (o Order) Day() string { return o.Date[:len("2024-04-01")] }

// The table, with its stream of both images, and the entity.
var (
	orderByID   = keyfirst.OnTable(keyfirst.Composite("PK", keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))), keyfirst.NoSort())
	openByDate  = keyfirst.OnIndex("OpenOrdersByDate", keyfirst.Const("open_bucket", "OPEN"), keyfirst.Str("order_date"))
	OrdersTable = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "orders", Key: orderByID,
		GSIs: []keyfirst.Index{openByDate.Index()}, Stream: types.StreamViewTypeNewAndOldImages}))
	Orders = keyfirst.Must(keyfirst.NewEntity(OrdersTable, keyfirst.EntitySpec[Order]{Type: "Order",
		Keys: []keyfirst.Binding{orderByID.Fields("ID"), keyfirst.If(openByDate.Fields("Date"), Order.IsOpen)}}))
)

func main() { demo.Main(run) }

// errCrash is the first consumer's crash.
var errCrash = errors.New("crash")

func run(ctx context.Context, w io.Writer, client *dynamodb.Client) (err error) {
	db := demo.New(w, client)
	defer db.Close(ctx, &err)
	table, err := db.Create(ctx, OrdersTable)
	if err != nil {
		return err
	}
	orders := keyfirst.Must(Orders.In(table))

	// Four writers: each creates 6 orders over 3 days, closes one and
	// moves one to April 4th.
	if err := writeAll(ctx, client, orders, 1); err != nil {
		return err
	}
	fmt.Fprintf(w, "%d writers: %d orders created, %d closed, %d moved to 2024-04-04: %d records in the stream\n",
		writers, writers*each, writers, writers, writers*(each+2))

	k := counter{client: client, table: table.Name(), skipped: new(int)}
	router, err := stream.NewRouter(table, stream.On(orders, k.apply), stream.Otherwise(k.others))
	if err != nil {
		return err
	}
	streams := dynamodbstreams.New(dynamodbstreams.Options{Region: client.Options().Region,
		BaseEndpoint: client.Options().BaseEndpoint, Credentials: client.Options().Credentials})

	// The first consumer saves its checkpoint after each batch of 5 and
	// crashes at the 13th record, after applying the 11th and 12th.
	var saved []byte
	delivered := 0
	crashing := func(ctx context.Context, records []stream.Record) error {
		for _, r := range records {
			if delivered++; delivered == 13 {
				return errCrash
			}
			if err := router.Handle(ctx, r); err != nil {
				return err
			}
		}
		return nil
	}
	save := func(_ context.Context, cp stream.Checkpoint) (err error) {
		saved, err = json.Marshal(cp)
		return err
	}
	if _, err := consume(ctx, client, streams, table, stream.Checkpoint{}, save, crashing); !errors.Is(err, errCrash) {
		return fmt.Errorf("the first consumer: %v", err)
	}
	fmt.Fprintf(w, "consumer 1: crashed at record %d, its checkpoint saved after record 10\n", delivered)

	var from stream.Checkpoint
	if err := json.Unmarshal(saved, &from); err != nil {
		return err
	}
	delivered = 0
	counting := func(ctx context.Context, records []stream.Record) error {
		for _, r := range records {
			if pk, _ := r.Keys["PK"].(*types.AttributeValueMemberS); pk != nil && strings.HasPrefix(pk.Value, "ORDER#") {
				delivered++
			}
		}
		return router.HandleBatch(ctx, records)
	}
	caughtUp, err := consume(ctx, client, streams, table, from, save, counting)
	if err != nil {
		return err
	}
	if *k.skipped < 2 { // records 11 and 12 each change a count or two
		return fmt.Errorf("the watermarks skipped %d updates of records 11 and 12", *k.skipped)
	}
	fmt.Fprintf(w, "consumer 2: resumed from it, caught up after %d records of orders (11 and 12 again: the watermarks skip their updates)\n\n", delivered)

	days, err := compare(ctx, w, orders, k)
	if err != nil {
		return err
	}

	// The counts rebuilt from scratch while 4 writers write (see rebuild),
	// then kept by a consumer resumed from the rebuild's position after 4
	// writers write again.
	if err := k.wipe(ctx, days); err != nil {
		return err
	}
	to, records, err := k.rebuild(ctx, streams, orders, caughtUp, func() error { return writeAll(ctx, client, orders, 2) })
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nrebuild: counts wiped; a backfill visited every order while %d writers wrote (each also closed a first order),\n"+
		"then the %d records of orders since the consumer stopped replaced what it read of the orders they changed\n", writers, records)
	if _, err := compare(ctx, w, orders, k); err != nil {
		return err
	}
	delivered = 0
	if err := writeAll(ctx, client, orders, 3); err != nil {
		return err
	}
	if _, err := consume(ctx, client, streams, table, to, save, counting); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%d writers wrote again; consumer 3: resumed from the rebuild's position, caught up after %d records of orders\n", writers, delivered)
	_, err = compare(ctx, w, orders, k)
	return err
}

// compare prints the counts kept beside those of the open orders read
// from the index (a Query), and fails if they differ. It returns the days.
func compare(ctx context.Context, w io.Writer, orders *keyfirst.Entity[Order], k counter) ([]string, error) {
	open, err := query.On(orders, openByDate, keyfirst.None{}).Collect(ctx, k.client)
	if err != nil {
		return nil, err
	}
	fromIndex := map[string]int{}
	for _, o := range open {
		fromIndex[o.Day()]++
	}
	days := slices.Sorted(maps.Keys(fromIndex))
	kept, err := k.counts(ctx, days)
	if err != nil {
		return nil, err
	}
	fmt.Fprintln(w, "open orders per day  kept  in OpenOrdersByDate")
	for _, day := range days {
		fmt.Fprintf(w, "%-20s %4d  %4d\n", day, kept[day], fromIndex[day])
	}
	if !maps.Equal(kept, fromIndex) {
		return nil, fmt.Errorf("the counts kept differ from the index's")
	}
	fmt.Fprintln(w, "equal")
	return days, nil
}

// The writers of each round, and the orders each creates.
const writers, each = 4, 6

// writeAll runs the writers of a round at once.
func writeAll(ctx context.Context, client *dynamodb.Client, orders *keyfirst.Entity[Order], round int) error {
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = write(ctx, client, orders, round, i)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// write is writer i of a round: it creates orders on three days, closes
// the second and moves the third to April 4th; after the first round, it
// also closes the first order it created in the round before.
func write(ctx context.Context, client *dynamodb.Client, orders *keyfirst.Entity[Order], round, i int) error {
	if round > 1 {
		key, err := orders.Key(Order{ID: fmt.Sprintf("r%d-w%d-0", round-1, i)})
		if err != nil {
			return err
		}
		if _, err := orders.Modify(ctx, client, key, func(o *Order) { o.Status = "CLOSED" }); err != nil {
			return err
		}
	}
	var created []Order
	for j := range each {
		o := Order{ID: fmt.Sprintf("r%d-w%d-%d", round, i, j), Customer: fmt.Sprintf("c_%d", i), Date: fmt.Sprintf("2024-04-0%dT09:%02d:00", 1+j%3, i*10+j), Status: "OPEN"}
		if _, err := orders.Put(ctx, client, o); err != nil {
			return err
		}
		created = append(created, o)
	}
	key, err := orders.Key(created[1])
	if err != nil {
		return err
	}
	if _, err := orders.Modify(ctx, client, key, func(o *Order) { o.Status = "CLOSED" }); err != nil {
		return err
	}
	moved := created[2]
	moved.Date = "2024-04-04" + moved.Date[len("2024-04-01"):]
	_, err = orders.Replace(ctx, client, moved)
	return err
}

// consume runs a consumer of the table's stream from the checkpoint until
// it has caught up (nil) or fails, and returns its checkpoint then.
func consume(ctx context.Context, client *dynamodb.Client, streams *dynamodbstreams.Client, table *keyfirst.Table,
	from stream.Checkpoint, save func(context.Context, stream.Checkpoint) error, batch func(context.Context, []stream.Record) error) (stream.Checkpoint, error) {
	c, err := stream.NewConsumer(ctx, client, streams, table, func(o *stream.Options) { o.Resume, o.Save, o.Limit = from, save, 5 })
	if err != nil {
		return from, err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, batch) }()
	err = c.CaughtUp(ctx)
	cancel()
	if runErr := <-done; err != nil && !errors.Is(runErr, context.Canceled) {
		return c.Checkpoint(), runErr
	}
	return c.Checkpoint(), err
}
