package migrate_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"go.uber.org/goleak"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/migrate"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/shard"
)

// TestSeed000StatusFirstWhileWriting is seed 000's fix on a live table:
// orders stored with the date-first GSI sort key only; the entity gains
// the enum-first index ByStatusDate; the backfill runs while 4 goroutines
// keep modifying and creating orders with the new release. Afterwards
// "c's CANCELLED orders in Q3" on the new index is exactly what a Go-side
// computation over the whole table gives, every item is what the new
// release writes, and every concurrent write is stored as written.
func TestSeed000StatusFirstWhileWriting(t *testing.T) {
	t.Parallel()
	client, name := liveShop(t)
	statusFirstWhileWriting(t, client, name, false)
}

// statusFirstWhileWriting is seed 000's fix on the table called name,
// while 4 writers write: with addIndex, the table lacks ByStatusDate, and
// Table.AddIndex creates it while they write, before the backfill.
func statusFirstWhileWriting(t *testing.T, client *dynamodb.Client, name string, addIndex bool) {
	old, cur := release(t, dateFirst, name), release(t, statusFirst, name)
	seeded := seedOrders(t, client, old, 600)
	writer := client
	if addIndex {
		writer = patient(client)
	}

	// The writers: each owns the seeded orders i%4 == w and new ones of
	// its own, and remembers what it last wrote.
	ctx, cancel := integration.Context(t)
	defer cancel()
	done := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	want := map[string]Order{}
	for _, o := range seeded {
		want[o.ID] = o
	}
	var writes atomic.Int64
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 4))
			for n := 0; ; n++ {
				select {
				case <-done:
					return
				default:
				}
				var written Order
				var err error
				if n%5 == 4 { // a new order
					written, err = cur.orders.Put(ctx, writer, Order{CustomerID: fmt.Sprintf("c%d", r.IntN(10)), ID: fmt.Sprintf("w%d-%d", w, n),
						Status: Cancelled, Date: time.Date(2019, time.August, 1+r.IntN(28), 0, 0, 0, 0, time.UTC), Total: n})
				} else { // a change of one of its seeded orders
					o := seeded[4*r.IntN(len(seeded)/4)+w]
					written, err = cur.orders.Modify(ctx, writer, keyfirst.Must(cur.orders.Key(o)), func(o *Order) {
						o.Status, o.Total = statuses[r.IntN(3)], o.Total+1
						o.Date = o.Date.Add(time.Duration(r.IntN(48)-24) * time.Hour)

					})
				}
				if err != nil {
					t.Error(err)
					return
				}
				writes.Add(1)
				mu.Lock()
				want[written.ID] = written
				mu.Unlock()
			}
		}()
	}

	if addIndex {
		addStatusFirstIndex(t, ctx, client, cur, &writes)
	}
	b := &migrate.Backfill{Name: "orders-status-first", Table: cur.table, Entities: []migrate.Target{migrate.Entity(cur.orders)},
		WCU: 400, Segments: 4, PageSize: 25}
	var consumed keyfirst.Capacity
	report, err := b.Run(ctx, client, keyfirst.WithCapacity(&consumed))
	close(done)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	// WithCapacity adds up the Scan's and the writes' capacity, as the
	// report does (which also charges a write refused by its condition,
	// which DynamoDB reports nothing for).
	if consumed.Requests == 0 || math.Abs(consumed.Read-report.ConsumedRCU) > 1e-6 || consumed.Write == 0 || consumed.Write > report.ConsumedWCU+1e-6 {
		t.Errorf("WithCapacity %+v; the report's RCU %v, WCU %v", consumed, report.ConsumedRCU, report.ConsumedWCU)
	}
	t.Logf("backfill: %+v in %v; %.0f WCU consumed (%.1f WCU/s), estimated %.0f; %d concurrent writes",
		report.Counts, report.Elapsed.Round(time.Millisecond), report.ConsumedWCU, report.WCUPerSecond(), report.EstimatedWCU, writes.Load())
	if report.Failed != 0 || report.Changed == 0 || report.Skipped != 10 || !report.Checkpoint.Done() {
		t.Fatalf("report %+v, done %v; want changes, no failure, the 10 customers skipped", report.Counts, report.Checkpoint.Done())
	}
	if writes.Load() == 0 {
		t.Fatal("no concurrent write happened during the backfill")
	}

	// No concurrent write lost: every order is stored as last written.
	stored := ordersIn(t, cur, scanAll(t, client, name, ""))
	if len(stored) != len(want) {
		t.Errorf("%d orders stored, %d written", len(stored), len(want))
	}
	for id, w := range want {
		if got, ok := stored[id]; !ok || got.Status != w.Status || !got.Date.Equal(w.Date) || got.Total != w.Total {
			t.Errorf("order %s: stored %+v, last written %+v", id, got, w)
		}
	}
	upToDate(t, client, cur)

	// CANCELLED orders in Q3, per customer, on the new index, against a
	// Go-side computation over the table.
	jul1, oct1 := time.Date(2019, time.July, 1, 0, 0, 0, 0, time.UTC), time.Date(2019, time.October, 1, 0, 0, 0, 0, time.UTC)
	total := 0
	for c := range 10 {
		customer := fmt.Sprintf("c%d", c)
		var expect []string
		for _, o := range stored {
			if o.CustomerID == customer && o.Status == Cancelled && !o.Date.Before(jul1) && o.Date.Before(oct1) {
				expect = append(expect, o.ID)
			}
		}
		found, err := query.On(cur.orders, byStatusDate, customer).Sort(statusDate.With1(Cancelled).HalfOpen(jul1, oct1)).Collect(ctx, client)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, o := range found {
			got = append(got, o.ID)
		}
		sort.Strings(expect)
		sort.Strings(got)
		if !slices.Equal(got, expect) {
			t.Errorf("%s's CANCELLED orders in Q3: index %v, table %v", customer, got, expect)
		}
		total += len(got)
	}
	t.Logf("CANCELLED orders in Q3 over 10 customers: %d, as the table says", total)
}

