package keyfirst_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

type adoptedNote struct {
	ID   string `dynamodbav:"Id"`
	Text string `dynamodbav:"Text"`
}

var adoptByID = keyfirst.OnTable(keyfirst.Str("PK"), keyfirst.Str("SK"))

// skStarts is an Adopt function: the keys whose sort key starts with prefix.
func skStarts(prefix string) func(pk, sk types.AttributeValue) bool {
	return func(_, sk types.AttributeValue) bool {
		s, ok := sk.(*types.AttributeValueMemberS)
		return ok && strings.HasPrefix(s.Value, prefix)
	}
}

// adoptTable declares two entities of one Go type, NOTE and MEMO, that
// adopt the untyped items whose sort key starts with note and memo.
func adoptTable(t *testing.T, note, memo string) (*keyfirst.Table, *keyfirst.Entity[adoptedNote], *keyfirst.Entity[adoptedNote]) {
	t.Helper()
	table := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "adopt", Key: adoptByID}))
	entity := func(typ, prefix string) *keyfirst.Entity[adoptedNote] {
		spec := keyfirst.EntitySpec[adoptedNote]{Type: typ, Keys: []keyfirst.Binding{
			keyfirst.Func(adoptByID, func(n adoptedNote) (string, string, bool) { return "U#1", typ + "#" + n.ID, true })}}
		if prefix != "" {
			spec.Adopt = skStarts(prefix)
		}
		return keyfirst.Must(keyfirst.NewEntity(table, spec))
	}
	return table, entity("NOTE", note), entity("MEMO", memo)
}

func untypedItem(sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "U#1"},
		"SK": &types.AttributeValueMemberS{Value: sk}, "Id": &types.AttributeValueMemberS{Value: "1"}, "Text": &types.AttributeValueMemberS{Value: "t"}}
}

// TestClassifyByKey: an untyped item is the one entity that claims its
// key; claimed by two or by none it is a *ClaimError with its key; a
// typed item is its attribute's, whatever the keys say; a table where no
// entity adopts reads untyped items as before.
func TestClassifyByKey(t *testing.T) {
	table, notes, memos := adoptTable(t, "NOTE#", "MEMO#")
	want := adoptedNote{ID: "1", Text: "t"}
	if v, err := table.Decode(untypedItem("NOTE#1")); err != nil || v != want {
		t.Fatalf("Table.Decode = %v, %v", v, err)
	}
	if v, err := memos.Decode(untypedItem("MEMO#1")); err != nil || v != want {
		t.Fatalf("MEMO Decode = %v, %v", v, err)
	}
	typed := untypedItem("NOTE#1")
	typed[table.TypeAttribute()] = &types.AttributeValueMemberS{Value: "MEMO"}
	if typ, err := table.Classify(typed); err != nil || typ != "MEMO" {
		t.Fatalf("typed item: %q, %v", typ, err)
	}

	both, bothNotes, _ := adoptTable(t, "NOTE#", "NOTE#")
	for _, tc := range []struct {
		name     string
		err      error
		sentinel error
		claims   string
	}{
		{"claimed by two", func() error { _, err := both.Decode(untypedItem("NOTE#1")); return err }(), keyfirst.ErrAmbiguousEntityType, "NOTE,MEMO"},
		{"claimed by two, as one of them", func() error { _, err := bothNotes.Decode(untypedItem("NOTE#1")); return err }(), keyfirst.ErrAmbiguousEntityType, "NOTE,MEMO"},
		{"claimed by none", func() error { _, err := table.Decode(untypedItem("INVOICE#1")); return err }(), keyfirst.ErrUnknownEntityType, ""},
		{"claimed by another", func() error { _, err := notes.Decode(untypedItem("MEMO#1")); return err }(), keyfirst.ErrWrongEntityType, "MEMO"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ce *keyfirst.ClaimError
			if !errors.As(tc.err, &ce) || !errors.Is(tc.err, tc.sentinel) || strings.Join(ce.Claims, ",") != tc.claims ||
				ce.Key["SK"] == nil || !strings.Contains(tc.err.Error(), `SK="`) {
				t.Fatalf("err = %v", tc.err)
			}
		})
	}

	plain, plainNotes, _ := adoptTable(t, "", "")
	for _, err := range []error{
		func() error { _, err := plain.Decode(untypedItem("NOTE#1")); return err }(),
		func() error { _, err := plainNotes.Decode(untypedItem("NOTE#1")); return err }(),
	} {
		var te *keyfirst.EntityTypeError
		if !errors.As(err, &te) || te.Got != "" {
			t.Fatalf("no adopter: err = %v", err)
		}
	}
}
