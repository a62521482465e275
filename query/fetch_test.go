package query_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/internal/nocalls"
	"github.com/keyfirst/keyfirst/query"
)

// ---- seed 002: the open-orders index, ALL or KEYS_ONLY ----
//
//	PK           SK           entity   GSI
//	ORDER#<id>   ORDER#<id>   Order    OpenOrders (OpenShard = OPEN#<n>; OpenAt): open orders only
//
// The same table twice: its index projecting ALL, or KEYS_ONLY.

// OpenOrder is seed 002's order: just under 3 KB, most of it its lines.
type OpenOrder struct {
	ID       string `dynamodbav:"OrderId"`
	Customer string `dynamodbav:"CustomerId"`
	Status   string `dynamodbav:"Status"`
	At       string `dynamodbav:"CreatedAt"`
	Total    int    `dynamodbav:"Total"`
	Lines    string `dynamodbav:"Lines"`
}

var (
	openOrderByID = keyfirst.OnTable(keyfirst.Str("PK"), keyfirst.Str("SK"))
	openOrdersIx  = keyfirst.OnIndex("OpenOrders", keyfirst.Str("OpenShard"), keyfirst.Str("OpenAt"))
)

// openShop declares seed 002's table, its OpenOrders index projecting
// proj, bound to a table of the test's own.
func openShop(t testing.TB, proj types.ProjectionType) *keyfirst.Entity[OpenOrder] {
	t.Helper()
	ix := openOrdersIx.Index()
	ix.Projection = keyfirst.Projection{Type: proj}
	desc := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "open", Key: openOrderByID, GSIs: []keyfirst.Index{ix}}))
	table := integration.TableOf(t, desc)
	return keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[OpenOrder]{Type: "Order", Keys: []keyfirst.Binding{
		keyfirst.Func(openOrderByID, func(o OpenOrder) (string, string, bool) { return "ORDER#" + o.ID, "ORDER#" + o.ID, true }),
		keyfirst.If(keyfirst.Func(openOrdersIx, func(o OpenOrder) (string, string, bool) { return "OPEN#0", o.At, true }),
			func(o OpenOrder) bool { return o.Status == "OPEN" }),
	}}))
}

func openOrder(i int) OpenOrder {
	return OpenOrder{ID: fmt.Sprintf("o%03d", i), Customer: fmt.Sprintf("c%d", i%7), Status: "OPEN",
		At: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute).Format(time.RFC3339), Total: i,
		Lines: strings.Repeat("x", 2800)}
}

// fetchClient is a client for Fetch whose BatchGetItem can be hooked.
type fetchClient struct {
	*dynamodb.Client
	batchGet func(ctx context.Context, in *dynamodb.BatchGetItemInput) (*dynamodb.BatchGetItemOutput, error)
}

func (c fetchClient) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	if c.batchGet != nil {
		return c.batchGet(ctx, in)
	}
	return c.Client.BatchGetItem(ctx, in, optFns...)
}

