package keyfirst_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"go.uber.org/goleak"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
)

// flakyWriter is a BatchWriteItem client that, like DynamoDB under
// throttling (and unlike DynamoDB Local), leaves items unprocessed: for the
// first `flaky` calls it processes only the first `keep` requests of each
// call and returns the rest as UnprocessedItems. fail makes call number
// failAt return an error.
type flakyWriter struct {
	mu      sync.Mutex
	flaky   int
	keep    int
	failAt  int
	calls   int
	sizes   []int
	written map[string]int // SK -> times processed
	onCall  func(call int)
}

var errThrottled = errors.New("fake: throttled")

func (f *flakyWriter) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.onCall != nil {
		f.onCall(f.calls)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if f.calls == f.failAt {
		return nil, errThrottled
	}
	if f.written == nil {
		f.written = map[string]int{}
	}
	out := &dynamodb.BatchWriteItemOutput{UnprocessedItems: map[string][]types.WriteRequest{}}
	for table, reqs := range in.RequestItems {
		f.sizes = append(f.sizes, len(reqs))
		for i, r := range reqs {
			if f.calls <= f.flaky && i >= f.keep {
				out.UnprocessedItems[table] = append(out.UnprocessedItems[table], r)
				continue
			}
			var sk string
			if r.PutRequest != nil {
				sk = avText(r.PutRequest.Item["SK"])
			} else {
				sk = "delete " + avText(r.DeleteRequest.Key["SK"])
			}
			f.written[sk]++
		}
	}
	return out, nil
}

// wroteEachOnce fails t unless f wrote n items, each once, in requests of
// 1 to 25.
func (f *flakyWriter) wroteEachOnce(t *testing.T, n int) {
	t.Helper()
	if len(f.written) != n {
		t.Fatalf("%d distinct items written, want %d", len(f.written), n)
	}
	for sk, times := range f.written {
		if times != 1 {
			t.Fatalf("%s written %d times", sk, times)
		}
	}
	for i, size := range f.sizes {
		if size > keyfirst.MaxBatchWrite || size == 0 {
			t.Fatalf("request %d had %d items", i, size)
		}
	}
}

func customers(n int) []Customer {
	out := make([]Customer, n)
	for i := range out {
		out[i] = Customer{ID: fmt.Sprintf("c%04d", i), Name: fmt.Sprintf("customer %d", i), Admin: i%10 == 0}
	}
	return out
}

func putRequests(s shop, cs []Customer) []keyfirst.WriteRequest {
	reqs := make([]keyfirst.WriteRequest, len(cs))
	for i, c := range cs {
		reqs[i] = s.customers.PutRequest(c)
	}
	return reqs
}

var fastRetry = func(o *keyfirst.Options) { o.RetryBaseDelay, o.RetryMaxDelay = time.Microsecond, time.Millisecond }

func TestBatchWriteRetriesUnprocessedItems(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	s := newShop(t, "")
	cs := customers(260)
	api := &flakyWriter{flaky: 5, keep: 10}
	var cc keyfirst.Capacity
	if err := s.table.BatchWrite(context.Background(), api, putRequests(s, cs), fastRetry, keyfirst.WithCapacity(&cc)); err != nil {
		t.Fatal(err)
	}
	api.wroteEachOnce(t, len(cs))
	// 5 flaky calls write 10 each (50); the other 210 need ceil(210/25) = 9
	// full calls.
	if api.calls != 5+9 {
		t.Fatalf("%d calls (sizes %v)", api.calls, api.sizes)
	}
}

func TestBatchWriteGivesUpAfterMaxAttempts(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	s := newShop(t, "")
	cs := customers(30)
	api := &flakyWriter{flaky: 1000, keep: 0}
	err := s.table.BatchWrite(context.Background(), api, putRequests(s, cs), fastRetry, keyfirst.WithMaxAttempts(3))
	var be *keyfirst.BatchWriteError
	if !errors.Is(err, keyfirst.ErrUnprocessed) || !errors.As(err, &be) || be.Err != nil {
		t.Fatalf("err = %v", err)
	}
	if api.calls != 3 || len(be.Unprocessed) != 30 || be.Total != 30 {
		t.Fatalf("%d calls, %d unprocessed of %d", api.calls, len(be.Unprocessed), be.Total)
	}
	var ids []string
	for _, r := range be.Unprocessed {
		ids = append(ids, r.Value().(Customer).ID)
		if r.IsDelete() {
			t.Fatal("a put reported as a delete")
		}
	}
	sort.Strings(ids)
	if ids[0] != "c0000" || ids[29] != "c0029" {
		t.Fatalf("unprocessed %v", ids)
	}
}