// TestNewSparseRule: the open-orders rule moves from SHIPPED orders (the
// previous release's bug) to PENDING ones. The dry run counts per index
// what would enter and leave, writes nothing, and estimates the WCUs the
// real run then consumes; after the run the index holds exactly the
// pending orders.
func TestNewSparseRule(t *testing.T) {
	t.Parallel()
	client, name := liveShop(t)
	old, cur := release(t, design{open: Shipped}, name), release(t, design{open: Pending}, name)
	seeded := seedOrders(t, client, old, 300)
	count := map[Status]int64{}
	for _, o := range seeded {
		count[o.Status]++
	}
	b := &migrate.Backfill{Name: "open-means-pending", Table: cur.table, Entities: []migrate.Target{migrate.Entity(cur.orders)}, WCU: 1000, DryRun: true}
	dry := run(t, b, client)
	ix := dry.Indexes["OpenOrders"]
	t.Logf("dry run: %+v; OpenOrders %+v; estimated %.0f WCU", dry.Counts, ix, dry.EstimatedWCU)
	if ix.Enter != count[Pending] || ix.Leave != count[Shipped] || dry.Changed != count[Pending]+count[Shipped] ||
		dry.Unchanged != count[Cancelled] || dry.Entities["Order"].Changed != dry.Changed || dry.ConsumedWCU != 0 {
		t.Fatalf("dry run %+v, OpenOrders %+v; want %d entering, %d leaving", dry.Counts, ix, count[Pending], count[Shipped])
	}
	inIndex := func() map[string]bool {
		out := map[string]bool{}
		for _, item := range scanAll(t, client, name, "OpenOrders") {
			out[item["OrderId"].(*types.AttributeValueMemberS).Value] = true
		}
		return out
	}
	if got := inIndex(); int64(len(got)) != count[Shipped] {
		t.Fatalf("the dry run wrote: %d items in OpenOrders, want the %d shipped ones still", len(got), count[Shipped])
	}

	b.DryRun = false
	real := run(t, b, client)
	t.Logf("run: %+v; %.0f WCU consumed, %.0f estimated by the dry run", real.Counts, real.ConsumedWCU, dry.EstimatedWCU)
	if real.Changed != dry.Changed || real.ConsumedWCU != dry.EstimatedWCU || real.Indexes["OpenOrders"] != ix {
		t.Errorf("run %+v consumed %.0f WCU, OpenOrders %+v; the dry run said %+v, %.0f WCU, %+v",
			real.Counts, real.ConsumedWCU, real.Indexes["OpenOrders"], dry.Counts, dry.EstimatedWCU, ix)
	}
	got := inIndex()
	for _, o := range seeded {
		if got[o.ID] != (o.Status == Pending) {
			t.Errorf("order %s (%s): in OpenOrders %v", o.ID, o.Status, got[o.ID])
		}
	}
	if int64(len(got)) != count[Pending] {
		t.Errorf("%d items in OpenOrders, want the %d pending orders", len(got), count[Pending])
	}
	upToDate(t, client, cur)
}

