package keyfirst

import (
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/keys"
)

// Decode decodes an item of any entity type registered on the table (with
// [NewEntity]) into its Go type, chosen by the item's entity-type
// attribute: the way to read a mixed item collection (a repo and its
// issues). The result holds a T, not a *T; use a type switch:
//
//	switch v := v.(type) {
//	case Repo: ...
//	case Issue: ...
//	}
//
// An item without the attribute is of the entity that claims its key
// ([EntitySpec.Adopt], [Table.Classify]). An item of an unregistered
// type, or untyped on a table where no entity adopts, is an
// [*EntityTypeError] wrapping [ErrUnknownEntityType]; an untyped item
// claimed by no entity or by several, a [*ClaimError].
func (t *Table) Decode(item map[string]types.AttributeValue) (any, error) {
	name, err := t.Classify(item)
	if err != nil {
		return nil, err
	}
	t.mu.RLock()
	r, ok := t.entities[name]
	t.mu.RUnlock()
	if !ok {
		return nil, &EntityTypeError{Got: name}
	}
	return r.decode(item)
}

// EntityTypes returns the names of the entity types registered on the
// table, in registration order.
func (t *Table) EntityTypes() []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return slices.Clone(t.entityOrder)
}

// EntityType returns the entity-type name stored in an item ("" when the
// item has no entity-type attribute).
func (t *Table) EntityType(item map[string]types.AttributeValue) string {
	return itemType(item, t.typeAttr)
}

// register adds the entity type name to the table. It refuses, through
// fail, a name already registered and a second entity type that can be in
// a Scannable index (one entity type per Scannable index).
func (t *Table) register(name string, r registered, fail func(index string, p EntityProblem, detail string) error) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, dup := t.entities[name]; dup {
		return fail("", EntityDuplicateType, fmt.Sprintf("table %q already has an entity %q", t.name, name))
	}
	for _, index := range r.scannable {
		for _, other := range t.entityOrder {
			if slices.Contains(t.entities[other].scannable, index) {
				return fail(index, EntityScannableShared, fmt.Sprintf(
					"entity %q can already be in the index, which is declared Scannable: it holds one entity type, so that a Scan of it returns that type only; give %q an index of its own, or keep the index's key attributes off its items",
					other, name))
			}
		}
	}
	t.entities[name] = r
	t.entityOrder = append(t.entityOrder, name)
	for p := range r.patterns {
		t.patterns[p] = true
		if d := p.sk.def; !d.IsZero() && !slices.Contains(t.sortDefs[p.index], d) {
			t.sortDefs[p.index] = append(t.sortDefs[p.index], d)
		}
	}
	return nil
}

// Binds reports whether an entity type registered on the table binds the
// pattern p ([EntitySpec.Keys]): then the index exists and its attributes
// are written as p encodes them.
func (t *Table) Binds(p PatternID) bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.patterns[p.p]
}

// SortDefinitions returns the keys definitions that the patterns bound on
// the table store in the sort key of index ("" for the table's primary
// key), in binding order: the definitions a sort key condition on that
// index may be built from. It is empty when no bound pattern describes the
// sort key with a keys definition.
func (t *Table) SortDefinitions(index string) []keys.DefID {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return slices.Clone(t.sortDefs[index])
}

// Binds reports whether the entity binds pattern p ([EntitySpec.Keys]).
func (e *Entity[T]) Binds(p PatternID) bool { return e.patterns[p.p] }

// BindsWith reports whether b itself, the value one declaration returned
// ([Pattern.Fields], [Func], [FuncE], [If]) or a copy of it, is one of the
// entity's [EntitySpec.Keys]; [Entity.Binds] reports only that some
// binding of a pattern is. A package that declares a binding checks with
// it that a read goes through the declaration the entity writes with
// (shard.Query refuses another declaration of the same index, of another
// shard count, before any request).
func (e *Entity[T]) BindsWith(b Binding) bool { return b.decl != nil && e.decls[b.decl] }

func itemType(item map[string]types.AttributeValue, attr string) string {
	if s, ok := item[attr].(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

// limit is the maximum size of a value of key attribute name: 2048 bytes
// for a partition key, 1024 for a sort key (the stricter when the attribute
// is both, in different indexes).
func (t *Table) limit(name string) int {
	limit := 2048
	for _, k := range append([]KeySchema{t.primary}, t.indexes...) {
		for _, a := range k.SortKey {
			if a.Name == name {
				limit = 1024
			}
		}
	}
	return limit
}

func (t *Table) isKeyAttribute(name string) bool {
	_, ok := t.attrTypes[name]
	return ok
}

func (t *Table) indexNames() []string {
	out := make([]string, len(t.indexes))
	for i, ix := range t.indexes {
		out[i] = ix.IndexName
	}
	return out
}

// EntityAttributes returns the attributes of the T of the entity type
// registered on the table as name (its fields, as [Entity.Attributes]
// returns them), and whether one is. An item read from an index decodes
// into a whole T only when the index holds each of them: the query package
// uses it to tell, in a mixed collection read through an index that
// projects some attributes, the items of the types it holds whole.
func (t *Table) EntityAttributes(name string) ([]string, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	r, ok := t.entities[name]
	return slices.Clone(r.fields), ok
}

// EntitiesIn returns the entity types registered on the table whose items
// can be in the index called index ("" for the table itself, which holds
// them all), each with the attributes of its T (its fields, as
// [Entity.Attributes] returns them). An entity's items can be in a
// secondary index when every key attribute of the index is derived by the
// entity or is a field of its T. The query package uses it to refuse a
// read of a mixed collection through an index that does not project whole
// items. An unknown index has none.
func (t *Table) EntitiesIn(index string) map[string][]string {
	ks, ok := t.index(index)
	if !ok {
		return nil
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	out := map[string][]string{}
	for _, name := range t.entityOrder {
		r := t.entities[name]
		if slices.ContainsFunc(ks.Attributes(), func(a Attribute) bool { _, found := slices.BinarySearch(r.known, a.Name); return !found }) {
			continue
		}
		out[name] = slices.Clone(r.fields)
	}
	return out
}
