package keyfirst_test

import (
	"context"
	"errors"
	"iter"
	"slices"
	"sync"
	"testing"

	"go.uber.org/goleak"

	"github.com/keyfirst/keyfirst"
)

// itemSeq is the stream of cs; *taken counts the items taken.
func itemSeq[T any](cs []T, taken *int) iter.Seq[T] {
	return mapSeq(cs, taken, nil, func(c T) T { return c })
}

// TestBatchPutStreams: a stream of 260 items is written in requests of
// 25, their unprocessed items retried, each item once, and the stream is
// not read ahead of what is written.
func TestBatchPutStreams(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	s := newShop(t, "")
	cs := customers(260)
	api := &flakyWriter{flaky: 5, keep: 10}
	taken := 0
	seq := mapSeq(cs, &taken, notReadAhead(t, api), func(c Customer) Customer { return c })
	if err := s.customers.BatchPut(context.Background(), api, seq, fastRetry); err != nil {
		t.Fatal(err)
	}
	api.wroteEachOnce(t, len(cs))
	if taken != len(cs) || api.calls != 3+3+8+1 {
		t.Fatalf("%d taken, %d calls (sizes %v)", taken, api.calls, api.sizes)
	}
	if err := s.customers.BatchPut(context.Background(), noCalls{T: t}, slices.Values([]Customer(nil))); err != nil {
		t.Fatalf("an empty stream: %v", err)
	}
}

// TestBatchPutConcurrently: writes of one entity at once, each with its
// own items, share no state (run with -race): every item is written once,
// as it was given.
func TestBatchPutConcurrently(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	s := newShop(t, "")
	cs := customers(800)
	api := &flakyWriter{flaky: 3, keep: 7}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.customers.BatchPut(context.Background(), api, slices.Values(cs[w*100:(w+1)*100]), fastRetry); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	api.wroteEachOnce(t, len(cs))
}

// TestBatchPutStopsAtABadItem: the requests of 25 before the bad item's
// are written, its own are not sent, and the stream is not read further;
// the error gives back the items not written, in the stream's order, a
// later item of a key already in its request of 25 included (BatchPut
// reuses the memory of its items for the next 25), each request as
// PutRequest builds it: the bad item's, built in the place of an item
// written before, has no key.
func TestBatchPutStopsAtABadItem(t *testing.T) {
	s := newShop(t, "")
	cs := customers(60)
	again := cs[30]
	again.Name = "again"
	stream := slices.Concat(cs[:35], []Customer{again}, cs[35:])
	stream[45].ID = "a#b"
	api := &flakyWriter{}
	taken := 0
	err := s.customers.BatchPut(context.Background(), api, itemSeq(stream, &taken))
	// 25 written, then 10 when again's key came, again and 9 more held
	// when the bad item came.
	be := stoppedAtBadItem(t, err, api, taken, 35, 46, 11)
	for i, r := range be.Unprocessed {
		want := s.customers.PutRequest(stream[35+i])
		if r.Key() != want.Key() || r.IsDelete() {
			t.Fatalf("unprocessed %d: key %q (delete %v), want %q", i, r.Key(), r.IsDelete(), want.Key())
		}
	}
	unprocessedStay(t, be, stream[35:46], func() error {
		return s.customers.BatchPut(context.Background(), &flakyWriter{}, slices.Values(customers(60)[20:]))
	})
}

// TestBatchPutUnprocessedRewritten: the requests a failed BatchPut gives
// back are whole, each with its key (BatchPut does not store the keys of
// the requests it builds in its reused room; the error's requests get
// them from their items), so that BatchWrite, whose duplicate check
// compares keys, writes them as they are.
func TestBatchPutUnprocessedRewritten(t *testing.T) {
	s := newShop(t, "")
	cs := customers(40)
	err := s.customers.BatchPut(context.Background(), &flakyWriter{failAt: 2}, slices.Values(cs))
	var be *keyfirst.BatchWriteError
	if !errors.As(err, &be) || len(be.Unprocessed) != 15 {
		t.Fatalf("a failed second request: %v", err)
	}
	for i, r := range be.Unprocessed {
		if want := s.customers.PutRequest(cs[25+i]); r.Key() != want.Key() {
			t.Fatalf("unprocessed %d: key %q, want %q", i, r.Key(), want.Key())
		}
	}
	api := &flakyWriter{}
	if err := s.table.BatchWrite(context.Background(), api, be.Unprocessed); err != nil {
		t.Fatal(err)
	}
	api.wroteEachOnce(t, 15)
}

