package txn

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/attrname"
	"github.com/keyfirst/keyfirst/internal/codec"
	"github.com/keyfirst/keyfirst/internal/itemsize"
	"github.com/keyfirst/keyfirst/internal/markers"
)

// MarkerType is the entity-type attribute of a unique value's marker item.
const MarkerType = "keyfirst.unique"

// markerOwner is the attribute of a marker item that holds the key of the
// item that has the value.
const markerOwner = "owner"

// Unique keeps a field of an entity's items unique in its table, by
// marker items: the value v of the field's attribute attr of entity type E
// is held by the item whose primary key is v's marker key (in the
// partition key, and in the sort key when the table has one), which names
// its owner. [Unique.Create], [Unique.Change] and [Unique.Delete] write
// the item and its markers in one transaction, so the markers stay in
// step with the items; a value another item holds is an [*UniqueError]
// wrapping [ErrNotUnique], naming the field and the value. An item
// without the attribute (omitempty) holds no value.
//
// A value is unique as DynamoDB compares values: a number in any of its
// forms (1, 1.0, 1e0, 01, +1; -0 and 0) is one value, and a string, a
// number and a binary of the same text are three. The marker key is
//
//	UNIQUE#E#attr#v     a string v, as it is
//	UNIQUE:N#E#attr#n   a number, in DynamoDB's canonical text n ("1", "0", "-1.5")
//	UNIQUE:B#E#attr#b   a binary, in standard base64 b
//
// E and attr hold no '#' ([NewUnique] refuses them), so the key is one
// (entity type, attribute, kind, value) and no other: what follows the
// third '#' is the value, whatever it holds. A value whose marker key is
// longer than DynamoDB takes (1,024 bytes on a table with a sort key or
// whose partition key is an index's sort key, 2,048 otherwise) is an
// [*keyfirst.ItemError] with
// [keyfirst.ItemKeyTooLong], before any request.
//
// The field must be declared unique in [keyfirst.EntitySpec.Unique]:
// then no write path outside these actions can change or drop the value
// without moving its marker. A Put over a stored item, a Replace and
// their actions ([Put], [Replace]) are guarded by the condition that the
// stored value is the one written; a put that creates an item, a Delete,
// a batch put or delete, an Update of the field, and a Modify that
// changes it are refused before any request, with a
// [*keyfirst.UniqueValueError] naming the action to use instead.
//
// The marker keys of strings are those of earlier versions of keyfirst;
// those of numbers are not (they were the number's text as written, with
// no kind: "UNIQUE#E#attr#1.0"), and old number markers are not read. A
// live table with a unique number attribute needs a backfill before
// writers of this version run: for each item, put its marker ([Unique.Marker],
// on condition attribute_not_exists of the partition key: a failure there
// is a value two items hold, which the old keys let through), then delete
// the old markers.
type Unique[T any] struct {
	e      *keyfirst.Entity[T]
	attr   string
	goName string // attr's Go field, for its condition
	field  []int  // its index in T
	limit  int    // the most bytes of a marker key
}

// The marker keys' words: a string's key starts "UNIQUE#", a number's
// "UNIQUE:N#", a binary's "UNIQUE:B#".
const (
	markerWord   = "UNIQUE"
	markerNumber = ":N"
	markerBinary = ":B"
	markerSep    = "#"
)

