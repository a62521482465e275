package keyfirst

import (
	"context"
	"errors"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/avequal"
)

// Update is a partial update of one stored item ([Entity.Update],
// [Entity.TransactUpdate], txn.Update): changes of fields of T, named as
// in Go, written in one UpdateItem without reading the item, and a
// condition ([Update.If]) the stored item must meet. Start it with
// [Set], [Add], [Remove], [Append], [AddToSet] or [DeleteFromSet] and
// chain the others; each call returns a new Update (u is unchanged), so
// one can be shared.
//
//	keyfirst.Add("Stock", -n).If(keyfirst.Field("Stock").Ge(n))
type Update struct {
	changes []change
	cond    Cond
}

type changeKind uint8

const (
	changeSet changeKind = iota + 1
	changeAdd
	changeRemove
	changeAppend
	changeAddToSet
	changeDeleteFromSet
)

var changeName = map[changeKind]string{changeSet: "Set", changeAdd: "Add", changeRemove: "Remove",
	changeAppend: "Append", changeAddToSet: "AddToSet", changeDeleteFromSet: "DeleteFromSet"}

type change struct {
	kind  changeKind
	field string
	value any
}

// Set starts an update that stores value in field, converted to the
// field's type (a constant of another numeric type converts when it fits
// exactly) and encoded as every write encodes the field: an omitempty
// field set to its zero value is REMOVEd, as [Entity.Replace] would leave
// it out.
func Set(field string, value any) Update { return Update{}.Set(field, value) }

// Add starts an update that adds n, a number of any Go numeric type, to
// field, a number (a counter): DynamoDB's ADD, which counts an absent
// field as 0. A negative n subtracts. An integer field must receive an
// integer, and the update carries the condition that the result fits the
// field's type (an int32 counter never passes 2147483647, an unsigned
// one never goes below 0): a [*ConditionError] when it would not.
func Add(field string, n any) Update { return Update{}.Add(field, n) }

// Remove starts an update that stores field's zero value, as every write
// stores it: REMOVE for an omitempty field or a pointer, a slice or a map
// left nil with omitempty, the zero's encoding otherwise.
func Remove(field string) Update { return Update{}.Remove(field) }

// Append starts an update that appends the elements of values, a slice
// of field's type, to field, stored as a list (an absent field is an empty
// list): list_append.
func Append(field string, values any) Update { return Update{}.Append(field, values) }

// AddToSet starts an update that adds the elements of elems, of field's
// type, to field, stored as a set (a `dynamodbav:",stringset"` []string,
// a numberset, a binaryset): DynamoDB's ADD on a set.
func AddToSet(field string, elems any) Update { return Update{}.AddToSet(field, elems) }

// DeleteFromSet starts an update that deletes the elements of elems, of
// field's type, from field, stored as a set: DynamoDB's DELETE.
func DeleteFromSet(field string, elems any) Update { return Update{}.DeleteFromSet(field, elems) }

// Set adds a [Set] of field to u.
func (u Update) Set(field string, value any) Update { return u.with(changeSet, field, value) }

// Add adds an [Add] to field to u.
func (u Update) Add(field string, n any) Update { return u.with(changeAdd, field, n) }

// Remove adds a [Remove] of field to u.
func (u Update) Remove(field string) Update { return u.with(changeRemove, field, nil) }

// Append adds an [Append] to field to u.
func (u Update) Append(field string, values any) Update { return u.with(changeAppend, field, values) }

// AddToSet adds an [AddToSet] to field to u.
func (u Update) AddToSet(field string, elems any) Update { return u.with(changeAddToSet, field, elems) }

// DeleteFromSet adds a [DeleteFromSet] from field to u.
func (u Update) DeleteFromSet(field string, elems any) Update {
	return u.with(changeDeleteFromSet, field, elems)
}

// If adds c to the condition of u (joined with AND): the update is
// written only when the stored item meets it. A condition on the version
// field ([EntitySpec.Version]), Field("Version").Eq(n), is the expected
// version: its failure is [ErrVersionConflict].
func (u Update) If(c Cond) Update {
	u.cond = And(u.cond, c)
	return u
}

func (u Update) with(kind changeKind, field string, value any) Update {
	u.changes = append(slices.Clip(u.changes), change{kind: kind, field: field, value: value})
	return u
}

