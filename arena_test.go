package keyfirst_test

import (
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// TestItemAllocations holds the allocations of building the benchmark's
// item (BenchmarkMarshal, BenchmarkMarshalPattern): the hand-written twin
// makes 26. Every string and number value of the item and their texts
// come from one arena; what is left is the arena's slab (2: its values
// and its texts; the arena itself is reused), the map (4), the list of
// tags (2), the item copied for the plan (1), and, for the functions,
// the four strings they return.
func TestItemAllocations(t *testing.T) {
	for name, c := range map[string]struct {
		e   *keyfirst.Entity[benchOrder]
		max float64
	}{
		"patterns":  {benchPatternEntity(t), 9},
		"functions": {benchEntity(t, "bench"), 13},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := c.e.Item(benchValue); err != nil { // the entity learns the room of its texts
				t.Fatal(err)
			}
			allocs := testing.AllocsPerRun(200, func() {
				if _, err := c.e.Item(benchValue); err != nil {
					t.Fatal(err)
				}
			})
			if allocs > c.max {
				t.Errorf("Item makes %v allocations, want at most %v", allocs, c.max)
			}
		})
	}
}

// TestItemArenaOwnValues: two items built one after the other share no
// value: changing one leaves the other as built.
func TestItemArenaOwnValues(t *testing.T) {
	e := benchPatternEntity(t)
	one, err := e.Item(benchValue)
	if err != nil {
		t.Fatal(err)
	}
	two, err := e.Item(benchValue)
	if err != nil {
		t.Fatal(err)
	}
	want, err := marshalByHand(benchValue)
	if err != nil {
		t.Fatal(err)
	}
	for name, av := range one {
		switch x := av.(type) {
		case *types.AttributeValueMemberS:
			x.Value = "changed"
		case *types.AttributeValueMemberN:
			x.Value = "0"
		}
		if av == two[name] {
			t.Errorf("%s: both items hold one value", name)
		}
	}
	if !reflect.DeepEqual(two, want) {
		t.Fatalf("changing one item changed the other:\n%#v", two)
	}
}

// TestItemArenasConcurrent: arenas go back to a pool shared by every
// entity and goroutine once a plan is made; items built at once by 8
// goroutines, of two entities, each hold their own values, as a
// hand-written program builds them (run under -race).
func TestItemArenasConcurrent(t *testing.T) {
	orders, shop := benchPatternEntity(t), newShop(t, "bench")
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				o := benchValue
				o.ID, o.Total = fmt.Sprintf("o%d-%d", g, i), int64(g*1000+i)
				c := Customer{ID: fmt.Sprintf("c%d-%d", g, i), Name: "n", Admin: i%2 == 0}
				got, err := orders.Item(o)
				if err != nil {
					t.Error(err)
					return
				}
				gotC, err := shop.customers.Item(c)
				if err != nil {
					t.Error(err)
					return
				}
				want, err := marshalByHand(o)
				if err != nil {
					t.Error(err)
					return
				}
				if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotC, handCustomer(c)) {
					t.Errorf("goroutine %d, item %d: another item's values", g, i)
					return
				}
			}
		}()
	}
	wg.Wait()
}
