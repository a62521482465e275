package keyfirst

import "testing"

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

// TestValueHint: before any item, and for a nil hint, each item is given
// its bound; then the mean of what items used, rounded up and at most the
// bound, moving an eighth of the way to each new item's count.
func TestValueHint(t *testing.T) {
	var nilHint *valueHint
	nilHint.saw(3)
	if got := nilHint.get(7); got != 7 {
		t.Fatalf("a nil hint gives %d, want the bound 7", got)
	}
	h := new(valueHint)
	if got := h.get(7); got != 7 {
		t.Fatalf("a new hint gives %d, want the bound 7", got)
	}
	h.saw(5)
	if got := h.get(7); got != 5 {
		t.Fatalf("after one item of 5: %d, want 5", got)
	}
	if got := h.get(4); got != 4 {
		t.Fatalf("a bound of 4 under a mean of 5 gives %d, want 4", got)
	}
	h.saw(7) // 40 + (56-40)/8 = 42 eighths: 5.25, rounded up
	if got := h.get(7); got != 6 {
		t.Fatalf("after 5 and 7: %d, want 6", got)
	}
	for range 100 {
		h.saw(3)
	}
	if got := h.get(7); got != 3 {
		t.Fatalf("after many items of 3: %d, want 3", got)
	}
}
