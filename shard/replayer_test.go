package shard_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/aws/smithy-go"
	"go.uber.org/goleak"

	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/shard"
)

// TestReplayer holds the fake of the fan-out benchmarks to what they rely
// on: a replayed read returns what DynamoDB Local returned; every request
// waits the delay, concurrent requests at the same time (not one after
// the other); a request never recorded fails with a ValidationException,
// not retried; a context that ends during the delay ends the request at
// once. Not parallel, so that goleak sees only the replayer's goroutines.
func TestReplayer(t *testing.T) {
	m, ctx := localMerge(t) // DynamoDB Local started before goleak's snapshot
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent(),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"))
	m.load(t, ctx, fanItems(200, 10))
	rec := newRecorder(m.client.Options().HTTPClient)
	r := shard.Query(m.items, spreadShards).Desc().Limit(20)
	local, err := r.Collect(ctx, withHTTP(m.client, rec))
	if err != nil {
		t.Fatal(err)
	}
	const delay = 50 * time.Millisecond
	play := rec.replayer(delay)
	c := withHTTP(m.client, play)

	start := time.Now()
	replayed, err := r.Collect(ctx, c)
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(itemIDs(replayed), itemIDs(local)) || len(local) != 20 {
		t.Fatalf("replayed %v, Local returned %v", itemIDs(replayed), itemIDs(local))
	}
	if n := play.requests.Load(); n != 10 {
		t.Fatalf("%d requests, want 10", n)
	}
	// Ten concurrent requests of 50 ms each: at least one delay, far less
	// than ten.
	if took < delay || took > 5*delay {
		t.Fatalf("ten concurrent replayed requests took %v, want about %v", took, delay)
	}

	// A request never recorded (another limit).
	play.requests.Store(0)
	_, err = query.On(m.items, spreadRefIx, "ALL#0").Limit(3).Page(ctx, c)
	var api smithy.APIError
	if !errors.As(err, &api) || api.ErrorCode() != "ValidationException" {
		t.Fatalf("got %v, want a ValidationException", err)
	}
	if n, missed := play.requests.Load(), play.missed.Load(); n != 1 || missed != 1 {
		t.Fatalf("%d requests (%d not recorded), want 1 (1): retried", n, missed)
	}

	// A context that ends during the delay.
	short, cancel := context.WithTimeout(ctx, delay/5)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	start = time.Now()
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = r.Collect(short, c)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("got %v, want context.DeadlineExceeded", err)
		}
	}
	if took := time.Since(start); took >= delay {
		t.Fatalf("cancelled reads took %v, longer than the delay %v", took, delay)
	}
}