// NewUnique returns the actions that keep field, the unique field of e
// declared in [keyfirst.EntitySpec.Unique] and named as in Go ("Email"),
// unique among the items of e by marker items. The table's primary key
// attributes must be strings, to hold the marker keys; neither e's type
// name nor the field's attribute may hold '#', the separator of the
// marker keys.
func NewUnique[T any](e *keyfirst.Entity[T], field string) (*Unique[T], error) {
	if e == nil {
		return nil, errNoEntity
	}
	fail := func(detail string) error {
		return &keyfirst.OptionError{Op: "NewUnique", Option: field, Detail: fmt.Sprintf("entity %s: %s", e.Type(), detail)}
	}
	if !slices.Contains(e.Unique(), field) {
		return nil, fail(fmt.Sprintf("not a unique field of the entity (its unique fields are %v): declare it in EntitySpec.Unique, "+
			"so that every write path of the entity keeps its markers", e.Unique()))
	}
	c, err := codec.For(reflect.TypeFor[T]())
	if err != nil {
		return nil, err
	}
	f, _ := c.FieldByGoName(field)
	for _, name := range []string{e.Type(), f.Name} {
		if strings.Contains(name, markerSep) {
			return nil, fail(fmt.Sprintf("%q holds %q, the separator of the marker keys: the marker of one value could be another's; "+
				"rename the entity type or the attribute", name, markerSep))
		}
	}
	for _, a := range e.Table().PrimaryKey().Attributes() {
		if a.Type != types.ScalarAttributeTypeS {
			return nil, fail(fmt.Sprintf("the table's key attribute %s is %s; marker keys are strings", a.Name, a.Type))
		}
	}
	sf, _ := reflect.TypeFor[T]().FieldByName(f.GoName)
	return &Unique[T]{e: e, attr: f.Name, goName: f.GoName, field: sf.Index, limit: markerKeyLimit(e.Table())}, nil
}

// markerKeyLimit is the most bytes a marker key may have in table t: the
// key is the value of each primary key attribute, which DynamoDB takes
// up to 1,024 bytes in a sort key (the table's, or an index's that is the
// table's partition key attribute) and 2,048 in a partition key.
func markerKeyLimit(t *keyfirst.Table) int {
	pk := t.PrimaryKey()
	if len(pk.SortKey) > 0 {
		return 1024
	}
	for _, ix := range t.Indexes() {
		for _, a := range ix.SortKey {
			if a.Name == pk.PartitionKey[0].Name {
				return 1024
			}
		}
	}
	return 2048
}

// In returns u for the table t, a binding of the description of u's
// entity ([keyfirst.Table.Named]): a Unique declared once, at package
// level beside its entity, writes the items and markers of each table it
// is bound to. Another description is the error of
// [keyfirst.Entity.In].
func (u *Unique[T]) In(t *keyfirst.Table) (*Unique[T], error) {
	e, err := u.e.In(t)
	if err != nil {
		return nil, err
	}
	return &Unique[T]{e: e, attr: u.attr, goName: u.goName, field: u.field, limit: markerKeyLimit(t)}, nil
}

// Create writes a new item (the action [Create]) and the marker of its
// value.
func (u *Unique[T]) Create(item T, opts ...ActionOption) *UniqueOp[T] {
	return u.op(Create(u.e, item, opts...), nil, &item)
}

// Change replaces before, the stored item, with after (a [Replace] that
// requires the stored value to be before's) and, when the value changes,
// deletes the marker of the old value and writes the marker of the new
// one.
func (u *Unique[T]) Change(before, after T, opts ...ActionOption) *UniqueOp[T] {
	return u.op(Replace(u.e, after, opts...), &before, &after)
}

// Delete deletes item (a [Delete] that requires the stored value to be
// item's) and the marker of its value.
func (u *Unique[T]) Delete(item T, opts ...ActionOption) *UniqueOp[T] {
	return u.op(Delete(u.e, item, opts...), &item, nil)
}

// op is the action of op, which moves the markers of u's field: the
// entity's own guard of the field (see [keyfirst.EntitySpec.Unique])
// gives way to the action's.
func (u *Unique[T]) op(op *Op[T], before, after *T) *UniqueOp[T] {
	markers.Moved(&op.opts, u.goName)
	return &UniqueOp[T]{u: u, op: op, before: before, after: after}
}

// UniqueOp is an action on an item with a unique value: the item's own
// action and the markers' puts and deletes.
type UniqueOp[T any] struct {
	u             *Unique[T]
	op            *Op[T]
	before, after *T // the item before and after; nil: none
}

