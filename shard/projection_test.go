package shard_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/shard"
)

// ---- sharded indexes that project some attributes (issue 21, item 8) ----
//
// open-slim INCLUDEs every field of Order, open-thin holds its keys only.

var (
	slimByDate = keyfirst.OnIndex("open-slim", keyfirst.Str("slim_shard"), keyfirst.Str("slim_date"))
	thinByDate = keyfirst.OnIndex("open-thin", keyfirst.Str("thin_shard"), keyfirst.Str("thin_date"))

	slimShards = openOn(slimByDate)
	thinShards = openOn(thinByDate)

	slimTable = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{
		Name: "slim",
		Key:  orderByID,
		GSIs: []keyfirst.Index{
			projected(slimByDate, keyfirst.Include("order_id", "customer_id", "status", "date", "region")),
			projected(thinByDate, keyfirst.KeysOnly()),
		},
	}))
	slimOrders = keyfirst.Must(keyfirst.NewEntity(slimTable, keyfirst.EntitySpec[Order]{
		Type: "ORDER",
		Keys: []keyfirst.Binding{orderByID.Fields("ID"), slimShards.Binding(), thinShards.Binding()},
	}))
)

// openOn shards the open orders on index p over 3 shards, by the id.
func openOn(p keyfirst.Pattern[string, string]) *shard.Index[Order, string] {
	return keyfirst.Must(shard.New(p, shard.Spec[Order, string]{
		Base: "OPEN", Shards: 3, Field: "ID", Sort: func(o Order) string { return o.Date }, When: Order.isOpen,
	}))
}

// projected is p's index with projection pr.
func projected(p keyfirst.Pattern[string, string], pr keyfirst.Projection) keyfirst.Index {
	ix := p.Index()
	ix.Projection = pr
	return ix
}

// The sharded reader reads through query.On, and so inherits its rule: a
// read of an index that does not hold every attribute of T is refused
// before any request (and so is a Reshard of it); through one that does,
// whole items come back, and an item of another type in a shard (written
// by an older release, or by another program) stops the read with a
// *query.DecodeError, never as a partial T.
func TestShardedReadNeverDecodesPartialItem(t *testing.T) {
	t.Parallel()
	_, err := shard.Query(slimOrders, thinShards).Collect(context.Background(), noCalls{T: t})
	var re *shard.ReadError
	var qe *query.Error
	if !errors.As(err, &re) || re.Problem != shard.ReadQuery || !errors.As(err, &qe) || qe.Problem != query.ProblemProjection || qe.Index != "open-thin" {
		t.Fatalf("a read of a KEYS_ONLY sharded index: %v", err)
	}
	if _, err := thinShards.Reshard(context.Background(), slimOrders, noCalls{T: t}); !errors.As(err, &qe) || qe.Problem != query.ProblemProjection {
		t.Fatalf("a Reshard of a KEYS_ONLY sharded index: %v", err)
	}

	table, ctx := localTable(t, slimTable)
	orders := keyfirst.Must(slimOrders.In(table))
	client := integration.Client(t)
	want := []Order{order("o-1", open, "2026-06-01T10:00:00Z"), order("o-2", open, "2026-06-02T10:00:00Z")}
	for _, o := range want {
		if _, err := orders.Put(ctx, client, o); err != nil {
			t.Fatal(err)
		}
	}
	got, err := shard.Query(orders, slimShards).Collect(ctx, client)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("whole orders: %+v, %v", got, err)
	}

	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	pk, err := orderByID.PartitionValues("o-0")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table.Name()), Item: map[string]types.AttributeValue{
		"PK": pk[0], "_type": s("ORDER_V0"), "order_id": s("o-0"), "slim_shard": s("OPEN#0"), "slim_date": s("2026-06-01T12:00:00Z"),
	}}); err != nil {
		t.Fatal(err)
	}
	got, err = shard.Query(orders, slimShards).Collect(ctx, client)
	var de *query.DecodeError
	if !errors.As(err, &de) || !errors.Is(err, keyfirst.ErrWrongEntityType) {
		t.Fatalf("with an item of another type: %+v, %v", got, err)
	}
	for _, o := range got {
		if !slices.Contains(want, o) {
			t.Fatalf("returned %+v", o)
		}
	}
}
