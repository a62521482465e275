package stream

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/avequal"
)

// Change is a record decoded into its entity's Go type T: the [Record]
// (operation, keys, raw images, sequence number, time), the images as T,
// and the item's transitions in the table's secondary indexes.
type Change[T any] struct {
	Record
	// Old and New are the images decoded; nil where the operation has
	// none (Old for an insert, New for a removal).
	Old, New *T
	// Transitions are the item's movements in each secondary index it is
	// in before or after the change, in the table's index order.
	Transitions []Transition
}

// Movement returns what the change did to the item in index: [Absent]
// for an index it is in neither before nor after (or that the table does
// not have).
//
//	if c.Movement("open-orders") == stream.Left { ... } // the order closed
func (c Change[T]) Movement(index string) Movement {
	for _, t := range c.Transitions {
		if t.Index == index {
			return t.Movement
		}
	}
	return Absent
}

// Decode decodes a record of entity e's type into a [Change]. It needs
// both images (a stream of view NEW_AND_OLD_IMAGES). A record of another
// table, without both images, with truncated keys or an image that does not
// decode is a [*RecordError]; one of an unknown entity type, of another
// one, or whose type changed between the images is a [*TypeError]: never
// decoded into the wrong type.
func Decode[T any](e *keyfirst.Entity[T], r Record) (Change[T], error) {
	oldType, newType, err := check(e.Table(), r)
	if err != nil {
		return Change[T]{}, err
	}
	if typ := typeOf(oldType, newType); typ != e.Type() {
		return Change[T]{}, typeError(r, oldType, newType, e.Type(), ErrOtherType)
	}
	return decode(e, r)
}

func decode[T any](e *keyfirst.Entity[T], r Record) (Change[T], error) {
	c := Change[T]{Record: r, Transitions: transitions(e.Table(), r.Old, r.New)}
	for _, img := range []struct {
		item map[string]types.AttributeValue
		to   **T
	}{{r.Old, &c.Old}, {r.New, &c.New}} {
		if img.item == nil {
			continue
		}
		v, err := e.Decode(img.item)
		if err != nil {
			return Change[T]{}, &RecordError{EventID: r.EventID, SequenceNumber: r.SequenceNumber, Problem: RecordDecode, Err: err}
		}
		*img.to = &v
	}
	return c, nil
}

// check refuses what no entity type can decode: a record of another
// table, of a stream without both images, whose keys are not the table's
// or not the images', and a change of entity type between the images. It
// returns the entity types of the images.
func check(table *keyfirst.Table, r Record) (oldType, newType string, err error) {
	fail := func(p RecordProblem, detail string) (string, string, error) {
		return "", "", &RecordError{EventID: r.EventID, SequenceNumber: r.SequenceNumber, Problem: p, Detail: detail}
	}
	if r.Table != "" && r.Table != table.Name() {
		return fail(RecordTable, fmt.Sprintf("record of table %q, read as table %q", r.Table, table.Name()))
	}
	if r.View != types.StreamViewTypeNewAndOldImages {
		return fail(RecordView, fmt.Sprintf("view %q; enable the stream with NEW_AND_OLD_IMAGES (keyfirst.TableSpec.Stream)", r.View))
	}
	for _, a := range viewOf(table).primary {
		key, ok := r.Keys[a.Name]
		if !ok {
			return fail(RecordKeys, fmt.Sprintf("the keys lack the table's key attribute %q", a.Name))
		}
		for _, img := range [...]struct {
			name string
			item map[string]types.AttributeValue
		}{{"old", r.Old}, {"new", r.New}} {
			if img.item != nil && !avequal.Equal(img.item[a.Name], key) {
				return fail(RecordKeys, fmt.Sprintf("the %s image's %q is not the record's key: a truncated image?", img.name, a.Name))
			}
		}
	}
	oldType, newType = table.EntityType(r.Old), table.EntityType(r.New)
	if r.Old != nil && r.New != nil && oldType != newType {
		return "", "", typeError(r, oldType, newType, "", ErrTypeChanged)
	}
	if _, ok := table.EntityAttributes(typeOf(oldType, newType)); !ok {
		return "", "", typeError(r, oldType, newType, "", ErrUnknownType)
	}
	return oldType, newType, nil
}

// typeOf returns the entity type of the change: the new image's, or the
// old one's for a removal.
func typeOf(oldType, newType string) string {
	if newType != "" {
		return newType
	}
	return oldType
}

func typeError(r Record, oldType, newType, want string, err error) *TypeError {
	return &TypeError{Record: r, Old: oldType, New: newType, Want: want, Err: err}
}
