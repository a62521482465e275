package keyfirst_test

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// itemKeeper is a BatchWriteItemAPI that processes every item and
// keeps each, by its SK.
type itemKeeper struct {
	mu    sync.Mutex
	items map[string]map[string]types.AttributeValue
}

func (w *itemKeeper) BatchWriteItem(_ context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, reqs := range in.RequestItems {
		for _, r := range reqs {
			w.items[avText(r.PutRequest.Item["SK"])] = r.PutRequest.Item
		}
	}
	return &dynamodb.BatchWriteItemOutput{}, nil
}

// TestPlanAcrossStackGrowth: a plan keeps T and its own arena on the
// stack (noEscape), and a BatchPut shares one arena among its items.
// Here the function of a binding, called in the middle of each plan
// (after the table's key, before the fields), moves its goroutine's stack
// to a larger one and, every 16 items, runs the collector: every item
// built by Item on a new goroutine (whose stack starts small), and every
// item BatchPut writes, must still be the item that an entity whose
// function does neither builds. A pointer to the stack kept in the heap
// (a closure that escapes, as the body of BatchPut's range over its
// stream is) would write to the old stack, and values the collector did
// not see would be freed.
func TestPlanAcrossStackGrowth(t *testing.T) {
	entity := func(grow bool) *keyfirst.Entity[benchOrder] {
		table := keyfirst.Must(keyfirst.NewTable(benchTableSpec("grow")))
		return keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[benchOrder]{Type: "ORDER",
			Keys: []keyfirst.Binding{
				benchByID.Fields("Customer", "ID"),
				keyfirst.FuncE(keyfirst.OnIndex("GSI1", keyfirst.Str("GSI1PK"), keyfirst.Str("GSI1SK")), func(o benchOrder) (string, string, bool, error) {
					if grow {
						clobberStack(16) // 64 KiB: a new goroutine's stack moves
						if o.Total%16 == 0 {
							runtime.GC()
						}
					}
					return benchBoth(benchGSI1PK, benchGSI1SK)(o)
				}),
			}}))
	}
	growing, plain := entity(true), entity(false)
	orders := make([]benchOrder, 200)
	for i := range orders {
		o := benchValue
		o.ID, o.Total, o.Note = fmt.Sprintf("o%04d", i), int64(i), fmt.Sprintf("note %d", i)
		o.Tags = []string{fmt.Sprintf("t%d", i), "x"}
		o.PlacedAt = o.PlacedAt.Add(time.Duration(i) * time.Second)
		orders[i] = o
	}
	want := func(o benchOrder) map[string]types.AttributeValue {
		t.Helper()
		item, err := plain.Item(o)
		if err != nil {
			t.Fatal(err)
		}
		return item
	}

	var wg sync.WaitGroup
	got := make([]map[string]types.AttributeValue, len(orders))
	errs := make([]error, len(orders))
	for i, o := range orders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = growing.Item(o)
		}()
	}
	wg.Wait()
	for i, o := range orders {
		if errs[i] != nil {
			t.Fatalf("Item of order %d: %v", i, errs[i])
		}
		if w := want(o); !reflect.DeepEqual(got[i], w) {
			t.Fatalf("Item of order %d:\n%v\nwant\n%v", i, got[i], w)
		}
	}

	w := &itemKeeper{items: map[string]map[string]types.AttributeValue{}}
	for part := range slices.Chunk(orders, 50) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := growing.BatchPut(context.Background(), w, slices.Values(part)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if len(w.items) != len(orders) {
		t.Fatalf("BatchPut wrote %d items, want %d", len(w.items), len(orders))
	}
	for i, o := range orders {
		ww := want(o)
		if g := w.items[avText(ww["SK"])]; !reflect.DeepEqual(g, ww) {
			t.Fatalf("BatchPut's item of order %d:\n%v\nwant\n%v", i, g, ww)
		}
	}
}