// TestKeysFetch reads 50 open orders through a KEYS_ONLY index and
// fetches them: item by item what the ALL index returns, in its order,
// with exactly 50 keys per page; orders deleted between the two reads
// are reported, and unprocessed keys retried.
func TestKeysFetch(t *testing.T) {
	t.Parallel()
	all, keysOnly := openShop(t, types.ProjectionTypeAll), openShop(t, types.ProjectionTypeKeysOnly)
	client := integration.Client(t)
	ctx, cancel := integration.Context(t)
	defer cancel()
	for i := range 60 {
		for _, e := range []*keyfirst.Entity[OpenOrder]{all, keysOnly} {
			if _, err := e.Put(ctx, client, openOrder(i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	want, err := query.On(all, openOrdersIx, "OPEN#0").Limit(50).Page(ctx, client)
	if err != nil || len(want.Items) != 50 {
		t.Fatalf("ALL: %d items, %v", len(want.Items), err)
	}

	t.Run("equal to the ALL index", func(t *testing.T) {
		got, err := query.Keys(query.On(keysOnly, openOrdersIx, "OPEN#0").Limit(50)).Fetch(ctx, client)
		if err != nil || !slices.Equal(got.Items, want.Items) || len(got.Missing) != 0 || got.Next == "" {
			t.Fatalf("fetched %d items (%d missing, next %q), %v", len(got.Items), len(got.Missing), got.Next, err)
		}
		if got.QueryCapacity.Indexes["OpenOrders"] <= 0 || got.QueryCapacity.Table != 0 || got.FetchCapacity.Table <= 0 || len(got.FetchCapacity.Indexes) != 0 {
			t.Fatalf("query %+v, fetch %+v", got.QueryCapacity, got.FetchCapacity)
		}
		rest, err := query.Keys(query.On(keysOnly, openOrdersIx, "OPEN#0").Limit(50).After(got.Next)).Fetch(ctx, client)
		if err != nil || len(rest.Items) != 10 || rest.Items[0].ID != "o050" {
			t.Fatalf("the rest: %d items, %v", len(rest.Items), err)
		}
	})

	t.Run("consistent fetch", func(t *testing.T) {
		var consistent []bool
		c := fetchClient{Client: client, batchGet: func(ctx context.Context, in *dynamodb.BatchGetItemInput) (*dynamodb.BatchGetItemOutput, error) {
			for _, ka := range in.RequestItems {
				consistent = append(consistent, aws.ToBool(ka.ConsistentRead))
			}
			return client.BatchGetItem(ctx, in)
		}}
		got, err := query.Keys(query.On(keysOnly, openOrdersIx, "OPEN#0").Limit(50)).Fetch(ctx, c, keyfirst.ConsistentRead())
		if err != nil || !slices.Equal(got.Items, want.Items) || !slices.Equal(consistent, []bool{true}) {
			t.Fatalf("fetched %d items, consistent %v, %v", len(got.Items), consistent, err)
		}
		// 50 items of one 4 KB block each: a unit each read consistently
		// (half a unit eventually consistently), the keys as before.
		if got.FetchCapacity.Total != 50 || got.QueryCapacity.Total != 0.5 {
			t.Fatalf("query %+v, fetch %+v", got.QueryCapacity, got.FetchCapacity)
		}
	})

	t.Run("unprocessed keys retried", func(t *testing.T) {
		var calls atomic.Int32
		c := fetchClient{Client: client, batchGet: func(ctx context.Context, in *dynamodb.BatchGetItemInput) (*dynamodb.BatchGetItemOutput, error) {
			if calls.Add(1) > 1 {
				return client.BatchGetItem(ctx, in)
			}
			name := keysOnly.Table().Name()
			ka := in.RequestItems[name]
			half := ka
			half.Keys = ka.Keys[:len(ka.Keys)/2]
			out, err := client.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{name: half}, ReturnConsumedCapacity: in.ReturnConsumedCapacity})
			if err == nil {
				rest := ka
				rest.Keys = ka.Keys[len(ka.Keys)/2:]
				out.UnprocessedKeys = map[string]types.KeysAndAttributes{name: rest}
			}
			return out, err
		}}
		got, err := query.Keys(query.On(keysOnly, openOrdersIx, "OPEN#0").Limit(50)).Fetch(ctx, c)
		if err != nil || !slices.Equal(got.Items, want.Items) || calls.Load() != 2 {
			t.Fatalf("fetched %d items in %d requests, %v", len(got.Items), calls.Load(), err)
		}
	})

	t.Run("deleted in between", func(t *testing.T) {
		gone := []int{3, 17, 42}
		c := fetchClient{Client: client, batchGet: func(ctx context.Context, in *dynamodb.BatchGetItemInput) (*dynamodb.BatchGetItemOutput, error) {
			for _, i := range gone {
				if err := keysOnly.Delete(ctx, client, openOrder(i)); err != nil {
					return nil, err
				}
			}
			return client.BatchGetItem(ctx, in)
		}}
		got, err := query.Keys(query.On(keysOnly, openOrdersIx, "OPEN#0").Limit(50)).Fetch(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		var wantItems []OpenOrder
		var wantMissing []keyfirst.Key[OpenOrder]
		for i, o := range want.Items {
			if slices.Contains(gone, i) {
				wantMissing = append(wantMissing, keyfirst.Must(keysOnly.Key(o)))
			} else {
				wantItems = append(wantItems, o)
			}
		}
		if !slices.Equal(got.Items, wantItems) || !slices.Equal(got.Missing, wantMissing) {
			t.Fatalf("fetched %d items, missing %v; want %d, %v", len(got.Items), got.Missing, len(wantItems), wantMissing)
		}
	})
}

// TestKeysFetchBadInput: what Fetch cannot run is refused before any
// request.
func TestKeysFetchBadInput(t *testing.T) {
	t.Parallel()
	desc := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "open", Key: openOrderByID, GSIs: []keyfirst.Index{openOrdersIx.Index()}}))
	orders := keyfirst.Must(keyfirst.NewEntity(desc, keyfirst.EntitySpec[OpenOrder]{Type: "Order", Keys: []keyfirst.Binding{
		keyfirst.Func(openOrderByID, func(o OpenOrder) (string, string, bool) { return "ORDER#" + o.ID, "ORDER#" + o.ID, true }),
		keyfirst.Func(openOrdersIx, func(o OpenOrder) (string, string, bool) { return "OPEN#0", o.At, o.Status == "OPEN" }),
	}}))
	type fetcher interface {
		keyfirst.QueryAPI
		keyfirst.BatchGetItemAPI
	}
	for _, tc := range []struct {
		name    string
		fetch   func(query.FetchAPI) error
		problem query.Problem
	}{
		{"a collection", func(c query.FetchAPI) error {
			_, err := query.Keys(query.CollectionOn(desc, openOrdersIx, "OPEN#0")).Fetch(context.Background(), c)
			return err
		}, query.ProblemSource},
		{"a limit of 0", func(c query.FetchAPI) error {
			_, err := query.Keys(query.On(orders, openOrdersIx, "OPEN#0").Limit(0)).Fetch(context.Background(), c)
			return err
		}, query.ProblemLimit},
		{"an empty partition", func(c query.FetchAPI) error {
			_, err := query.Keys(query.On(orders, openOrdersIx, "")).Fetch(context.Background(), c)
			return err
		}, query.ProblemPartition},
		{"consistent keys of a GSI", func(c query.FetchAPI) error {
			_, err := query.Keys(query.On(orders, openOrdersIx, "OPEN#0").ConsistentRead()).Fetch(context.Background(), c, keyfirst.ConsistentRead())
			return err
		}, query.ProblemConsistentRead},
		{"a nil client", func(query.FetchAPI) error {
			_, err := query.Keys(query.On(orders, openOrdersIx, "OPEN#0")).Fetch(context.Background(), nil)
			return err
		}, query.ProblemClient},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var qe *query.Error
			if err := tc.fetch(fetcher(nocalls.Client{T: t})); !errors.As(err, &qe) || qe.Problem != tc.problem {
				t.Fatalf("err = %v, want %v", err, tc.problem)
			}
		})
	}
}

