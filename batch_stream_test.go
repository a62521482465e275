package keyfirst_test

import (
	"context"
	"errors"
	"iter"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"go.uber.org/goleak"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
)

// mapSeq is the stream of f of each of cs, made as it is taken; *taken
// counts the values taken, and before each it calls before (when set)
// with the number of values taken so far.
func mapSeq[T, R any](cs []T, taken *int, before func(n int), f func(T) R) iter.Seq[R] {
	return func(yield func(R) bool) {
		for _, c := range cs {
			if before != nil {
				before(*taken)
			}
			*taken++
			if !yield(f(c)) {
				return
			}
		}
	}
}

// putSeq is the stream of the put requests of cs, built as they are
// taken (mapSeq).
func putSeq(s shop, cs []Customer, taken *int, before func(n int)) iter.Seq[keyfirst.WriteRequest] {
	return mapSeq(cs, taken, before, s.customers.PutRequest)
}

// notReadAhead is a mapSeq's before that fails t when value n of a
// stream written to api is taken before every request of 25 before its
// own is written.
func notReadAhead(t *testing.T, api *flakyWriter) func(n int) {
	return func(n int) {
		api.mu.Lock()
		defer api.mu.Unlock()
		if written := len(api.written); written < n/keyfirst.MaxBatchWrite*keyfirst.MaxBatchWrite {
			t.Errorf("value %d taken with %d written: the stream is read ahead", n, written)
		}
	}
}

// TestBatchWriteSeqStreams: a stream of 260 requests is written in
// requests of 25, each request written (its unprocessed items retried)
// before the next is taken from the stream, each item once.
func TestBatchWriteSeqStreams(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	s := newShop(t, "")
	cs := customers(260)
	api := &flakyWriter{flaky: 5, keep: 10}
	taken := 0
	var cc keyfirst.Capacity
	if err := s.table.BatchWriteSeq(context.Background(), api, putSeq(s, cs, &taken, notReadAhead(t, api)), fastRetry, keyfirst.WithCapacity(&cc)); err != nil {
		t.Fatal(err)
	}
	api.wroteEachOnce(t, len(cs))
	if taken != len(cs) {
		t.Fatalf("%d taken, want %d", taken, len(cs))
	}
	// The first 5 calls write at most 10 each, and a request's unprocessed
	// items are sent again alone: 25 = 10+10+5 twice, then 8 requests of
	// 25 and the 10 left.
	if api.calls != 3+3+8+1 {
		t.Fatalf("%d calls (sizes %v)", api.calls, api.sizes)
	}
	if err := s.table.BatchWriteSeq(context.Background(), noCalls{T: t}, putSeq(s, nil, &taken, nil)); err != nil {
		t.Fatalf("an empty stream: %v", err)
	}
}

// TestBatchWriteSeqStopsAtABadRequest: the requests of 25 before the bad
// request's are written, its own are not sent, and the stream is not read
// further; the error says which requests were not written.
func TestBatchWriteSeqStopsAtABadRequest(t *testing.T) {
	s := newShop(t, "")
	cs := customers(60)
	cs[40].ID = "a#b"
	api := &flakyWriter{}
	taken := 0
	err := s.table.BatchWriteSeq(context.Background(), api, putSeq(s, cs, &taken, nil))
	be := stoppedAtBadItem(t, err, api, taken, 25, 41, 16)
	unprocessedStay(t, be, cs[25:41], func() error {
		return s.table.BatchWriteSeq(context.Background(), &flakyWriter{}, putSeq(s, customers(100)[60:], new(int), nil))
	})
	// A bad first request: no request at all.
	other := newShop(t, "other-shop")
	bad := []keyfirst.WriteRequest{other.customers.PutRequest(cs[0]), {}}
	for _, r := range bad {
		err := s.table.BatchWriteSeq(context.Background(), noCalls{T: t}, func(yield func(keyfirst.WriteRequest) bool) { yield(r) })
		if !errors.Is(err, keyfirst.ErrInvalidOption) || !errors.As(err, &be) || len(be.Unprocessed) != 1 || be.Total != 1 {
			t.Fatalf("err = %v", err)
		}
	}
	if err := s.table.BatchWriteSeq(context.Background(), noCalls{T: t}, putSeq(s, cs, &taken, nil), keyfirst.ConsistentRead()); !errors.Is(err, keyfirst.ErrInvalidOption) {
		t.Fatalf("an option BatchWriteSeq does not take: %v", err)
	}
	var oe *keyfirst.OptionError
	if err := s.table.BatchWriteSeq(context.Background(), noCalls{T: t}, nil); !errors.As(err, &oe) || oe.Option != "reqs" {
		t.Fatalf("a nil stream: %v", err)
	}
}

