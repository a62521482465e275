package keyfirst

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/avequal"
	"github.com/keyfirst/keyfirst/internal/codec"
	"github.com/keyfirst/keyfirst/internal/markers"
)

// Unique values ([EntitySpec.Unique]): the value of a unique field is held
// by a marker item that package txn's Unique actions write and delete with
// the item, in one transaction. Every other write path of the entity
// either cannot change or drop the value (it is guarded, in the same
// write, by the condition that the stored value is the one written) or is
// refused before any request with a [*UniqueValueError] naming the
// action to use.

// ErrUniqueValue: a write would change or drop the value of a unique
// field ([EntitySpec.Unique]) without moving its marker.
var ErrUniqueValue = errors.New("keyfirst: a unique value cannot change or go outside txn.Unique")

// UniqueValueError reports a write of an entity with a unique field
// ([EntitySpec.Unique]) that would change or drop the field's value
// outside the actions of txn.Unique, which move its marker. A write that
// cannot keep the value (a Put that creates, a Delete, a batch put or
// delete, an Update or a Modify that changes the field) is refused
// before any request; a write guarded by the condition that the stored
// value is the one written (a Put over a stored item, a Replace, their
// transaction actions) that fails because the stored value differs is a
// [*ConditionError] whose Err is a UniqueValueError, with Found and
// Stored set. It wraps [ErrUniqueValue].
type UniqueValueError struct {
	Op        string // the write: "Put", "Delete", "BatchWrite", "Update", "Modify", "Replace", "TransactPut"...
	Entity    string // the entity-type name
	Field     string // the unique field, its Go name
	Attribute string // its attribute name
	Use       string // the action that writes the value with its marker: "txn.Unique.Create", "txn.Unique.Change", "txn.Unique.Delete"
	Detail    string // what the write would have done
	// Found reports a guarded write that failed on a stored item of the
	// entity, whose value is Stored (nil: the item has none).
	Found  bool
	Stored types.AttributeValue
}

// Error describes the failure with its facts.
func (e *UniqueValueError) Error() string {
	return fmt.Sprintf("%v: %s of %s: field %s (attribute %s): %s; use %s", ErrUniqueValue, e.Op, e.Entity, e.Field, e.Attribute, e.Detail, e.Use)
}

// Unwrap returns [ErrUniqueValue].
func (e *UniqueValueError) Unwrap() error { return ErrUniqueValue }

// uniqueField is a unique field of T: its Go name and attribute.
type uniqueField struct{ goName, attr string }

// uniqueValue is the value a write stores in a unique attribute (nil:
// none), which the stored item must already hold.
type uniqueValue struct {
	field uniqueField
	av    types.AttributeValue
}

func init() {
	markers.Moved = func(opts any, goName string) {
		o := opts.(*TransactOptions)
		o.moved = append(slices.Clone(o.moved), goName)
	}
}

// uniqueFields: each field of spec.Unique is a field of T (by Go name)
// that stores a string, a number or a binary, not a key attribute of the
// table, and not the version or a lifecycle field; at most one, the
// field whose markers a txn.Unique moves.
func (b *entityBuilder[T]) uniqueFields() error {
	if len(b.spec.Unique) > 1 {
		return b.fail("", "", EntityUnique, fmt.Sprintf("%v: an entity has at most one unique field (txn.Unique moves the markers of one)", b.spec.Unique), nil)
	}
	for _, goName := range b.spec.Unique {
		f, ok := b.e.codec.FieldByGoName(goName)
		fail := func(detail string) error { return b.fail("", f.Name, EntityUnique, "field "+goName+": "+detail, nil) }
		switch {
		case !ok:
			return b.fail("", "", EntityUnique, fmt.Sprintf("%q: %s has no stored field of that Go name (name the field as in Go)", goName, b.goType), nil)
		case f.Kind != codec.AVString && f.Kind != codec.AVNumber && f.Kind != codec.AVBinary && f.Kind != codec.AVUnknown:
			// AVUnknown: an interface, whose values txn.Unique checks at each write.
			return fail(fmt.Sprintf("%s is not stored as a string, a number or a binary, the values a marker key holds", f.Type))
		case b.table.isKeyAttribute(f.Name) || b.derivedAt[f.Name] != "":
			return fail("a key attribute: the key is unique already, and a key's value is derived")
		case f.Name == b.spec.Version || slices.Contains([]string{b.spec.Created, b.spec.Updated, b.spec.Expires}, goName):
			return fail("the version or a lifecycle field, which keyfirst writes itself")
		}
		b.e.unique = append(b.e.unique, uniqueField{goName: goName, attr: f.Name})
	}
	return nil
}

// Unique returns the Go names of the entity's unique fields
// ([EntitySpec.Unique]).
func (e *Entity[T]) Unique() []string {
	out := make([]string, len(e.unique))
	for i, u := range e.unique {
		out[i] = u.goName
	}
	return out
}

