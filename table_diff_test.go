package keyfirst_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// described is the description DynamoDB gives of the table that in
// creates, once it is ACTIVE (as DynamoDB Local gives it: see
// TestCreateTableOnLocal and TestCheckOnLocal).
func described(in *dynamodb.CreateTableInput) *types.TableDescription {
	d := &types.TableDescription{
		TableName:            in.TableName,
		TableStatus:          types.TableStatusActive,
		KeySchema:            in.KeySchema,
		AttributeDefinitions: in.AttributeDefinitions,
		BillingModeSummary:   &types.BillingModeSummary{BillingMode: in.BillingMode},
		StreamSpecification:  in.StreamSpecification,
	}
	throughput := func(tp *types.ProvisionedThroughput) *types.ProvisionedThroughputDescription {
		if tp == nil {
			return &types.ProvisionedThroughputDescription{ReadCapacityUnits: aws.Int64(0), WriteCapacityUnits: aws.Int64(0)}
		}
		return &types.ProvisionedThroughputDescription{ReadCapacityUnits: tp.ReadCapacityUnits, WriteCapacityUnits: tp.WriteCapacityUnits}
	}
	d.ProvisionedThroughput = throughput(in.ProvisionedThroughput)
	for _, g := range in.GlobalSecondaryIndexes {
		gd := types.GlobalSecondaryIndexDescription{IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection,
			IndexStatus: types.IndexStatusActive}
		if g.ProvisionedThroughput != nil {
			gd.ProvisionedThroughput = throughput(g.ProvisionedThroughput)
		}
		d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, gd)
	}
	for _, l := range in.LocalSecondaryIndexes {
		d.LocalSecondaryIndexes = append(d.LocalSecondaryIndexes, types.LocalSecondaryIndexDescription{IndexName: l.IndexName, KeySchema: l.KeySchema, Projection: l.Projection})
	}
	return d
}

// diffSummary prints differences one per line as "severity kind index attribute".
func diffSummary(diffs []keyfirst.Difference) string {
	var lines []string
	for _, d := range diffs {
		lines = append(lines, strings.TrimSpace(fmt.Sprintf("%s %s %s %s", d.Severity, d.Kind, d.Index, d.Attribute)))
	}
	return strings.Join(lines, "\n")
}

func gsiOf(d *types.TableDescription, name string) *types.GlobalSecondaryIndexDescription {
	for i := range d.GlobalSecondaryIndexes {
		if aws.ToString(d.GlobalSecondaryIndexes[i].IndexName) == name {
			return &d.GlobalSecondaryIndexes[i]
		}
	}
	panic("no GSI " + name)
}

func keyElem(name string, kt types.KeyType) types.KeySchemaElement {
	return types.KeySchemaElement{AttributeName: aws.String(name), KeyType: kt}
}

// define sets the type of attribute name in defs, adding it when missing.
func define(defs *[]types.AttributeDefinition, name string, ty types.ScalarAttributeType) {
	for i := range *defs {
		if aws.ToString((*defs)[i].AttributeName) == name {
			(*defs)[i].AttributeType = ty
			return
		}
	}
	*defs = append(*defs, types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: ty})
}

