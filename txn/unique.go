package txn

import (
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/attrname"
	"github.com/keyfirst/keyfirst/internal/itemsize"
)

// Name returns the name of the top-level attribute n for a condition
// ([If], [Check]), whatever n contains: expression.Name would read
// "a.b" as a path into a map and "a[0]" as a list element.
func Name(n string) expression.NameBuilder { return attrname.Name(n) }

// MarkerType is the entity-type attribute of a unique value's marker item.
const MarkerType = "keyfirst.unique"

// markerOwner is the attribute of a marker item that holds the key of the
// item that has the value.
const markerOwner = "owner"

// Unique declares that an attribute of an entity's items is unique in its
// table, by marker items: the value v of attribute attr of entity type E
// is held by the item whose primary key is "UNIQUE#E#attr#v" (in the
// partition key, and in the sort key when the table has one), which names
// its owner. [Unique.Create], [Unique.Change] and [Unique.Delete] write
// the item and its markers in one transaction, so the markers stay in
// step with the items; a value another item holds is an [*UniqueError]
// wrapping [ErrNotUnique], naming the attribute and the value. An item
// without the attribute (omitempty) holds no value.
//
// Every write of the entity's items must go through these actions (or
// keep the markers otherwise): a Put or Replace outside them changes the
// value without moving its marker.
type Unique[T any] struct {
	e    *keyfirst.Entity[T]
	attr string
}

// NewUnique declares attr, an attribute of T (a string or a number), unique
// among the items of e. The table's primary key attributes must be
// strings, to hold the marker keys.
func NewUnique[T any](e *keyfirst.Entity[T], attr string) (*Unique[T], error) {
	if e == nil {
		return nil, errNoEntity
	}
	fail := func(detail string) error {
		return &keyfirst.OptionError{Op: "NewUnique", Option: attr, Detail: fmt.Sprintf("entity %s: %s", e.Type(), detail)}
	}
	if !slices.Contains(e.Attributes(), attr) {
		return nil, fail(fmt.Sprintf("not an attribute of T; its attributes are %v", e.Attributes()))
	}
	for _, a := range e.Table().PrimaryKey().Attributes() {
		if a.Type != types.ScalarAttributeTypeS {
			return nil, fail(fmt.Sprintf("the table's key attribute %s is %s; marker keys are strings", a.Name, a.Type))
		}
	}
	return &Unique[T]{e: e, attr: attr}, nil
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
	return &Unique[T]{e: e, attr: u.attr}, nil
}

// Create writes a new item (the action [Create]) and the marker of its
// value.
func (u *Unique[T]) Create(item T, opts ...ActionOption) *UniqueOp[T] {
	return &UniqueOp[T]{u: u, op: Create(u.e, item, opts...), after: &item}
}

// Change replaces before, the stored item, with after (a [Replace] that
// requires the stored value to be before's) and, when the value changes,
// deletes the marker of the old value and writes the marker of the new
// one.
func (u *Unique[T]) Change(before, after T, opts ...ActionOption) *UniqueOp[T] {
	return &UniqueOp[T]{u: u, op: Replace(u.e, after, opts...), before: &before, after: &after}
}

// Delete deletes item (a [Delete] that requires the stored value to be
// item's) and the marker of its value.
func (u *Unique[T]) Delete(item T, opts ...ActionOption) *UniqueOp[T] {
	return &UniqueOp[T]{u: u, op: Delete(u.e, item, opts...), before: &item}
}

// UniqueOp is an action on an item with a unique value: the item's own
// action and the markers' puts and deletes.
type UniqueOp[T any] struct {
	u             *Unique[T]
	op            *Op[T]
	before, after *T // the item before and after; nil: none
}

func (x *UniqueOp[T]) commit()      { x.op.commit() }
func (x *UniqueOp[T]) setPos(i int) { x.op.setPos(i) }

func (x *UniqueOp[T]) where() (entity, table, key string) { return x.op.where() }

// Item returns the item as the transaction wrote it, as [Op.Item] does.
func (x *UniqueOp[T]) Item() (T, bool) { return x.op.Item() }

