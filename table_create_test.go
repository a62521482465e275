package keyfirst_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"go.uber.org/goleak"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
)

// unnamed returns schema bound to a table name of this test, and deletes
// that table, if any, when the test ends.
func unnamed(t *testing.T, client *dynamodb.Client, schema *keyfirst.Table) *keyfirst.Table {
	t.Helper()
	table := keyfirst.Must(schema.Named(integration.UniqueTableName(t)))
	t.Cleanup(func() {
		_, err := client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(table.Name())})
		var missing *types.ResourceNotFoundException
		if err != nil && !errors.As(err, &missing) {
			t.Errorf("delete table %s: %v", table.Name(), err)
		}
	})
	return table
}

func describeRaw(t *testing.T, client keyfirst.DescribeTableAPI, name string) *types.TableDescription {
	t.Helper()
	out, err := client.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	return out.Table
}

// TestCreateTwice: Create makes the schema's table, ACTIVE with every
// index; a second Create of it is a no-op (nothing changed, no notes, no
// error).
func TestCreateTwice(t *testing.T) {
	t.Parallel()
	client := integration.Client(t)
	table := unnamed(t, client, newShop(t, "").table)
	ctx, cancel := integration.Context(t)
	defer cancel()
	if notes, err := table.Create(ctx, client); err != nil || notes != nil {
		t.Fatalf("first Create: %v, %v", notes, err)
	}
	first := describeRaw(t, client, table.Name())
	if first.TableStatus != types.TableStatusActive {
		t.Fatalf("Create returned with the table %s", first.TableStatus)
	}
	for _, g := range first.GlobalSecondaryIndexes {
		if g.IndexStatus != types.IndexStatusActive {
			t.Fatalf("Create returned with index %s %s", aws.ToString(g.IndexName), g.IndexStatus)
		}
	}
	if diffs := table.Diff(first, nil); len(diffs) != 0 {
		t.Fatalf("the created table differs: %v", diffs)
	}
	if notes, err := table.Create(ctx, client); err != nil || len(notes) != 0 {
		t.Fatalf("second Create: %v, %v", notes, err)
	}
	if again := describeRaw(t, client, table.Name()); !aws.ToTime(again.CreationDateTime).Equal(aws.ToTime(first.CreationDateTime)) {
		t.Fatalf("second Create recreated the table: %v then %v", first.CreationDateTime, again.CreationDateTime)
	}
}

// TestCreateOverDifferentTable: an existing table with another key is a
// *TableDiffError, and is left as it was; one that differs by notes only
// (a stream) is not an error, and the notes are returned.
func TestCreateOverDifferentTable(t *testing.T) {
	t.Parallel()
	schema := newShop(t, "").table
	client, table := handMade(t, schema, func(in *dynamodb.CreateTableInput) {
		define(&in.AttributeDefinitions, "SK", types.ScalarAttributeTypeN)
	})
	ctx, cancel := integration.Context(t)
	defer cancel()
	diffs, err := table.Create(ctx, client)
	var de *keyfirst.TableDiffError
	if !errors.As(err, &de) || diffSummary(de.Errors()) != "error another key attribute type  SK" || len(diffs) != len(de.Differences) {
		t.Fatalf("got %v, %v", diffs, err)
	}
	if ty := describeRaw(t, client, table.Name()).AttributeDefinitions; !hasDefinition(ty, "SK", types.ScalarAttributeTypeN) {
		t.Fatalf("the table changed: %v", ty)
	}

	_, streamed := handMade(t, schema, func(in *dynamodb.CreateTableInput) {
		in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}
	})
	notes, err := streamed.Create(ctx, client)
	if err != nil || diffSummary(notes) != "note another stream setting" {
		t.Fatalf("got %v, %v", notes, err)
	}
}

func hasDefinition(defs []types.AttributeDefinition, name string, ty types.ScalarAttributeType) bool {
	for _, d := range defs {
		if aws.ToString(d.AttributeName) == name {
			return d.AttributeType == ty
		}
	}
	return false
}

// slowLocal reports the table, and every GSI, as DynamoDB reports them
// while it builds them, for the first building DescribeTable requests (all
// of them when building is negative): what DynamoDB Local, which creates
// a table at once, cannot show. The rest is DynamoDB Local's.
type slowLocal struct {
	*dynamodb.Client
	building  int64
	describes atomic.Int64
	// onDescribe, when set, runs before each DescribeTable.
	onDescribe func(n int64)
}