// TestOpenOrdersTrade measures seed 002's trade on DynamoDB Local: the
// write capacity of a write of a 3 KB open order, and the read capacity
// of a read of 50 of them, with the index projecting ALL and KEYS_ONLY
// (+ the fetch). The figures are the package documentation's.
func TestOpenOrdersTrade(t *testing.T) {
	t.Parallel()
	all, keysOnly := openShop(t, types.ProjectionTypeAll), openShop(t, types.ProjectionTypeKeysOnly)
	client := integration.Client(t)
	ctx, cancel := integration.Context(t)
	defer cancel()
	var write [2]keyfirst.Capacity
	for i := range 50 {
		for j, e := range []*keyfirst.Entity[OpenOrder]{all, keysOnly} {
			if _, err := e.Put(ctx, client, openOrder(i), keyfirst.WithCapacity(&write[j])); err != nil {
				t.Fatal(err)
			}
		}
	}
	var readAll keyfirst.Capacity
	if _, err := query.On(all, openOrdersIx, "OPEN#0").Limit(50).Page(ctx, client, keyfirst.WithCapacity(&readAll)); err != nil {
		t.Fatal(err)
	}
	got, err := query.Keys(query.On(keysOnly, openOrdersIx, "OPEN#0").Limit(50)).Fetch(ctx, client)
	if err != nil || len(got.Items) != 50 {
		t.Fatal(len(got.Items), err)
	}
	t.Logf("write of one order: ALL %.1f WCU (index %.1f), KEYS_ONLY %.1f WCU (index %.1f)",
		write[0].Write/50, write[0].Indexes["OpenOrders"]/50, write[1].Write/50, write[1].Indexes["OpenOrders"]/50)
	t.Logf("read of 50 orders: ALL %.1f RCU; KEYS_ONLY %.1f RCU (query %.1f + fetch %.1f)",
		readAll.Total, got.QueryCapacity.Total+got.FetchCapacity.Total, got.QueryCapacity.Total, got.FetchCapacity.Total)
	// 3 KB: 3 WCU on the table and 3 on an ALL index, 1 on a KEYS_ONLY one.
	if write[0].Write != 50*6 || write[1].Write != 50*4 {
		t.Errorf("writes: ALL %+v, KEYS_ONLY %+v", write[0], write[1])
	}
	// 50 items of 2.9 KB = 36 blocks of 4 KB, half a unit each (eventually
	// consistent); the keys: one block; the fetch: one block per item.
	if readAll.Total != 18 || got.QueryCapacity.Total != 0.5 || got.FetchCapacity.Total != 25 {
		t.Errorf("reads: ALL %v, keys %v + fetch %v", readAll.Total, got.QueryCapacity.Total, got.FetchCapacity.Total)
	}
}
