package keyfirst_test

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The live helpdesk table was created by hand: its open-tickets index
// projects the keys only, and it has a stream. Diff compares it with the
// schema without a request; Table.Check sends the DescribeTable and
// DescribeTimeToLive and does the same.
func ExampleTable_Diff() {
	table, _, _ := helpdesk()
	s, attr := aws.String, func(name string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeTypeS}
	}
	live := &types.TableDescription{
		TableName:            s("helpdesk"),
		TableStatus:          types.TableStatusActive,
		BillingModeSummary:   &types.BillingModeSummary{BillingMode: types.BillingModePayPerRequest},
		AttributeDefinitions: []types.AttributeDefinition{attr("PK"), attr("SK"), attr("openBucket"), attr("openedAt")},
		KeySchema:            []types.KeySchemaElement{{AttributeName: s("PK"), KeyType: types.KeyTypeHash}, {AttributeName: s("SK"), KeyType: types.KeyTypeRange}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndexDescription{{
			IndexName:   s("open-tickets-index"),
			IndexStatus: types.IndexStatusActive,
			KeySchema:   []types.KeySchemaElement{{AttributeName: s("openBucket"), KeyType: types.KeyTypeHash}, {AttributeName: s("openedAt"), KeyType: types.KeyTypeRange}},
			Projection:  &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}},
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage},
	}
	for _, d := range table.Diff(live, nil) {
		where := "the table"
		if d.Index != "" {
			where = "index " + d.Index
		}
		fmt.Printf("%s, %s: %s: want %s, got %s\n", d.Severity, where, d.Kind, d.Want, d.Got)
	}
	// Output:
	// error, index open-tickets-index: another projection: want INCLUDE [_type title], got KEYS_ONLY
	// note, the table: another stream setting: want disabled, got enabled, NEW_IMAGE
}