// TestShardCountThreeToEight: the open orders of a versioned entity move
// from 3 shards to 8 (Shards: 8, PreviousShards: 3); after the backfill
// every shard OPEN#0..OPEN#7 holds exactly the open orders the frozen
// hash puts there, and each changed order has its next version.
func TestShardCountThreeToEight(t *testing.T) {
	t.Parallel()
	client := integration.Client(t)
	desc, _, _ := shardedRelease(t, 3, 0, "")
	name := integration.CreateTable(t, desc.CreateTableInput())
	_, _, oldOrders := shardedRelease(t, 3, 0, name)
	table, ix, orders := shardedRelease(t, 8, 3, name)

	open := map[string]bool{}
	for i := range 400 {
		o := ShardedOrder{ID: fmt.Sprintf("o%04d", i), Status: "CLOSED", Date: fmt.Sprintf("2026-06-%02dT10:00:00Z", 1+i%28)}
		if i%3 != 0 {
			o.Status = "OPEN"
			open[o.ID] = true
		}
		if _, err := oldOrders.Put(context.Background(), client, o); err != nil {
			t.Fatal(err)
		}
	}
	report := run(t, &migrate.Backfill{Name: "open-orders-8-shards", Table: table, Entities: []migrate.Target{migrate.Entity(orders)}, WCU: 2000}, client)
	// The open orders on shards 3..7 of 8 move; those whose shard of 8 is
	// their shard of 3 stay.
	moved := 0
	for id := range open {
		if shard.Hash(id)%8 != shard.Hash(id)%3 {
			moved++
		}
	}
	t.Logf("%+v; %d open orders change shard; open-orders %+v", report.Counts, moved, report.Indexes["open-orders"])
	if report.Changed != int64(moved) || report.Indexes["open-orders"].Move != int64(moved) || report.Failed != 0 {
		t.Fatalf("report %+v, open-orders %+v; want %d moved", report.Counts, report.Indexes["open-orders"], moved)
	}
	for n, part := range ix.Partitions() {
		x, err := expression.NewBuilder().WithKeyCondition(expression.Key("open_status_shard").Equal(expression.Value(part))).Build()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		p := dynamodb.NewQueryPaginator(client, &dynamodb.QueryInput{TableName: &name, IndexName: aws.String("open-orders"),
			KeyConditionExpression: x.KeyCondition(), ExpressionAttributeNames: x.Names(), ExpressionAttributeValues: x.Values()})
		for p.HasMorePages() {
			out, err := p.NextPage(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, item := range out.Items {
				o := keyfirst.Must(orders.Decode(item))
				got = append(got, o.ID)
				want := int64(1) // created with 1, and 2 when the backfill moved it
				if shard.Hash(o.ID)%8 != shard.Hash(o.ID)%3 {
					want = 2
				}
				if o.Version != want {
					t.Errorf("order %s: version %d, want %d", o.ID, o.Version, want)
				}
			}
		}
		var want []string
		for id := range open {
			if int(shard.Hash(id)%8) == n {
				want = append(want, id)
			}
		}
		sort.Strings(got)
		sort.Strings(want)
		if !slices.Equal(got, want) {
			t.Errorf("shard %s holds %d orders, want %d: %v", part, len(got), len(want), got)
		}
	}
}

// TestCancelAndResume: a backfill cancelled after 100 writes stops with
// the context's error and an exact checkpoint, signed; the checkpoint,
// serialised and read back as after a restart, is refused by a backfill
// without the key and resumes a new Backfill (new entity bindings, the
// key) that does the rest: every item is scanned once over the two
// runs and every stale item written exactly once. A third run from the
// finished checkpoint reads nothing. No goroutine outlives a run.
func TestCancelAndResume(t *testing.T) {
	client, name := liveShop(t) // DynamoDB Local started before goleak's snapshot
	defer goleak.VerifyNone(t, leakOptions()...)
	old := release(t, dateFirst, name)
	seedOrders(t, client, old, 300)

	first := release(t, statusFirst, name)
	api := newCounting(client)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	api.afterUpdate = func(n int) {
		if n == 100 {
			cancel()
		}
	}
	var progress []migrate.Progress
	b := &migrate.Backfill{Name: "orders-status-first", Table: first.table, Entities: []migrate.Target{migrate.Entity(first.orders)},
		WCU: 5000, Segments: 4, PageSize: 10, Progress: func(p migrate.Progress) { progress = append(progress, p) }, ProgressEvery: 20 * time.Millisecond}
	report, err := b.Run(ctx, api, keyfirst.WithCursorKey(cursorKey))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v", err)
	}
	if report == nil || report.Checkpoint.Done() || report.Changed < 100 || report.Changed > 104 {
		t.Fatalf("cancelled run: %+v", report)
	}
	t.Logf("cancelled: %+v, %d/%d segments done", report.Counts, report.Checkpoint.SegmentsDone(), report.Checkpoint.Segments())
	if last := progress[len(progress)-1]; last.Counts != report.Counts || last.Checkpoint.Counts() != report.Counts {
		t.Errorf("last progress %+v, report %+v", last.Counts, report.Counts)
	}
	saved, err := json.Marshal(report.Checkpoint)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("checkpoint: %d bytes: %s", len(saved), saved)

	// A new process: new declarations, the checkpoint read back.
	second := release(t, statusFirst, name)
	var cp migrate.Checkpoint
	if err := json.Unmarshal(saved, &cp); err != nil {
		t.Fatal(err)
	}
	b2 := &migrate.Backfill{Name: "orders-status-first", Table: second.table, Entities: []migrate.Target{migrate.Entity(second.orders)},
		WCU: 5000, PageSize: 10, Resume: &cp, Progress: func(p migrate.Progress) { t.Log(p) }}
	var ce *migrate.CheckpointError
	if _, err := b2.Run(ctx, noCalls{T: t}); !errors.As(err, &ce) || ce.Problem != migrate.CheckpointTampered {
		t.Fatalf("the signed checkpoint to a backfill without the key: %v", err)
	}
	rest := run(t, b2, api, keyfirst.WithCursorKey(cursorKey))
	t.Logf("resumed: %+v", rest.Counts)
	if !rest.Checkpoint.Done() {
		t.Fatal("resumed run did not finish")
	}
	if n := report.Scanned + rest.Scanned; n != 310 {
		t.Errorf("%d + %d items scanned over the two runs, the table holds 310", report.Scanned, rest.Scanned)
	}
	if n := report.Changed + rest.Changed; n != 300 {
		t.Errorf("%d + %d items changed over the two runs, 300 were stale", report.Changed, rest.Changed)
	}
	if total := rest.Checkpoint.Counts(); total.Scanned != 310 || total.Changed != 300 || total.Skipped != 10 {
		t.Errorf("checkpoint counts %+v", total)
	}
	api.writtenOnce(t, 300)
	upToDate(t, client, second)

	scans := api.scans.Load()
	again := run(t, &migrate.Backfill{Name: "orders-status-first", Table: second.table, Entities: []migrate.Target{migrate.Entity(second.orders)},
		WCU: 5000, Resume: rest.Checkpoint}, api, keyfirst.WithCursorKey(cursorKey))
	if api.scans.Load() != scans || again.Scanned != 0 {
		t.Errorf("a finished checkpoint scanned again: %d scans, %+v", api.scans.Load()-scans, again.Counts)
	}
}

