package stream_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/migrate"
	"github.com/keyfirst/keyfirst/stream"
	"github.com/keyfirst/keyfirst/txn"
)

// consume runs a consumer of l's table that hands every change to g, until
// the test ends; stop ends it and returns Run's error.
func (l *local) consume(t *testing.T, g *log, optFns ...func(*stream.Options)) (c *stream.Consumer, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	opts := append([]func(*stream.Options){func(o *stream.Options) { o.Poll = 50 * time.Millisecond }}, optFns...)
	c, err := stream.NewConsumer(ctx, l.db, l.streams, l.table, opts...)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	router := g.router(t, l.table, l.orders, l.customers)
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, router.HandleBatch) }()
	var once sync.Once
	var runErr error
	stop = func() error {
		once.Do(func() { cancel(); runErr = <-done })
		return runErr
	}
	t.Cleanup(func() { _ = stop() })
	return c, stop
}

// caughtUp waits until the consumer has handled every record written so far.
func caughtUp(t *testing.T, c *stream.Consumer) {
	t.Helper()
	if err := c.CaughtUp(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// expect is a change as a test states it.
type expect struct {
	op       stream.Op
	old, new *Order
	moves    map[string]stream.Movement // every index not named: Absent
}

// check compares the changes of one step with want, item by item (a
// batch or a transaction orders its items as DynamoDB does), and checks
// that the transitions from the stored images are those that the write
// paths' rule, Entity.Item of the decoded images, gives.
func (l *local) check(t *testing.T, step string, got []stream.Change[Order], want ...expect) {
	t.Helper()
	id := func(c stream.Change[Order]) string { return c.Keys["PK"].(*types.AttributeValueMemberS).Value }
	slices.SortFunc(got, func(a, b stream.Change[Order]) int { return cmpString(id(a), id(b)) })
	if len(got) != len(want) {
		t.Fatalf("%s: %d changes, want %d: %+v", step, len(got), len(want), got)
	}
	for i, w := range want {
		c := got[i]
		if c.Op != w.op || !sameOrder(c.Old, w.old) || !sameOrder(c.New, w.new) {
			t.Errorf("%s: change %d: %v old %v new %v; want %v old %v new %v", step, i, c.Op, c.Old, c.New, w.op, w.old, w.new)
		}
		for _, ix := range Shop.Indexes() {
			if got, want := c.Movement(ix.IndexName), w.moves[ix.IndexName]; got != want {
				t.Errorf("%s: change %d: %s %v, want %v", step, i, ix.IndexName, got, want)
			}
		}
		if c.SequenceNumber == "" || c.Time.IsZero() || c.EventID == "" {
			t.Errorf("%s: change %d without position: %+v", step, i, c.Record)
		}
		recomputed := c.Record
		recomputed.Old, recomputed.New = itemOf(t, c.Old), itemOf(t, c.New)
		again, err := stream.Decode(l.orders, recomputed)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(movements(again.Transitions)) != fmt.Sprint(movements(c.Transitions)) {
			t.Errorf("%s: change %d: stored images give %v, Entity.Item %v", step, i, movements(c.Transitions), movements(again.Transitions))
		}
	}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func sameOrder(a, b *Order) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func itemOf(t *testing.T, o *Order) map[string]types.AttributeValue {
	if o == nil {
		return nil
	}
	return orderItem(t, *o)
}

func movements(ts []stream.Transition) []string {
	var out []string
	for _, tr := range ts {
		out = append(out, tr.Index+" "+tr.Movement.String())
	}
	return out
}

var (
	entered = map[string]stream.Movement{"open-orders": stream.Entered, "open-sharded": stream.Entered, "by-customer": stream.Entered}
	stayed  = map[string]stream.Movement{"open-orders": stream.Stayed, "open-sharded": stream.Stayed, "by-customer": stream.Stayed}
	closing = map[string]stream.Movement{"open-orders": stream.Left, "open-sharded": stream.Left, "by-customer": stream.Moved}
	removed = map[string]stream.Movement{"by-customer": stream.Left}
	gone    = map[string]stream.Movement{"open-orders": stream.Left, "open-sharded": stream.Left, "by-customer": stream.Left}
)

func with(o Order, f func(*Order)) *Order { f(&o); return &o }

// Every write path of keyfirst produces the change and the transitions
// expected, item by item, on DynamoDB Local: Put, Replace, Modify, Update,
// BatchWrite's puts and deletes, a transaction's actions, Delete, the
// migrate backfill, and a deletion by the time to live (DynamoDB Local's
// form of the record).
func TestEveryWritePath(t *testing.T) {
	t.Parallel()
	l := newLocal(t)
	var g log
	c, stop := l.consume(t, &g)
	ctx := t.Context()
	o1 := Order{ID: "o1", Customer: "c1", Status: "OPEN", Date: "2026-06-01", Total: 5}
	o2 := Order{ID: "o2", Customer: "c1", Status: "OPEN", Date: "2026-06-02", Total: 9}
	key1 := keyfirst.Must(l.orders.Key(o1))

	if _, err := l.orders.Put(ctx, l.db, o1); err != nil {
		t.Fatal(err)
	}
	caughtUp(t, c)
	l.check(t, "Put", g.takeOrders(), expect{stream.OpInsert, nil, &o1, entered})

	o1b := with(o1, func(o *Order) { o.Total = 7 })
	if _, err := l.orders.Replace(ctx, l.db, *o1b); err != nil {
		t.Fatal(err)
	}
	caughtUp(t, c)
	l.check(t, "Replace", g.takeOrders(), expect{stream.OpModify, &o1, o1b, stayed})

	o1c := with(*o1b, func(o *Order) { o.Status = "CLOSED" })
	if _, err := l.orders.Modify(ctx, l.db, key1, func(o *Order) { o.Status = "CLOSED" }); err != nil {
		t.Fatal(err)
	}
	caughtUp(t, c)
	l.check(t, "Modify", g.takeOrders(), expect{stream.OpModify, o1b, o1c, closing})

	if err := l.table.BatchWrite(ctx, l.db, []keyfirst.WriteRequest{l.orders.PutRequest(o2), l.orders.DeleteRequest(key1)}); err != nil {
		t.Fatal(err)
	}
	caughtUp(t, c)
	l.check(t, "BatchWrite", g.takeOrders(), expect{stream.OpRemove, o1c, nil, removed}, expect{stream.OpInsert, nil, &o2, entered})

	o2b := with(o2, func(o *Order) { o.Status = "CLOSED" })
	customer := Customer{ID: "c1", Name: "Ada"}
	if err := txn.Write(ctx, l.db, []txn.Action{txn.Replace(l.orders, *o2b), txn.Put(l.customers, customer)}); err != nil {
		t.Fatal(err)
	}
	caughtUp(t, c)
	l.check(t, "transaction", g.takeOrders(), expect{stream.OpModify, &o2, o2b, closing})
	g.mu.Lock()
	customers := g.customers
	g.mu.Unlock()
	if len(customers) != 1 || customers[0].Op != stream.OpInsert || *customers[0].New != customer || len(customers[0].Transitions) != 0 {
		t.Fatalf("customer changes %+v", customers)
	}

	// Update: one UpdateItem reopens o2, the If and the shard's When
	// declaring that they read Status; by-customer's key is recomputed
	// from the fields the update sets.
	o2c := with(*o2b, func(o *Order) { o.Status = "OPEN" })
	reopening := map[string]stream.Movement{"open-orders": stream.Entered, "open-sharded": stream.Entered, "by-customer": stream.Moved}
	if _, err := l.orders.Update(ctx, l.db, keyfirst.Must(l.orders.Key(o2)), keyfirst.Set("Status", "OPEN").Set("Date", o2.Date).Set("Customer", o2.Customer)); err != nil {
		t.Fatal(err)
	}
	caughtUp(t, c)
	l.check(t, "Update", g.takeOrders(), expect{stream.OpModify, o2b, o2c, reopening})

	if err := l.orders.Delete(ctx, l.db, *o2c); err != nil {
		t.Fatal(err)
	}
	caughtUp(t, c)
	l.check(t, "Delete", g.takeOrders(), expect{stream.OpRemove, o2c, nil, gone})

	// The backfill: an order stored before the open-orders index existed
	// (its item without open_bucket) enters it when migrate rewrites it.
	// The stored images say so; Entity.Item of the old image would claim
	// it was in the index already (the reason transitions are read from
	// the stored attributes).
	o4 := Order{ID: "o4", Customer: "c2", Status: "OPEN", Date: "2026-06-04", Total: 4}
	legacy := orderItem(t, o4)
	delete(legacy, "open_bucket")
	if _, err := l.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(l.table.Name()), Item: legacy}); err != nil {
		t.Fatal(err)
	}
	caughtUp(t, c)
	if got := g.takeOrders(); len(got) != 1 || got[0].Op != stream.OpInsert || got[0].Movement("open-orders") != stream.Absent || got[0].Movement("open-sharded") != stream.Entered {
		t.Fatalf("the legacy order's insert: %+v", got)
	}
	if _, err := (&migrate.Backfill{Name: "open-orders", Table: l.table, Entities: []migrate.Target{migrate.Entity(l.orders)}, WCU: 100}).Run(ctx, l.db); err != nil {
		t.Fatal(err)
	}
	caughtUp(t, c)
	backfilled := g.takeOrders()
	if len(backfilled) != 1 || backfilled[0].Op != stream.OpModify || *backfilled[0].New != o4 ||
		fmt.Sprint(movements(backfilled[0].Transitions)) != "[open-orders entered open-sharded stayed by-customer stayed]" {
		t.Fatalf("the backfill's change: %+v", backfilled)
	}
	recomputed := backfilled[0].Record
	recomputed.Old = orderItem(t, *backfilled[0].Old)
	if again, err := stream.Decode(l.orders, recomputed); err != nil || again.Movement("open-orders") != stream.Stayed {
		t.Fatalf("Entity.Item of the old image: %v, %v", again.Transitions, err)
	}
	if err := l.orders.Delete(ctx, l.db, o4); err != nil {
		t.Fatal(err)
	}
	caughtUp(t, c)
	l.check(t, "Delete after the backfill", g.takeOrders(), expect{stream.OpRemove, &o4, nil, gone})

	// The time to live: DynamoDB Local deletes an expired item within
	// seconds; its record is named UNKNOWN_TO_SDK_VERSION.
	if _, err := l.db.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(l.table.Name()),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("expires_at"), Enabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	o3 := Order{ID: "o3", Customer: "c2", Status: "OPEN", Date: "2026-06-03", Total: 1}
	item := orderItem(t, o3)
	item["expires_at"] = &types.AttributeValueMemberN{Value: strconv.FormatInt(time.Now().Add(-48*time.Hour).Unix(), 10)}
	if _, err := l.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(l.table.Name()), Item: item}); err != nil {
		t.Fatal(err)
	}
	var changes []stream.Change[Order]
	for len(changes) < 2 { // the insert, then the deletion: each CaughtUp is a round, not a sleep
		caughtUp(t, c)
		changes = append(changes, g.takeOrders()...)
	}
	l.check(t, "TTL insert", changes[:1], expect{stream.OpInsert, nil, &o3, entered})
	l.check(t, "TTL", changes[1:], expect{stream.OpExpire, &o3, nil, gone})
	if err := stop(); err != context.Canceled {
		t.Fatalf("Run: %v", err)
	}
}
