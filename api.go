package keyfirst

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// The client interfaces the package depends on: one per DynamoDB operation,
// each satisfied by *dynamodb.Client, so that callers pass their own client
// (AWS, DynamoDB Local, a custom endpoint, a test double of one method).

// GetItemAPI is the GetItem operation.
type GetItemAPI interface {
	GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
}

// PutItemAPI is the PutItem operation.
type PutItemAPI interface {
	PutItem(ctx context.Context, in *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
}

// UpdateItemAPI is the UpdateItem operation.
type UpdateItemAPI interface {
	UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
}

// DeleteItemAPI is the DeleteItem operation.
type DeleteItemAPI interface {
	DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error)
}

// BatchGetItemAPI is the BatchGetItem operation.
type BatchGetItemAPI interface {
	BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error)
}

// BatchWriteItemAPI is the BatchWriteItem operation.
type BatchWriteItemAPI interface {
	BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
}

// QueryAPI is the Query operation, used by the query package.
type QueryAPI interface {
	Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
}

// ModifyAPI is what [Entity.Modify] needs: a consistent read, then a
// conditional update.
type ModifyAPI interface {
	GetItemAPI
	UpdateItemAPI
}

var (
	_ GetItemAPI        = (*dynamodb.Client)(nil)
	_ PutItemAPI        = (*dynamodb.Client)(nil)
	_ UpdateItemAPI     = (*dynamodb.Client)(nil)
	_ DeleteItemAPI     = (*dynamodb.Client)(nil)
	_ BatchGetItemAPI   = (*dynamodb.Client)(nil)
	_ BatchWriteItemAPI = (*dynamodb.Client)(nil)
	_ QueryAPI          = (*dynamodb.Client)(nil)
	_ ModifyAPI         = (*dynamodb.Client)(nil)
)