func (s *slowLocal) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	n := s.describes.Add(1)
	if s.onDescribe != nil {
		s.onDescribe(n)
	}
	out, err := s.Client.DescribeTable(ctx, in, optFns...)
	if err != nil || (s.building >= 0 && n > s.building) {
		return out, err
	}
	d := *out.Table
	switch n % 3 {
	case 1:
		d.TableStatus = types.TableStatusCreating
	case 2:
		d.GlobalSecondaryIndexes = append([]types.GlobalSecondaryIndexDescription(nil), d.GlobalSecondaryIndexes...)
		d.GlobalSecondaryIndexes[0].IndexStatus = types.IndexStatusCreating
	default:
		d.GlobalSecondaryIndexes = append([]types.GlobalSecondaryIndexDescription(nil), d.GlobalSecondaryIndexes...)
		d.GlobalSecondaryIndexes[0].Backfilling = aws.Bool(true)
	}
	out.Table = &d
	return out, nil
}

// TestCreateWaits: Create returns once DescribeTable shows the table and
// every GSI ACTIVE and none backfilling, not before.
func TestCreateWaits(t *testing.T) {
	t.Parallel()
	client := integration.Client(t)
	table := unnamed(t, client, newShop(t, "").table)
	slow := &slowLocal{Client: client, building: 5}
	ctx, cancel := integration.Context(t)
	defer cancel()
	if _, err := table.Create(ctx, slow); err != nil {
		t.Fatal(err)
	}
	if n := slow.describes.Load(); n != 6 {
		t.Fatalf("Create returned after %d DescribeTable requests, want 6 (5 building, then ACTIVE)", n)
	}
	// An existing table whose GSI is still being built is waited for too.
	slow = &slowLocal{Client: client, building: 4}
	if _, err := table.Create(ctx, slow); err != nil {
		t.Fatal(err)
	}
	if n := slow.describes.Load(); n != 5 {
		t.Fatalf("Create compared an existing table after %d DescribeTable requests, want 5 (4 building, then ACTIVE)", n)
	}
}

// TestCreateCancelled: a context that ends while Create waits (between
// two DescribeTable requests, or during one) stops it at once, with the
// context's error, and leaves no goroutine behind. Not
// parallel, so that goleak sees only its goroutines.
func TestCreateCancelled(t *testing.T) {
	client := integration.Client(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent(),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"))
	table := unnamed(t, client, newShop(t, "").table)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The cancel comes once the wait has polled 6 times (its pauses are
	// then up to seconds long), a moment after the 6th DescribeTable:
	// during the pause that follows it, or the next request. Triggered by
	// the requests, not by a timer, so that a slow CreateTable on a loaded
	// machine cannot make the cancel come before the wait.
	cancelled := make(chan time.Time, 1)
	slow := &slowLocal{Client: client, building: -1, onDescribe: func(n int64) {
		if n == 6 {
			time.AfterFunc(20*time.Millisecond, func() { cancelled <- time.Now(); cancel() })
		}
	}}
	_, err := table.Create(ctx, slow)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	late := time.Since(<-cancelled)
	// At once: well within the pause it interrupts (up to 5 s).
	if late > time.Second || slow.describes.Load() < 6 {
		t.Fatalf("Create returned %v after the cancel, after %d DescribeTable requests", late, slow.describes.Load())
	}
}

// TestCreateAfterDeletion: a table of the name that is deleted while
// Create waits for it is created again, as the schema declares it.
func TestCreateAfterDeletion(t *testing.T) {
	t.Parallel()
	schema := newShop(t, "").table
	client := integration.Client(t)
	table := unnamed(t, client, schema)
	in := schema.CreateTableInput()
	in.TableName = aws.String(table.Name())
	define(&in.AttributeDefinitions, "SK", types.ScalarAttributeTypeN) // another table
	ctx, cancel := integration.Context(t)
	defer cancel()
	if _, err := client.CreateTable(ctx, in); err != nil {
		t.Fatal(err)
	}
	slow := &slowLocal{Client: client}
	slow.onDescribe = func(n int64) {
		if n == 1 { // as if it were DELETING when Create found it
			if _, err := client.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table.Name())}); err != nil {
				t.Error(err)
			}
		}
	}
	if notes, err := table.Create(ctx, slow); err != nil || len(notes) != 0 {
		t.Fatalf("got %v, %v", notes, err)
	}
	if diffs, err := table.Check(ctx, client); err != nil || len(diffs) != 0 {
		t.Fatalf("the table is not the schema's: %v, %v", diffs, err)
	}
}

// TestCreateConcurrently: replicas of a service that start together and
// each call Create: one creates the table, the others find it and wait;
// none fails.
func TestCreateConcurrently(t *testing.T) {
	t.Parallel()
	client := integration.Client(t)
	table := unnamed(t, client, newShop(t, "").table)
	ctx, cancel := integration.Context(t)
	defer cancel()
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			notes, err := table.Create(ctx, client)
			if err == nil && len(notes) != 0 {
				err = fmt.Errorf("notes %v", notes)
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if diffs, err := table.Check(ctx, client); err != nil || len(diffs) != 0 {
		t.Fatalf("%v, %v", diffs, err)
	}
}
