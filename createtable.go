package keyfirst

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// CreateTableInput returns the request that creates the table: one
// attribute definition per key attribute (each once, whatever the number of
// keys it serves), the key schemas (a native multi-attribute GSI key lists
// its HASH elements, then its RANGE elements, in order), the projections and
// the billing mode, and the stream when the schema declares one. Each call returns a new value that the caller may
// modify.
func (t *Table) CreateTableInput() *dynamodb.CreateTableInput {
	in := &dynamodb.CreateTableInput{
		TableName:   aws.String(t.name),
		BillingMode: t.billing,
		KeySchema:   keySchemaElements(t.primary),
	}
	for _, name := range t.attrOrder {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{
			AttributeName: aws.String(name),
			AttributeType: t.attrTypes[name],
		})
	}
	in.ProvisionedThroughput = t.provisioned()
	if t.stream != "" {
		in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: t.stream}
	}
	for _, ix := range t.indexes {
		switch ix.Kind {
		case GlobalIndex:
			in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
				IndexName:             aws.String(ix.IndexName),
				KeySchema:             keySchemaElements(ix),
				Projection:            projection(ix.Projection),
				ProvisionedThroughput: t.provisioned(),
			})
		case LocalIndex:
			in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{
				IndexName:  aws.String(ix.IndexName),
				KeySchema:  keySchemaElements(ix),
				Projection: projection(ix.Projection),
			})
		}
	}
	return in
}

func (t *Table) provisioned() *types.ProvisionedThroughput { return copyThroughput(t.throughput) }

func keySchemaElements(k KeySchema) []types.KeySchemaElement {
	out := make([]types.KeySchemaElement, 0, len(k.PartitionKey)+len(k.SortKey))
	for _, a := range k.PartitionKey {
		out = append(out, types.KeySchemaElement{AttributeName: aws.String(a.Name), KeyType: types.KeyTypeHash})
	}
	for _, a := range k.SortKey {
		out = append(out, types.KeySchemaElement{AttributeName: aws.String(a.Name), KeyType: types.KeyTypeRange})
	}
	return out
}

func projection(p Projection) *types.Projection {
	return &types.Projection{ProjectionType: p.Type, NonKeyAttributes: slices.Clone(p.NonKeyAttributes)}
}
