package keyfirst

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Delete deletes the item with item's key. It never deletes an item of
// another entity type stored under the same key ([ErrWrongEntityType]).
// Without a version attribute, deleting a missing item succeeds (DynamoDB's
// delete is idempotent). For a versioned entity the stored item must have
// item's version, otherwise the error wraps [ErrVersionConflict] (also when
// the item is gone): a delete never discards an update it has not seen.
func (e *Entity[T]) Delete(ctx context.Context, api DeleteItemAPI, item T, optFns ...func(*Options)) error {
	o, err := buildOptions("Delete", 0, optFns)
	if err != nil {
		return err
	}
	w, err := e.planDelete("Delete", &item, expression.ConditionBuilder{}, nil)
	if err != nil {
		return err
	}
	del := w.delete(e)
	in := &dynamodb.DeleteItemInput{
		TableName:                           del.TableName,
		Key:                                 del.Key,
		ConditionExpression:                 del.ConditionExpression,
		ExpressionAttributeNames:            del.ExpressionAttributeNames,
		ExpressionAttributeValues:           del.ExpressionAttributeValues,
		ReturnValuesOnConditionCheckFailure: del.ReturnValuesOnConditionCheckFailure,
		ReturnConsumedCapacity:              o.returnCapacity(),
	}
	return sendWrite(ctx, e, o, "Delete", w.plan.key, w.guard, in,
		func(ctx context.Context) (*dynamodb.DeleteItemOutput, error) { return api.DeleteItem(ctx, in) },
		func(out *dynamodb.DeleteItemOutput) *types.ConsumedCapacity { return out.ConsumedCapacity })
}

// planDelete plans the delete of the item with *v's key: of an item of
// this entity type or none, with *v's version for a versioned entity, and
// on extra when set. An entity with a unique field whose markers the
// delete does not move (moved lists those it moves) is refused: the
// marker would hold the value for ever.
func (e *Entity[T]) planDelete(op string, v *T, extra expression.ConditionBuilder, moved []string) (plannedWrite[T], error) {
	w := plannedWrite[T]{next: -1, extra: extra.IsSet()}
	if err := e.uniqueRefused(op, moved, "txn.Unique.Delete", "a delete drops the value and leaves its marker holding it"); err != nil {
		return w, err
	}
	var err error
	if w.plan.key, err = e.Key(*v); err != nil {
		return w, err
	}
	if e.version != "" {
		w.guard = guard{kind: guardVersion, expected: e.versionOf(v)}
	}
	if err = e.adoptGuard(&w.guard, w.plan.key); err != nil {
		return w, err
	}
	w.x, err = e.guardExpression(w.guard, extra)
	return w, err
}

// delete is the planned write as a DeleteItem action.
func (w *plannedWrite[T]) delete(e *Entity[T]) *types.Delete {
	return &types.Delete{
		TableName:                           e.table.tableName(),
		Key:                                 e.keyMap(w.plan.key),
		ConditionExpression:                 w.x.Condition(),
		ExpressionAttributeNames:            w.x.Names(),
		ExpressionAttributeValues:           w.x.Values(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}
}