func (x *UniqueOp[T]) commit() { x.op.commit() }

func (x *UniqueOp[T]) bound() *keyfirst.Table { return x.op.bound() }

func (x *UniqueOp[T]) where() (entity, table, key string) { return x.op.where() }

// Item returns the item as the transaction wrote it, as [Op.Item] does.
func (x *UniqueOp[T]) Item() (T, bool) { return x.op.Item() }

func (x *UniqueOp[T]) appendSteps(b builder, steps []step, pos int) ([]step, error) {
	u := x.u
	var old, nu types.AttributeValue
	var oldM, nuM marker
	var err error
	if x.before != nil {
		if old, oldM, err = u.valueOf(*x.before); err != nil {
			return steps, err
		}
		// The stored item must hold the value whose marker moves.
		cond := keyfirst.Field(u.goName).NotExists()
		if old != nil {
			cond = keyfirst.Field(u.goName).Eq(u.value(*x.before))
		}
		saved := x.op.opts.Condition
		defer func() { x.op.opts.Condition = saved }() // the guard is this build's only
		If(cond)(&x.op.opts)
	}
	if x.after != nil {
		if nu, nuM, err = u.valueOf(*x.after); err != nil {
			return steps, err
		}
	}
	steps, err = x.op.appendSteps(b, steps, pos)
	if err != nil {
		return steps, err
	}
	removeOld := old != nil && (nu == nil || oldM.key != nuM.key)
	addNew := nu != nil && (old == nil || oldM.key != nuM.key)
	if !removeOld && !addNew {
		return steps, nil
	}
	owner := steps[len(steps)-1].keyText()
	if removeOld {
		steps = append(steps, u.markerStep(owner, oldM, false))
	}
	if addNew {
		steps = append(steps, u.markerStep(owner, nuM, true))
	}
	return steps, nil
}

// value returns the Go value of the unique field of v, whose attribute v
// has (a field of an unexported embedded struct too).
func (u *Unique[T]) value(v T) any {
	f := reflect.ValueOf(&v).Elem().FieldByIndex(u.field)
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface()
}

// marker is the marker of one value: its key, and the value as
// [UniqueError.Value] prints it.
type marker struct{ key, value string }

// valueOf returns the unique attribute of v as stored (nil: v has none)
// and its marker.
func (u *Unique[T]) valueOf(v T) (types.AttributeValue, marker, error) {
	item, err := u.e.Item(v)
	if err != nil {
		return nil, marker{}, err
	}
	av := item[u.attr]
	if av == nil {
		return nil, marker{}, nil
	}
	m, err := u.markerOf(av)
	return av, m, err
}

// markerOf returns the marker of av, refused when av is not a string, a
// number or a binary, or when its key is longer than a key can be.
func (u *Unique[T]) markerOf(av types.AttributeValue) (marker, error) {
	word, value := markerWord, ""
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		value = x.Value
	case *types.AttributeValueMemberN:
		n, err := itemsize.ParseNumber(x.Value) // Item checked it: this cannot fail
		if err != nil {
			return marker{}, u.itemError(keyfirst.ItemBadNumber, "", err)
		}
		word, value = markerWord+markerNumber, n.Canonical()
	case *types.AttributeValueMemberB:
		word, value = markerWord+markerBinary, base64.StdEncoding.EncodeToString(x.Value)
	default:
		return marker{}, u.itemError(keyfirst.ItemKeyType, "a unique attribute must be a string, a number or a binary", nil)
	}
	head := word + markerSep + u.e.Type() + markerSep + u.attr + markerSep
	if len(head)+len(value) > u.limit {
		most := fmt.Sprintf("%d bytes", u.limit-len(head))
		if word != markerWord {
			most = fmt.Sprintf("%d bytes (in base64: %d)", (u.limit-len(head))/4*3, u.limit-len(head))
		}
		return marker{}, u.itemError(keyfirst.ItemKeyTooLong, fmt.Sprintf("the value's marker key %s… is %d bytes, a key holds %d in table %s: "+
			"a unique value of %s holds at most %s", head, len(head)+len(value), u.limit, u.e.Table().Name(), u.attr, most), nil)
	}
	key := head + value
	return marker{key: key, value: value}, nil
}