// uniqueKept lists the unique values of the planned item that a write
// must find stored: those of every unique field whose markers the write
// does not move.
func (e *Entity[T]) uniqueKept(item map[string]types.AttributeValue, moved []string) []uniqueValue {
	var out []uniqueValue
	for _, u := range e.unique {
		if !slices.Contains(moved, u.goName) {
			out = append(out, uniqueValue{field: u, av: item[u.attr]})
		}
	}
	return out
}

// uniqueRefused is the refusal of op, a write that would change or drop
// the value of a unique field whose markers it does not move (the first),
// or nil when the entity has none.
func (e *Entity[T]) uniqueRefused(op string, moved []string, use, detail string) error {
	for _, u := range e.unique {
		if !slices.Contains(moved, u.goName) {
			return e.uniqueError(op, u, use, detail)
		}
	}
	return nil
}

func (e *Entity[T]) uniqueError(op string, u uniqueField, use, detail string) *UniqueValueError {
	return &UniqueValueError{Op: op, Entity: e.typeName, Field: u.goName, Attribute: u.attr, Use: use, Detail: detail}
}

// uniqueCondition: the stored item holds each value of kept (or, for a
// nil value, none).
func uniqueCondition(kept []uniqueValue) expression.ConditionBuilder {
	var c expression.ConditionBuilder
	for _, v := range kept {
		x := name(v.field.attr).AttributeNotExists()
		if v.av != nil {
			x = name(v.field.attr).Equal(expression.Value(v.av))
		}
		if c.IsSet() {
			c = c.And(x)
		} else {
			c = x
		}
	}
	return c
}

// uniqueDiffers returns the first value of kept that stored, a stored
// item, does not hold, and whether there is one.
func uniqueDiffers(kept []uniqueValue, stored map[string]types.AttributeValue) (uniqueValue, bool) {
	for _, v := range kept {
		if !avequal.Equal(v.av, stored[v.field.attr]) {
			return v, true
		}
	}
	return uniqueValue{}, false
}

// uniqueChanged is the refusal of op when the unique values of after, a
// planned item, differ from those of before, the item as read.
func (e *Entity[T]) uniqueChanged(op string, before, after map[string]types.AttributeValue) error {
	if v, ok := uniqueDiffers(e.uniqueKept(after, nil), before); ok {
		return e.uniqueError(op, v.field, "txn.Unique.Change", fmt.Sprintf("the change sets it from %s to %s", avText(before[v.field.attr]), avText(v.av)))
	}
	return nil
}

// avText prints a unique value for a message.
func avText(av types.AttributeValue) string {
	switch x := av.(type) {
	case nil:
		return "none"
	case *types.AttributeValueMemberS:
		return fmt.Sprintf("%q", x.Value)
	case *types.AttributeValueMemberN:
		return x.Value
	case *types.AttributeValueMemberB:
		return fmt.Sprintf("%x", x.Value)
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", av), "*types.AttributeValueMember")
}

// isUnique reports whether goName is a unique field of the entity.
func (e *Entity[T]) isUnique(goName string) bool {
	return slices.ContainsFunc(e.unique, func(u uniqueField) bool { return u.goName == goName })
}

// keepUnique adds to g the unique values of item, a planned item, that
// the write must find stored (those of the fields whose markers it does
// not move).
func (e *Entity[T]) keepUnique(op string, g guard, item map[string]types.AttributeValue, moved []string) guard {
	g.unique, g.op = e.uniqueKept(item, moved), op
	return g
}

// putUnique is guard g of a put of item, a planned item, for an entity
// with unique fields: a create (g requires no item) of an item with a
// unique value is refused unless it moves the field's markers, and a put
// that may create or replace may only replace an item that holds the
// values it writes (an item without one it may create too).
func (e *Entity[T]) putUnique(op string, g guard, item map[string]types.AttributeValue, moved []string) (guard, error) {
	if g.kind == guardAbsent { // an item without the value holds none: it needs no marker
		for _, v := range e.uniqueKept(item, moved) {
			if v.av != nil {
				return g, e.uniqueError(op, v.field, "txn.Unique.Create", "a put that creates an item would write its value without a marker")
			}
		}
		return g, nil
	}
	g = e.keepUnique(op, g, item, moved)
	if g.kind == guardAbsentOrOwn && slices.ContainsFunc(g.unique, func(v uniqueValue) bool { return v.av != nil }) {
		g.kind, g.replaces = guardOwn, true // it may only replace; without a value it may create too
	}
	return g, nil
}

// modifyUnique refuses a Modify whose change sets a unique value of v
// other than that of old, the item as read.
func (e *Entity[T]) modifyUnique(old map[string]types.AttributeValue, v T) error {
	if len(e.unique) == 0 {
		return nil
	}
	after, err := e.Item(v)
	if err != nil {
		return err
	}
	return e.uniqueChanged("Modify", old, after)
}
