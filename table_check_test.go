package keyfirst_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
)

// handMade creates, with the raw SDK, the table of schema's
// CreateTableInput as change alters it, for this test only, and returns
// schema bound to it.
func handMade(t *testing.T, schema *keyfirst.Table, change func(in *dynamodb.CreateTableInput)) (*dynamodb.Client, *keyfirst.Table) {
	t.Helper()
	in := schema.CreateTableInput()
	change(in)
	return integration.Client(t), keyfirst.Must(schema.Named(integration.CreateTable(t, in)))
}

// undefine removes the definitions of attributes that no key uses any
// more: DynamoDB refuses a definition that no key uses.
func undefine(in *dynamodb.CreateTableInput, names ...string) {
	for _, name := range names {
		for i, d := range in.AttributeDefinitions {
			if aws.ToString(d.AttributeName) == name {
				in.AttributeDefinitions = append(in.AttributeDefinitions[:i], in.AttributeDefinitions[i+1:]...)
				break
			}
		}
	}
}

func gsiIn(in *dynamodb.CreateTableInput, name string) *types.GlobalSecondaryIndex {
	for i := range in.GlobalSecondaryIndexes {
		if aws.ToString(in.GlobalSecondaryIndexes[i].IndexName) == name {
			return &in.GlobalSecondaryIndexes[i]
		}
	}
	panic("no GSI " + name)
}

func dropGSI(in *dynamodb.CreateTableInput, name string) {
	for i, g := range in.GlobalSecondaryIndexes {
		if aws.ToString(g.IndexName) == name {
			in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes[:i], in.GlobalSecondaryIndexes[i+1:]...)
			return
		}
	}
	panic("no GSI " + name)
}

// TestCheckOnLocal: each difference, made by hand with the raw SDK on
// DynamoDB Local, is found by Check, with its severity; an error among
// them makes Check fail with a *TableDiffError that carries them all.
func TestCheckOnLocal(t *testing.T) {
	t.Parallel()
	provisioned := shopSpec()
	provisioned.BillingMode = types.BillingModeProvisioned
	provisioned.Throughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(3), WriteCapacityUnits: aws.Int64(2)}
	cases := []struct {
		name   string
		spec   *keyfirst.TableSpec // nil: the shop's
		change func(in *dynamodb.CreateTableInput)
		after  func(t *testing.T, client *dynamodb.Client, table string) // raw changes after creation
		want   string
	}{
		{name: "identical", change: func(*dynamodb.CreateTableInput) {}},
		{name: "table key renamed", change: func(in *dynamodb.CreateTableInput) {
			in.KeySchema[0].AttributeName = aws.String("pk")
			define(&in.AttributeDefinitions, "pk", types.ScalarAttributeTypeS)
			in.LocalSecondaryIndexes[0].KeySchema[0].AttributeName = aws.String("pk")
			undefine(in, "PK")
		}, want: "error another key\nerror another key by-total"},
		{name: "key type", change: func(in *dynamodb.CreateTableInput) {
			define(&in.AttributeDefinitions, "SK", types.ScalarAttributeTypeN)
		}, want: "error another key attribute type  SK"},
		{name: "GSI missing", change: func(in *dynamodb.CreateTableInput) {
			dropGSI(in, "GSI1")
			undefine(in, "GSI1PK", "GSI1SK")
		}, want: "error index missing GSI1"},
		{name: "LSI missing", change: func(in *dynamodb.CreateTableInput) {
			in.LocalSecondaryIndexes = nil // total stays defined: open-orders sorts by it
		}, want: "error index missing by-total"},
		{name: "extra GSI", change: func(in *dynamodb.CreateTableInput) {
			in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{IndexName: aws.String("legacy"),
				KeySchema: []types.KeySchemaElement{keyElem("customer", types.KeyTypeHash)}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}})
		}, want: "note index not in the schema legacy"},
		{name: "LSI created as a GSI", change: func(in *dynamodb.CreateTableInput) {
			l := in.LocalSecondaryIndexes[0]
			in.LocalSecondaryIndexes = nil
			in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{IndexName: l.IndexName, KeySchema: l.KeySchema, Projection: l.Projection})
		}, want: "error another kind of index by-total"},
		{name: "multi-attribute key in another order", change: func(in *dynamodb.CreateTableInput) {
			ks := gsiIn(in, "by-status").KeySchema
			ks[1], ks[2] = ks[2], ks[1]
		}, want: "error another key by-status"},
		{name: "GSI key type", change: func(in *dynamodb.CreateTableInput) {
			define(&in.AttributeDefinitions, "GSI1SK", types.ScalarAttributeTypeB)
		}, want: "error another key attribute type GSI1 GSI1SK"},
		{name: "projection: keys only for all", change: func(in *dynamodb.CreateTableInput) {
			gsiIn(in, "GSI1").Projection = &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}
		}, want: "error another projection GSI1"},
		{name: "projection: the entity type left out", change: func(in *dynamodb.CreateTableInput) {
			in.LocalSecondaryIndexes[0].Projection.NonKeyAttributes = []string{"status"}
		}, want: "error another projection by-total"},
		{name: "projection: all for keys only", change: func(in *dynamodb.CreateTableInput) {
			gsiIn(in, "open-orders").Projection = &types.Projection{ProjectionType: types.ProjectionTypeAll}
		}, want: "note another projection open-orders"},
		{name: "provisioned for on-demand", change: func(in *dynamodb.CreateTableInput) {
			in.BillingMode = types.BillingModeProvisioned
			tp := &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(5)}
			in.ProvisionedThroughput = tp
			for i := range in.GlobalSecondaryIndexes {
				in.GlobalSecondaryIndexes[i].ProvisionedThroughput = tp
			}
		}, want: "note another billing mode"},
		{name: "another throughput", spec: &provisioned, change: func(in *dynamodb.CreateTableInput) {
			in.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(7), WriteCapacityUnits: aws.Int64(2)}
			gsiIn(in, "by-status").ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(3), WriteCapacityUnits: aws.Int64(9)}
		}, want: "note another throughput\nnote another throughput by-status"},
		{name: "provisioned, identical", spec: &provisioned, change: func(*dynamodb.CreateTableInput) {}},
		{name: "stream", change: func(in *dynamodb.CreateTableInput) {
			in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}
		}, want: "note another stream setting"},
		{name: "time to live", change: func(*dynamodb.CreateTableInput) {}, after: func(t *testing.T, client *dynamodb.Client, table string) {
			if _, err := client.UpdateTimeToLive(context.Background(), &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(table),
				TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("expiresAt"), Enabled: aws.Bool(true)}}); err != nil {
				t.Fatal(err)
			}
		}, want: "note another time-to-live setting  expiresAt"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			schema := newShop(t, "").table
			if c.spec != nil {
				schema = keyfirst.Must(keyfirst.NewTable(*c.spec))
			}
			client, table := handMade(t, schema, c.change)
			if c.after != nil {
				c.after(t, client, table.Name())
			}
			ctx, cancel := integration.Context(t)
			defer cancel()
			diffs, err := table.Check(ctx, client)
			if got := diffSummary(diffs); got != c.want {
				t.Fatalf("got\n%s\nwant\n%s\n%v", got, c.want, err)
			}
			wantErr := len(diffs) > 0 && diffs[0].Severity == keyfirst.SeverityError
			var de *keyfirst.TableDiffError
			switch {
			case wantErr && (!errors.As(err, &de) || !errors.Is(err, keyfirst.ErrTableDiffers) || len(de.Differences) != len(diffs) || de.Table != table.Name()):
				t.Fatalf("want a *TableDiffError with the %d differences, got %v", len(diffs), err)
			case !wantErr && err != nil:
				t.Fatalf("notes only, got the error %v", err)
			}
		})
	}
}

