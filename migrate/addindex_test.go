package migrate_test

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
)

// TestSeed000AddIndexWhileWriting is the whole procedure of the package
// documentation ("Changing a key design") on a live table that lacks the
// enum-first index: the new release writes (4 writers), Table.AddIndex
// creates ByStatusDate and waits until DynamoDB has built it, the
// backfill writes its attribute on the orders stored before, and the
// index then answers "c's CANCELLED orders in Q3" exactly, with no write
// lost (statusFirstWhileWriting checks both).
func TestSeed000AddIndexWhileWriting(t *testing.T) {
	t.Parallel()
	spec := shopSpec()
	spec.GSIs = slices.DeleteFunc(spec.GSIs, func(ix keyfirst.Index) bool { return ix.Name == byStatusDate.IndexName() })
	name := integration.CreateTable(t, keyfirst.Must(keyfirst.NewTable(spec)).CreateTableInput())
	statusFirstWhileWriting(t, integration.Client(t), name, true)
}

// addStatusFirstIndex creates ByStatusDate on cur's table while the
// writers write: the table's check names the index missing before, and
// nothing after.
func addStatusFirstIndex(t *testing.T, ctx context.Context, client *dynamodb.Client, cur shop, writes *atomic.Int64) {
	t.Helper()
	if _, err := cur.table.Check(ctx, client); !errors.Is(err, keyfirst.ErrTableDiffers) {
		t.Fatalf("before AddIndex: %v", err)
	}
	before, start := writes.Load(), time.Now()
	if err := cur.table.AddIndex(ctx, client, byStatusDate); err != nil {
		t.Fatal(err)
	}
	t.Logf("AddIndex: built in %v, %d concurrent writes meanwhile", time.Since(start).Round(time.Millisecond), writes.Load()-before)
	if diffs, err := cur.table.Check(ctx, client); err != nil || len(diffs) != 0 {
		t.Fatalf("after AddIndex: %v, %v", diffs, err)
	}
	out, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(cur.table.Name())})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range out.Table.GlobalSecondaryIndexes {
		if aws.ToString(g.IndexName) == byStatusDate.IndexName() && (g.IndexStatus != "ACTIVE" || aws.ToBool(g.Backfilling)) {
			t.Fatalf("AddIndex returned with the index %s", g.IndexStatus)
		}
	}
}

// patient is client with retries enough for DynamoDB Local's refusal of
// every write while it builds a GSI: each PutItem and UpdateItem fails
// with InternalFailure (HTTP 500) for the half second to two seconds
// that the index is CREATING (measured on DynamoDB Local 3.3.1; AWS
// takes writes while it builds an index). The writers of the service,
// retrying, wait it out; nothing they retry was written.
func patient(client *dynamodb.Client) *dynamodb.Client {
	return dynamodb.New(client.Options(), func(o *dynamodb.Options) {
		o.Retryer = retry.NewStandard(func(so *retry.StandardOptions) {
			so.MaxAttempts = 40
			so.MaxBackoff = 200 * time.Millisecond
			so.RateLimiter = ratelimit.None
		})
	})
}
