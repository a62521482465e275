package keyfirst_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"go.uber.org/goleak"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
)

// Seed 004's MoviesAndActors, released twice: first without the inverted
// index, then with it (castSpec). The roles written by the first release
// already carry Movie and Actor, the new index's keys: once DynamoDB has
// built the index, it holds them all, with no backfill of keyfirst's.
var castByYear = keyfirst.OnIndex("ByYear", keyfirst.Str("Actor"), keyfirst.Num[int]("Year"))

func castWithoutIndex() keyfirst.TableSpec {
	return keyfirst.TableSpec{Name: "MoviesAndActors", Key: castByActor, LSIs: []keyfirst.Index{castByYear.Index()}}
}

func castWithIndex() keyfirst.TableSpec {
	spec := castWithoutIndex()
	spec.GSIs = []keyfirst.Index{castByMovie.Index()}
	return spec
}

// changeError returns err's *TableChangeError, failing the test when it
// is not one of problem p.
func changeError(t *testing.T, err error, p keyfirst.TableChangeProblem) *keyfirst.TableChangeError {
	t.Helper()
	var ce *keyfirst.TableChangeError
	if !errors.As(err, &ce) || ce.Problem != p || !errors.Is(err, keyfirst.ErrInvalidTableChange) {
		t.Fatalf("got %v, want a *TableChangeError of problem %q", err, p)
	}
	return ce
}

// TestAddIndexRefusedBeforeAnyRequest: what the schema cannot add is
// refused before any request.
func TestAddIndexRefusedBeforeAnyRequest(t *testing.T) {
	table := keyfirst.Must(keyfirst.NewTable(castWithIndex()))
	cases := []struct {
		name    string
		index   keyfirst.PatternRef
		problem keyfirst.TableChangeProblem
	}{
		{"nil", nil, keyfirst.ChangePattern},
		{"zero pattern", keyfirst.Pattern[string, string]{}, keyfirst.ChangePattern},
		{"pattern with an error", keyfirst.OnIndex("", keyfirst.Str("Movie"), keyfirst.NoSort()), keyfirst.ChangePattern},
		{"the table's key", castByActor, keyfirst.ChangePattern},
		{"an index of another key", keyfirst.OnIndex("MovieActors", keyfirst.Str("Movie"), keyfirst.NoSort()), keyfirst.ChangePattern},
		{"not in the schema", keyfirst.OnIndex("Elsewhere", keyfirst.Str("Movie"), keyfirst.Str("Actor")), keyfirst.ChangeUnknownIndex},
		{"an LSI", castByYear, keyfirst.ChangeLocalIndex},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := table.AddIndex(context.Background(), noCalls{T: t}, c.index)
			if ce := changeError(t, err, c.problem); ce.Detail == "" || ce.Table != "MoviesAndActors" {
				t.Fatalf("%+v", ce)
			}
		})
	}
}

// tableClient counts the UpdateTable and DescribeTable requests and can
// report a GSI backfilling for the first describes (all of them when
// negative): DynamoDB Local builds an index in a fraction of a second,
// AWS in minutes or hours.
type tableClient struct {
	*dynamodb.Client
	updates, describes atomic.Int64
	backfilling        string
	backfillFor        int64
}

func (c *tableClient) UpdateTable(ctx context.Context, in *dynamodb.UpdateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateTableOutput, error) {
	c.updates.Add(1)
	return c.Client.UpdateTable(ctx, in, optFns...)
}

func (c *tableClient) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	n := c.describes.Add(1)
	out, err := c.Client.DescribeTable(ctx, in, optFns...)
	if err != nil {
		return out, err
	}
	d := *out.Table
	d.GlobalSecondaryIndexes = slices.Clone(d.GlobalSecondaryIndexes)
	for i, g := range d.GlobalSecondaryIndexes {
		if aws.ToString(g.IndexName) == c.backfilling && (c.backfillFor < 0 || n <= c.backfillFor) {
			d.GlobalSecondaryIndexes[i].Backfilling = aws.Bool(true)
		}
	}
	out.Table = &d
	return out, nil
}

