package keyfirst_test

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
)

// TestTimeToLiveCreateAndCheck: Create enables the schema's time to live
// on the table it creates, and Check finds it; a table without it (as
// CreateTableInput alone makes it) is a difference of severity error.
func TestTimeToLiveCreateAndCheck(t *testing.T) {
	t.Parallel()
	client := integration.Client(t)
	ctx, cancel := integration.Context(t)
	defer cancel()
	table := unnamed(t, client, keyfirst.Must(keyfirst.NewTable(notesSpec())))
	if notes, err := table.Create(ctx, client); err != nil || len(notes) != 0 {
		t.Fatalf("Create: %v %v", notes, err)
	}
	out, err := client.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(table.Name())})
	if err != nil {
		t.Fatal(err)
	}
	if d := out.TimeToLiveDescription; d == nil || d.TimeToLiveStatus != types.TimeToLiveStatusEnabled || aws.ToString(d.AttributeName) != "expires" {
		t.Fatalf("after Create the TTL is %+v, want ENABLED on expires", d)
	}
	if notes, err := table.Check(ctx, client); err != nil || len(notes) != 0 {
		t.Fatalf("Check: %v %v", notes, err)
	}

	bare := localBinding(t, keyfirst.Must(keyfirst.NewTable(notesSpec()))) // CreateTable only: no TTL
	_, err = bare.Check(ctx, client)
	var de *keyfirst.TableDiffError
	if !errors.As(err, &de) || len(de.Errors()) != 1 || de.Errors()[0].Kind != keyfirst.DiffTimeToLive || de.Errors()[0].Attribute != "expires" {
		t.Fatalf("Check of a table without the declared TTL: %v", err)
	}
}

// TestTimeToLiveDiff: the comparison of the TTL setting, without
// requests: declared and enabled on another attribute is an error,
// enabled without a declaration a note.
func TestTimeToLiveDiff(t *testing.T) {
	t.Parallel()
	declared := keyfirst.Must(keyfirst.NewTable(notesSpec()))
	spec := notesSpec()
	spec.TimeToLive = ""
	undeclared := keyfirst.Must(keyfirst.NewTable(spec))
	desc := func(tbl *keyfirst.Table) *types.TableDescription {
		in := tbl.CreateTableInput()
		d := &types.TableDescription{TableName: in.TableName, TableStatus: types.TableStatusActive, KeySchema: in.KeySchema,
			AttributeDefinitions: in.AttributeDefinitions, BillingModeSummary: &types.BillingModeSummary{BillingMode: in.BillingMode}}
		for _, g := range in.GlobalSecondaryIndexes {
			d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, types.GlobalSecondaryIndexDescription{IndexName: g.IndexName,
				KeySchema: g.KeySchema, Projection: g.Projection, IndexStatus: types.IndexStatusActive})
		}
		return d
	}
	on := func(attr string) *types.TimeToLiveDescription {
		return &types.TimeToLiveDescription{TimeToLiveStatus: types.TimeToLiveStatusEnabled, AttributeName: aws.String(attr)}
	}
	for name, tc := range map[string]struct {
		table    *keyfirst.Table
		ttl      *types.TimeToLiveDescription
		severity keyfirst.Severity // 0: no difference
	}{
		"declared, enabled":           {declared, on("expires"), 0},
		"declared, disabled":          {declared, &types.TimeToLiveDescription{TimeToLiveStatus: types.TimeToLiveStatusDisabled}, keyfirst.SeverityError},
		"declared, another attribute": {declared, on("ttl"), keyfirst.SeverityError},
		"undeclared, enabled":         {undeclared, on("ttl"), keyfirst.SeverityNote},
		"undeclared, disabled":        {undeclared, &types.TimeToLiveDescription{}, 0},
	} {
		var got keyfirst.Severity
		for _, d := range tc.table.Diff(desc(tc.table), tc.ttl) {
			if d.Kind == keyfirst.DiffTimeToLive {
				got = d.Severity
			} else {
				t.Errorf("%s: unexpected difference %v", name, d)
			}
		}
		if got != tc.severity {
			t.Errorf("%s: TTL difference of severity %v, want %v", name, got, tc.severity)
		}
	}
}