// endedMidWrite runs write of cs with a context that ends while its first
// request of 25 is retried (stallingWriter, whose backoff is long) and
// checks that it stops then: its 25 requests given back in order, no
// more taken, the backoff cut short. It returns the ended context.
func endedMidWrite(t *testing.T, cs []Customer, write func(ctx context.Context, api keyfirst.BatchWriteItemAPI, taken *int) error) context.Context {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	taken := 0
	start := time.Now()
	err := write(ctx, stallingWriter(cancel), &taken)
	var be *keyfirst.BatchWriteError
	if !errors.Is(err, keyfirst.ErrUnprocessed) || !errors.Is(err, context.Canceled) || !errors.As(err, &be) {
		t.Fatalf("err = %v", err)
	}
	if len(be.Unprocessed) != 25 || be.Total != 25 || taken != 25 {
		t.Fatalf("%d unprocessed of %d, %d taken", len(be.Unprocessed), be.Total, taken)
	}
	for i, r := range be.Unprocessed {
		if got, _ := r.Value().(Customer); got != cs[i] {
			t.Fatalf("unprocessed %d = %+v, want %+v", i, got, cs[i])
		}
	}
	if time.Since(start) > time.Minute {
		t.Fatal("the backoff ignored the cancellation")
	}
	return ctx
}

// stoppedAtBadItem checks that err is the *BatchWriteError of a stream
// stopped by an item whose id holds the separator, after written items
// were written to api, taken items taken and left not written, and
// returns it.
func stoppedAtBadItem(t *testing.T, err error, api *flakyWriter, taken, written, wantTaken, left int) *keyfirst.BatchWriteError {
	t.Helper()
	var be *keyfirst.BatchWriteError
	if !errors.Is(err, keys.ErrSeparator) || !errors.Is(err, keyfirst.ErrInvalidItem) || !errors.As(err, &be) {
		t.Fatalf("err = %v", err)
	}
	if len(api.written) != written || taken != wantTaken || be.Total != wantTaken || len(be.Unprocessed) != left {
		t.Fatalf("%d written, %d taken, %d unprocessed of %d; want %d, %d, %d", len(api.written), taken, len(be.Unprocessed), be.Total, written, wantTaken, left)
	}
	return be
}

// unprocessedStay checks that the requests be reports unprocessed give
// back want, in order, and still do after write, a later write that
// succeeds: a write that fails keeps its state, whose memory its error's
// requests share, rather than give it to the next write.
func unprocessedStay(t *testing.T, be *keyfirst.BatchWriteError, want []Customer, write func() error) {
	t.Helper()
	check := func(when string) {
		t.Helper()
		if len(be.Unprocessed) != len(want) {
			t.Fatalf("%s: %d unprocessed, want %d", when, len(be.Unprocessed), len(want))
		}
		for i, r := range be.Unprocessed {
			if got, _ := r.Value().(Customer); got != want[i] {
				t.Fatalf("%s: unprocessed %d = %+v, want %+v", when, i, got, want[i])
			}
		}
	}
	check("returned")
	if err := write(); err != nil {
		t.Fatal(err)
	}
	check("after a later write")
}

// storedCustomers reads the customers of cs back from DynamoDB Local, in
// cs's order, with a consistent BatchGet.
func storedCustomers(t *testing.T, client keyfirst.BatchGetItemAPI, s shop, cs []Customer) []Customer {
	t.Helper()
	ks := make([]keyfirst.Key[Customer], len(cs))
	for i, c := range cs {
		ks[i] = mustKey(t, s.customers, c)
	}
	got, err := s.customers.BatchGet(context.Background(), client, ks, keyfirst.ConsistentRead())
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestBatchWriteSeqKeepsTheOrderOfAKey: a request whose key is already in
// the request being filled sends that one first, so that the last change
// of an item is the one written last.
func TestBatchWriteSeqKeepsTheOrderOfAKey(t *testing.T) {
	s := newShop(t, "")
	c1, c2 := Customer{ID: "c1", Name: "first"}, Customer{ID: "c2"}
	c1b := Customer{ID: "c1", Name: "second"}
	api := &flakyWriter{keep: 0, flaky: 1} // the first call writes nothing: its retry must come before c1b
	var order []string
	reqs := []keyfirst.WriteRequest{s.customers.PutRequest(c1), s.customers.PutRequest(c2), s.customers.PutRequest(c1b),
		s.customers.DeleteRequest(mustKey(t, s.customers, c2))}
	err := s.table.BatchWriteSeq(context.Background(), recordingWriter{api, &order}, func(yield func(keyfirst.WriteRequest) bool) {
		for _, r := range reqs {
			if !yield(r) {
				return
			}
		}
	}, fastRetry)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"c1 first", "c2 ", "|", "c1 first", "c2 ", "|", "c1 second", "delete c2", "|"}
	if len(order) != len(want) {
		t.Fatalf("requests %q, want %q", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("requests %q, want %q", order, want)
		}
	}
}