// stallingWriter leaves every item unprocessed and calls cancel 10 ms
// after its third call, during the backoff that follows it, which is long
// (longBackoff).
func stallingWriter(cancel context.CancelFunc) *flakyWriter {
	return &flakyWriter{flaky: 1000, keep: 0, onCall: func(call int) {
		if call == 3 {
			go func() { time.Sleep(10 * time.Millisecond); cancel() }()
		}
	}}
}

var longBackoff = func(o *keyfirst.Options) { o.RetryBaseDelay, o.RetryMaxDelay = time.Millisecond, time.Hour }

func TestBatchWriteStopsWhenTheContextEnds(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	s := newShop(t, "")
	cs := customers(60)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	err := s.table.BatchWrite(ctx, stallingWriter(cancel), putRequests(s, cs), longBackoff)
	var be *keyfirst.BatchWriteError
	if !errors.Is(err, keyfirst.ErrUnprocessed) || !errors.Is(err, context.Canceled) || !errors.As(err, &be) {
		t.Fatalf("err = %v", err)
	}
	if len(be.Unprocessed) != 60 {
		t.Fatalf("%d unprocessed", len(be.Unprocessed))
	}
	if time.Since(start) > time.Minute {
		t.Fatal("the backoff ignored the cancellation")
	}
	// Cancelled before the start: no request at all.
	err = s.table.BatchWrite(ctx, noCalls{T: t}, putRequests(s, cs))
	if !errors.Is(err, context.Canceled) || !errors.As(err, &be) || len(be.Unprocessed) != 60 {
		t.Fatalf("err = %v", err)
	}
}

func TestBatchWriteReportsAFailedRequest(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	s := newShop(t, "")
	cs := customers(60)
	api := &flakyWriter{failAt: 2}
	err := s.table.BatchWrite(context.Background(), api, putRequests(s, cs))
	var be *keyfirst.BatchWriteError
	if !errors.Is(err, errThrottled) || !errors.As(err, &be) || len(be.Unprocessed) != 35 || len(api.written) != 25 {
		t.Fatalf("err = %v, %d written", err, len(api.written))
	}
}

func TestBatchWriteRefusesBadBatches(t *testing.T) {
	s := newShop(t, "")
	other := newShop(t, "other-shop")
	ctx := context.Background()
	c := Customer{ID: "c1"}
	tests := []struct {
		name  string
		reqs  []keyfirst.WriteRequest
		check func(error) bool
	}{
		{"duplicate put", []keyfirst.WriteRequest{s.customers.PutRequest(c), s.customers.PutRequest(Customer{ID: "c2"}), s.customers.PutRequest(c)},
			func(err error) bool {
				var de *keyfirst.DuplicateKeyError
				return errors.Is(err, keyfirst.ErrDuplicateKey) && errors.As(err, &de) && de.First == 0 && de.Second == 2 &&
					de.Key == `("CUST#c1", "CUST#c1")`
			}},
		{"put and delete of one key", []keyfirst.WriteRequest{s.customers.PutRequest(c), s.customers.DeleteRequest(mustKey(t, s.customers, c))},
			func(err error) bool { return errors.Is(err, keyfirst.ErrDuplicateKey) }},
		{"versioned entity", []keyfirst.WriteRequest{s.orders.PutRequest(order("c1", "o1", Open, day))},
			func(err error) bool {
				var ie *keyfirst.ItemError
				return errors.As(err, &ie) && ie.Problem == keyfirst.ItemVersioned && ie.Attribute == "version"
			}},
		{"versioned delete", []keyfirst.WriteRequest{s.orders.DeleteRequest(mustKey(t, s.orders, order("c1", "o1", Open, day)))},
			func(err error) bool {
				var ie *keyfirst.ItemError
				return errors.As(err, &ie) && ie.Problem == keyfirst.ItemVersioned
			}},
		{"bad item", []keyfirst.WriteRequest{s.customers.PutRequest(c), s.customers.PutRequest(Customer{ID: "a#b"})},
			func(err error) bool {
				return errors.Is(err, keys.ErrSeparator) && errors.Is(err, keyfirst.ErrInvalidItem)
			}},
		{"zero request", []keyfirst.WriteRequest{{}}, func(err error) bool { return errors.Is(err, keyfirst.ErrInvalidOption) }},
		{"request of another table", []keyfirst.WriteRequest{other.customers.PutRequest(c)},
			func(err error) bool { return errors.Is(err, keyfirst.ErrInvalidOption) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.table.BatchWrite(ctx, noCalls{T: t}, tt.reqs); !tt.check(err) {
				t.Fatalf("err = %v", err)
			}
		})
	}
	if err := s.table.BatchWrite(ctx, noCalls{T: t}, nil); err != nil {
		t.Fatalf("an empty batch: %v", err)
	}
}