func (u *Unique[T]) itemError(p keyfirst.ItemProblem, detail string, err error) error {
	return &keyfirst.ItemError{Entity: u.e.Type(), Attribute: u.attr, Problem: p, Detail: detail, Err: err}
}

// Marker returns the marker item of item's value as [Unique.Create] writes
// it (its key, the entity-type attribute with [MarkerType], and the
// owner's key), for a backfill of the markers of stored items; ok is false
// when item has no value. Errors are those of [Unique.Create] before any
// request.
func (u *Unique[T]) Marker(item T) (marker map[string]types.AttributeValue, ok bool, err error) {
	av, m, err := u.valueOf(item)
	if err != nil || av == nil {
		return nil, false, err
	}
	k, err := u.e.Key(item)
	if err != nil {
		return nil, false, err
	}
	return u.markerItem(k.String(), m), true, nil
}

// markerKey is the primary key of the marker m.
func (u *Unique[T]) markerKey(m marker) map[string]types.AttributeValue {
	key := map[string]types.AttributeValue{}
	for _, a := range u.e.Table().PrimaryKey().Attributes() {
		key[a.Name] = &types.AttributeValueMemberS{Value: m.key}
	}
	return key
}

// markerItem is the marker item of m owned by the item with key owner.
func (u *Unique[T]) markerItem(owner string, m marker) map[string]types.AttributeValue {
	item := u.markerKey(m)
	item[u.e.Table().TypeAttribute()] = &types.AttributeValueMemberS{Value: MarkerType}
	item[markerOwner] = &types.AttributeValueMemberS{Value: owner}
	return item
}

// markerStep builds the put (create) or the delete of the marker m, owned
// by the item with key owner.
func (u *Unique[T]) markerStep(owner string, m marker, create bool) step {
	t := u.e.Table()
	key := u.markerKey(m)
	pk := t.PrimaryKey().PartitionKey[0].Name
	s := &markerPart{id: t.ItemID(key), entity: u.e.Type(), key: fmt.Sprintf("%q", m.key)}
	ue := &UniqueError{Err: ErrNotUnique, Entity: u.e.Type(), Field: u.goName, Attribute: u.attr, Value: m.value}
	s.explainFn = func(stored map[string]types.AttributeValue) error {
		e := *ue
		if o, ok := stored[markerOwner].(*types.AttributeValueMemberS); ok {
			e.Owner = o.Value
		}
		return &e
	}
	if create {
		s.part = "unique " + u.attr
		item := u.markerItem(owner, m)
		x, _ := expression.NewBuilder().WithCondition(attrname.Name(pk).AttributeNotExists()).Build()
		s.action.Put = &types.Put{TableName: aws.String(t.Name()), Item: item, ConditionExpression: x.Condition(),
			ExpressionAttributeNames: attrname.Names(x), ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}
		s.size = size(item)
		return step{marker: s}
	}
	s.part = "unique " + u.attr + " (old value)"
	ue.Err = ErrMarkerOwner
	ownerAV := &types.AttributeValueMemberS{Value: owner}
	x, _ := expression.NewBuilder().WithCondition(attrname.Name(pk).AttributeNotExists().Or(attrname.Name(markerOwner).Equal(expression.Value(ownerAV)))).Build()
	s.action.Delete = &types.Delete{TableName: aws.String(t.Name()), Key: key, ConditionExpression: x.Condition(),
		ExpressionAttributeNames: attrname.Names(x), ExpressionAttributeValues: x.Values(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}
	s.size = size(key)
	return step{marker: s}
}

func size(item map[string]types.AttributeValue) int {
	n := 0
	for name, av := range item {
		n += itemsize.Size(name, av)
	}
	return n
}
