package keyfirst

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
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
// Invalid items and options are refused before any request ([*ItemError],
// [*OptionError]); failed requests are [*OpError] values.
func (e *Entity[T]) Put(ctx context.Context, api PutItemAPI, item T, optFns ...func(*Options)) (T, error) {
	o, err := buildOptions("Put", acceptCreateOnly, optFns)
	if err != nil {
		return item, err
	}
	creating, expected, next := o.CreateOnly, int64(0), int64(-1)
	if e.version != "" {
		expected = e.versionOf(&item)
		if o.CreateOnly && expected != 0 {
			return item, &OptionError{Op: "Put", Option: "CreateOnly",
				Detail: "the item has a version; a new item of a versioned entity has version 0"}
		}
		creating = expected == 0
		if next, err = e.nextVersion(expected); err != nil {
			return item, err
		}
	}
	p, err := e.plan(&item, next)
	if err != nil {
		return item, err
	}
	in := &dynamodb.PutItemInput{
		TableName:              aws.String(e.table.name),
		Item:                   p.item,
		ReturnConsumedCapacity: o.returnCapacity(),
	}
	// Every put is conditional: it creates, or replaces an item of this
	// entity type (with the expected version), never another type's item.
	cond := e.absentOrOwnType()
	switch {
	case creating:
		cond = e.notExists()
	case e.version != "":
		cond = e.hasVersion(expected)
	}
	x, err := build(expression.NewBuilder().WithCondition(cond))
	if err != nil {
		return item, err
	}
	in.ConditionExpression = x.Condition()
	in.ExpressionAttributeNames = x.Names()
	in.ExpressionAttributeValues = x.Values()
	in.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	err = sendWrite(e, o, "Put", p.key, expected, creating,
		func() (*dynamodb.PutItemOutput, error) { return api.PutItem(ctx, in) },
		func(out *dynamodb.PutItemOutput) *types.ConsumedCapacity { return out.ConsumedCapacity })
	if err != nil {
		return item, err
	}
	if next >= 0 {
		e.setVersion(&item, next)
	}
	return item, nil
}

func (e *Entity[T]) opError(op string, k Key[T], err error) error {
	return &OpError{Op: op, Entity: e.typeName, Key: k.String(), Err: err}
}