// TestDiff: each way a description can differ from the schema is found,
// with its kind, severity, index and attribute, and nothing else is.
func TestDiff(t *testing.T) {
	s := newShop(t, "")
	cases := []struct {
		name   string
		change func(d *types.TableDescription, ttl *types.TimeToLiveDescription)
		want   string
	}{
		{"identical", func(*types.TableDescription, *types.TimeToLiveDescription) {}, ""},
		{"table key renamed", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			d.KeySchema = []types.KeySchemaElement{keyElem("pk", types.KeyTypeHash), keyElem("SK", types.KeyTypeRange)}
			define(&d.AttributeDefinitions, "pk", types.ScalarAttributeTypeS)
		}, "error another key"},
		{"no sort key", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			d.KeySchema = d.KeySchema[:1]
		}, "error another key"},
		{"sides swapped", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			d.KeySchema = []types.KeySchemaElement{keyElem("SK", types.KeyTypeHash), keyElem("PK", types.KeyTypeRange)}
		}, "error another key"},
		{"key type", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			define(&d.AttributeDefinitions, "SK", types.ScalarAttributeTypeN)
		}, "error another key attribute type  SK"},
		{"attribute shared by two keys reported once", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			define(&d.AttributeDefinitions, "placedAt", types.ScalarAttributeTypeN)
		}, "error another key attribute type by-status placedAt"},
		{"multi-attribute order", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			g := gsiOf(d, "by-status")
			g.KeySchema = []types.KeySchemaElement{keyElem("customer", types.KeyTypeHash), keyElem("placedAt", types.KeyTypeRange), keyElem("status", types.KeyTypeRange)}
		}, "error another key by-status"},
		{"GSI missing", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			d.GlobalSecondaryIndexes = d.GlobalSecondaryIndexes[1:]
		}, "error index missing GSI1"},
		{"LSI missing", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			d.LocalSecondaryIndexes = nil
		}, "error index missing by-total"},
		{"extra GSI", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, types.GlobalSecondaryIndexDescription{IndexName: aws.String("legacy"),
				KeySchema: []types.KeySchemaElement{keyElem("x", types.KeyTypeHash)}, IndexStatus: types.IndexStatusCreating})
		}, "note index not in the schema legacy"},
		{"GSI as LSI", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			l := d.LocalSecondaryIndexes[0]
			d.LocalSecondaryIndexes = nil
			d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, types.GlobalSecondaryIndexDescription{IndexName: l.IndexName,
				KeySchema: l.KeySchema, Projection: l.Projection, IndexStatus: types.IndexStatusActive})
		}, "error another kind of index by-total"},
		{"GSI creating", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			gsiOf(d, "GSI1").IndexStatus = types.IndexStatusCreating
		}, "error index not active GSI1"},
		{"GSI backfilling", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			gsiOf(d, "GSI1").Backfilling = aws.Bool(true)
		}, "error index not active GSI1"},
		{"GSI deleting", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			gsiOf(d, "GSI1").IndexStatus = types.IndexStatusDeleting
		}, "error index not active GSI1"},
		{"table deleting", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			d.TableStatus = types.TableStatusDeleting
		}, "error table not usable"},
		{"table updating is usable", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			d.TableStatus = types.TableStatusUpdating
		}, ""},
		{"ALL declared, KEYS_ONLY live", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			gsiOf(d, "GSI1").Projection = &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}
		}, "error another projection GSI1"},
		{"INCLUDE without the entity type", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			d.LocalSecondaryIndexes[0].Projection = &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"status"}}
		}, "error another projection by-total"},
		{"INCLUDE with one more", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			d.LocalSecondaryIndexes[0].Projection = &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"total2", "status", "_type"}}
		}, "note another projection by-total"},
		{"INCLUDE one less, one more", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			d.LocalSecondaryIndexes[0].Projection = &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"note", "_type"}}
		}, "error another projection by-total"},
		{"KEYS_ONLY declared, ALL live", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			gsiOf(d, "open-orders").Projection = &types.Projection{ProjectionType: types.ProjectionTypeAll}
		}, "note another projection open-orders"},
		{"provisioned", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			d.BillingModeSummary = nil // a table that has always been provisioned has no summary
			d.ProvisionedThroughput = &types.ProvisionedThroughputDescription{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(5)}
		}, "note another billing mode"},
		{"stream", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			d.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}
		}, "note another stream setting"},
		{"stream disabled", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			d.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(false)}
		}, ""},
		{"TTL", func(_ *types.TableDescription, ttl *types.TimeToLiveDescription) {
			ttl.TimeToLiveStatus, ttl.AttributeName = types.TimeToLiveStatusEnabled, aws.String("expiresAt")
		}, "note another time-to-live setting  expiresAt"},
		{"errors first", func(d *types.TableDescription, _ *types.TimeToLiveDescription) {
			d.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}
			d.GlobalSecondaryIndexes = d.GlobalSecondaryIndexes[1:]
		}, "error index missing GSI1\nnote another stream setting"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := described(s.table.CreateTableInput())
			ttl := &types.TimeToLiveDescription{TimeToLiveStatus: types.TimeToLiveStatusDisabled}
			c.change(d, ttl)
			diffs := s.table.Diff(d, ttl)
			if got := diffSummary(diffs); got != c.want {
				t.Fatalf("got\n%s\nwant\n%s\n(%v)", got, c.want, diffs)
			}
			for _, diff := range diffs {
				if diff.Detail == "" {
					t.Errorf("%v: no detail", diff)
				}
			}
		})
	}
}