// TestCheckMissingTable: a table that does not exist is a difference,
// not a request error.
func TestCheckMissingTable(t *testing.T) {
	t.Parallel()
	client := integration.Client(t)
	table := keyfirst.Must(newShop(t, "").table.Named(integration.UniqueTableName(t)))
	diffs, err := table.Check(context.Background(), client)
	if got := diffSummary(diffs); got != "error table missing" || !errors.Is(err, keyfirst.ErrTableDiffers) {
		t.Fatalf("got %q, %v", got, err)
	}
}

// recording is a client that keeps the descriptions DynamoDB returned.
type recording struct {
	*dynamodb.Client
	mu    sync.Mutex
	descs []*types.TableDescription
}

func (r *recording) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	out, err := r.Client.DescribeTable(ctx, in, optFns...)
	if err == nil {
		r.mu.Lock()
		r.descs = append(r.descs, out.Table)
		r.mu.Unlock()
	}
	return out, err
}

// TestCheckIndexBeingBuilt: a GSI that DynamoDB is still building (created
// by hand with UpdateTable) is an error while DescribeTable says so;
// DynamoDB Local keeps a new GSI CREATING for a fraction of a second, so
// the Check right after the UpdateTable sees it (the test tries 3 indexes
// and needs one seen CREATING).
func TestCheckIndexBeingBuilt(t *testing.T) {
	t.Parallel()
	schema := newShop(t, "").table
	client, table := handMade(t, schema, func(in *dynamodb.CreateTableInput) {
		dropGSI(in, "GSI1")
		undefine(in, "GSI1PK", "GSI1SK")
	})
	ctx, cancel := integration.Context(t)
	defer cancel()
	seen := false
	for attempt := 0; attempt < 3 && !seen; attempt++ {
		if attempt > 0 { // another table, for another new index
			client, table = handMade(t, schema, func(in *dynamodb.CreateTableInput) {
				dropGSI(in, "GSI1")
				undefine(in, "GSI1PK", "GSI1SK")
			})
		}
		_, err := client.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(table.Name()),
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("GSI1PK"), AttributeType: types.ScalarAttributeTypeS},
				{AttributeName: aws.String("GSI1SK"), AttributeType: types.ScalarAttributeTypeS}},
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
				IndexName: aws.String("GSI1"), KeySchema: []types.KeySchemaElement{keyElem("GSI1PK", types.KeyTypeHash), keyElem("GSI1SK", types.KeyTypeRange)},
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}}})
		if err != nil {
			t.Fatal(err)
		}
		rec := &recording{Client: client}
		diffs, err := table.Check(ctx, rec)
		g := gsiOf(rec.descs[0], "GSI1")
		building := g.IndexStatus == types.IndexStatusCreating || aws.ToBool(g.Backfilling)
		seen = seen || building
		want := ""
		if building {
			want = "error index not active GSI1"
		}
		if got := diffSummary(diffs); got != want || (want != "") != (err != nil) {
			t.Fatalf("DescribeTable said %s (backfilling %v); got %q, %v", g.IndexStatus, aws.ToBool(g.Backfilling), got, err)
		}
	}
	if !seen {
		t.Fatal("DynamoDB Local never showed a new GSI CREATING: the test cannot prove the status check")
	}
}
