package keyfirst

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/keys"
)

type sharedTextPerson struct {
	ID    string `dynamodbav:"id"`
	Name  string `dynamodbav:"name"`
	Admin bool   `dynamodbav:"admin"`
}

// sharedTextEntity is an entity of a table with PK, SK and GSI1 bound by
// keys.
func sharedTextEntity(t *testing.T, keys ...Binding) *Entity[sharedTextPerson] {
	t.Helper()
	table, err := NewTable(TableSpec{Name: "shared", PartitionKey: StringAttr("PK"), SortKey: StringAttr("SK"),
		GSIs: []Index{{Name: "GSI1", PartitionKey: []Attribute{StringAttr("GSI1PK")}, SortKey: []Attribute{StringAttr("GSI1SK")}}}})
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEntity(table, EntitySpec[sharedTextPerson]{Type: "PERSON", Keys: keys})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestSharedTexts: the attributes one pattern computes from one field
// (PK = SK = GSI1SK = CUST#<id>) compute their text once, each in a value
// of its own; patterns that differ (another definition, another field)
// share nothing.
func TestSharedTexts(t *testing.T) {
	cust := keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUST"))
	admin := func(p sharedTextPerson) bool { return p.Admin }
	same := sharedTextEntity(t, OnTable(Composite("PK", cust), Composite("SK", cust)).Fields("ID", "ID"),
		If(OnIndex("GSI1", Const("GSI1PK", "ADMIN"), Composite("GSI1SK", cust)).Fields("ID"), admin))
	if same.pk.shared == 0 || same.sk.shared != same.pk.shared || same.groups[0].derived[1].shared != same.pk.shared {
		t.Fatalf("PK, SK and GSI1SK do not share their text: slots %d, %d, %d", same.pk.shared, same.sk.shared, same.groups[0].derived[1].shared)
	}
	item, err := same.Item(sharedTextPerson{ID: "c1", Name: "Ann", Admin: true})
	if err != nil {
		t.Fatal(err)
	}
	pk, sk, gsk := item["PK"].(*types.AttributeValueMemberS), item["SK"].(*types.AttributeValueMemberS), item["GSI1SK"].(*types.AttributeValueMemberS)
	if pk.Value != "CUST#c1" || sk.Value != "CUST#c1" || gsk.Value != "CUST#c1" {
		t.Fatalf("PK %q, SK %q, GSI1SK %q, want CUST#c1", pk.Value, sk.Value, gsk.Value)
	}
	if pk == sk || pk == gsk || sk == gsk {
		t.Fatal("two attributes of the item share one *AttributeValueMemberS")
	}
	pk.Value = "changed"
	if sk.Value != "CUST#c1" || gsk.Value != "CUST#c1" {
		t.Fatal("changing PK changed another attribute")
	}
	if item, err = same.Item(sharedTextPerson{ID: "c2"}); err != nil {
		t.Fatal(err)
	}
	if _, in := item["GSI1SK"]; in || item["SK"].(*types.AttributeValueMemberS).Value != "CUST#c2" {
		t.Fatalf("a non-admin: %v", item)
	}
	if _, err = same.Item(sharedTextPerson{ID: "bad#id", Admin: true}); err == nil {
		t.Fatal("an id with the separator was accepted")
	}

	other := keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUST"))
	for name, e := range map[string]*Entity[sharedTextPerson]{
		"another definition": sharedTextEntity(t, OnTable(Composite("PK", cust), Composite("SK", other)).Fields("ID", "ID")),
		"another field":      sharedTextEntity(t, OnTable(Composite("PK", cust), Composite("SK", cust)).Fields("ID", "Name")),
	} {
		if e.pk.shared != 0 || e.sk.shared != 0 {
			t.Errorf("%s: slots %d and %d, want none", name, e.pk.shared, e.sk.shared)
		}
		item, err := e.Item(sharedTextPerson{ID: "c1", Name: "n1"})
		if err != nil {
			t.Fatal(err)
		}
		want := "CUST#c1"
		if name == "another field" {
			want = "CUST#n1"
		}
		if got := item["SK"].(*types.AttributeValueMemberS).Value; got != want {
			t.Errorf("%s: SK %q, want %q", name, got, want)
		}
	}
}
