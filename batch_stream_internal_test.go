package keyfirst

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// writesAll is a BatchWriteItemAPI that processes every item.
type writesAll struct{}

func (writesAll) BatchWriteItem(context.Context, *dynamodb.BatchWriteItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	return &dynamodb.BatchWriteItemOutput{}, nil
}

// TestEndedStreamHoldsNothing: after a BatchWriteSeq or a BatchPut that
// returns nil, the state it gives back to its pool holds nothing of the
// write (no request, item or value of the caller), so that a pooled state
// keeps no item alive; the requests of 25 written before the last stay in
// the state only until the write ends. The state taken from the pool right
// after a write, on the same goroutine, is the one it gave back; each
// round checks it. 30 orders: a request of 25 written, and one of 5 left
// for the end.
func TestEndedStreamHoldsNothing(t *testing.T) {
	_, byFields := arenaEntities(t)
	orders := func(yield func(arenaOrder) bool) {
		for i := range 30 {
			if !yield(arenaOrder{Customer: "c1", ID: fmt.Sprintf("o%d", i), Status: "OPEN"}) {
				return
			}
		}
	}
	requests := func(yield func(WriteRequest) bool) {
		for o := range orders {
			if !yield(byFields.PutRequest(o)) {
				return
			}
		}
	}
	empty := func(round int, call string, s *batchStream) {
		t.Helper()
		for i, r := range s.room {
			if !reflect.ValueOf(r).IsZero() {
				t.Fatalf("round %d, %s: the state's request %d holds %+v", round, call, i, r)
			}
		}
		if !reflect.ValueOf(s.w).IsZero() {
			t.Fatalf("round %d, %s: the state holds its writer", round, call)
		}
	}
	ctx := context.Background()
	for round := range 20 {
		if err := byFields.table.BatchWriteSeq(ctx, writesAll{}, requests); err != nil {
			t.Fatal(err)
		}
		s := streams.Get().(*batchStream)
		empty(round, "BatchWriteSeq", s)
		streams.Put(s)

		if err := byFields.BatchPut(ctx, writesAll{}, orders); err != nil {
			t.Fatal(err)
		}
		ps := byFields.puts.Get().(*putStream[arenaOrder])
		empty(round, "BatchPut", &ps.batchStream)
		for i, v := range ps.vals {
			if v != (arenaOrder{}) {
				t.Fatalf("round %d, BatchPut: the state's item %d holds %+v", round, i, v)
			}
		}
		byFields.puts.Put(ps)
	}
}
