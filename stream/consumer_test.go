package stream_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streams "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"go.uber.org/goleak"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/internal/nocalls"
	"github.com/keyfirst/keyfirst/stream"
)

// applied is a handler's state kept idempotent by the sequence numbers:
// each record applied once, however often it is delivered.
type applied struct {
	mu        sync.Mutex
	seen      map[string]bool
	delivered int
	totals    map[string][]int64 // per order, the totals of its changes, in order
	failAt    int                // fail the failAt-th delivery (1-based), 0 never
}

func (a *applied) batch(_ context.Context, records []stream.Record) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, r := range records {
		a.delivered++
		if a.delivered == a.failAt {
			return errors.New("crash")
		}
		if a.seen[r.SequenceNumber] {
			continue
		}
		a.seen[r.SequenceNumber] = true
		c, err := stream.Decode(Orders, withoutTable(r))
		if err != nil {
			return err
		}
		a.totals[c.New.ID] = append(a.totals[c.New.ID], c.New.Total)
	}
	return nil
}

// withoutTable lets the test's schema binding (Orders) decode a record of
// the test's own table.
func withoutTable(r stream.Record) stream.Record { r.Table = ""; return r }

// A consumer that crashes mid-stream and one resumed from its last saved
// checkpoint (through JSON) deliver every record at least once, and apply
// each once; each item's changes arrive in order; a checkpoint is saved
// after each batch.
func TestCrashAndResume(t *testing.T) {
	t.Parallel()
	l := newLocal(t)
	ctx := t.Context()
	const orders, writes = 4, 5 // 20 records, in batches of 3
	var wg sync.WaitGroup
	for i := range orders { // one writer per order: its changes in order
		wg.Add(1)
		go func() {
			defer wg.Done()
			for w := range writes {
				o := Order{ID: fmt.Sprintf("o%d", i), Customer: "c", Status: "OPEN", Date: "2026-06-01", Total: int64(w)}
				if _, err := l.orders.Put(ctx, l.db, o); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()

	a := &applied{seen: map[string]bool{}, totals: map[string][]int64{}, failAt: 11}
	var saved [][]byte
	save := func(_ context.Context, cp stream.Checkpoint) error {
		b, err := json.Marshal(cp)
		saved = append(saved, b)
		return err
	}
	run := func(from stream.Checkpoint) error {
		c, err := stream.NewConsumer(ctx, l.db, l.streams, l.table, func(o *stream.Options) {
			o.Resume, o.Save, o.Limit, o.Poll = from, save, 3, time.Hour
		})
		if err != nil {
			t.Fatal(err)
		}
		runCtx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- c.Run(runCtx, a.batch) }()
		err = c.CaughtUp(ctx)
		cancel()
		if runErr := <-done; err == nil && !errors.Is(runErr, context.Canceled) {
			t.Fatalf("Run after CaughtUp: %v", runErr)
		}
		return err
	}
	if err := run(stream.Checkpoint{}); err == nil || err.Error() != "crash" {
		t.Fatalf("the crashing run: %v", err)
	}
	if len(saved) != 3 { // batches 1-3, 4-6, 7-9; 10-12 crashed at 11
		t.Fatalf("%d checkpoints saved before the crash, want 3", len(saved))
	}
	var from stream.Checkpoint
	if err := json.Unmarshal(saved[len(saved)-1], &from); err != nil {
		t.Fatal(err)
	}
	if err := run(from); err != nil {
		t.Fatal(err)
	}
	if a.delivered != orders*writes+2 { // 10 and 11 again
		t.Errorf("%d deliveries, want %d", a.delivered, orders*writes+2)
	}
	if len(a.seen) != orders*writes {
		t.Errorf("%d records applied, want %d", len(a.seen), orders*writes)
	}
	for i := range orders {
		if got := a.totals[fmt.Sprintf("o%d", i)]; !slices.Equal(got, []int64{0, 1, 2, 3, 4}) {
			t.Errorf("order o%d's changes in the order %v", i, got)
		}
	}
}

// noStreams fails the test on any request to DynamoDB Streams.
type noStreams struct{ t *testing.T }

func (n noStreams) DescribeStream(context.Context, *dynamodbstreams.DescribeStreamInput, ...func(*dynamodbstreams.Options)) (*dynamodbstreams.DescribeStreamOutput, error) {
	n.t.Error("unexpected DescribeStream")
	return nil, nocalls.ErrUnexpected
}

func (n noStreams) GetShardIterator(context.Context, *dynamodbstreams.GetShardIteratorInput, ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetShardIteratorOutput, error) {
	n.t.Error("unexpected GetShardIterator")
	return nil, nocalls.ErrUnexpected
}

func (n noStreams) GetRecords(context.Context, *dynamodbstreams.GetRecordsInput, ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error) {
	n.t.Error("unexpected GetRecords")
	return nil, nocalls.ErrUnexpected
}

// NewConsumer refuses a schema without a stream of both images before
// any request, and, found by the table check, a live table whose stream
// is missing; and a checkpoint of another stream. A consumer runs once.
func TestConsumerRefuses(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	for _, view := range []types.StreamViewType{"", types.StreamViewTypeNewImage, types.StreamViewTypeKeysOnly} {
		table := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "no-stream", Key: orderByID, Stream: view}))
		if _, err := stream.NewConsumer(ctx, nocalls.Client{T: t}, noStreams{t}, table); !errors.Is(err, stream.ErrStreamView) {
			t.Errorf("schema with stream %q: %v", view, err)
		}
	}

	in := Shop.CreateTableInput()
	in.StreamSpecification = nil
	table := keyfirst.Must(Shop.Named(integration.CreateTable(t, in)))
	_, err := stream.NewConsumer(ctx, integration.Client(t), noStreams{t}, table)
	var de *keyfirst.TableDiffError
	if !errors.As(err, &de) || len(de.Errors()) != 1 || de.Errors()[0].Kind != keyfirst.DiffStream {
		t.Fatalf("a table without its stream: %v", err)
	}

	l := newLocal(t)
	if _, err := stream.NewConsumer(ctx, l.db, noStreams{t}, l.table, func(o *stream.Options) {
		o.Resume = stream.Checkpoint{Stream: "arn:aws:dynamodb:ddblocal:000000000000:table/other/stream/x"}
	}); !errors.Is(err, stream.ErrCheckpoint) {
		t.Fatalf("a checkpoint of another stream: %v", err)
	}
	var g log
	c, stop := l.consume(t, &g)
	caughtUp(t, c)
	if err := c.Run(ctx, nil); !errors.Is(err, stream.ErrRunning) {
		t.Fatalf("a second Run: %v", err)
	}
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	if err := c.CaughtUp(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("CaughtUp after Run ended: %v", err)
	}
}

