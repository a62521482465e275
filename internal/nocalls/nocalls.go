// Package nocalls is a DynamoDB client for the tests of bad input: every
// method fails the test that holds it, because bad input must be refused
// before any request. The tests of every package use it as their noCalls.
package nocalls

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// ErrUnexpected is what every method returns.
var ErrUnexpected = errors.New("unexpected request")

// Client fails T on any request (T.Errorf, so the test goes on and shows
// what the code under test did next).
type Client struct{ T testing.TB }

func (c Client) fail(op string) error {
	c.T.Helper()
	c.T.Errorf("unexpected %s request: bad input must be refused before any request", op)
	return ErrUnexpected
}

// GetItem fails the test.
func (c Client) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.T.Helper()
	return nil, c.fail("GetItem")
}

// PutItem fails the test.
func (c Client) PutItem(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	c.T.Helper()
	return nil, c.fail("PutItem")
}

// UpdateItem fails the test.
func (c Client) UpdateItem(context.Context, *dynamodb.UpdateItemInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	c.T.Helper()
	return nil, c.fail("UpdateItem")
}

// DeleteItem fails the test.
func (c Client) DeleteItem(context.Context, *dynamodb.DeleteItemInput, ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	c.T.Helper()
	return nil, c.fail("DeleteItem")
}

// Query fails the test.
func (c Client) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.T.Helper()
	return nil, c.fail("Query")
}

// Scan fails the test.
func (c Client) Scan(context.Context, *dynamodb.ScanInput, ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	c.T.Helper()
	return nil, c.fail("Scan")
}

// BatchGetItem fails the test.
func (c Client) BatchGetItem(context.Context, *dynamodb.BatchGetItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	c.T.Helper()
	return nil, c.fail("BatchGetItem")
}

// BatchWriteItem fails the test.
func (c Client) BatchWriteItem(context.Context, *dynamodb.BatchWriteItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	c.T.Helper()
	return nil, c.fail("BatchWriteItem")
}

// TransactWriteItems fails the test.
func (c Client) TransactWriteItems(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	c.T.Helper()
	return nil, c.fail("TransactWriteItems")
}

// TransactGetItems fails the test.
func (c Client) TransactGetItems(context.Context, *dynamodb.TransactGetItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	c.T.Helper()
	return nil, c.fail("TransactGetItems")
}

// DescribeTable fails the test.
func (c Client) DescribeTable(context.Context, *dynamodb.DescribeTableInput, ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	c.T.Helper()
	return nil, c.fail("DescribeTable")
}

// CreateTable fails the test.
func (c Client) CreateTable(context.Context, *dynamodb.CreateTableInput, ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error) {
	c.T.Helper()
	return nil, c.fail("CreateTable")
}

// UpdateTable fails the test.
func (c Client) UpdateTable(context.Context, *dynamodb.UpdateTableInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateTableOutput, error) {
	c.T.Helper()
	return nil, c.fail("UpdateTable")
}

// DescribeTimeToLive fails the test.
func (c Client) DescribeTimeToLive(context.Context, *dynamodb.DescribeTimeToLiveInput, ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error) {
	c.T.Helper()
	return nil, c.fail("DescribeTimeToLive")
}
