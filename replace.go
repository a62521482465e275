package keyfirst

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
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
	expected, next := int64(0), int64(-1)
	cond := e.isOwnType()
	if e.version != "" {
		expected = e.versionOf(&item)
		if next, err = e.nextVersion(expected); err != nil {
			return item, err
		}
		cond = e.hasVersion(expected)
	}
	return e.update(ctx, api, "Replace", item, expected, next, cond, o)
}

// update writes the planned item with one conditional UpdateItem: the
// write path of Replace and Modify.
func (e *Entity[T]) update(ctx context.Context, api UpdateItemAPI, op string, item T, expected, next int64,
	cond expression.ConditionBuilder, o Options) (T, error) {
	p, err := e.plan(&item, next)
	if err != nil {
		return item, err
	}
	if err := e.writePlan(ctx, api, op, p, expected, cond, o); err != nil {
		return item, err
	}
	if next >= 0 {
		e.setVersion(&item, next)
	}
	return item, nil
}

// writePlan sends the UpdateItem that makes the stored item the planned
// one, on condition cond: the write of Replace, Modify and Refresh.
func (e *Entity[T]) writePlan(ctx context.Context, api UpdateItemAPI, op string, p itemPlan[T], expected int64,
	cond expression.ConditionBuilder, o Options) error {
	x, err := e.updateExpression(p, cond)
	if err != nil {
		return err
	}
	if err := e.checkExpressions(op, x); err != nil {
		return err
	}
	in := e.updateInput(p, x, o)
	return sendWrite(e, o, op, p.key, expected, false,
		func() (*dynamodb.UpdateItemOutput, error) { return api.UpdateItem(ctx, in) },
		func(out *dynamodb.UpdateItemOutput) *types.ConsumedCapacity { return out.ConsumedCapacity })
}

// updateInput is the UpdateItem request that writes the planned item with
// the update expression and condition x.
func (e *Entity[T]) updateInput(p itemPlan[T], x built, o Options) *dynamodb.UpdateItemInput {
	return &dynamodb.UpdateItemInput{
		TableName:                           aws.String(e.table.name),
		Key:                                 e.keyMap(p.key),
		UpdateExpression:                    x.Update(),
		ConditionExpression:                 x.Condition(),
		ExpressionAttributeNames:            x.Names(),
		ExpressionAttributeValues:           x.Values(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		ReturnConsumedCapacity:              o.returnCapacity(),
	}
}