// Cancelling ends Run at once, in a request or in the poll's wait, and
// leaves no goroutine behind. Not parallel, so that goleak sees only its
// own.
func TestCancelEndsAtOnce(t *testing.T) {
	l := newLocal(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent(),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"))
	for _, mid := range []string{"in the poll's wait", "in a handler"} {
		t.Run(mid, func(t *testing.T) {
			// In the poll's wait, a poll of an hour is what cancel interrupts;
			// in a handler, a short one, so that the record of the Put below
			// reaches the handler whether or not the first round saw it.
			poll := time.Hour
			if mid == "in a handler" {
				poll = 10 * time.Millisecond
			}
			c, err := stream.NewConsumer(t.Context(), l.db, l.streams, l.table, func(o *stream.Options) { o.Poll = poll })
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(t.Context())
			inHandler := make(chan struct{})
			done := make(chan error, 1)
			go func() {
				done <- c.Run(ctx, func(ctx context.Context, _ []stream.Record) error {
					close(inHandler)
					<-ctx.Done()
					return ctx.Err()
				})
			}()
			if mid == "in a handler" {
				if _, err := l.orders.Put(t.Context(), l.db, openOrder); err != nil {
					t.Fatal(err)
				}
				select {
				case <-inHandler:
				case err := <-done:
					t.Fatalf("Run ended before the handler was called: %v", err)
				}
			} else if err := c.CaughtUp(t.Context()); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Fatalf("Run: %v", err)
			}
			if d := time.Since(start); d > time.Second {
				t.Fatalf("Run took %v to end", d)
			}
		})
	}
}

// shardsFake is a stream of shards whose lineage DynamoDB Local cannot
// produce (it has one shard): a closed parent listed after its child, and
// a child whose parent is trimmed. Each shard's records are its id and a
// number; GetShardIterator's requests are counted.
type shardsFake struct {
	mu        sync.Mutex
	shards    []streams.Shard
	records   map[string][]string // shard -> sequence numbers
	closed    map[string]bool
	iterators map[string]int
}

func (f *shardsFake) DescribeStream(_ context.Context, in *dynamodbstreams.DescribeStreamInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.DescribeStreamOutput, error) {
	page := f.shards[:2] // two pages
	var last *string = f.shards[1].ShardId
	if in.ExclusiveStartShardId != nil {
		page, last = f.shards[2:], nil
	}
	return &dynamodbstreams.DescribeStreamOutput{StreamDescription: &streams.StreamDescription{Shards: page, LastEvaluatedShardId: last}}, nil
}