// TestBudgetRespected: the writes of a backfill consume no more write
// capacity per second than its budget, measured from the capacity
// DynamoDB Local reports over the run.
func TestBudgetRespected(t *testing.T) {
	t.Parallel()
	client, name := liveShop(t)
	seedOrders(t, client, release(t, dateFirst, name), 300)
	cur := release(t, statusFirst, name)
	const budget = 150.0
	report := run(t, &migrate.Backfill{Name: "orders-status-first", Table: cur.table, Entities: []migrate.Target{migrate.Entity(cur.orders)},
		WCU: budget, Segments: 8}, client)
	rate := report.WCUPerSecond()
	t.Logf("budget %.0f WCU/s: %.0f WCU consumed in %v = %.1f WCU/s (%d items written, %.1f WCU each)",
		budget, report.ConsumedWCU, report.Elapsed.Round(time.Millisecond), rate, report.Changed, report.ConsumedWCU/float64(report.Changed))
	if report.Changed != 300 || report.ConsumedWCU == 0 {
		t.Fatalf("report %+v, %.0f WCU", report.Counts, report.ConsumedWCU)
	}
	// The bucket starts empty and earns budget units a second; a write in
	// flight per segment may overdraw it by its own cost.
	if limit := budget + 8*report.ConsumedWCU/float64(report.Changed)/report.Elapsed.Seconds(); rate > limit {
		t.Errorf("%.1f WCU/s consumed, the budget is %.0f (%.1f with the writes in flight)", rate, budget, limit)
	}
}

