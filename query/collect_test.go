package query_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
)

// TestCollectStops: Collect appends the items itself (not through the
// iterator's yield), and still returns the items read before an error,
// over several responses, with the cursor where All would leave it.
func TestCollectStops(t *testing.T) {
	s := newShop(t, "shop")
	its := threeOrders(t, s)
	customer, err := s.customers.Item(Customer{ID: "c1"})
	noErr(t, err)
	q := query.On(s.orders, orderByID, "c1")
	ctx := context.Background()
	ids := func(orders []Order) []string {
		out := make([]string, len(orders))
		for i, o := range orders {
			out[i] = o.ID
		}
		return out
	}
	resumesAt := func(t *testing.T, next query.Cursor, want string) {
		t.Helper()
		c := &scripted{outs: []*dynamodb.QueryOutput{{}}}
		_, err := q.After(next).Page(ctx, c)
		noErr(t, err)
		if sk := c.ins[0].ExclusiveStartKey["SK"].(*types.AttributeValueMemberS).Value; sk != want {
			t.Fatalf("resumed after %s, want after %s", sk, want)
		}
	}

	t.Run("an item that does not decode, in the second response", func(t *testing.T) {
		var next query.Cursor
		c := &scripted{outs: []*dynamodb.QueryOutput{
			{Items: its[:2], LastEvaluatedKey: keyOf(its[1])},
			{Items: []map[string]types.AttributeValue{its[2], customer, its[0]}},
		}}
		got, err := q.Collect(ctx, c, keyfirst.WithNext(&next))
		var de *query.DecodeError
		if !errors.As(err, &de) || !errors.Is(err, keyfirst.ErrWrongEntityType) {
			t.Fatalf("got %v, want a *DecodeError", err)
		}
		if !slices.Equal(ids(got), []string{"o1", "o2", "o3"}) {
			t.Fatalf("collected %v, want the three items before the error", ids(got))
		}
		resumesAt(t, next, "ORDER#o3") // at the item that failed
	})

	t.Run("a failed request after a response", func(t *testing.T) {
		var next query.Cursor
		c := &scripted{outs: []*dynamodb.QueryOutput{{Items: its[:2], LastEvaluatedKey: keyOf(its[1])}}}
		got, err := q.Collect(ctx, c, keyfirst.WithNext(&next))
		if !errors.Is(err, errScriptEnd) || !slices.Equal(ids(got), []string{"o1", "o2"}) {
			t.Fatalf("collected %v, error %v", ids(got), err)
		}
		resumesAt(t, next, "ORDER#o2")
	})

	t.Run("a limit over several responses", func(t *testing.T) {
		var next query.Cursor
		c := &scripted{outs: []*dynamodb.QueryOutput{
			{Items: its[:1], LastEvaluatedKey: keyOf(its[0])},
			{Items: its[1:3], LastEvaluatedKey: keyOf(its[2])},
		}}
		got, err := q.Limit(3).Collect(ctx, c, keyfirst.WithNext(&next))
		noErr(t, err)
		if !slices.Equal(ids(got), []string{"o1", "o2", "o3"}) || len(c.ins) != 2 || *c.ins[1].Limit != 2 {
			t.Fatalf("collected %v in %d requests", ids(got), len(c.ins))
		}
		resumesAt(t, next, "ORDER#o3")
	})
}