func (f *shardsFake) GetShardIterator(_ context.Context, in *dynamodbstreams.GetShardIteratorInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetShardIteratorOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	shard := aws.ToString(in.ShardId)
	f.iterators[shard]++
	pos := 0
	if in.ShardIteratorType == streams.ShardIteratorTypeAfterSequenceNumber {
		pos = slices.Index(f.records[shard], aws.ToString(in.SequenceNumber)) + 1
	}
	return &dynamodbstreams.GetShardIteratorOutput{ShardIterator: aws.String(fmt.Sprintf("%s@%d", shard, pos))}, nil
}

func (f *shardsFake) GetRecords(_ context.Context, in *dynamodbstreams.GetRecordsInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error) {
	shard, at, _ := strings.Cut(aws.ToString(in.ShardIterator), "@")
	pos, err := strconv.Atoi(at)
	if err != nil {
		return nil, err
	}
	seqs := f.records[shard]
	out := &dynamodbstreams.GetRecordsOutput{}
	if pos < len(seqs) {
		seq := seqs[pos]
		out.Records = []streams.Record{{EventID: aws.String(seq), EventName: streams.OperationTypeInsert, Dynamodb: &streams.StreamRecord{
			SequenceNumber: aws.String(seq), StreamViewType: streams.StreamViewTypeNewAndOldImages,
			Keys:     map[string]streams.AttributeValue{"PK": &streams.AttributeValueMemberS{Value: "ORDER#" + seq}},
			NewImage: map[string]streams.AttributeValue{"PK": &streams.AttributeValueMemberS{Value: "ORDER#" + seq}}}}}
		pos++
	}
	if pos < len(seqs) || !f.closed[shard] {
		out.NextShardIterator = aws.String(fmt.Sprintf("%s@%d", shard, pos))
	}
	return out, nil
}

// Shards are read parents first (a closed parent to its end before its
// children), whatever the order DescribeStream lists them in; a child of
// a trimmed parent at once; and a resumed consumer reads no finished
// shard again.
func TestShardLineage(t *testing.T) {
	t.Parallel()
	l := newLocal(t)
	ctx := t.Context()
	shard := func(id, parent string) streams.Shard {
		s := streams.Shard{ShardId: aws.String(id)}
		if parent != "" {
			s.ParentShardId = aws.String(parent)
		}
		return s
	}
	fake := &shardsFake{
		shards:    []streams.Shard{shard("child", "parent"), shard("grandchild", "child"), shard("parent", ""), shard("orphan", "trimmed")},
		records:   map[string][]string{"parent": {"1", "2"}, "child": {"3", "4"}, "grandchild": {"5"}, "orphan": {"6"}},
		closed:    map[string]bool{"parent": true, "child": true},
		iterators: map[string]int{},
	}
	var order []string
	handle := func(_ context.Context, records []stream.Record) error {
		for _, r := range records {
			if r.Shard != map[string]string{"1": "parent", "2": "parent", "3": "child", "4": "child", "5": "grandchild", "6": "orphan", "7": "grandchild"}[r.SequenceNumber] {
				return fmt.Errorf("record %s of shard %q", r.SequenceNumber, r.Shard)
			}
			order = append(order, r.SequenceNumber)
		}
		return nil
	}
	consume := func(from stream.Checkpoint) stream.Checkpoint {
		c, err := stream.NewConsumer(ctx, l.db, fake, l.table, func(o *stream.Options) { o.Resume, o.Poll = from, time.Hour })
		if err != nil {
			t.Fatal(err)
		}
		runCtx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- c.Run(runCtx, handle) }()
		if err := c.CaughtUp(ctx); err != nil {
			t.Fatal(err)
		}
		cancel()
		<-done
		return c.Checkpoint()
	}
	cp := consume(stream.Checkpoint{})
	pos := func(seq string) int { return slices.Index(order, seq) }
	if len(order) != 6 || pos("2") > pos("3") || pos("4") > pos("5") || pos("1") > pos("2") || pos("3") > pos("4") {
		t.Fatalf("records in the order %v", order)
	}
	if !slices.Equal(cp.Done, []string{"child", "parent"}) || cp.Shards["grandchild"] != "5" || cp.Shards["orphan"] != "6" || len(cp.Shards) != 2 {
		t.Fatalf("checkpoint %+v", cp)
	}
	order = nil
	fake.records["grandchild"] = append(fake.records["grandchild"], "7")
	fake.iterators = map[string]int{}
	consume(cp)
	if !slices.Equal(order, []string{"7"}) || fake.iterators["parent"] != 0 || fake.iterators["child"] != 0 {
		t.Fatalf("resumed: records %v, iterators %v", order, fake.iterators)
	}
}