// castRoles writes n roles of the first release.
func castRoles(t *testing.T, client *dynamodb.Client, table *keyfirst.Table, n int) []castRole {
	t.Helper()
	roles := castEntity0(t, table)
	var reqs []keyfirst.WriteRequest
	var out []castRole
	for i := range n {
		r := castRole{Actor: fmt.Sprintf("actor-%02d", i%7), Movie: fmt.Sprintf("movie-%02d", i/7), Role: fmt.Sprint("role ", i), Year: 1990 + i}
		out = append(out, r)
		reqs = append(reqs, roles.PutRequest(r))
	}
	if err := table.BatchWrite(context.Background(), client, reqs); err != nil {
		t.Fatal(err)
	}
	return out
}

// castEntity0 is the role entity of the first release: no inverted index.
func castEntity0(t *testing.T, table *keyfirst.Table) *keyfirst.Entity[castRole] {
	t.Helper()
	roles, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[castRole]{Type: "Role", Keys: []keyfirst.Binding{
		castByActor.Fields("Actor", "Movie"), castByYear.Fields("Actor", "Year")}})
	if err != nil {
		t.Fatal(err)
	}
	return roles
}

// actorsOf queries the inverted index for the actors of movie, with the SDK.
func actorsOf(t *testing.T, client *dynamodb.Client, table, movie string) []string {
	t.Helper()
	x, err := expression.NewBuilder().WithKeyCondition(expression.Key("Movie").Equal(expression.Value(movie))).Build()
	if err != nil {
		t.Fatal(err)
	}
	out, err := client.Query(context.Background(), &dynamodb.QueryInput{TableName: aws.String(table), IndexName: aws.String("MovieActors"),
		KeyConditionExpression: x.KeyCondition(), ExpressionAttributeNames: x.Names(), ExpressionAttributeValues: x.Values()})
	if err != nil {
		t.Fatal(err)
	}
	var actors []string
	for _, item := range out.Items {
		actors = append(actors, item["Actor"].(*types.AttributeValueMemberS).Value)
	}
	return actors
}

// TestAddIndex: AddIndex creates the schema's GSI on a table of the
// previous release, waits until DynamoDB has built it, and the index then
// answers its access pattern exactly; a second AddIndex sends no
// UpdateTable and returns nil.
func TestAddIndex(t *testing.T) {
	t.Parallel()
	client := integration.Client(t)
	old := integration.TableOf(t, keyfirst.Must(keyfirst.NewTable(castWithoutIndex())))
	roles := castRoles(t, client, old, 60)
	table := keyfirst.Must(keyfirst.Must(keyfirst.NewTable(castWithIndex())).Named(old.Name()))
	if _, err := table.Check(context.Background(), client); !errors.Is(err, keyfirst.ErrTableDiffers) {
		t.Fatalf("before: %v", err)
	}
	ctx, cancel := integration.Context(t)
	defer cancel()
	// DynamoDB Local may build the index before the first DescribeTable:
	// the first 3 descriptions show it backfilling, as AWS's would, so
	// that the test proves the wait whatever Local's speed.
	tc := &tableClient{Client: client, backfilling: "MovieActors", backfillFor: 3}
	if err := table.AddIndex(ctx, tc, castByMovie); err != nil {
		t.Fatal(err)
	}
	if tc.updates.Load() != 1 || tc.describes.Load() <= 3 {
		t.Fatalf("%d UpdateTable; AddIndex returned after %d DescribeTable requests, want more than the 3 that showed the index backfilling", tc.updates.Load(), tc.describes.Load())
	}
	if g := gsiOf(describeRaw(t, client, table.Name()), "MovieActors"); g.IndexStatus != types.IndexStatusActive || aws.ToBool(g.Backfilling) {
		t.Fatalf("AddIndex returned with the index %s, backfilling %v", g.IndexStatus, aws.ToBool(g.Backfilling))
	}
	if diffs, err := table.Check(ctx, client); err != nil || len(diffs) != 0 {
		t.Fatalf("after: %v, %v", diffs, err)
	}
	for _, movie := range []string{"movie-00", "movie-03"} {
		var want []string
		for _, r := range roles {
			if r.Movie == movie && !slices.Contains(want, r.Actor) {
				want = append(want, r.Actor)
			}
		}
		slices.Sort(want)
		if got := actorsOf(t, client, table.Name(), movie); !slices.Equal(got, want) {
			t.Fatalf("%s: got %v, want %v", movie, got, want)
		}
	}

	tc = &tableClient{Client: client}
	if err := table.AddIndex(ctx, tc, castByMovie); err != nil || tc.updates.Load() != 0 {
		t.Fatalf("again: %v, %d UpdateTable", err, tc.updates.Load())
	}
}

