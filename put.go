package keyfirst

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Put writes item, replacing any item of this entity type with its key,
// and returns it as stored. Every derived attribute is computed from item:
// the primary key, and the key attributes of each index the item belongs
// to; the derived attributes of the indexes it does not belong to are left
// out.
//
// Put never replaces an item of another entity type: when the key holds
// one, the error wraps [ErrWrongEntityType] and nothing is written (the
// same guard as every other write). With [CreateOnly], Put fails with
// [ErrAlreadyExists] when an item has the key. For a versioned entity, an
// item with version 0 is created (as with CreateOnly) with version 1, and
// an item with version n > 0 replaces the stored item only if that one has
// version n, and is stored with n+1; otherwise the error wraps
// [ErrVersionConflict]. The returned item carries the stored version.
//
// An entity with a created time ([EntitySpec.Created]) is put with one
// UpdateItem rather than a PutItem, on the same condition: it SETs every
// attribute of the item, REMOVEs the fields and derived attributes the
// item does not have, and SETs the created time with if_not_exists, so a
// Put over a stored item keeps its created time, and the returned item
// carries it. The one difference from a PutItem: attributes that neither
// T nor its derivations know are kept rather than dropped. api must then
// do UpdateItem too (a *dynamodb.Client does; an [*OptionError]
// otherwise, before any request).
//
// Invalid items and options are refused before any request ([*ItemError],
// [*OptionError]); failed requests are [*OpError] values.
func (e *Entity[T]) Put(ctx context.Context, api PutItemAPI, item T, optFns ...func(*Options)) (T, error) {
	o, err := buildOptions("Put", TakesCreateOnly, optFns)
	if err != nil {
		return item, err
	}
	w, err := e.planPut("Put", &item, o.CreateOnly, expression.ConditionBuilder{}, nil)
	if err != nil {
		return item, err
	}
	if e.keepsCreated() {
		return e.putUpdate(ctx, api, item, w, o)
	}
	put := w.put(e)
	in := &dynamodb.PutItemInput{
		TableName:                           put.TableName,
		Item:                                put.Item,
		ConditionExpression:                 put.ConditionExpression,
		ExpressionAttributeNames:            put.ExpressionAttributeNames,
		ExpressionAttributeValues:           put.ExpressionAttributeValues,
		ReturnValuesOnConditionCheckFailure: put.ReturnValuesOnConditionCheckFailure,
		ReturnConsumedCapacity:              o.returnCapacity(),
	}
	err = sendWrite(ctx, e, o, "Put", w.plan.key, w.guard, in,
		func(ctx context.Context) (*dynamodb.PutItemOutput, error) { return api.PutItem(ctx, in) },
		func(out *dynamodb.PutItemOutput) *types.ConsumedCapacity { return out.ConsumedCapacity })
	if err != nil {
		return item, err
	}
	w.stamp(e, &item)
	return item, nil
}

// plannedWrite is one write of one item as keyfirst sends it, alone (Put,
// Replace, Modify, Delete) or in a transaction ([Entity.TransactPut] ...):
// the planned item (only its key for a delete), the expressions, the
// guard that the condition holds and the version the write stores.
type plannedWrite[T any] struct {
	plan  itemPlan[T]
	x     built
	guard guard
	next  int64 // the version stored; -1: none
	extra bool  // x's condition includes a caller's condition
}

// stamp sets the version the write stores in *v.
func (w *plannedWrite[T]) stamp(e *Entity[T], v *T) {
	if w.next >= 0 {
		e.setVersion(v, w.next)
	}
}

// planPut plans a Put of *v. Every put is conditional: it creates, or
// replaces an item of this entity type (with the expected version), never
// another type's item; extra, when set, must hold too. For an entity
// with a unique field whose markers the write does not move (moved lists
// those it moves), a create is refused and a put may only replace an
// item that holds the value it writes ([Entity.putUnique]).
func (e *Entity[T]) planPut(op string, v *T, createOnly bool, extra expression.ConditionBuilder, moved []string) (plannedWrite[T], error) {
	w := plannedWrite[T]{next: -1, extra: extra.IsSet()}
	if createOnly {
		w.guard.kind = guardAbsent
	}
	if e.version != "" {
		w.guard.expected = e.versionOf(v)
		if createOnly && w.guard.expected != 0 {
			return w, &OptionError{Op: "Put", Option: "CreateOnly",
				Detail: "the item has a version; a new item of a versioned entity has version 0"}
		}
		w.guard.kind = guardVersion
		if w.guard.expected == 0 {
			w.guard.kind = guardAbsent
		}
		var err error
		if w.next, err = e.nextVersion(w.guard.expected); err != nil {
			return w, err
		}
	}
	var err error
	if w.plan, err = e.plan(v, w.next); err != nil {
		return w, err
	}
	if err := e.adoptGuard(&w.guard, w.plan.key); err != nil {
		return w, err
	}
	if createOnly {
		w.guard.adopt = false // no item at all, adopted or not
	}
	if w.guard, err = e.putUnique(op, w.guard, w.plan.item, moved); err != nil {
		return w, err
	}
	if e.keepsCreated() {
		w.x, err = e.updateOf("Put", w.plan, w.guard, extra)
		return w, err
	}
	w.x, err = e.guardExpression(w.guard, extra)
	return w, err
}

// putUpdate sends the Put of an entity with a created time: the UpdateItem
// of the planned item (w), which keeps a stored created time, on api,
// which must do UpdateItem too. The returned item has the created time
// stored.
func (e *Entity[T]) putUpdate(ctx context.Context, api PutItemAPI, item T, w plannedWrite[T], o Options) (T, error) {
	up, ok := api.(UpdateItemAPI)
	if !ok {
		return item, &OptionError{Op: "Put", Option: "api", Detail: fmt.Sprintf("entity %s declares a created time (EntitySpec.Created), which a Put keeps "+
			"with an UpdateItem: pass a client that has UpdateItem too (a *dynamodb.Client has); %T has not", e.typeName, api)}
	}
	in := e.updateInput(w.plan, w.x, o)
	in.ReturnValues = types.ReturnValueUpdatedNew
	var stored map[string]types.AttributeValue
	err := sendWrite(ctx, e, o, "Put", w.plan.key, w.guard, in,
		func(ctx context.Context) (*dynamodb.UpdateItemOutput, error) { return up.UpdateItem(ctx, in) },
		func(out *dynamodb.UpdateItemOutput) *types.ConsumedCapacity {
			stored = out.Attributes
			return out.ConsumedCapacity
		})
	if err != nil {
		return item, err
	}
	w.stamp(e, &item)
	e.storedCreated(&item, stored)
	return item, nil
}

// put is the planned write as a PutItem action.
func (w *plannedWrite[T]) put(e *Entity[T]) types.Put {
	return types.Put{
		TableName:                           e.table.tableName(),
		Item:                                w.plan.item,
		ConditionExpression:                 w.x.Condition(),
		ExpressionAttributeNames:            w.x.Names(),
		ExpressionAttributeValues:           w.x.Values(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}
}

func (e *Entity[T]) opError(op string, k Key[T], err error) error {
	return &OpError{Op: op, Entity: e.typeName, Key: k.String(), Err: err}
}
