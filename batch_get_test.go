package keyfirst_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"go.uber.org/goleak"

	"github.com/keyfirst/keyfirst"
)

// flakyReader is a BatchGetItem client over an in-memory set of items that
// returns only the first `keep` keys of each of its first `flaky` calls and
// the rest as UnprocessedKeys.
type flakyReader struct {
	items  map[string]map[string]types.AttributeValue // by SK
	flaky  int
	keep   int
	calls  int
	sizes  []int
	onCall func(call int)
}

func (f *flakyReader) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	f.calls++
	if f.onCall != nil {
		f.onCall(f.calls)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := &dynamodb.BatchGetItemOutput{
		Responses:       map[string][]map[string]types.AttributeValue{},
		UnprocessedKeys: map[string]types.KeysAndAttributes{},
	}
	for table, ka := range in.RequestItems {
		f.sizes = append(f.sizes, len(ka.Keys))
		var left []map[string]types.AttributeValue
		for i, k := range ka.Keys {
			if f.calls <= f.flaky && i >= f.keep {
				left = append(left, k)
				continue
			}
			if item, ok := f.items[avText(k["SK"])]; ok {
				out.Responses[table] = append(out.Responses[table], item)
			}
		}
		if left != nil {
			out.UnprocessedKeys[table] = types.KeysAndAttributes{Keys: left}
		}
	}
	return out, nil
}

func readerOf(t *testing.T, s shop, cs []Customer) *flakyReader {
	r := &flakyReader{items: map[string]map[string]types.AttributeValue{}}
	for _, c := range cs {
		r.items["CUST#"+c.ID] = mustItem(t, s.customers, c)
	}
	return r
}

func TestBatchGetRetriesUnprocessedKeys(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	s := newShop(t, "")
	cs := customers(250)
	api := readerOf(t, s, cs[:240]) // the last 10 do not exist
	api.flaky, api.keep = 4, 30
	keys := make([]keyfirst.Key[Customer], len(cs))
	for i, c := range cs {
		keys[i] = mustKey(t, s.customers, c)
	}
	got, err := s.customers.BatchGet(context.Background(), api, keys, fastRetry)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 240 {
		t.Fatalf("%d items", len(got))
	}
	for i, c := range got {
		if c != cs[i] {
			t.Fatalf("item %d = %+v, want %+v (results follow the keys' order)", i, c, cs[i])
		}
	}
	for _, n := range api.sizes {
		if n > keyfirst.MaxBatchGet {
			t.Fatalf("a request of %d keys", n)
		}
	}
	// 4 flaky calls read 30 each (120); 130 remain: 2 more calls.
	if api.calls != 6 {
		t.Fatalf("%d calls, sizes %v", api.calls, api.sizes)
	}
}

