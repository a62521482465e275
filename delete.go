package keyfirst

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
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
	key, err := e.Key(item)
	if err != nil {
		return err
	}
	expected := e.versionOf(&item)
	var cond expression.ConditionBuilder
	if e.version != "" {
		cond = e.hasVersion(expected)
	} else {
		cond = e.absentOrOwnType()
	}
	x, err := build(expression.NewBuilder().WithCondition(cond))
	if err != nil {
		return err
	}
	in := &dynamodb.DeleteItemInput{
		TableName:                           aws.String(e.table.name),
		Key:                                 e.keyMap(key),
		ConditionExpression:                 x.Condition(),
		ExpressionAttributeNames:            x.Names(),
		ExpressionAttributeValues:           x.Values(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		ReturnConsumedCapacity:              o.returnCapacity(),
	}
	return sendWrite(e, o, "Delete", key, expected, false,
		func() (*dynamodb.DeleteItemOutput, error) { return api.DeleteItem(ctx, in) },
		func(out *dynamodb.DeleteItemOutput) *types.ConsumedCapacity { return out.ConsumedCapacity })
}
