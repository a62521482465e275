package stream_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/observetest"
	"github.com/keyfirst/keyfirst/stream"
)

// A consumer of an observed table: NewConsumer's DescribeTable and its
// stream reads are seen, and its
// catch-up reports its progress, finished with every record handled.
func TestConsumerObserved(t *testing.T) {
	t.Parallel()
	l := newLocal(t)
	ctx := t.Context()
	for i := range 5 {
		if _, err := l.orders.Put(ctx, l.db, Order{ID: fmt.Sprintf("o%d", i), Customer: "c", Status: "OPEN", Date: "2026-06-01"}); err != nil {
			t.Fatal(err)
		}
	}
	rec := &observetest.Recorder{}
	c, err := stream.NewConsumer(ctx, l.db, l.streams, l.table.Observed(rec), func(o *stream.Options) { o.Limit, o.Poll = 2, time.Hour })
	if err != nil {
		t.Fatal(err)
	}
	handled := 0
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- c.Run(runCtx, func(_ context.Context, rs []stream.Record) error { handled += len(rs); return nil })
	}()
	err = c.CaughtUp(ctx)
	cancel()
	if runErr := <-done; err != nil || !errors.Is(runErr, context.Canceled) {
		t.Fatalf("CaughtUp: %v; Run: %v", err, runErr)
	}
	ops := map[string]int{}
	records := 0
	for _, s := range rec.Take() {
		ops[s.Request.Operation]++
		if s.Request.Operation == "GetRecords" {
			records += s.Result.Returned
		}
	}
	if ops["DescribeTable"] != 1 || ops["DescribeStream"] == 0 || ops["GetShardIterator"] == 0 || ops["GetRecords"] < 3 || records != handled || handled != 5 {
		t.Errorf("observed %v, %d records; handled %d", ops, records, handled)
	}
	reports := rec.Reports()
	if len(reports) == 0 {
		t.Fatal("no progress reported")
	}
	if last := reports[len(reports)-1]; !last.Finished || last.Work != "stream.Consumer" || last.Done != 5 {
		t.Errorf("the last progress %+v, want finished with 5 records", last)
	}
}

// A consumer's failed request shows its Observer the error the call
// returns, with DynamoDB's code.
func TestConsumerObservedWithItsTypedError(t *testing.T) {
	t.Parallel()
	l := newLocal(t)
	rec := &observetest.Recorder{}
	gone := keyfirst.Must(l.table.Observed(rec).Named(l.table.Name() + "-absent"))
	_, err := stream.NewConsumer(t.Context(), l.db, l.streams, gone)
	if err == nil {
		t.Fatal("a consumer of a missing table")
	}
	if msg := observetest.SameError(rec.Take(), err, "ResourceNotFoundException"); msg != "" {
		t.Error(msg)
	}
}