// TestBatchPutKeepsTheOrderOfAKey: an item whose key is already in the
// request being filled sends that one first, so that the last item of a
// key is the one written last.
func TestBatchPutKeepsTheOrderOfAKey(t *testing.T) {
	s := newShop(t, "")
	api := &flakyWriter{keep: 0, flaky: 1} // the first call writes nothing: its retry must come before c1b
	var order []string
	items := []Customer{{ID: "c1", Name: "first"}, {ID: "c2"}, {ID: "c1", Name: "second"}, {ID: "c3"}}
	if err := s.customers.BatchPut(context.Background(), recordingWriter{api, &order}, slices.Values(items), fastRetry); err != nil {
		t.Fatal(err)
	}
	if want := []string{"c1 first", "c2 ", "|", "c1 first", "c2 ", "|", "c1 second", "c3 ", "|"}; !slices.Equal(order, want) {
		t.Fatalf("requests %q, want %q", order, want)
	}
}

// TestBatchPutRefusals: what BatchPut refuses before any item is taken
// or any request is sent.
func TestBatchPutRefusals(t *testing.T) {
	s := newShop(t, "")
	ctx := context.Background()
	taken := 0
	none := noCalls{T: t}
	var ie *keyfirst.ItemError
	if err := s.orders.BatchPut(ctx, none, itemSeq([]Order{order("c1", "o1", Open, day)}, &taken)); !errors.As(err, &ie) || ie.Problem != keyfirst.ItemVersioned || taken != 0 {
		t.Fatalf("a versioned entity: %v, %d taken", err, taken)
	}
	var oe *keyfirst.OptionError
	if err := s.customers.BatchPut(ctx, none, nil); !errors.As(err, &oe) || oe.Option != "items" {
		t.Fatalf("a nil stream: %v", err)
	}
	if err := s.customers.BatchPut(ctx, none, itemSeq(customers(3), &taken), keyfirst.ConsistentRead()); !errors.Is(err, keyfirst.ErrInvalidOption) || taken != 0 {
		t.Fatalf("an option BatchPut does not take: %v, %d taken", err, taken)
	}
	ended, cancel := context.WithCancel(ctx)
	cancel()
	var be *keyfirst.BatchWriteError
	if err := s.customers.BatchPut(ended, none, itemSeq(customers(3), &taken)); !errors.Is(err, context.Canceled) || !errors.As(err, &be) || len(be.Unprocessed) != 0 || taken != 0 {
		t.Fatalf("an ended context: %v, %d taken", err, taken)
	}
}

// TestBatchPutStopsWhenTheContextEnds: a context that ends while a
// request is retried stops the write, and the error gives back its 25
// items.
func TestBatchPutStopsWhenTheContextEnds(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	s := newShop(t, "")
	cs := customers(60)
	endedMidWrite(t, cs, func(ctx context.Context, api keyfirst.BatchWriteItemAPI, taken *int) error {
		return s.customers.BatchPut(ctx, api, itemSeq(cs, taken), longBackoff)
	})
}

// TestBatchPutOnLocal streams 300 items and a later change of one of them
// to DynamoDB Local and reads the table back: the admins in their sparse
// index too.
func TestBatchPutOnLocal(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	ctx := context.Background()
	cs := customers(300)
	changed := Customer{ID: cs[7].ID, Name: "changed", Admin: true}
	var wc keyfirst.Capacity
	if err := s.customers.BatchPut(ctx, client, slices.Values(append(slices.Clone(cs), changed)), keyfirst.WithCapacity(&wc)); err != nil {
		t.Fatal(err)
	}
	if wc.Requests != 13 {
		t.Fatalf("%d requests, want 13 (301 items, the change sent after the request of its key)", wc.Requests)
	}
	want := slices.Clone(cs)
	want[7] = changed
	if got := storedCustomers(t, client, s, cs); !slices.Equal(got, want) {
		t.Fatalf("read %d items, want the %d written", len(got), len(want))
	}
	// The admins are in the sparse part of GSI1, the changed one too.
	if admins := queryIDs(t, client, s.table.Name(), "GSI1", map[string]string{"GSI1PK": "ADMIN"}, "", ""); len(admins) != 31 {
		t.Fatalf("%d admins in GSI1, want 31", len(admins))
	}
}
