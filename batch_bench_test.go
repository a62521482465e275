package keyfirst_test

import (
	"context"
	"fmt"
	"iter"
	"runtime"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/wirebody"

	"github.com/keyfirst/keyfirst/internal/benchorder"
)

// The cost of a batch write per item, keyfirst (BenchmarkBatchWrite/N/keyfirst:
// the requests built with PutRequest, written with BatchWrite;
// BenchmarkBatchWrite/N/keyfirst-stream: the same requests built as they
// are taken, written with BatchWriteSeq) beside the
// hand-written twin (BenchmarkBatchWrite/N/hand: each request of 25 items
// built by hand and sent), against a fake API, at 25, 2,500 and 10,000
// items. Each also reports live-B: the bytes of heap live when the first
// request is sent, beyond what was live before the write (the items to
// write excepted); keyfirst holds the batch encoded, the twin one request.
// TestBatchWriteTwinsAgree proves that both send the same requests. Run
// with
//
//	go run ./internal/benchratio -bench BatchWrite .

// fakeBatchWriter processes every item at once. With keep, it keeps the
// requests it received; with first, it calls first on the first request.
type fakeBatchWriter struct {
	keep  bool
	ins   []*dynamodb.BatchWriteItemInput
	first func()
}

func (f *fakeBatchWriter) BatchWriteItem(_ context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	if f.first != nil {
		f.first()
		f.first = nil
		runtime.KeepAlive(in) // the request in flight is live when first measures
	}
	if f.keep {
		f.ins = append(f.ins, in)
	}
	return &dynamodb.BatchWriteItemOutput{}, nil
}

// handCustomer is a customer's item as a hand-written program builds it.
func handCustomer(c Customer) map[string]types.AttributeValue {
	item := map[string]types.AttributeValue{
		"PK":    &types.AttributeValueMemberS{Value: "CUST#" + c.ID},
		"SK":    &types.AttributeValueMemberS{Value: "CUST#" + c.ID},
		"_type": &types.AttributeValueMemberS{Value: "CUSTOMER"},
		"id":    &types.AttributeValueMemberS{Value: c.ID},
		"name":  &types.AttributeValueMemberS{Value: c.Name},
		"admin": &types.AttributeValueMemberBOOL{Value: c.Admin},
	}
	if c.Admin {
		item["GSI1PK"] = &types.AttributeValueMemberS{Value: "ADMIN"}
		item["GSI1SK"] = &types.AttributeValueMemberS{Value: "CUST#" + c.ID}
	}
	return item
}

// handBatchWrite writes cs as a hand-written program does: a request of
// 25 items built (its PutRequests one block, as keyfirst does), sent, then
// the next.
func handBatchWrite(ctx context.Context, api keyfirst.BatchWriteItemAPI, table string, cs []Customer) error {
	for len(cs) > 0 {
		chunk := cs[:min(keyfirst.MaxBatchWrite, len(cs))]
		cs = cs[len(chunk):]
		wrs := make([]types.WriteRequest, len(chunk))
		puts := make([]types.PutRequest, len(chunk))
		for i, c := range chunk {
			puts[i].Item = handCustomer(c)
			wrs[i].PutRequest = &puts[i]
		}
		if _, err := api.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
			RequestItems: map[string][]types.WriteRequest{table: wrs},
		}); err != nil {
			return err
		}
	}
	return nil
}

func BenchmarkBatchWrite(b *testing.B) {
	r := benchorder.New(b)
	defer r.Done()
	s := newShop(b, "bench")
	ctx := context.Background()
	for _, n := range []int{25, 2500, 10000} {
		cs := customers(n)
		variants := []struct {
			name  string
			write func(api keyfirst.BatchWriteItemAPI) error
		}{
			{"keyfirst", func(api keyfirst.BatchWriteItemAPI) error { return s.table.BatchWrite(ctx, api, putRequests(s, cs)) }},
			{"keyfirst-stream", func(api keyfirst.BatchWriteItemAPI) error {
				return s.table.BatchWriteSeq(ctx, api, requestsOf(s, cs))
			}},
			{"keyfirst-put", func(api keyfirst.BatchWriteItemAPI) error { return s.customers.BatchPut(ctx, api, slices.Values(cs)) }},
			{"hand", func(api keyfirst.BatchWriteItemAPI) error { return handBatchWrite(ctx, api, s.table.Name(), cs) }},
		}
		for _, v := range variants {
			r.Run(fmt.Sprintf("%d/%s", n, v.name), func(b *testing.B) {
				live, err := liveAtFirstWrite(v.write)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := v.write(&fakeBatchWriter{}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(live), "live-B")
			})
		}
	}
}

// requestsOf is the stream of the put requests of cs as a program writes
// it, each built as it is taken: the benchmark's, which pays nothing for
// the tests' counting streams (putSeq).
func requestsOf(s shop, cs []Customer) iter.Seq[keyfirst.WriteRequest] {
	return func(yield func(keyfirst.WriteRequest) bool) {
		for _, c := range cs {
			if !yield(s.customers.PutRequest(c)) {
				return
			}
		}
	}
}

// liveAtFirstWrite runs write and returns the bytes of heap live when it
// sends its first request, beyond those live before it began.
func liveAtFirstWrite(write func(api keyfirst.BatchWriteItemAPI) error) (int64, error) {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	before := int64(m.HeapAlloc)
	var live int64
	err := write(&fakeBatchWriter{first: func() {
		runtime.GC()
		runtime.ReadMemStats(&m)
		live = int64(m.HeapAlloc) - before
	}})
	return live, err
}

// TestBatchWriteTwinsAgree: the twins of BenchmarkBatchWrite send the
// same requests, in the same order: the bodies the SDK serializes, with
// their object keys sorted, are the same bytes; BatchPut's the same again
// when it runs a second time.
func TestBatchWriteTwinsAgree(t *testing.T) {
	s := newShop(t, "bench")
	ctx := context.Background()
	cs := customers(60)
	mine, hand := &wirebody.Recorder{Keep: true}, &wirebody.Recorder{Keep: true}
	if err := s.table.BatchWrite(ctx, wirebody.Client(mine), putRequests(s, cs)); err != nil {
		t.Fatal(err)
	}
	if err := handBatchWrite(ctx, wirebody.Client(hand), s.table.Name(), cs); err != nil {
		t.Fatal(err)
	}
	sameRequests(t, mine, hand, 3, func(i int) string { return fmt.Sprintf(`"CUST#%s"`, cs[25*i].ID) }, nil)
	streamed := &wirebody.Recorder{Keep: true}
	if err := s.table.BatchWriteSeq(ctx, wirebody.Client(streamed), requestsOf(s, cs)); err != nil {
		t.Fatal(err)
	}
	sameRequests(t, streamed, hand, 3, func(i int) string { return fmt.Sprintf(`"CUST#%s"`, cs[25*i].ID) }, nil)
	// Twice: the second BatchPut reuses the state the first gave back
	// to the entity's pool (its requests' table, entity and places kept),
	// and its slab is sized by what the first's items used.
	for range 2 {
		put := &wirebody.Recorder{Keep: true}
		if err := s.customers.BatchPut(ctx, wirebody.Client(put), slices.Values(cs)); err != nil {
			t.Fatal(err)
		}
		sameRequests(t, put, hand, 3, func(i int) string { return fmt.Sprintf(`"CUST#%s"`, cs[25*i].ID) }, nil)
	}
}
