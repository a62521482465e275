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
