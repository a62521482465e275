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
// after a write, on the same goroutine, is the one it gave back, unless
// the race detector's pool dropped it (a new state, empty, is checked as
// well); each round checks it. 30 orders: a request of 25 written, and one of 5 left
// for the end. BatchPut's state keeps what is its entity's own (each
// request's table, entity and place of its value), set once; and a
// stream of 12 whose last repeats a key (the request of 11 written
// first, the last moved to the front of the next) leaves nothing where
// its last was built.
func TestEndedStreamHoldsNothing(t *testing.T) {
	_, byFields := arenaEntities(t)
	ordersOf := func(ids ...int) func(yield func(arenaOrder) bool) {
		return func(yield func(arenaOrder) bool) {
			for _, i := range ids {
				if !yield(arenaOrder{Customer: "c1", ID: fmt.Sprintf("o%d", i), Status: "OPEN"}) {
					return
				}
			}
		}
	}
	var thirty []int
	for i := range 30 {
		thirty = append(thirty, i)
	}
	orders := ordersOf(thirty...)
	repeated := ordersOf(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 3)
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
			if s.keep { // BatchPut's: the entity's own stays
				own := WriteRequest{table: r.table, of: r.of, put: r.put}
				if !reflect.DeepEqual(r, own) || r.table != byFields.table || r.of != batchEntity(byFields) {
					t.Fatalf("round %d, %s: the state's request %d holds %+v", round, call, i, r)
				}
				continue
			}
			if !reflect.ValueOf(r).IsZero() {
				t.Fatalf("round %d, %s: the state's request %d holds %+v", round, call, i, r)
			}
		}
		if !reflect.ValueOf(s.w).IsZero() {
			t.Fatalf("round %d, %s: the state holds its writer", round, call)
		}
	}
	ctx := context.Background()
	kept := 0 // the rounds that found BatchPut's own state in the pool
	for round := range 20 {
		if err := byFields.table.BatchWriteSeq(ctx, writesAll{}, requests); err != nil {
			t.Fatal(err)
		}
		s := streams.Get().(*batchStream)
		empty(round, "BatchWriteSeq", s)
		streams.Put(s)

		for _, items := range []func(func(arenaOrder) bool){orders, repeated} {
			if err := byFields.BatchPut(ctx, writesAll{}, items); err != nil {
				t.Fatal(err)
			}
			ps := byFields.puts.Get().(*putStream[arenaOrder])
			ours := ps.of != nil // else a new state: under the race detector a pool drops at random what it is given
			if ours {
				kept++
				if !ps.keep {
					t.Fatalf("round %d, BatchPut: the state does not keep its requests' own", round)
				}
			}
			empty(round, "BatchPut", &ps.batchStream)
			for i, v := range ps.vals {
				if v != (arenaOrder{}) {
					t.Fatalf("round %d, BatchPut: the state's item %d holds %+v", round, i, v)
				}
				if ours && ps.room[i].put != any(&ps.vals[i]) {
					t.Fatalf("round %d, BatchPut: the state's request %d is not of its item %d", round, i, i)
				}
			}
			if !reflect.ValueOf(ps.ar).IsZero() { // its slab held the items' values and texts
				t.Fatalf("round %d, BatchPut: the state's arena holds %+v", round, ps.ar)
			}
			byFields.puts.Put(ps)
		}
	}
	if kept == 0 {
		t.Fatal("no BatchPut's state came back from the pool: nothing was checked")
	}
}
