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

// CreateTableAPI is the CreateTable operation.
type CreateTableAPI interface {
	CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error)
}

// DescribeTableAPI is the DescribeTable operation.
type DescribeTableAPI interface {
	DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
}

// UpdateTableAPI is the UpdateTable operation.
type UpdateTableAPI interface {
	UpdateTable(ctx context.Context, in *dynamodb.UpdateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateTableOutput, error)
}

// DescribeTimeToLiveAPI is the DescribeTimeToLive operation.
type DescribeTimeToLiveAPI interface {
	DescribeTimeToLive(ctx context.Context, in *dynamodb.DescribeTimeToLiveInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error)
}

// TableCheckAPI is what [Table.Check] needs: the table's description and
// its time-to-live setting.
type TableCheckAPI interface {
	DescribeTableAPI
	DescribeTimeToLiveAPI
}

// TableCreateAPI is what [Table.Create] needs: CreateTable, then what
// [Table.Check] needs, to wait for the table and to compare a table that
// exists already, and UpdateTimeToLive for a schema's time to live.
type TableCreateAPI interface {
	CreateTableAPI
	TableCheckAPI
	UpdateTimeToLiveAPI
}

// UpdateTimeToLiveAPI is the UpdateTimeToLive operation, with which
// [Table.Create] enables the schema's time to live.
type UpdateTimeToLiveAPI interface {
	UpdateTimeToLive(ctx context.Context, in *dynamodb.UpdateTimeToLiveInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error)
}

// TableAddIndexAPI is what [Table.AddIndex] needs: the table's
// description, to check the change and wait for the index, and
// UpdateTable.
type TableAddIndexAPI interface {
	DescribeTableAPI
	UpdateTableAPI
}

var (
	_ CreateTableAPI        = (*dynamodb.Client)(nil)
	_ DescribeTableAPI      = (*dynamodb.Client)(nil)
	_ UpdateTableAPI        = (*dynamodb.Client)(nil)
	_ DescribeTimeToLiveAPI = (*dynamodb.Client)(nil)
	_ TableCheckAPI         = (*dynamodb.Client)(nil)
	_ TableCreateAPI        = (*dynamodb.Client)(nil)
	_ TableAddIndexAPI      = (*dynamodb.Client)(nil)
)

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
