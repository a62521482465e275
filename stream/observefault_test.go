package stream_test

import (
	"context"
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