func (x *UniqueOp[T]) steps(b *builder) ([]step, error) {
	u := x.u
	var old, nu types.AttributeValue
	var err error
	if x.before != nil {
		if old, err = u.value(*x.before); err != nil {
			return nil, err
		}
		// The stored item must hold the value whose marker moves.
		cond := Name(u.attr).AttributeNotExists()
		if old != nil {
			cond = Name(u.attr).Equal(expression.Value(old))
		}
		saved := x.op.opts.Condition
		defer func() { x.op.opts.Condition = saved }() // the guard is this build's only
		If(cond)(&x.op.opts)
	}
	if x.after != nil {
		if nu, err = u.value(*x.after); err != nil {
			return nil, err
		}
	}
	own, err := x.op.build(b)
	if err != nil {
		return nil, err
	}
	steps := []step{own}
	if old != nil && (nu == nil || text(old) != text(nu)) {
		steps = append(steps, u.marker(own.key, text(old), false))
	}
	if nu != nil && (old == nil || text(old) != text(nu)) {
		steps = append(steps, u.marker(own.key, text(nu), true))
	}
	return steps, nil
}

// value returns the unique attribute of v as stored (nil: v has none).
func (u *Unique[T]) value(v T) (types.AttributeValue, error) {
	item, err := u.e.Item(v)
	if err != nil {
		return nil, err
	}
	av := item[u.attr]
	switch av.(type) {
	case nil, *types.AttributeValueMemberS, *types.AttributeValueMemberN:
		return av, nil
	}
	return nil, &keyfirst.ItemError{Entity: u.e.Type(), Attribute: u.attr, Problem: keyfirst.ItemKeyType,
		Detail: "a unique attribute must be a string or a number"}
}

func text(av types.AttributeValue) string {
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		return x.Value
	case *types.AttributeValueMemberN:
		return x.Value
	}
	return ""
}

// marker builds the put (create) or the delete of the marker of value,
// owned by the item with key owner.
func (u *Unique[T]) marker(owner, value string, create bool) step {
	t := u.e.Table()
	id := "UNIQUE#" + u.e.Type() + "#" + u.attr + "#" + value
	key := map[string]types.AttributeValue{}
	for _, a := range t.PrimaryKey().Attributes() {
		key[a.Name] = &types.AttributeValueMemberS{Value: id}
	}
	pk := t.PrimaryKey().PartitionKey[0].Name
	ownerAV := &types.AttributeValueMemberS{Value: owner}
	s := step{id: t.ItemID(key), entity: u.e.Type(), key: fmt.Sprintf("%q", id)}
	ue := &UniqueError{Err: ErrNotUnique, Entity: u.e.Type(), Field: u.attr, Value: value}
	s.explain = func(stored map[string]types.AttributeValue) error {
		e := *ue
		if o, ok := stored[markerOwner].(*types.AttributeValueMemberS); ok {
			e.Owner = o.Value
		}
		return &e
	}
	if create {
		s.part = "unique " + u.attr
		item := map[string]types.AttributeValue{t.TypeAttribute(): &types.AttributeValueMemberS{Value: MarkerType}, markerOwner: ownerAV}
		for n, av := range key {
			item[n] = av
		}
		x, _ := expression.NewBuilder().WithCondition(Name(pk).AttributeNotExists()).Build()
		s.action.Put = &types.Put{TableName: aws.String(t.Name()), Item: item, ConditionExpression: x.Condition(),
			ExpressionAttributeNames: attrname.Names(x), ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}
		s.size = size(item)
		return s
	}
	s.part = "unique " + u.attr + " (old value)"
	ue.Err = ErrMarkerOwner
	x, _ := expression.NewBuilder().WithCondition(Name(pk).AttributeNotExists().Or(Name(markerOwner).Equal(expression.Value(ownerAV)))).Build()
	s.action.Delete = &types.Delete{TableName: aws.String(t.Name()), Key: key, ConditionExpression: x.Condition(),
		ExpressionAttributeNames: attrname.Names(x), ExpressionAttributeValues: x.Values(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}
	s.size = size(key)
	return s
}

func size(item map[string]types.AttributeValue) int {
	n := 0
	for name, av := range item {
		n += itemsize.Size(name, av)
	}
	return n
}
