package keyfirst

import (
	"reflect"
	"testing"

	"github.com/keyfirst/keyfirst/internal/codec"
)

// arenaOrder is an entity type whose keys come from a FuncE binding (its
// results go through the arena's out) and from fields.
type arenaOrder struct {
	Customer string `dynamodbav:"customer"`
	ID       string `dynamodbav:"id"`
	Status   string `dynamodbav:"status"`
}

// arenaEntities are two entities of arenaOrder: byFunc's keys come from
// FuncE bindings, byFields' from its fields.
func arenaEntities(t *testing.T) (byFunc, byFields *Entity[arenaOrder]) {
	t.Helper()
	table, err := NewTable(TableSpec{Name: "arena", PartitionKey: StringAttr("PK"), SortKey: StringAttr("SK"),
		GSIs: []Index{{Name: "GSI1", PartitionKey: []Attribute{StringAttr("GSI1PK")}, SortKey: []Attribute{StringAttr("GSI1SK")}}}})
	if err != nil {
		t.Fatal(err)
	}
	byFunc, err = NewEntity(table, EntitySpec[arenaOrder]{Type: "ORDER", Keys: []Binding{
		FuncE(OnTable(Str("PK"), Str("SK")), func(o arenaOrder) (string, string, bool, error) { return "C#" + o.Customer, "O#" + o.ID, true, nil }),
		FuncE(OnIndex("GSI1", Str("GSI1PK"), Str("GSI1SK")), func(o arenaOrder) (string, string, bool, error) {
			return "S#" + o.Status, "O#" + o.ID, o.Status != "", nil
		}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	byFields, err = NewEntity(table, EntitySpec[arenaOrder]{Type: "ORDER2", Keys: []Binding{
		OnTable(Str("PK"), Str("SK")).Fields("Customer", "ID"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	return byFunc, byFields
}

// TestReleasedArenaHoldsNothing: after a plan, the arena it gives back
// holds no value of the item (out of a Func binding's results, slab; the
// item's field and derived values are on the plan's stack), so that a
// pooled arena keeps no item alive. The arena taken from the pool right
// after a plan, on the same goroutine, is the one the plan gave back;
// each round checks it.
func TestReleasedArenaHoldsNothing(t *testing.T) {
	byFunc, byFields := arenaEntities(t)
	for round := range 20 {
		for name, plan := range map[string]func() error{
			"FuncE": func() error {
				var p itemPlan[arenaOrder]
				return byFunc.plan(&p, &arenaOrder{Customer: "c1", ID: "o1", Status: "OPEN"}, -1)
			},
			"fields": func() error {
				var p itemPlan[arenaOrder]
				return byFields.plan(&p, &arenaOrder{Customer: "c1", ID: "o1", Status: "OPEN"}, -1)
			},
		} {
			if err := plan(); err != nil {
				t.Fatal(err)
			}
			a := arenas.Get().(*arena)
			for i, av := range a.out {
				if av != nil {
					t.Fatalf("round %d, %s: the released arena's out[%d] holds %v", round, name, i, av)
				}
			}
			if !reflect.DeepEqual(a.sl, codec.Slab{}) {
				t.Fatalf("round %d, %s: the released arena's slab holds the item's room", round, name)
			}
			arenas.Put(a)
		}
	}
}
