package keyfirst_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/keyfirst/keyfirst"
)

// EntitySpec.Unique names one field of T as in Go, stored as a string, a
// number or a binary, which keyfirst does not write itself; anything
// else is refused by NewEntity with EntityUnique.
func TestNewEntityUniqueField(t *testing.T) {
	for name, unique := range map[string][]string{
		"a list field":       {"Tags"},
		"the attribute name": {"note"},
		"no such field":      {"Nope"},
		"the version":        {"Version"},
		"two fields":         {"Note", "Total"},
		"a created time":     {"PlacedAt"},
	} {
		table := keyfirst.Must(keyfirst.NewTable(shopSpec()))
		spec := orderSpec()
		spec.Unique = unique
		if name == "a created time" {
			spec.Created = "PlacedAt"
		}
		_, err := keyfirst.NewEntity(table, spec)
		var ee *keyfirst.EntityError
		if !errors.Is(err, keyfirst.ErrInvalidEntity) || !errors.As(err, &ee) || ee.Problem != keyfirst.EntityUnique {
			t.Errorf("%s %v: %v, want EntityUnique", name, unique, err)
		}
	}
	table := keyfirst.Must(keyfirst.NewTable(shopSpec()))
	spec := orderSpec()
	spec.Unique = []string{"Note"}
	e, err := keyfirst.NewEntity(table, spec)
	if err != nil || !slices.Equal(e.Unique(), []string{"Note"}) {
		t.Fatalf("Note: %v, unique fields %v", err, e.Unique())
	}
}