// recordingWriter records, in order, the requests sent through it to
// api: "<id> <name>" for a put, "delete <id>" for a delete, "|" after each
// BatchWriteItem request.
type recordingWriter struct {
	api   keyfirst.BatchWriteItemAPI
	order *[]string
}

func (r recordingWriter) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	for _, wrs := range in.RequestItems {
		for _, w := range wrs {
			if w.PutRequest != nil {
				*r.order = append(*r.order, avText(w.PutRequest.Item["id"])+" "+avText(w.PutRequest.Item["name"]))
			} else {
				*r.order = append(*r.order, "delete "+strings.TrimPrefix(avText(w.DeleteRequest.Key["SK"]), "CUST#"))
			}
		}
	}
	*r.order = append(*r.order, "|")
	return r.api.BatchWriteItem(ctx, in, optFns...)
}

// TestBatchWriteSeqStopsWhenTheContextEnds: a context that ends while a
// request is retried stops the write; the stream is not read further.
func TestBatchWriteSeqStopsWhenTheContextEnds(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	s := newShop(t, "")
	cs := customers(60)
	ctx := endedMidWrite(t, cs, func(ctx context.Context, api keyfirst.BatchWriteItemAPI, taken *int) error {
		return s.table.BatchWriteSeq(ctx, api, putSeq(s, cs, taken, nil), longBackoff)
	})
	// Ended before the start: nothing taken, no request.
	taken := 0
	var be *keyfirst.BatchWriteError
	err := s.table.BatchWriteSeq(ctx, noCalls{T: t}, putSeq(s, cs, &taken, nil))
	if !errors.Is(err, context.Canceled) || !errors.As(err, &be) || len(be.Unprocessed) != 0 || taken != 0 {
		t.Fatalf("err = %v, %d taken", err, taken)
	}
	// MaxAttempts: the same report, with no cause.
	taken = 0
	err = s.table.BatchWriteSeq(context.Background(), &flakyWriter{flaky: 1000}, putSeq(s, cs, &taken, nil), fastRetry, keyfirst.WithMaxAttempts(2))
	if !errors.As(err, &be) || be.Err != nil || len(be.Unprocessed) != 25 || taken != 25 {
		t.Fatalf("err = %v", err)
	}
	for i, r := range be.Unprocessed {
		if r.Value().(Customer) != cs[i] {
			t.Fatalf("unprocessed %d out of the stream's order", i)
		}
	}
}

// TestBatchWriteSeqOnLocal streams 300 puts, a later change of one of
// them and deletes to DynamoDB Local and reads the table back.
func TestBatchWriteSeqOnLocal(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	ctx := context.Background()
	cs := customers(300)
	changed := Customer{ID: cs[7].ID, Name: "changed"}
	taken := 0
	seq := func(yield func(keyfirst.WriteRequest) bool) {
		for r := range putSeq(s, cs, &taken, nil) {
			if !yield(r) {
				return
			}
		}
		if !yield(s.customers.PutRequest(changed)) {
			return
		}
		for _, c := range cs[:10] {
			if c.ID != changed.ID && !yield(s.customers.DeleteRequest(mustKey(t, s.customers, c))) {
				return
			}
		}
	}
	var wc keyfirst.Capacity
	if err := s.table.BatchWriteSeq(ctx, client, seq, keyfirst.WithCapacity(&wc)); err != nil {
		t.Fatal(err)
	}
	if wc.Requests != 13 {
		t.Fatalf("%d requests, want 13 (310 requests of 25)", wc.Requests)
	}
	got := storedCustomers(t, client, s, cs)
	if len(got) != 291 || got[0] != changed || got[1] != cs[10] || got[290] != cs[299] {
		t.Fatalf("read %d items, first %+v, second %+v", len(got), got[0], got[1])
	}
}