// TestDiffStreamDeclared: a stream the schema declares (TableSpec.Stream)
// is in CreateTableInput; a table without it, or whose view carries fewer
// images, is an error; a view that carries more is a note; an invalid view
// is refused by NewTable.
func TestDiffStreamDeclared(t *testing.T) {
	spec := shopSpec()
	spec.Stream = types.StreamViewTypeNewAndOldImages
	table := keyfirst.Must(keyfirst.NewTable(spec))
	if got := table.StreamView(); got != types.StreamViewTypeNewAndOldImages {
		t.Fatalf("StreamView = %q", got)
	}
	in := table.CreateTableInput()
	if s := in.StreamSpecification; s == nil || !aws.ToBool(s.StreamEnabled) || s.StreamViewType != types.StreamViewTypeNewAndOldImages {
		t.Fatalf("CreateTableInput's StreamSpecification = %+v", s)
	}
	if diffs := table.Diff(described(in), nil); len(diffs) != 0 {
		t.Fatalf("the created table differs: %v", diffs)
	}
	for _, c := range []struct {
		name string
		spec *types.StreamSpecification
		want string
	}{
		{"none", nil, "error another stream setting"},
		{"disabled", &types.StreamSpecification{StreamEnabled: aws.Bool(false)}, "error another stream setting"},
		{"new image only", &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage}, "error another stream setting"},
		{"keys only", &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}, "error another stream setting"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := described(in)
			d.StreamSpecification = c.spec
			diffs := table.Diff(d, nil)
			if got := diffSummary(diffs); got != c.want {
				t.Fatalf("got %q, want %q (%v)", got, c.want, diffs)
			}
		})
	}
	keysOnly := shopSpec()
	keysOnly.Stream = types.StreamViewTypeKeysOnly
	d := described(in)
	if got := diffSummary(keyfirst.Must(keyfirst.NewTable(keysOnly)).Diff(d, nil)); got != "note another stream setting" {
		t.Fatalf("a view that carries more: got %q", got)
	}
	bad := shopSpec()
	bad.Stream = "BOTH"
	var se *keyfirst.SchemaError
	if _, err := keyfirst.NewTable(bad); !errors.As(err, &se) || se.Problem != keyfirst.SchemaStream {
		t.Fatalf("stream view BOTH: %v", err)
	}
}

// TestDiffProvisioned: with PROVISIONED on both sides, another throughput
// of the table or of a GSI is a note; on-demand on the table is another
// billing mode.
func TestDiffProvisioned(t *testing.T) {
	spec := shopSpec()
	spec.BillingMode = types.BillingModeProvisioned
	spec.Throughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(3), WriteCapacityUnits: aws.Int64(2)}
	table := keyfirst.Must(keyfirst.NewTable(spec))
	if diffs := table.Diff(described(table.CreateTableInput()), nil); len(diffs) != 0 {
		t.Fatalf("identical: %v", diffs)
	}
	d := described(table.CreateTableInput())
	d.ProvisionedThroughput.ReadCapacityUnits = aws.Int64(30)
	gsiOf(d, "GSI1").ProvisionedThroughput.WriteCapacityUnits = aws.Int64(20)
	if got, want := diffSummary(table.Diff(d, nil)), "note another throughput\nnote another throughput GSI1"; got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	d = described(table.CreateTableInput())
	d.BillingModeSummary.BillingMode = types.BillingModePayPerRequest
	if got, want := diffSummary(table.Diff(d, nil)), "note another billing mode"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestDiffMissingTable: no description is a missing table, an error.
func TestDiffMissingTable(t *testing.T) {
	diffs := newShop(t, "").table.Diff(nil, nil)
	if got := diffSummary(diffs); got != "error table missing" {
		t.Fatalf("got %q", got)
	}
}

// TestTableDiffError: the error lists errors then notes, counts both,
// matches ErrTableDiffers, and Errors returns the errors only.
func TestTableDiffError(t *testing.T) {
	e := &keyfirst.TableDiffError{Table: "shop", Differences: []keyfirst.Difference{
		{Kind: keyfirst.DiffStream, Severity: keyfirst.SeverityNote, Want: "disabled", Got: "enabled, KEYS_ONLY", Detail: "d1"},
		{Kind: keyfirst.DiffIndexMissing, Severity: keyfirst.SeverityError, Index: "GSI1", Want: "GSI", Detail: "d2"},
	}}
	var err error = e
	if !errors.Is(err, keyfirst.ErrTableDiffers) {
		t.Fatal("not ErrTableDiffers")
	}
	want := `keyfirst: the table differs from its schema (table "shop"): 1 error, 1 note; ` +
		`error: index missing (index "GSI1"): want GSI, got none: d2; note: another stream setting: want disabled, got enabled, KEYS_ONLY: d1`
	if err.Error() != want {
		t.Fatalf("got  %s\nwant %s", err, want)
	}
	if errs := e.Errors(); len(errs) != 1 || errs[0].Index != "GSI1" || len(e.Differences) != 2 {
		t.Fatalf("Errors %v, Differences %v", errs, e.Differences)
	}
	if !slices.Equal([]string{keyfirst.SeverityError.String(), keyfirst.SeverityNote.String(), keyfirst.Severity(9).String(), keyfirst.DiffKind(99).String()},
		[]string{"error", "note", "Severity(9)", "problem 99"}) {
		t.Fatal("names")
	}
}