// TestAddIndexWaitsForBackfill: AddIndex returns once the index is ACTIVE
// and no longer backfilling, not before; an index that exists and is
// still being built (a previous AddIndex stopped waiting) is waited for.
func TestAddIndexWaitsForBackfill(t *testing.T) {
	t.Parallel()
	client := integration.Client(t)
	table := integration.TableOf(t, keyfirst.Must(keyfirst.NewTable(castWithIndex())))
	tc := &tableClient{Client: client, backfilling: "MovieActors", backfillFor: 4}
	ctx, cancel := integration.Context(t)
	defer cancel()
	if err := table.AddIndex(ctx, tc, castByMovie); err != nil {
		t.Fatal(err)
	}
	if n := tc.describes.Load(); n != 5 || tc.updates.Load() != 0 {
		t.Fatalf("returned after %d DescribeTable (want 5: the one that found it, 3 backfilling, then built), %d UpdateTable", n, tc.updates.Load())
	}
}

// TestAddIndexCancelled: a context that ends while AddIndex waits stops
// it at once, with the context's error, and leaves no goroutine behind.
// Not parallel, so that goleak sees only its goroutines.
func TestAddIndexCancelled(t *testing.T) {
	client := integration.Client(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent(),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"))
	old := integration.TableOf(t, keyfirst.Must(keyfirst.NewTable(castWithoutIndex())))
	table := keyfirst.Must(keyfirst.Must(keyfirst.NewTable(castWithIndex())).Named(old.Name()))
	tc := &tableClient{Client: client, backfilling: "MovieActors", backfillFor: -1}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cancelled := make(chan time.Time, 1)
	time.AfterFunc(500*time.Millisecond, func() { cancelled <- time.Now(); cancel() })
	err := table.AddIndex(ctx, tc, castByMovie)
	late := time.Since(<-cancelled)
	if !errors.Is(err, context.Canceled) || late > 200*time.Millisecond || tc.updates.Load() != 1 {
		t.Fatalf("got %v %v after the cancel, %d UpdateTable", err, late, tc.updates.Load())
	}
}

// TestAddIndexRefusedByTheTable: what the live table cannot take is
// refused after DescribeTable and before any UpdateTable: a missing table,
// 20 GSIs already, an attribute of another type, an index of that name
// that does not serve the schema's. One that serves it (projecting more)
// is not an error.
func TestAddIndexRefusedByTheTable(t *testing.T) {
	t.Parallel()
	schema := keyfirst.Must(keyfirst.NewTable(castWithIndex()))
	legacyGSI := func(name, attr string) types.GlobalSecondaryIndex {
		return types.GlobalSecondaryIndex{IndexName: aws.String(name), KeySchema: []types.KeySchemaElement{keyElem(attr, types.KeyTypeHash)},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}
	}
	cases := []struct {
		name    string
		change  func(in *dynamodb.CreateTableInput)
		problem keyfirst.TableChangeProblem // 0: accepted
		diffs   string
	}{
		{name: "20 GSIs", change: func(in *dynamodb.CreateTableInput) {
			in.GlobalSecondaryIndexes = nil
			define(&in.AttributeDefinitions, "Role", types.ScalarAttributeTypeS)
			for i := range keyfirst.MaxGSIs {
				in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, legacyGSI(fmt.Sprintf("legacy-%02d", i), "Role"))
			}
		}, problem: keyfirst.ChangeTooManyGSIs},
		{name: "attribute of another type", change: func(in *dynamodb.CreateTableInput) {
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{legacyGSI("by-movie-number", "Movie")}
			define(&in.AttributeDefinitions, "Movie", types.ScalarAttributeTypeN)
			in.KeySchema = in.KeySchema[:1] // Movie is not the table's sort key here
			in.LocalSecondaryIndexes = nil
			undefine(in, "Year")
		}, problem: keyfirst.ChangeAttributeType},
		{name: "index of that name, keys only", change: func(in *dynamodb.CreateTableInput) {
			gsiIn(in, "MovieActors").Projection = &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}
		}, problem: keyfirst.ChangeIndexExists, diffs: "error another projection MovieActors"},
		{name: "index of that name, another key", change: func(in *dynamodb.CreateTableInput) {
			gsiIn(in, "MovieActors").KeySchema = gsiIn(in, "MovieActors").KeySchema[:1]
		}, problem: keyfirst.ChangeIndexExists, diffs: "error another key MovieActors"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			client, table := handMade(t, schema, c.change)
			tc := &tableClient{Client: client}
			ctx, cancel := integration.Context(t)
			defer cancel()
			err := table.AddIndex(ctx, tc, castByMovie)
			if ce := changeError(t, err, c.problem); diffSummary(ce.Differences) != c.diffs || tc.updates.Load() != 0 {
				t.Fatalf("differences %q, want %q; %d UpdateTable", diffSummary(ce.Differences), c.diffs, tc.updates.Load())
			}
		})
	}
	t.Run("no table", func(t *testing.T) {
		t.Parallel()
		table := keyfirst.Must(schema.Named(integration.UniqueTableName(t)))
		changeError(t, table.AddIndex(context.Background(), integration.Client(t), castByMovie), keyfirst.ChangeTableMissing)
	})
	t.Run("index of that name that projects more", func(t *testing.T) {
		t.Parallel()
		spec := castWithIndex()
		spec.GSIs[0].Projection = keyfirst.KeysOnly()
		keysOnly := keyfirst.Must(keyfirst.NewTable(spec))
		client, table := handMade(t, keysOnly, func(in *dynamodb.CreateTableInput) {
			gsiIn(in, "MovieActors").Projection = &types.Projection{ProjectionType: types.ProjectionTypeAll}
		})
		tc := &tableClient{Client: client}
		if err := table.AddIndex(context.Background(), tc, castByMovie); err != nil || tc.updates.Load() != 0 {
			t.Fatalf("%v, %d UpdateTable", err, tc.updates.Load())
		}
	})
}

// TestAddIndexProvisioned: on a PROVISIONED table the new GSI gets the
// schema's throughput, so that the table then matches the schema.
func TestAddIndexProvisioned(t *testing.T) {
	t.Parallel()
	provisioned := func(spec keyfirst.TableSpec) *keyfirst.Table {
		spec.BillingMode = types.BillingModeProvisioned
		spec.Throughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(4), WriteCapacityUnits: aws.Int64(3)}
		return keyfirst.Must(keyfirst.NewTable(spec))
	}
	client := integration.Client(t)
	old := integration.TableOf(t, provisioned(castWithoutIndex()))
	table := keyfirst.Must(provisioned(castWithIndex()).Named(old.Name()))
	ctx, cancel := integration.Context(t)
	defer cancel()
	if err := table.AddIndex(ctx, client, castByMovie); err != nil {
		t.Fatal(err)
	}
	if diffs, err := table.Check(ctx, client); err != nil || len(diffs) != 0 {
		t.Fatalf("%v, %v", diffs, err)
	}
	if tp := gsiOf(describeRaw(t, client, table.Name()), "MovieActors").ProvisionedThroughput; aws.ToInt64(tp.WriteCapacityUnits) != 3 {
		t.Fatalf("throughput %+v", tp)
	}
}
