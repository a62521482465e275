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
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
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

// countPrefix starts the key of a count item.
const countPrefix = "OPENCOUNT#"

// counter keeps the count items of a table.
type counter struct {
	client  *dynamodb.Client
	table   string
	skipped *int // updates refused by a watermark
}

// apply turns an order's transition in OpenOrdersByDate into the updates
// of the counts of its days.
func (k counter) apply(ctx context.Context, c stream.Change[Order]) error {
	switch c.Movement(openByDate.IndexName()) {
	case stream.Entered:
		return k.add(ctx, c.Record, c.New.Day(), 1)
	case stream.Left:
		return k.add(ctx, c.Record, c.Old.Day(), -1)
	case stream.Moved:
		if c.Old.Day() == c.New.Day() {
			return nil
		}
		return errors.Join(k.add(ctx, c.Record, c.Old.Day(), -1), k.add(ctx, c.Record, c.New.Day(), 1))
	}
	return nil
}

// add adds delta to the day's count, unless the record is at or below the
// item's watermark of its shard: ADD open :delta SET applied_<shard> = :seq,
// if the watermark is absent or lower. Sequence numbers have 21 to 40
// digits: padded to 40, their string order is their numeric order.
func (k counter) add(ctx context.Context, r stream.Record, day string, delta int) error {
	watermark := expression.Name("applied_" + r.Shard)
	seq := expression.Value(strings.Repeat("0", 40-len(r.SequenceNumber)) + r.SequenceNumber)
	x, err := expression.NewBuilder().
		WithUpdate(expression.Add(expression.Name("open"), expression.Value(delta)).Set(watermark, seq)).
		WithCondition(expression.AttributeNotExists(watermark).Or(watermark.LessThan(seq))).Build()
	if err != nil {
		return err
	}
	_, err = k.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(k.table),
		Key:              map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: countPrefix + day}},
		UpdateExpression: x.Update(), ConditionExpression: x.Condition(), ExpressionAttributeNames: x.Names(), ExpressionAttributeValues: x.Values()})
	var applied *types.ConditionalCheckFailedException
	if errors.As(err, &applied) {
		*k.skipped++
		return nil // delivered again: applied before
	}
	return err
}

// counts reads the count items of days.
func (k counter) counts(ctx context.Context, days []string) (map[string]int, error) {
	out := map[string]int{}
	for _, day := range days {
		got, err := k.client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(k.table), ConsistentRead: aws.Bool(true),
			Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: countPrefix + day}}})
		if err != nil {
			return nil, err
		}
		if n, ok := got.Item["open"].(*types.AttributeValueMemberN); ok {
			if out[day], err = strconv.Atoi(n.Value); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

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
	const writers, each = 4, 6
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = write(ctx, client, orders, i, each)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	fmt.Fprintf(w, "%d writers: %d orders created, %d closed, %d moved to 2024-04-04: %d records in the stream\n",
		writers, writers*each, writers, writers, writers*(each+2))

	k := counter{client: client, table: table.Name(), skipped: new(int)}
	router, err := stream.NewRouter(table, stream.On(orders, k.apply),
		stream.Otherwise(func(_ context.Context, e *stream.TypeError) error {
			if pk, ok := e.Record.Keys["PK"].(*types.AttributeValueMemberS); ok && strings.HasPrefix(pk.Value, countPrefix) {
				return nil // the counts' own changes
			}
			return e
		}))
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
	if err := consume(ctx, client, streams, table, stream.Checkpoint{}, save, crashing); !errors.Is(err, errCrash) {
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
	if err := consume(ctx, client, streams, table, from, save, counting); err != nil {
		return err
	}
	if *k.skipped < 2 { // records 11 and 12 each change a count or two
		return fmt.Errorf("the watermarks skipped %d updates of records 11 and 12", *k.skipped)
	}
	fmt.Fprintf(w, "consumer 2: resumed from it, caught up after %d records of orders (11 and 12 again: the watermarks skip their updates)\n\n", delivered)

	// The counts kept, beside those of the index.
	open, err := query.On(orders, openByDate, keyfirst.None{}).Collect(ctx, client)
	if err != nil {
		return err
	}
	fromIndex := map[string]int{}
	for _, o := range open {
		fromIndex[o.Day()]++
	}
	days := slices.Sorted(maps.Keys(fromIndex))
	kept, err := k.counts(ctx, days)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "open orders per day  kept  in OpenOrdersByDate")
	for _, day := range days {
		fmt.Fprintf(w, "%-20s %4d  %4d\n", day, kept[day], fromIndex[day])
	}
	if !maps.Equal(kept, fromIndex) {
		return fmt.Errorf("the counts kept differ from the index's")
	}
	fmt.Fprintln(w, "equal")
	return nil
}

// write is writer i: it creates n orders on three days, closes the second
// and moves the third to April 4th.
func write(ctx context.Context, client *dynamodb.Client, orders *keyfirst.Entity[Order], i, n int) error {
	var created []Order
	for j := range n {
		o := Order{ID: fmt.Sprintf("w%d-%d", i, j), Customer: fmt.Sprintf("c_%d", i), Date: fmt.Sprintf("2024-04-0%dT09:%02d:00", 1+j%3, i*10+j), Status: "OPEN"}
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
// it has caught up (nil) or fails.
func consume(ctx context.Context, client *dynamodb.Client, streams *dynamodbstreams.Client, table *keyfirst.Table,
	from stream.Checkpoint, save func(context.Context, stream.Checkpoint) error, batch func(context.Context, []stream.Record) error) error {
	c, err := stream.NewConsumer(ctx, client, streams, table, func(o *stream.Options) { o.Resume, o.Save, o.Limit = from, save, 5 })
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, batch) }()
	err = c.CaughtUp(ctx)
	cancel()
	if runErr := <-done; err != nil && !errors.Is(runErr, context.Canceled) {
		return runErr
	}
	return err
}
