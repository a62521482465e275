package keyfirst_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
)

// describeKeys prints a key schema as "PK:HASH SK:RANGE".
func describeKeys(ks []types.KeySchemaElement) string {
	var parts []string
	for _, k := range ks {
		parts = append(parts, aws.ToString(k.AttributeName)+":"+string(k.KeyType))
	}
	return strings.Join(parts, " ")
}

func describeProjection(p *types.Projection) string {
	if p == nil {
		return "<nil>"
	}
	nk := append([]string(nil), p.NonKeyAttributes...)
	sort.Strings(nk)
	return fmt.Sprintf("%s%v", p.ProjectionType, nk)
}

func describeDefinitions(defs []types.AttributeDefinition) string {
	var parts []string
	for _, d := range defs {
		parts = append(parts, aws.ToString(d.AttributeName)+":"+string(d.AttributeType))
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// schemaSummary is what both CreateTableInput and DescribeTable say about
// the keys, in a form they can be compared in.
func schemaSummary(keys []types.KeySchemaElement, defs []types.AttributeDefinition, gsis, lsis map[string]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "table %s\ndefs %s\n", describeKeys(keys), describeDefinitions(defs))
	for _, m := range []map[string]string{gsis, lsis} {
		names := make([]string, 0, len(m))
		for n := range m {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(&b, "%s %s\n", n, m[n])
		}
	}
	return b.String()
}

func inputSummary(in *dynamodb.CreateTableInput) string {
	gsis, lsis := map[string]string{}, map[string]string{}
	for _, g := range in.GlobalSecondaryIndexes {
		gsis[aws.ToString(g.IndexName)] = "GSI " + describeKeys(g.KeySchema) + " " + describeProjection(g.Projection)
	}
	for _, l := range in.LocalSecondaryIndexes {
		lsis[aws.ToString(l.IndexName)] = "LSI " + describeKeys(l.KeySchema) + " " + describeProjection(l.Projection)
	}
	return schemaSummary(in.KeySchema, in.AttributeDefinitions, gsis, lsis)
}

func TestCreateTableInput(t *testing.T) {
	in := newShop(t, "").table.CreateTableInput()
	got := inputSummary(in)
	wantLines := []string{
		"table PK:HASH SK:RANGE",
		"defs GSI1PK:S GSI1SK:S PK:S SK:S customer:S openBucket:S placedAt:S status:S total:N",
		"GSI1 GSI GSI1PK:HASH GSI1SK:RANGE ALL[]",
		"by-status GSI customer:HASH status:RANGE placedAt:RANGE ALL[]",
		"open-orders GSI openBucket:HASH total:RANGE KEYS_ONLY[]",
		"by-total LSI PK:HASH total:RANGE INCLUDE[_type status]",
	}
	if got != strings.Join(wantLines, "\n")+"\n" {
		t.Fatalf("got\n%s\nwant\n%s", got, strings.Join(wantLines, "\n"))
	}
	if aws.ToString(in.TableName) != "shop" || in.BillingMode != types.BillingModePayPerRequest || in.ProvisionedThroughput != nil {
		t.Fatalf("name %q billing %q throughput %v", aws.ToString(in.TableName), in.BillingMode, in.ProvisionedThroughput)
	}
	// Every attribute defined once.
	seen := map[string]bool{}
	for _, d := range in.AttributeDefinitions {
		if seen[aws.ToString(d.AttributeName)] {
			t.Fatalf("%s defined twice", aws.ToString(d.AttributeName))
		}
		seen[aws.ToString(d.AttributeName)] = true
	}
	// Each call returns a new value.
	in.GlobalSecondaryIndexes[0].Projection.NonKeyAttributes = append(in.GlobalSecondaryIndexes[0].Projection.NonKeyAttributes, "x")
	in.LocalSecondaryIndexes[0].Projection.NonKeyAttributes[0] = "changed"
	if again := inputSummary(newShop(t, "").table.CreateTableInput()); again != got {
		t.Fatal("CreateTableInput shares state between calls")
	}
}

func TestCreateTableInputProvisioned(t *testing.T) {
	spec := shopSpec()
	spec.BillingMode = types.BillingModeProvisioned
	spec.Throughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(3), WriteCapacityUnits: aws.Int64(2)}
	table, err := keyfirst.NewTable(spec)
	if err != nil {
		t.Fatal(err)
	}
	*spec.Throughput.ReadCapacityUnits = 99 // the table keeps its own copy
	in := table.CreateTableInput()
	if in.BillingMode != types.BillingModeProvisioned || in.ProvisionedThroughput == nil ||
		aws.ToInt64(in.ProvisionedThroughput.ReadCapacityUnits) != 3 {
		t.Fatalf("%+v", in)
	}
	*in.ProvisionedThroughput.WriteCapacityUnits = 7
	if again := table.CreateTableInput(); aws.ToInt64(again.ProvisionedThroughput.WriteCapacityUnits) != 2 {
		t.Fatal("CreateTableInput shares the throughput")
	}
	for _, g := range in.GlobalSecondaryIndexes {
		if g.ProvisionedThroughput == nil || aws.ToInt64(g.ProvisionedThroughput.WriteCapacityUnits) != 2 {
			t.Fatalf("GSI %s without the table's throughput", aws.ToString(g.IndexName))
		}
	}
}

// TestCreateTableOnLocal: DynamoDB Local accepts the generated input for a
// table with a concatenated-key GSI, a native multi-attribute GSI and an
// LSI, and DescribeTable shows what the schema says.
func TestCreateTableOnLocal(t *testing.T) {
	t.Parallel()
	client := integration.Client(t)
	in := newShop(t, "").table.CreateTableInput()
	name := integration.CreateTable(t, in)
	out, err := client.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	d := out.Table
	gsis, lsis := map[string]string{}, map[string]string{}
	for _, g := range d.GlobalSecondaryIndexes {
		gsis[aws.ToString(g.IndexName)] = "GSI " + describeKeys(g.KeySchema) + " " + describeProjection(g.Projection)
	}
	for _, l := range d.LocalSecondaryIndexes {
		lsis[aws.ToString(l.IndexName)] = "LSI " + describeKeys(l.KeySchema) + " " + describeProjection(l.Projection)
	}
	got := schemaSummary(d.KeySchema, d.AttributeDefinitions, gsis, lsis)
	if want := inputSummary(in); got != want {
		t.Fatalf("DescribeTable:\n%s\nschema:\n%s", got, want)
	}
	if d.BillingModeSummary == nil || d.BillingModeSummary.BillingMode != types.BillingModePayPerRequest {
		t.Fatalf("billing %+v", d.BillingModeSummary)
	}
}
