package keyfirst_test

import (
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// TestItemAllocations holds the allocations of building the benchmark's
// item (BenchmarkMarshal, BenchmarkMarshalPattern): the hand-written twin
// makes 26. Every string and number value of the item and their texts
// come from one arena; what is left is the arena (3), the map (4), the
// list of tags (2), the item copied for the plan (1), and, for the
// functions, the four strings they return.
func TestItemAllocations(t *testing.T) {
	for name, c := range map[string]struct {
		e   *keyfirst.Entity[benchOrder]
		max float64
	}{
		"patterns":  {benchPatternEntity(t), 10},
		"functions": {benchEntity(t, "bench"), 14},
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
