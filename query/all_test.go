package query_test

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
)

func TestAll(t *testing.T) {
	s := newShop(t, "shop")
	its := threeOrders(t, s)
	q := query.On(s.orders, orderByID, "c1")
	ctx := context.Background()

	t.Run("single use", func(t *testing.T) {
		seq := q.All(ctx, &scripted{outs: []*dynamodb.QueryOutput{{Items: its}}})
		n := 0
		for _, err := range seq {
			noErr(t, err)
			n++
		}
		for _, err := range seq {
			if !errors.Is(err, query.ErrReused) {
				t.Fatalf("second range: %v", err)
			}
			n++
		}
		if n != 4 {
			t.Fatalf("%d values", n)
		}
	})

	t.Run("a failed request is yielded once and ends the loop", func(t *testing.T) {
		var next query.Cursor
		c := &scripted{outs: []*dynamodb.QueryOutput{{Items: its[:2], LastEvaluatedKey: keyOf(its[1])}}}
		var got []string
		var errs []error
		for o, err := range q.All(ctx, c, keyfirst.WithNext(&next)) {
			if err != nil {
				errs = append(errs, err)
				continue
			}
			got = append(got, o.ID)
		}
		if len(got) != 2 || len(errs) != 1 || !errors.Is(errs[0], errScriptEnd) || len(c.ins) != 2 {
			t.Fatalf("items %v errors %v requests %d", got, errs, len(c.ins))
		}
		c2 := &scripted{outs: []*dynamodb.QueryOutput{{}}}
		_, err := q.After(next).Page(ctx, c2)
		noErr(t, err)
		if sk := c2.ins[0].ExclusiveStartKey["SK"].(*types.AttributeValueMemberS).Value; sk != "ORDER#o2" {
			t.Fatalf("resumed at %s", sk)
		}
	})

	t.Run("an item that does not decode", func(t *testing.T) {
		customer, err := s.customers.Item(Customer{ID: "c1"})
		noErr(t, err)
		var next query.Cursor
		c := &scripted{outs: []*dynamodb.QueryOutput{{Items: []map[string]types.AttributeValue{its[0], customer, its[1]}}}}
		var got []string
		var last error
		for o, err := range q.All(ctx, c, keyfirst.WithNext(&next)) {
			if err != nil {
				last = err
				continue
			}
			got = append(got, o.ID)
		}
		if len(got) != 1 || !errors.Is(last, keyfirst.ErrWrongEntityType) || next == "" {
			t.Fatalf("items %v error %v next %q", got, last, next)
		}
	})

	t.Run("a cancelled context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := q.Collect(ctx, &scripted{outs: []*dynamodb.QueryOutput{{Items: its}}})
		var re *query.RequestError
		if !errors.Is(err, context.Canceled) || !errors.As(err, &re) {
			t.Fatalf("got %v", err)
		}
	})

	t.Run("a panic in the loop still stores the cursor", func(t *testing.T) {
		var next query.Cursor
		c := &scripted{outs: []*dynamodb.QueryOutput{{Items: its, LastEvaluatedKey: keyOf(its[2])}}}
		func() {
			defer func() { _ = recover() }()
			n := 0
			for _, err := range q.All(ctx, c, keyfirst.WithNext(&next)) {
				noErr(t, err)
				if n++; n == 2 {
					panic("in the loop body")
				}
			}
		}()
		c2 := &scripted{outs: []*dynamodb.QueryOutput{{}}}
		_, err := q.After(next).Page(ctx, c2)
		noErr(t, err)
		if sk := c2.ins[0].ExclusiveStartKey["SK"].(*types.AttributeValueMemberS).Value; sk != "ORDER#o1" {
			t.Fatalf("resumed at %s, want after the last item the loop finished", sk)
		}
	})

	t.Run("done: the empty cursor", func(t *testing.T) {
		next := query.Cursor("stale")
		_, err := q.Collect(ctx, &scripted{outs: []*dynamodb.QueryOutput{{Items: its}}}, keyfirst.WithNext(&next))
		noErr(t, err)
		if next != "" {
			t.Fatalf("next %q", next)
		}
	})
}
