package keyfirst_test

import (
	"testing"

	"github.com/keyfirst/keyfirst"
)

// BindsWith tells the binding an entity was declared with from another
// declaration of the same pattern: the value itself and its copies (also
// through Entity.In) are bound; another call of Fields or Func on
// the pattern, an If around the bound value, and the zero Binding are not,
// although Binds reports the pattern bound.
func TestBindsWith(t *testing.T) {
	key, index := castByActor.Fields("Actor", "Movie"), castByMovie.Fields("Movie", "Actor")
	table := keyfirst.Must(keyfirst.NewTable(castSpec()))
	roles := keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[castRole]{Type: "ROLE", Keys: []keyfirst.Binding{key, index}}))
	other := keyfirst.Must(roles.In(keyfirst.Must(table.Named("MoviesAndActors-2"))))
	copied := index
	for name, b := range map[string]keyfirst.Binding{"the table's binding": key, "the index's binding": index, "a copy": copied} {
		if !roles.BindsWith(b) || !other.BindsWith(b) {
			t.Errorf("%s: not bound", name)
		}
	}
	always := func(castRole) bool { return true }
	for name, b := range map[string]keyfirst.Binding{
		"Fields again":            castByMovie.Fields("Movie", "Actor"),
		"Func of the pattern":     keyfirst.Func(castByMovie, func(r castRole) (string, string, bool) { return r.Movie, r.Actor, true }),
		"If around the bound one": keyfirst.If(index, always),
		"the zero Binding":        {},
	} {
		if roles.BindsWith(b) {
			t.Errorf("%s: bound", name)
		}
	}
	if !roles.Binds(castByMovie.ID()) {
		t.Error("the pattern is not bound")
	}
}