// Update applies u to the stored item with key in one UpdateItem, without
// reading it first, and returns the item as stored after the write
// (ReturnValues=ALL_NEW) decoded as T. It is the write of a counter
// (Add), of a field that no key reads, or of a change whose condition
// DynamoDB can check (a stock that covers the order).
//
// Its guarantees are every other write's:
//   - The item must exist and be of this entity type: a missing key is a
//     [*ConditionError] wrapping [ErrNotFound] (an UpdateItem would create
//     a partial item; Update never does), another type's item wraps
//     [ErrWrongEntityType].
//   - No derived key goes stale. A change of a field that the table's key
//     reads is refused ([UpdateKeyField]). A change of a field that an
//     index's key or membership reads must set every field that binding
//     reads, and keyfirst recomputes the index's attributes from them in
//     the same write (SET, or REMOVE when the item leaves a sparse
//     index); otherwise it is refused ([UpdateStaleKey]), with the index
//     named. Functions declare what they read ([Binding.Reads]); an
//     entity with a key function that does not is refused every update
//     ([UpdateUndeclared]).
//   - A versioned entity's version is incremented in the same write, so
//     every other writer's check sees the change.
//   - Names and values are checked as every write's, before any request:
//     an unknown field, a value of the wrong type, Add on a non-number, a
//     set operation on a non-set, the version field set by hand, invalid
//     UTF-8, NaN, an expression beyond DynamoDB's limits are an
//     [*UpdateError] or an [*ItemError].
//
// A condition that fails is a [*ConditionError] wrapping
// [ErrConditionFailed] whose Failed says which part the stored item
// (Item, from ALL_OLD) does not meet; nothing was written. Use
// [Entity.Modify] for a change that needs the item's values in Go, and
// [Entity.Replace] to write a complete item.
func (e *Entity[T]) Update(ctx context.Context, api UpdateItemAPI, key Key[T], u Update, optFns ...func(*Options)) (T, error) {
	var zero T
	o, err := buildOptions("Update", 0, optFns)
	if err != nil {
		return zero, err
	}
	w, err := e.planPartial(key, u)
	if err != nil {
		return zero, err
	}
	up := e.updateAction(w, key)
	in := &dynamodb.UpdateItemInput{
		TableName:                           up.TableName,
		Key:                                 up.Key,
		UpdateExpression:                    up.UpdateExpression,
		ConditionExpression:                 up.ConditionExpression,
		ExpressionAttributeNames:            up.ExpressionAttributeNames,
		ExpressionAttributeValues:           up.ExpressionAttributeValues,
		ReturnValues:                        types.ReturnValueAllNew,
		ReturnValuesOnConditionCheckFailure: up.ReturnValuesOnConditionCheckFailure,
		ReturnConsumedCapacity:              o.returnCapacity(),
	}
	out, err := SendExplained(ctx, e.table, Request{Call: "Update", Entity: e.typeName, Seq: o.attempt, Input: in},
		func(ctx context.Context) (*dynamodb.UpdateItemOutput, error) { return api.UpdateItem(ctx, in) },
		func(_ *dynamodb.UpdateItemOutput, err error) error {
			if err == nil {
				return nil
			}
			var ccf *types.ConditionalCheckFailedException
			if errors.As(err, &ccf) {
				err = w.explain(ccf.Item)
			}
			return e.opError("Update", key, err)
		})
	if out != nil {
		o.Capacity.addOne(true, out.ConsumedCapacity)
	}
	if err != nil {
		return zero, err
	}
	v, err := e.decode(out.Attributes)
	if err != nil {
		return zero, e.opError("Update", key, err)
	}
	if e.declaredReads {
		return e.verifyKeys(ctx, api, v, out.Attributes, o)
	}
	return v, nil
}

// TransactUpdate builds the action that applies u to the item with key
// as [Entity.Update] does (same checks, same guards, same condition), for
// TransactWriteItems, which returns no item: read it after the
// transaction. Its Size counts the key and the values u writes (the
// stored item's size is not known before the write).
func (e *Entity[T]) TransactUpdate(key Key[T], u Update) (TransactWrite, error) {
	w, err := e.planPartial(key, u)
	if err != nil {
		return TransactWrite{}, err
	}
	up := e.updateAction(w, key)
	return TransactWrite{action: types.TransactWriteItem{Update: up}, id: e.ItemID(key), entity: e.typeName,
		key: key.String(), size: e.keySize(key) + w.size, explain: w.explain}, nil
}

// updateAction is w, the planned update of the item with key, as an
// update action: the request of Update and of TransactUpdate.
func (e *Entity[T]) updateAction(w partialWrite, key Key[T]) *types.Update {
	return &types.Update{
		TableName:                           e.table.tableName(),
		Key:                                 e.keyMap(key),
		UpdateExpression:                    w.x.update,
		ConditionExpression:                 w.x.cond,
		ExpressionAttributeNames:            w.x.names,
		ExpressionAttributeValues:           w.x.values,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}
}

// verifyKeys checks, after an update of an entity whose key functions
// declare what they read, that every derived attribute of stored (the
// item after the write, decoded as v) is the one its bindings compute:
// a function that reads a field it does not declare leaves one stale. It
// rewrites such an item at once (the write of Replace, guarded by stored)
// and reports it with [UpdateUndeclaredRead].
func (e *Entity[T]) verifyKeys(ctx context.Context, api UpdateItemAPI, v T, stored map[string]types.AttributeValue, o Options) (T, error) {
	p, err := e.plan(&v, -1)
	if err != nil {
		return v, err
	}
	index, stale := "", false
	for _, g := range e.groups {
		for _, d := range g.derived {
			want, has := p.item[d.attr.Name], stored[d.attr.Name]
			if (want == nil) != (has == nil) || want != nil && !avequal.Equal(want, has) {
				index, stale = g.index, true
			}
		}
	}
	if !stale {
		return v, nil
	}
	g, next := guard{kind: guardUnchanged, read: stored}, int64(-1)
	if e.version != "" {
		g = guard{kind: guardVersion, expected: e.versionOf(&v)}
		if next, err = e.nextVersion(g.expected); err != nil {
			return v, err
		}
	}
	written, err := e.update(ctx, api, "Update", v, g, next, o)
	ue := e.updateError(index, "", UpdateUndeclaredRead, "a function of the index's binding reads a field that its Reads does not declare, so the update left "+
		"the index's key stale; keyfirst rewrote the item's keys from the item as stored: declare every field the function reads", err)
	if err != nil {
		ue.Detail = "a function of the index's binding reads a field that its Reads does not declare, so the update left the index's key stale, " +
			"and the rewrite failed: the key stays stale until the item's next whole write (Replace, Modify, Refresh)"
	}
	return written, ue
}

func (e *Entity[T]) updateError(index, field string, p UpdateProblem, detail string, err error) *UpdateError {
	return &UpdateError{Entity: e.typeName, Index: index, Field: field, Problem: p, Detail: detail, Err: err}
}
