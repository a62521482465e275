package keyfirst

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Replace replaces the whole stored item with item: every field of T is
// written as item has it, so a field item leaves empty (omitempty) or zero
// is removed or zeroed in the table, whatever was stored. Pass a complete
// T, never one assembled from part of an item (reads through a partial
// projection are refused by the query package; use query.View for them);
// to change some fields of the stored item, use [Entity.Modify].
//
// The stored item must exist and be of this entity type ([ErrNotFound],
// [ErrWrongEntityType] otherwise). Replace sends one
// UpdateItem computed from the complete new item: it SETs every attribute
// the item has (its fields and every derived key), and REMOVEs the derived
// attributes of every index the item no longer belongs to and the fields
// the item leaves out (omitempty). No derived attribute can go stale,
// whatever field changed. Attributes that neither T nor its derivations
// know are kept (where Put would drop them).
//
// For a versioned entity the stored item must have item's version
// ([ErrVersionConflict] otherwise); it is stored with the next version,
// which the returned item carries. To change a few fields of the stored
// item rather than write a complete one, use [Entity.Modify].
func (e *Entity[T]) Replace(ctx context.Context, api UpdateItemAPI, item T, optFns ...func(*Options)) (T, error) {
	o, err := buildOptions("Replace", 0, optFns)
	if err != nil {
		return item, err
	}
	g, next, err := e.replaceGuard(&item)
	if err != nil {
		return item, err
	}
	return e.update(ctx, api, "Replace", item, g, next, o)
}

// replaceGuard is the guard of a Replace of *v, and the version it stores:
// the stored item is of this entity type (with v's version).
func (e *Entity[T]) replaceGuard(v *T) (guard, int64, error) {
	if e.version == "" {
		return guard{kind: guardOwn}, -1, nil
	}
	g := guard{kind: guardVersion, expected: e.versionOf(v)}
	next, err := e.nextVersion(g.expected)
	return g, next, err
}

// update writes the planned item with one conditional UpdateItem: the
// write path of Replace and Modify.
func (e *Entity[T]) update(ctx context.Context, api UpdateItemAPI, op string, item T, g guard, next int64, o Options) (T, error) {
	p, err := e.plan(&item, next)
	if err != nil {
		return item, err
	}
	if err := e.adoptGuard(&g, p.key); err != nil {
		return item, err
	}
	stored, err := e.writePlan(ctx, api, op, p, g, o)
	if err != nil {
		return item, err
	}
	if next >= 0 {
		e.setVersion(&item, next)
	}
	e.storedCreated(&item, stored)
	return item, nil
}

// writePlan sends the UpdateItem that makes the stored item the planned
// one, on guard g: the write of Replace, Modify and Refresh. For an
// entity with a created time it returns the attributes written as stored
// (UPDATED_NEW), which hold the created time kept.
func (e *Entity[T]) writePlan(ctx context.Context, api UpdateItemAPI, op string, p itemPlan[T], g guard, o Options) (map[string]types.AttributeValue, error) {
	g = e.keepUnique(op, g, p.item, nil)
	x, err := e.updateOf(op, p, g, expression.ConditionBuilder{})
	if err != nil {
		return nil, err
	}
	in := e.updateInput(p, x, o)
	if e.keepsCreated() {
		in.ReturnValues = types.ReturnValueUpdatedNew
	}
	var stored map[string]types.AttributeValue
	err = sendWrite(ctx, e, o, op, p.key, g, in,
		func(ctx context.Context) (*dynamodb.UpdateItemOutput, error) { return api.UpdateItem(ctx, in) },
		func(out *dynamodb.UpdateItemOutput) *types.ConsumedCapacity {
			stored = out.Attributes
			return out.ConsumedCapacity
		})
	return stored, err
}

// planUpdate plans the UpdateItem that makes the stored item *v on
// condition g, and extra when set: the update of a transaction. The
// stored item must hold the values of the unique fields whose markers
// the transaction does not move (moved lists those it moves).
func (e *Entity[T]) planUpdate(op string, v *T, g guard, next int64, extra expression.ConditionBuilder, moved []string) (plannedWrite[T], error) {
	w := plannedWrite[T]{guard: g, next: next, extra: extra.IsSet()}
	var err error
	if w.plan, err = e.plan(v, next); err != nil {
		return w, err
	}
	if err = e.adoptGuard(&w.guard, w.plan.key); err != nil {
		return w, err
	}
	w.guard = e.keepUnique(op, w.guard, w.plan.item, moved)
	w.x, err = e.updateOf(op, w.plan, w.guard, extra)
	return w, err
}

// updateOf is the update expression of plan p (see
// [Entity.updateExpression]) on condition g and extra, refused when
// DynamoDB would refuse it.
func (e *Entity[T]) updateOf(op string, p itemPlan[T], g guard, extra expression.ConditionBuilder) (built, error) {
	x, err := e.updateExpression(p, g, e.guardWith(g, extra))
	if err != nil {
		return x, err
	}
	return x, e.checkExpressions(op, x)
}

// updateInput is the UpdateItem request that writes the planned item with
// the update expression and condition x.
func (e *Entity[T]) updateInput(p itemPlan[T], x built, o Options) *dynamodb.UpdateItemInput {
	up := (&plannedWrite[T]{plan: p, x: x}).update(e)
	return &dynamodb.UpdateItemInput{
		TableName:                           up.TableName,
		Key:                                 up.Key,
		UpdateExpression:                    up.UpdateExpression,
		ConditionExpression:                 up.ConditionExpression,
		ExpressionAttributeNames:            up.ExpressionAttributeNames,
		ExpressionAttributeValues:           up.ExpressionAttributeValues,
		ReturnValuesOnConditionCheckFailure: up.ReturnValuesOnConditionCheckFailure,
		ReturnConsumedCapacity:              o.returnCapacity(),
	}
}

// update is the planned write as an UpdateItem action.
func (w *plannedWrite[T]) update(e *Entity[T]) *types.Update {
	return &types.Update{
		TableName:                           e.table.tableName(),
		Key:                                 e.keyMap(w.plan.key),
		UpdateExpression:                    w.x.Update(),
		ConditionExpression:                 w.x.Condition(),
		ExpressionAttributeNames:            w.x.Names(),
		ExpressionAttributeValues:           w.x.Values(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}
}
