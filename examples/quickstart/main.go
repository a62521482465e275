// Command quickstart starts DynamoDB Local in a container, creates a table,
// writes one item and reads it back.
//
//	make example
package main

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/keyfirst/keyfirst/integration"
)

// Order is the item the example writes and reads back.
type Order struct {
	PK         string `dynamodbav:"PK"`
	SK         string `dynamodbav:"SK"`
	CustomerID string `dynamodbav:"customerId"`
	Status     string `dynamodbav:"status"`
	Total      int    `dynamodbav:"total"`
}

func main() {
	if err := run(context.Background()); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context) error {
	local, err := integration.Start(ctx)
	if err != nil {
		return err
	}
	defer local.Close()
	db := local.Client

	const table = "quickstart"
	_, err = db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String(table),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange},
		},
		BillingMode: types.BillingModePayPerRequest,
	})
	if err != nil {
		return fmt.Errorf("create table: %w", err)
	}
	waiter := dynamodb.NewTableExistsWaiter(db)
	if err := waiter.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)}, time.Minute); err != nil {
		return err
	}

	in := Order{PK: "CUSTOMER#c_42", SK: "ORDER#2019-07-01T00:00:00.000000", CustomerID: "c_42", Status: "CANCELLED", Total: 1999}
	item, err := attributevalue.MarshalMap(in)
	if err != nil {
		return err
	}
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
		return fmt.Errorf("put: %w", err)
	}
	got, err := db.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String(table),
		Key:            map[string]types.AttributeValue{"PK": item["PK"], "SK": item["SK"]},
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return fmt.Errorf("get: %w", err)
	}
	var out Order
	if err := attributevalue.UnmarshalMap(got.Item, &out); err != nil {
		return err
	}
	fmt.Printf("DynamoDB Local at %s\nwrote and read back: %+v\n", local.Endpoint, out)
	return nil
}
