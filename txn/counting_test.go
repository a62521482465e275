package txn_test

import (
	"context"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// counting is a DynamoDB Local client that counts the requests of the
// operations a transaction may send: the writes, and the reads that an
// update without a read must never send.
type counting struct {
	*dynamodb.Client
	writes, gets, txGets, updates atomic.Int64
}

func (c *counting) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	c.writes.Add(1)
	return c.Client.TransactWriteItems(ctx, in, optFns...)
}

func (c *counting) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	c.txGets.Add(1)
	return c.Client.TransactGetItems(ctx, in, optFns...)
}

func (c *counting) GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.gets.Add(1)
	return c.Client.GetItem(ctx, in, optFns...)
}

func (c *counting) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	c.updates.Add(1)
	return c.Client.UpdateItem(ctx, in, optFns...)
}