// TestFailuresReported: items that cannot be brought up to date are
// reported with their keys and typed causes, and the run goes on; with
// StopOnFailure the run stops at the first, with the checkpoint before it.
func TestFailuresReported(t *testing.T) {
	t.Parallel()
	client, name := liveShop(t)
	old := release(t, dateFirst, name)
	seedOrders(t, client, old, 40)
	good := keyfirst.Must(old.orders.Item(Order{CustomerID: "c1", ID: "x", Status: Pending, Date: time.Now()}))
	with := func(changes ...any) map[string]types.AttributeValue {
		m := maps.Clone(good)
		for i := 0; i < len(changes); i += 2 {
			m[changes[i].(string)] = &types.AttributeValueMemberS{Value: changes[i+1].(string)}
		}
		return m
	}
	bad := map[string]map[string]types.AttributeValue{
		"undecodable":    with("SK", "ORDER#bad1", "OrderId", "bad1", "Total", "lots"),
		"unknown type":   with("SK", "ORDER#bad2", "_type", "Ghost"),
		"derivation":     with("SK", "ORDER#bad3", "OrderId", "bad#3"),
		"key is another": with("SK", "ORDER#bad4", "OrderId", "other"),
	}
	for _, item := range bad {
		if _, err := client.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: &name, Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	cur := release(t, statusFirst, name)
	var seen []*migrate.Failure
	report := run(t, &migrate.Backfill{Name: "orders-status-first", Table: cur.table, Entities: []migrate.Target{migrate.Entity(cur.orders)},
		WCU: 1000, OnFailure: func(f *migrate.Failure) { seen = append(seen, f) }}, client)
	if report.Failed != 4 || len(report.Failures) != 4 || len(seen) != 4 || report.Changed != 40 || !report.Checkpoint.Done() {
		t.Fatalf("report %+v, %d failures, %d seen", report.Counts, len(report.Failures), len(seen))
	}
	byKey := map[string]*migrate.Failure{}
	for _, f := range report.Failures {
		t.Log(f)
		if !errors.Is(f, migrate.ErrItemFailed) || f.Key["PK"] == nil || f.Key["SK"] == nil || len(f.Key) != 2 {
			t.Errorf("failure %v: key %v", f, f.Key)
		}
		byKey[f.Key["SK"].(*types.AttributeValueMemberS).Value] = f
	}
	var ie *keyfirst.ItemError
	checks := map[string]bool{
		"ORDER#bad1": errors.As(byKey["ORDER#bad1"], &ie) && ie.Problem == keyfirst.ItemDecode,
		"ORDER#bad2": errors.Is(byKey["ORDER#bad2"], keyfirst.ErrUnknownEntityType) && byKey["ORDER#bad2"].Entity == "Ghost",
		"ORDER#bad3": errors.As(byKey["ORDER#bad3"], &ie) && ie.Problem == keyfirst.ItemDerive,
		"ORDER#bad4": errors.Is(byKey["ORDER#bad4"], keyfirst.ErrKeyChanged),
	}
	for k, ok := range checks {
		if !ok {
			t.Errorf("%s: %v", k, byKey[k])
		}
		if f := byKey[k]; f != nil && f.KeyText != `("CUSTOMER#c1", "`+k+`")` {
			t.Errorf("%s: key text %s", k, f.KeyText)
		}
	}

	// StopOnFailure: the first failure ends the run.
	stop := &migrate.Backfill{Name: "stop", Table: cur.table, Entities: []migrate.Target{migrate.Entity(cur.orders)}, WCU: 1000, Segments: 1, StopOnFailure: true}
	ctx, cancel := integration.Context(t)
	defer cancel()
	stopped, err := stop.Run(ctx, client)
	var f *migrate.Failure
	if !errors.As(err, &f) || !errors.Is(err, migrate.ErrItemFailed) || stopped.Checkpoint.Done() || stopped.Failed != 0 {
		t.Fatalf("StopOnFailure: %v, %+v", err, stopped)
	}
}

// TestThrottlingBacksOff: throttled Scans and UpdateItems (which DynamoDB
// Local never returns: an injected client) are retried with backoff
// until they pass; the run completes with nothing lost.
func TestThrottlingBacksOff(t *testing.T) {
	client, name := liveShop(t) // DynamoDB Local started before goleak's snapshot
	defer goleak.VerifyNone(t, leakOptions()...)
	seedOrders(t, client, release(t, dateFirst, name), 50)
	cur := release(t, statusFirst, name)
	api := newCounting(client)
	var throttled atomic.Int64
	api.inject = func(op string, n int64) error {
		if n%3 == 1 { // the first of every three requests
			throttled.Add(1)
			return errThrottled
		}
		return nil
	}
	report := run(t, &migrate.Backfill{Name: "orders-status-first", Table: cur.table, Entities: []migrate.Target{migrate.Entity(cur.orders)},
		WCU: 5000, Segments: 2, PageSize: 10}, api)
	t.Logf("%d requests throttled; %+v", throttled.Load(), report.Counts)
	if report.Changed != 50 || report.Failed != 0 || throttled.Load() < 10 {
		t.Fatalf("report %+v after %d throttled requests", report.Counts, throttled.Load())
	}
	upToDate(t, client, cur)
}

// TestBadInputs: a backfill that cannot run is refused before any
// request, with a typed error: no budget, an entity of another table, a
// checkpoint of another table, name, definition or mode, a damaged one.
func TestBadInputs(t *testing.T) {
	t.Parallel()
	client, name := liveShop(t)
	cur := release(t, statusFirst, name)
	other := release(t, statusFirst, name+"-other")
	otherDesc := release(t, statusFirst, name) // another description of the same table
	previous := release(t, dateFirst, name)
	elsewhere := keyfirst.Must(cur.orders.In(keyfirst.Must(cur.table.Named(name + "-elsewhere"))))
	ok := func() *migrate.Backfill {
		return &migrate.Backfill{Name: "n", Table: cur.table, Entities: []migrate.Target{migrate.Entity(cur.orders)}, WCU: 10, DryRun: true}
	}
	// A checkpoint of a dry run, from a real (empty) run.
	cp := run(t, ok(), client).Checkpoint
	ctx := context.Background()
	config := func(p migrate.ConfigProblem) func(error) bool {
		return func(err error) bool {
			var ce *migrate.ConfigError
			return errors.As(err, &ce) && ce.Problem == p && errors.Is(err, migrate.ErrInvalidBackfill)
		}
	}
	checkpoint := func(p migrate.CheckpointProblem) func(error) bool {
		return func(err error) bool {
			var ce *migrate.CheckpointError
			return errors.As(err, &ce) && ce.Problem == p && errors.Is(err, migrate.ErrCheckpoint)
		}
	}
	cases := []struct {
		name   string
		change func(*migrate.Backfill)
		check  func(error) bool
	}{
		{"budget 0", func(b *migrate.Backfill) { b.WCU = 0 }, config(migrate.ConfigBudget)},
		{"budget negative", func(b *migrate.Backfill) { b.WCU = -5 }, config(migrate.ConfigBudget)},
		{"budget NaN", func(b *migrate.Backfill) { b.WCU = math.NaN() }, config(migrate.ConfigBudget)},
		{"budget infinite", func(b *migrate.Backfill) { b.WCU = math.Inf(1) }, config(migrate.ConfigBudget)},
		// Positive and finite, but a wait of 1/WCU seconds per unit overflows
		// time.Duration: written at full speed before the range was checked.
		{"budget 1e-10", func(b *migrate.Backfill) { b.WCU = 1e-10 }, config(migrate.ConfigBudget)},
		{"budget 1e-300", func(b *migrate.Backfill) { b.WCU = 1e-300 }, config(migrate.ConfigBudget)},
		{"budget 5e-324", func(b *migrate.Backfill) { b.WCU = 5e-324 }, config(migrate.ConfigBudget)},
		{"budget under the minimum", func(b *migrate.Backfill) { b.WCU = math.Nextafter(migrate.MinWCU, 0) }, config(migrate.ConfigBudget)},
		{"budget over the maximum", func(b *migrate.Backfill) { b.WCU = math.Nextafter(migrate.MaxWCU, math.Inf(1)) }, config(migrate.ConfigBudget)},
		// Its checkpoint would read "bf-\uFFFD" after a JSON round trip, and
		// refuse to resume it.
		{"name not UTF-8", func(b *migrate.Backfill) { b.Name = "bf-\xff" }, config(migrate.ConfigName)},
		{"no table", func(b *migrate.Backfill) { b.Table = nil }, config(migrate.ConfigNoTable)},
		{"no name", func(b *migrate.Backfill) { b.Name = "" }, config(migrate.ConfigNoName)},
		{"no entity", func(b *migrate.Backfill) { b.Entities = nil }, config(migrate.ConfigNoEntities)},
		{"nil entity", func(b *migrate.Backfill) { b.Entities = []migrate.Target{migrate.Entity[Order](nil)} }, config(migrate.ConfigNoEntities)},
		{"entity of another table", func(b *migrate.Backfill) { b.Entities = append(b.Entities, migrate.Entity(other.customers)) }, config(migrate.ConfigOtherTable)},
		{"entity bound to another table name", func(b *migrate.Backfill) { b.Entities = []migrate.Target{migrate.Entity(elsewhere)} }, config(migrate.ConfigOtherTable)},
		{"entity of another description", func(b *migrate.Backfill) { b.Entities = []migrate.Target{migrate.Entity(otherDesc.orders)} }, config(migrate.ConfigOtherTable)},
		{"entity twice", func(b *migrate.Backfill) { b.Entities = append(b.Entities, migrate.Entity(cur.orders)) }, config(migrate.ConfigDuplicateEntity)},
		{"segments", func(b *migrate.Backfill) { b.Segments = migrate.MaxSegments + 1 }, config(migrate.ConfigSegments)},
		{"page size", func(b *migrate.Backfill) { b.PageSize = -1 }, config(migrate.ConfigOption)},
		{"checkpoint of another table", func(b *migrate.Backfill) {
			b.Table, b.Entities, b.Resume = other.table, []migrate.Target{migrate.Entity(other.orders)}, cp
		}, checkpoint(migrate.CheckpointTable)},
		{"checkpoint of another name", func(b *migrate.Backfill) { b.Name, b.Resume = "m", cp }, checkpoint(migrate.CheckpointName)},
		{"checkpoint of another definition", func(b *migrate.Backfill) {
			b.Entities, b.Resume = append(b.Entities, migrate.Entity(cur.customers)), cp
		}, checkpoint(migrate.CheckpointDefinition)},
		{"checkpoint of another release", func(b *migrate.Backfill) {
			b.Table, b.Entities, b.Resume = previous.table, []migrate.Target{migrate.Entity(previous.orders)}, cp
		}, checkpoint(migrate.CheckpointDefinition)},
		{"checkpoint of a dry run", func(b *migrate.Backfill) { b.DryRun, b.Resume = false, cp }, checkpoint(migrate.CheckpointDryRun)},
		{"checkpoint with other segments", func(b *migrate.Backfill) { b.Segments, b.Resume = 7, cp }, config(migrate.ConfigSegments)},
	}
	for _, c := range cases {
		b := ok()
		c.change(b)
		report, err := b.Run(ctx, noCalls{T: t})
		if !c.check(err) || report != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	// Options of Run: a short cursor key, and an option Run does not take
	// (another package's, or one of the item operations'), refused with a
	// ConfigError wrapping the *keyfirst.OptionError.
	for name, opt := range map[string]func(*keyfirst.Options){
		"short cursor key": keyfirst.WithCursorKey([]byte("0123456789abcde")),
		"max attempts":     keyfirst.WithMaxAttempts(3),
		"consistent read":  keyfirst.ConsistentRead(),
		"next cursor":      keyfirst.WithNext(new(query.Cursor)),
	} {
		report, err := ok().Run(ctx, noCalls{T: t}, opt)
		var oe *keyfirst.OptionError
		if !config(migrate.ConfigOption)(err) || !errors.As(err, &oe) || report != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, data := range []string{"{", `{"format":3,"table":"t","name":"n","definition":"d","segments":[{}]}`,
		`{"format":1,"table":"t","name":"n","definition":"d","segments":[{"last":{"PK":{"S":"a","N":"1"}}}]}`, `{"format":1}`} {
		if _, err := migrate.ParseCheckpoint([]byte(data)); !checkpoint(migrate.CheckpointCorrupt)(err) {
			t.Errorf("ParseCheckpoint(%s): %v", data, err)
		}
	}
}

// TestProgressString: the line a person watches.
func TestProgressString(t *testing.T) {
	t.Parallel()
	p := migrate.Progress{Total: migrate.Counts{Scanned: 1200, Changed: 300, Unchanged: 850, Skipped: 40, Conflicted: 2, Failed: 10},
		PerSecond: 400, ConsumedWCU: 600, Elapsed: 5 * time.Second, SegmentsDone: 3, Segments: 4, Left: 25 * time.Second}
	want := "1200 scanned (400/s), 300 changed, 850 unchanged, 40 skipped, 2 conflicted, 10 failed; 3/4 segments; 120.0 WCU/s; about 25s left"
	if got := p.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if strings.Contains(migrate.Progress{}.String(), "left") {
		t.Error("no time left printed when unknown")
	}
}

// leakOptions are goleak's options for a test: the goroutines running now
// and the connections of the HTTP client's pool are not leaks.
func leakOptions() []goleak.Option {
	return []goleak.Option{goleak.IgnoreCurrent(),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop")}
}

// TestResumeAfterErrors: a backfill that stops on an error of the client
// or on a cancelled context reports the checkpoint after the last item
// it finished, however it stopped: each run resumes from the previous
// one's checkpoint (through JSON), and over the runs every item is
// scanned once and every stale item written exactly once. The runs stop
// on a write failing, a Scan failing on a later page, the context
// cancelled while a write is being sent (it completes and counts), and
// the context cancelled while a Scan is being sent.
func TestResumeAfterErrors(t *testing.T) {
	t.Parallel()
	client, name := liveShop(t)
	seedOrders(t, client, release(t, dateFirst, name), 300)
	cur := release(t, statusFirst, name)
	api := newCounting(client)
	errInjected := errors.New("injected by the test")
	// at returns an inject that calls f on the n-th request of op of the
	// run (the counts of api are over every run).
	at := func(op string, n int64, f func() error) func() func(string, int64) error {
		return func() func(string, int64) error {
			base := map[string]int64{"Scan": api.scans.Load(), "UpdateItem": api.calls.Load()}
			return func(o string, m int64) error {
				if o == op && m-base[o] == n {
					return f()
				}
				return nil
			}
		}
	}
	var cancel context.CancelFunc
	fail := func() error { return errInjected }
	cancelRun := func() error { cancel(); return nil }
	runs := []struct {
		name   string
		inject func() func(string, int64) error
		want   error
	}{
		{"a write fails", at("UpdateItem", 40, fail), errInjected},
		{"a Scan fails on a later page", at("Scan", 6, fail), errInjected},
		{"cancelled while a write is sent", at("UpdateItem", 25, cancelRun), context.Canceled},
		{"cancelled while a Scan is sent", at("Scan", 5, cancelRun), context.Canceled},
		{"to the end", func() func(string, int64) error { return nil }, nil},
	}
	var saved []byte
	var total migrate.Counts
	for _, r := range runs {
		b := &migrate.Backfill{Name: "orders-status-first", Table: cur.table, Entities: []migrate.Target{migrate.Entity(cur.orders)},
			WCU: 5000, Segments: 3, PageSize: 10}
		if saved != nil {
			cp, err := migrate.ParseCheckpoint(saved)
			if err != nil {
				t.Fatal(err)
			}
			b.Resume = cp
		}
		var ctx context.Context
		ctx, cancel = context.WithCancel(context.Background())
		api.inject = r.inject()
		report, err := b.Run(ctx, api)
		cancel()
		if r.want == nil && err != nil || r.want != nil && !errors.Is(err, r.want) {
			t.Fatalf("%s: %v, want %v", r.name, err, r.want)
		}
		t.Logf("%s: %+v; %v", r.name, report.Counts, err)
		total.Changed += report.Changed
		total.Scanned += report.Scanned
		if saved, err = json.Marshal(report.Checkpoint); err != nil {
			t.Fatal(err)
		}
		if (r.want == nil) != report.Checkpoint.Done() {
			t.Fatalf("%s: done %v", r.name, report.Checkpoint.Done())
		}
	}
	if total.Scanned != 310 || total.Changed != 300 {
		t.Errorf("%d items scanned, %d changed over the runs; the table holds 310, 300 stale", total.Scanned, total.Changed)
	}
	api.writtenOnce(t, 300)
	upToDate(t, client, cur)
}
