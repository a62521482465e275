package keyfirst

import (
	"errors"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Adoption: reading the items of a table that keyfirst did not write.
//
// An item written by another program has no entity-type attribute.
// An entity that declares [EntitySpec.Adopt] recognises such items by
// their table primary key (the one thing every read returns, whatever the
// index projects), and every read that decodes by type (an entity's own
// reads, [Table.Decode], collections, views, a migrate backfill) then
// takes them for its items. The decision is the table's, over every
// entity registered on it: an untyped item that two entities claim, or
// that none claims, is an [*EntityTypeError] carrying its key, never a
// guess ([*ClaimError]). An item that has the attribute is decided by it
// alone, and a table without an adopting entity reads untyped items as
// before (an [*EntityTypeError]).

// Classify returns the entity type of item: the one its entity-type
// attribute names or, for an item without the attribute, the one entity
// of the table whose [EntitySpec.Adopt] claims its primary key. An
// untyped item that no entity claims is a [*ClaimError] wrapping
// [ErrUnknownEntityType], one that several claim a [*ClaimError]
// wrapping [ErrAmbiguousEntityType]; both carry the item's primary key
// and the claimants. On a table where no entity adopts, an untyped item
// is an [*EntityTypeError], as [Table.Decode] has always reported it.
func (t *Table) Classify(item map[string]types.AttributeValue) (string, error) {
	if name, typed := t.storedType(item); typed {
		return name, nil
	}
	return t.claim(item)
}

// storedType returns the type item's entity-type attribute holds, and
// whether it has the attribute (of any kind: a non-string one is no
// type, and is not classified by key either).
func (t *Table) storedType(item map[string]types.AttributeValue) (string, bool) {
	av, typed := item[t.typeAttr]
	if s, ok := av.(*types.AttributeValueMemberS); ok {
		return s.Value, true
	}
	return "", typed
}

// claim asks every entity that adopts untyped items whether it claims
// item's key.
func (t *Table) claim(item map[string]types.AttributeValue) (string, error) {
	pk, sk := t.keyValues(item)
	t.mu.RLock()
	var claims []string
	adopts := false
	for _, name := range t.entityOrder {
		adopt := t.entities[name].adopt
		adopts = adopts || adopt != nil
		if adopt != nil && pk != nil && adopt(pk, sk) {
			claims = append(claims, name)
		}
	}
	t.mu.RUnlock()
	switch {
	case len(claims) == 1:
		return claims[0], nil
	case !adopts:
		return "", &EntityTypeError{}
	}
	return "", &ClaimError{Key: t.keyOf(item), Claims: claims}
}

// keyValues returns the values of item's table partition and sort key
// (nil for one it lacks, and for the sort key of a table without one).
func (t *Table) keyValues(item map[string]types.AttributeValue) (pk, sk types.AttributeValue) {
	pk = item[t.primary.PartitionKey[0].Name]
	if len(t.primary.SortKey) > 0 {
		sk = item[t.primary.SortKey[0].Name]
	}
	return pk, sk
}

// keyOf returns item's table primary key attributes, for errors.
func (t *Table) keyOf(item map[string]types.AttributeValue) map[string]types.AttributeValue {
	key := map[string]types.AttributeValue{}
	for _, a := range t.primary.Attributes() {
		if av, ok := item[a.Name]; ok {
			key[a.Name] = av
		}
	}
	return key
}

// itemKeyText prints a primary key's attributes in name order:
// PK="CUST#c1" SK="ORDER#o1".
func itemKeyText(key map[string]types.AttributeValue) string {
	names := make([]string, 0, len(key))
	for n := range key {
		names = append(names, n)
	}
	slices.Sort(names)
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(n + "=" + partOf(key[n]).text())
	}
	return b.String()
}

// adopted returns nil when item, whose entity-type attribute holds got
// (not e's type), is e's nonetheless: it has no such attribute and e
// alone claims its key. Otherwise it says why it is not.
func (e *Entity[T]) adopted(item map[string]types.AttributeValue, got string) error {
	if _, typed := e.table.storedType(item); typed {
		return &EntityTypeError{Want: e.typeName, Got: got}
	}
	name, err := e.table.claim(item)
	var te *EntityTypeError
	var ce *ClaimError
	switch {
	case errors.As(err, &te):
		te.Want = e.typeName
		return te
	case errors.As(err, &ce):
		ce.Want = e.typeName
		return ce
	case name != e.typeName:
		return &ClaimError{Want: e.typeName, Key: e.table.keyOf(item), Claims: []string{name}}
	}
	return nil
}

// adopts reports whether a write of the item with key may take over an
// untyped item: this entity's [EntitySpec.Adopt] claims key, and no
// other entity's does. It is decided in Go, before any request; a key
// that another entity claims too is a [*ClaimError] wrapping
// [ErrAmbiguousEntityType], and a key that another entity alone claims,
// or none, is no adoption (the write's guard then refuses an untyped
// item, [ErrWrongEntityType]).
func (e *Entity[T]) adopts(key Key[T]) (bool, error) {
	if e.adopt == nil {
		return false, nil
	}
	name, err := e.table.claim(e.keyMap(key))
	var ce *ClaimError
	switch {
	case err == nil:
		return name == e.typeName, nil
	case errors.As(err, &ce) && slices.Contains(ce.Claims, e.typeName):
		ce.Want = e.typeName
		return false, ce
	}
	return false, nil
}

// adoptGuard lets g, the guard of a write of the item with key, hold on
// an untyped item this entity adopts ([Entity.adopts]): of this type
// becomes of this type or untyped, and an untyped item's missing version
// is version 0. A guard that compares the image read (guardUnchanged)
// needs nothing: the image has no type either.
func (e *Entity[T]) adoptGuard(g *guard, key Key[T]) error {
	if g.kind == guardUnchanged {
		return nil
	}
	adopt, err := e.adopts(key)
	g.adopt = adopt
	return err
}
