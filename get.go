package keyfirst

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Get reads the item with key (one GetItem) and decodes it. A missing item
// is an [*OpError] wrapping [ErrNotFound]; an item of another entity type
// under that key wraps [ErrWrongEntityType]. [ConsistentRead] asks for a
// strongly consistent read.
func (e *Entity[T]) Get(ctx context.Context, api GetItemAPI, key Key[T], optFns ...func(*Options)) (T, error) {
	var zero T
	o, err := buildOptions("Get", TakesConsistentRead, optFns)
	if err != nil {
		return zero, err
	}
	v, _, err := e.read(ctx, api, "Get", key, o.ConsistentRead, o)
	return v, err
}

// read is the GetItem of Get and Modify: it refuses the zero Key before
// any request, reads the item with key (strongly consistent if asked),
// counts the read capacity and decodes the item, which it returns as
// stored too. Failed requests, a missing item among them ([ErrNotFound]),
// are [*OpError] values of op.
func (e *Entity[T]) read(ctx context.Context, api GetItemAPI, op string, key Key[T], consistent bool, o Options) (T, map[string]types.AttributeValue, error) {
	var zero T
	if err := e.checkKey(key); err != nil {
		return zero, nil, err
	}
	in := &dynamodb.GetItemInput{
		TableName:              aws.String(e.table.name),
		Key:                    e.keyMap(key),
		ReturnConsumedCapacity: o.returnCapacity(),
	}
	if consistent {
		in.ConsistentRead = aws.Bool(true)
	}
	out, err := SendExplained(ctx, e.table, Request{Call: op, Entity: e.typeName, Seq: o.attempt, Input: in},
		func(ctx context.Context) (*dynamodb.GetItemOutput, error) { return api.GetItem(ctx, in) },
		func(out *dynamodb.GetItemOutput, err error) error {
			switch {
			case err != nil:
				return e.opError(op, key, err)
			case len(out.Item) == 0:
				return e.opError(op, key, ErrNotFound)
			}
			return nil
		})
	if out != nil {
		o.Capacity.addOne(false, out.ConsumedCapacity)
	}
	if err != nil {
		return zero, nil, err
	}
	v, err := e.decode(out.Item)
	if err != nil {
		return zero, nil, e.opError(op, key, err)
	}
	return v, out.Item, nil
}

// checkKey refuses the zero Key, which no item has, and a Key that
// another entity type (of the same Go type) derived.
func (e *Entity[T]) checkKey(k Key[T]) error {
	if k.IsZero() {
		return &ItemError{Entity: e.typeName, Attribute: e.pk.attr.Name, Problem: ItemMissingKey,
			Detail: "the zero Key; derive keys with Entity.Key"}
	}
	if k.typ != e.typeName {
		return &EntityTypeError{Want: e.typeName, Got: k.typ}
	}
	return nil
}
