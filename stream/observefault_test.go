package stream_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"go.uber.org/goleak"

	"github.com/keyfirst/keyfirst/internal/faulthttp"
	"github.com/keyfirst/keyfirst/internal/observetest"
	"github.com/keyfirst/keyfirst/stream"
)

// A consumer whose first GetShardIterator, or first GetRecords, fails
// (answered at the HTTP level with a ValidationException: DynamoDB Local
// cannot be made to fail either once the stream is described) shows its
// Observer the error Run returns, with its code, and leaves no goroutine
// behind. Not parallel, so that goleak sees only its own.
func TestConsumerObservedWithItsFailedRead(t *testing.T) {
	l := newLocal(t)
	if _, err := l.orders.Put(t.Context(), l.db, openOrder); err != nil {
		t.Fatal(err)
	}
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent(),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"))
	for _, op := range []string{"GetShardIterator", "GetRecords"} {
		t.Run(op, func(t *testing.T) {
			var fault *faulthttp.Client
			streams := dynamodbstreams.New(l.streams.Options(), func(o *dynamodbstreams.Options) {
				fault = faulthttp.New(o.HTTPClient, "DynamoDBStreams_20120810."+op, "ValidationException")
				o.HTTPClient = fault
			})
			rec := &observetest.Recorder{}
			c, err := stream.NewConsumer(t.Context(), l.db, streams, l.table.Observed(rec), func(o *stream.Options) { o.Poll = time.Hour })
			if err != nil {
				t.Fatal(err)
			}
			handled := 0
			err = c.Run(t.Context(), func(_ context.Context, rs []stream.Record) error { handled += len(rs); return nil })
			if err == nil || fault.Failed() != 1 || handled != 0 {
				t.Fatalf("Run with a failed %s (%d failed, %d records handled): %v", op, fault.Failed(), handled, err)
			}
			seen := rec.Take()
			if msg := observetest.SameError(seen, err, "ValidationException"); msg != "" {
				t.Error(msg)
			}
			if f, _ := observetest.Failed(seen); f.Request.Operation != op || f.Request.Call != "stream.Consumer" {
				t.Errorf("the failed request: %s %s, want %s; observed %q", f.Request.Operation, f.Request.Call, op, observetest.Calls(seen))
			}
		})
	}
}

// A GetRecords that fails with TrimmedDataAccessException, as DynamoDB
// Local's does now and then on an iterator taken before the table's first
// write (aws/aws-sdk-java#2923; TestEveryWritePath failed on it in CI),
// is sent again once with a new iterator from the checkpoint: the record
// is handled and Run goes on. Before, Run ended with the error.
func TestConsumerRenewsATrimmedIterator(t *testing.T) {
	l := newLocal(t)
	if _, err := l.orders.Put(t.Context(), l.db, openOrder); err != nil {
		t.Fatal(err)
	}
	var fault *faulthttp.Client
	streams := dynamodbstreams.New(l.streams.Options(), func(o *dynamodbstreams.Options) {
		fault = faulthttp.New(o.HTTPClient, "DynamoDBStreams_20120810.GetRecords", "TrimmedDataAccessException")
		o.HTTPClient = fault
	})
	c, err := stream.NewConsumer(t.Context(), l.db, streams, l.table, func(o *stream.Options) { o.Poll = time.Hour })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	handled := make(chan int, 1)
	done := make(chan error, 1)
	go func() {
		n := 0
		done <- c.Run(ctx, func(_ context.Context, rs []stream.Record) error { n += len(rs); return nil })
		handled <- n
	}()
	if err := c.CaughtUp(t.Context()); err != nil {
		t.Fatalf("CaughtUp after a trimmed iterator: %v", err)
	}
	cancel()
	if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v", err)
	}
	if n := <-handled; n != 1 || fault.Failed() != 1 {
		t.Fatalf("%d records handled after %d trimmed reads, want 1 after 1", n, fault.Failed())
	}
}
