package shard_test

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/shard"
	"github.com/keyfirst/keyfirst/txn"
)

// A read and a re-shard pass take the options every call shares
// (WithCapacity, WithCursorKey, WithNext of a shard.Cursor; the pass also
// WithMaxAttempts) besides their own; any other option, given to Query or
// to the call, is a *ReadError (ReadOption) wrapping a
// *keyfirst.OptionError, before any request.
func TestOptionsThatDoNotApply(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := shard.Query(orders, openOrders)
	refused := map[string]func() error{
		"ConsistentRead on Page": func() error {
			_, err := r.Page(ctx, noCalls{T: t}, keyfirst.ConsistentRead())
			return err
		},
		"MaxAttempts on Query": func() error {
			_, err := shard.Query(orders, openOrders, keyfirst.WithMaxAttempts(2)).Page(ctx, noCalls{T: t})
			return err
		},
		"a query's cursor on Collect": func() error {
			_, err := r.Collect(ctx, noCalls{T: t}, keyfirst.WithNext(new(query.Cursor)))
			return err
		},
		"a transaction's token on All": func() error {
			for _, err := range r.All(ctx, noCalls{T: t}, txn.Token("t")) {
				return err
			}
			return nil
		},
		"a pass's checkpoint on Page": func() error {
			_, err := r.Page(ctx, noCalls{T: t}, shard.WithCheckpoint(""))
			return err
		},
		"a short cursor key": func() error {
			_, err := r.Page(ctx, noCalls{T: t}, keyfirst.WithCursorKey([]byte("short")))
			return err
		},
		"WithCost on Reshard": func() error {
			_, err := openOrders.Reshard(ctx, orders, noCalls{T: t}, shard.WithCost(new(shard.Cost)))
			return err
		},
		"WithNext on Reshard": func() error {
			_, err := openOrders.Reshard(ctx, orders, noCalls{T: t}, keyfirst.WithNext(new(shard.Cursor)))
			return err
		},
		"ConsistentRead on Reshard": func() error {
			_, err := openOrders.Reshard(ctx, orders, noCalls{T: t}, keyfirst.ConsistentRead())
			return err
		},
	}
	for name, call := range refused {
		err := call()
		var re *shard.ReadError
		var oe *keyfirst.OptionError
		if !errors.As(err, &re) || re.Problem != shard.ReadOption || !errors.As(err, &oe) || !errors.Is(err, keyfirst.ErrInvalidOption) {
			t.Errorf("%s: %v, want a *ReadError %s wrapping a *keyfirst.OptionError", name, err, shard.ReadOption)
		}
	}
}

// WithCapacity adds up what a read consumed, as for every other call: the
// capacity of its Cost, given to Query or to the call; and what a re-shard
// pass consumed.
func TestReadCapacity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var base, call keyfirst.Capacity
	var cost shard.Cost
	r := shard.Query(orders, openOrders, keyfirst.WithCapacity(&base))
	for range 2 {
		if _, err := r.Page(ctx, cannedCapacity{}, shard.WithCost(&cost)); err != nil {
			t.Fatal(err)
		}
	}
	if base.Requests != 2*len(openOrders.ReadPartitions()) || base.Total != 2*cost.Capacity.Total || cost.Capacity.Total == 0 {
		t.Fatalf("WithCapacity of Query: %+v, the Cost of one call: %+v", base, cost.Capacity)
	}
	if _, err := r.Page(ctx, cannedCapacity{}, keyfirst.WithCapacity(&call)); err != nil {
		t.Fatal(err)
	}
	var pass keyfirst.Capacity
	if _, err := openOrders.Reshard(ctx, orders, cannedCapacity{noCalls{T: t}}, keyfirst.WithCapacity(&pass)); err != nil {
		t.Fatal(err)
	}
	if pass.Requests != len(openOrders.ReadPartitions()) || pass.Total != 0.5*float64(pass.Requests) {
		t.Fatalf("WithCapacity of Reshard: %+v", pass)
	}
	if call.Requests != cost.Capacity.Requests || call.Total != cost.Capacity.Total || base.Requests != 2*len(openOrders.ReadPartitions()) {
		t.Fatalf("WithCapacity of the call %+v, the Cost's %+v; of Query %+v", call, cost.Capacity, base)
	}
}

// cannedCapacity answers every query with an empty last page that consumed
// half a unit, when asked for the consumed capacity.
type cannedCapacity struct{ noCalls }

func (cannedCapacity) Query(_ context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	out := &dynamodb.QueryOutput{}
	if in.ReturnConsumedCapacity != "" && in.ReturnConsumedCapacity != types.ReturnConsumedCapacityNone {
		out.ConsumedCapacity = &types.ConsumedCapacity{CapacityUnits: aws.Float64(0.5)}
	}
	return out, nil
}