// TestBatchWriteFindsTheFirstDuplicate: in a large batch with several
// repeated keys, the one reported is the first repeat in the batch's
// order, with the earliest request of its key.
func TestBatchWriteFindsTheFirstDuplicate(t *testing.T) {
	s := newShop(t, "")
	cs := customers(3000)
	cs[2999] = cs[5]
	cs[2000] = cs[1500]
	cs[2500] = cs[1500]
	err := s.table.BatchWrite(context.Background(), noCalls{T: t}, putRequests(s, cs))
	var de *keyfirst.DuplicateKeyError
	if !errors.As(err, &de) || de.First != 1500 || de.Second != 2000 || de.Key != `("CUST#c1500", "CUST#c1500")` {
		t.Fatalf("err = %v", err)
	}
	// A put and a delete of one key.
	reqs := putRequests(s, customers(40))
	reqs[39] = s.customers.DeleteRequest(mustKey(t, s.customers, Customer{ID: "c0007"}))
	if err := s.table.BatchWrite(context.Background(), noCalls{T: t}, reqs); !errors.As(err, &de) || de.First != 7 || de.Second != 39 {
		t.Fatalf("err = %v", err)
	}
}

func TestWriteRequestAccessors(t *testing.T) {
	s := newShop(t, "")
	c := Customer{ID: "c1"}
	put := s.customers.PutRequest(c)
	del := s.customers.DeleteRequest(mustKey(t, s.customers, c))
	if put.IsDelete() || !del.IsDelete() || put.Value().(Customer) != c ||
		del.Value().(keyfirst.Key[Customer]) != mustKey(t, s.customers, c) || put.Key() != del.Key() {
		t.Fatal("accessors")
	}
	var zero keyfirst.WriteRequest
	if zero.Value() != nil || zero.IsDelete() {
		t.Fatal("the zero request")
	}
}

// TestBatchRoundTripOnLocal writes 1,000 items with BatchWrite and reads
// them back with BatchGet.
func TestBatchRoundTripOnLocal(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	ctx := context.Background()
	cs := customers(1000)
	var wc keyfirst.Capacity
	if err := s.table.BatchWrite(ctx, client, putRequests(s, cs), keyfirst.WithCapacity(&wc)); err != nil {
		t.Fatal(err)
	}
	if wc.Requests != 40 || wc.Write < 1000 || wc.Indexes["GSI1"] <= 0 {
		t.Fatalf("write capacity %+v", wc)
	}
	keys := make([]keyfirst.Key[Customer], 0, len(cs)+1)
	for i := len(cs) - 1; i >= 0; i-- { // reversed: results follow the keys' order
		keys = append(keys, mustKey(t, s.customers, cs[i]))
	}
	keys = append(keys, mustKey(t, s.customers, Customer{ID: "missing"}))
	var rc keyfirst.Capacity
	got, err := s.customers.BatchGet(ctx, client, keys, keyfirst.ConsistentRead(), keyfirst.WithCapacity(&rc))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(cs) {
		t.Fatalf("read %d items", len(got))
	}
	for i, c := range got {
		if want := cs[len(cs)-1-i]; c != want {
			t.Fatalf("item %d = %+v, want %+v", i, c, want)
		}
	}
	if rc.Requests != 11 || rc.Read <= 0 {
		t.Fatalf("read capacity %+v", rc)
	}
	// Admins are in the sparse part of GSI1, the others are not.
	admins := queryIDs(t, client, s.table.Name(), "GSI1", map[string]string{"GSI1PK": "ADMIN"}, "", "")
	if len(admins) != 100 {
		t.Fatalf("%d admins in GSI1", len(admins))
	}
	// Batch deletes.
	var dels []keyfirst.WriteRequest
	for _, k := range keys[:500] {
		dels = append(dels, s.customers.DeleteRequest(k))
	}
	if err := s.table.BatchWrite(ctx, client, dels); err != nil {
		t.Fatal(err)
	}
	left, err := s.customers.BatchGet(ctx, client, keys)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 500 || !reflect.DeepEqual(left[0], cs[499]) {
		t.Fatalf("%d left, first %+v", len(left), left[0])
	}
}