func TestBatchGetReportsUnprocessedKeys(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	s := newShop(t, "")
	cs := customers(20)
	keys := make([]keyfirst.Key[Customer], len(cs))
	for i, c := range cs {
		keys[i] = mustKey(t, s.customers, c)
	}
	t.Run("MaxAttempts", func(t *testing.T) {
		api := readerOf(t, s, cs)
		api.flaky, api.keep = 100, 5
		got, err := s.customers.BatchGet(context.Background(), api, keys, fastRetry, keyfirst.WithMaxAttempts(2))
		var be *keyfirst.BatchGetError[Customer]
		if !errors.Is(err, keyfirst.ErrUnprocessed) || !errors.As(err, &be) || be.Err != nil || be.Total != 20 {
			t.Fatalf("err = %v", err)
		}
		// Two calls read 5 each; 10 keys are left, reported as typed keys.
		if len(got) != 10 || len(be.Unprocessed) != 10 || api.calls != 2 {
			t.Fatalf("%d read, %d unprocessed, %d calls", len(got), len(be.Unprocessed), api.calls)
		}
		seen := map[keyfirst.Key[Customer]]bool{}
		for _, c := range got {
			seen[mustKey(t, s.customers, c)] = true
		}
		for _, k := range be.Unprocessed {
			if seen[k] {
				t.Fatalf("%v both read and unprocessed", k)
			}
			seen[k] = true
		}
		if len(seen) != 20 {
			t.Fatalf("%d keys accounted for", len(seen))
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		api := readerOf(t, s, cs)
		api.flaky, api.keep = 100, 0
		api.onCall = func(call int) {
			if call == 2 {
				cancel()
			}
		}
		_, err := s.customers.BatchGet(ctx, api, keys, func(o *keyfirst.Options) { o.RetryBaseDelay = time.Millisecond })
		var be *keyfirst.BatchGetError[Customer]
		if !errors.Is(err, context.Canceled) || !errors.As(err, &be) || len(be.Unprocessed) != 20 {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestBatchGetRefusesBadKeys(t *testing.T) {
	s := newShop(t, "")
	k := mustKey(t, s.customers, Customer{ID: "c1"})
	_, err := s.customers.BatchGet(context.Background(), noCalls{T: t}, []keyfirst.Key[Customer]{k, k})
	var de *keyfirst.DuplicateKeyError
	if !errors.As(err, &de) || de.First != 0 || de.Second != 1 {
		t.Fatalf("err = %v", err)
	}
	got, err := s.customers.BatchGet(context.Background(), noCalls{T: t}, nil)
	if err != nil || len(got) != 0 {
		t.Fatalf("empty batch: %v %v", got, err)
	}
}

func TestBatchGetRefusesItemsOfAnotherType(t *testing.T) {
	s := newShop(t, "")
	c := Customer{ID: "c1"}
	api := &flakyReader{items: map[string]map[string]types.AttributeValue{}}
	ghosts, err := keyfirst.NewEntity(s.table, ghostSpec())
	if err != nil {
		t.Fatal(err)
	}
	api.items["CUST#c1"] = mustItem(t, ghosts, c)
	_, err = s.customers.BatchGet(context.Background(), api, []keyfirst.Key[Customer]{mustKey(t, s.customers, c)})
	if !errors.Is(err, keyfirst.ErrWrongEntityType) {
		t.Fatalf("err = %v", err)
	}
}

// TestBatchGetReportsEachKeyOnce: an item that cannot be decoded, in a
// request with good ones, is reported once, by its key, and the items
// read with it are returned, not listed again as unprocessed.
func TestBatchGetReportsEachKeyOnce(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	ctx := context.Background()
	cs := customers(12)
	var reqs []keyfirst.WriteRequest
	keys := make([]keyfirst.Key[Customer], len(cs))
	for i, c := range cs {
		reqs = append(reqs, s.customers.PutRequest(c))
		keys[i] = mustKey(t, s.customers, c)
	}
	if err := s.table.BatchWrite(ctx, client, reqs); err != nil {
		t.Fatal(err)
	}
	// The 6th customer is stored with a value its field cannot hold.
	bad := mustItem(t, s.customers, cs[5])
	bad["admin"] = sAV("yes")
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table.Name()), Item: bad}); err != nil {
		t.Fatal(err)
	}

	got, err := s.customers.BatchGet(ctx, client, keys)
	var be *keyfirst.BatchGetError[Customer]
	var ie *keyfirst.ItemError
	var oe *keyfirst.OpError
	if !errors.As(err, &be) || !errors.As(err, &ie) || ie.Problem != keyfirst.ItemDecode ||
		!errors.As(err, &oe) || oe.Key != keys[5].String() {
		t.Fatalf("err = %v, want a *BatchGetError with the decode error of %s", err, keys[5])
	}
	if len(be.Unprocessed) != 0 || errors.Is(err, keyfirst.ErrUnprocessed) {
		t.Fatalf("%d keys reported unprocessed, all were read: %v", len(be.Unprocessed), err)
	}
	if len(got) != len(cs)-1 {
		t.Fatalf("%d items returned, want the %d that decode", len(got), len(cs)-1)
	}
	for i, c := range append(append([]Customer{}, cs[:5]...), cs[6:]...) {
		if got[i] != c {
			t.Fatalf("item %d = %+v, want %+v", i, got[i], c)
		}
	}
}

// strayReader answers every request with one more item than asked for.
type strayReader struct {
	*flakyReader
	stray map[string]types.AttributeValue
}

func (r strayReader) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	out, err := r.flakyReader.BatchGetItem(ctx, in, opts...)
	for table := range in.RequestItems {
		out.Responses[table] = append(out.Responses[table], r.stray)
	}
	return out, err
}

// TestBatchGetRefusesAWholeResponse: a response with an item not asked
// for is refused whole: its keys are unprocessed, none of its items is
// returned as well.
func TestBatchGetRefusesAWholeResponse(t *testing.T) {
	s := newShop(t, "")
	cs := customers(3)
	keys := make([]keyfirst.Key[Customer], len(cs))
	for i, c := range cs {
		keys[i] = mustKey(t, s.customers, c)
	}
	api := strayReader{readerOf(t, s, cs), mustItem(t, s.customers, Customer{ID: "stranger"})}
	got, err := s.customers.BatchGet(context.Background(), api, keys)
	var be *keyfirst.BatchGetError[Customer]
	if !errors.As(err, &be) || !errors.Is(err, keyfirst.ErrUnprocessed) || len(be.Unprocessed) != 3 || len(got) != 0 {
		t.Fatalf("%d items, err = %v", len(got), err)
	}
}
