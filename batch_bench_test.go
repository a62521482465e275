package keyfirst_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// The cost of a batch write per item, keyfirst (BenchmarkBatchWrite/N/keyfirst:
// the requests built with PutRequest, written with BatchWrite) beside the
// hand-written twin (BenchmarkBatchWrite/N/hand: each request of 25 items
// built by hand and sent), against a fake API, at 25, 2,500 and 10,000
// items. TestBatchWriteTwinsAgree proves that both send the same requests.
// Run with
//
//	go test -run '^$' -bench BatchWrite -benchmem .

// fakeBatchWriter processes every item at once. With keep, it keeps the
// requests it received.
type fakeBatchWriter struct {
	keep bool
	ins  []*dynamodb.BatchWriteItemInput
}

func (f *fakeBatchWriter) BatchWriteItem(_ context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
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
// 25 items built, sent, then the next.
func handBatchWrite(ctx context.Context, api keyfirst.BatchWriteItemAPI, table string, cs []Customer) error {
	for len(cs) > 0 {
		chunk := cs[:min(keyfirst.MaxBatchWrite, len(cs))]
		cs = cs[len(chunk):]
		wrs := make([]types.WriteRequest, len(chunk))
		for i, c := range chunk {
			wrs[i].PutRequest = &types.PutRequest{Item: handCustomer(c)}
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
	s := newShop(b, "bench")
	ctx := context.Background()
	for _, n := range []int{25, 2500, 10000} {
		cs := customers(n)
		b.Run(fmt.Sprintf("%d/keyfirst", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := s.table.BatchWrite(ctx, &fakeBatchWriter{}, putRequests(s, cs)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("%d/hand", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := handBatchWrite(ctx, &fakeBatchWriter{}, s.table.Name(), cs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestBatchWriteTwinsAgree: the twins of BenchmarkBatchWrite send the
// same requests, item for item, in the same order.
func TestBatchWriteTwinsAgree(t *testing.T) {
	s := newShop(t, "bench")
	ctx := context.Background()
	cs := customers(60)
	mine, hand := &fakeBatchWriter{keep: true}, &fakeBatchWriter{keep: true}
	if err := s.table.BatchWrite(ctx, mine, putRequests(s, cs)); err != nil {
		t.Fatal(err)
	}
	if err := handBatchWrite(ctx, hand, s.table.Name(), cs); err != nil {
		t.Fatal(err)
	}
	if len(mine.ins) != 3 || len(hand.ins) != 3 {
		t.Fatalf("%d and %d requests, want 3", len(mine.ins), len(hand.ins))
	}
	for i := range mine.ins {
		if !reflect.DeepEqual(mine.ins[i], hand.ins[i]) {
			t.Fatalf("request %d: keyfirst sent %v, the hand-written twin %v", i, dumpBatch(mine.ins[i]), dumpBatch(hand.ins[i]))
		}
	}
}

// dumpBatch prints a request's items.
func dumpBatch(in *dynamodb.BatchWriteItemInput) string {
	out := ""
	for table, wrs := range in.RequestItems {
		out += table + ":"
		for _, w := range wrs {
			out += " {"
			for k, v := range w.PutRequest.Item {
				out += k + "=" + avText(v) + " "
			}
			out += "}"
		}
	}
	return out + " " + string(in.ReturnConsumedCapacity)
}
