package query_test

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/shard"
	"github.com/keyfirst/keyfirst/txn"
)

// Options of the constructor apply to every call, a call's options after
// them; WithCursorKey copies its key.
func TestOptions(t *testing.T) {
	s := newShop(t, "shop")
	key := []byte("0123456789abcdef")
	var queryTotal, callTotal keyfirst.Capacity
	it := orderItems(t, s, Order{CustomerID: "c1", ID: "o1", Status: Pending, Date: micro("2019-07-01T00:00:00")})[0]
	q := query.On(s.orders, orderByID, "c1", keyfirst.WithCursorKey(key), keyfirst.WithCapacity(&queryTotal))
	key[0] = 'X' // the query keeps its own copy

	page, err := q.Limit(1).Page(context.Background(), &canned{items: []map[string]types.AttributeValue{it}, last: keyOf(it)})
	noErr(t, err)
	if queryTotal.Requests != 1 || page.Capacity.Requests != 1 {
		t.Fatalf("capacity %+v / %+v", queryTotal, page.Capacity)
	}
	// The call's option replaces the constructor's capacity target.
	_, err = q.After(page.Next).Page(context.Background(), &canned{}, keyfirst.WithCapacity(&callTotal))
	noErr(t, err)
	if queryTotal.Requests != 1 || callTotal.Requests != 1 || callTotal.Total != 0.5 {
		t.Fatalf("capacity %+v / %+v", queryTotal, callTotal)
	}
	// The cursor was signed with the original key.
	_, err = q.After(page.Next).Page(context.Background(), &canned{}, keyfirst.WithCursorKey([]byte("0123456789abcdef")))
	noErr(t, err)
	_, err = q.After(page.Next).Page(context.Background(), noCalls{T: t}, keyfirst.WithCursorKey(key))
	if !errors.Is(err, query.ErrCursorTampered) {
		t.Fatalf("got %v", err)
	}
	// A nil option is skipped.
	_, err = q.Page(context.Background(), &canned{}, nil)
	noErr(t, err)
}

// A query takes WithCapacity, WithCursorKey and WithNext of a
// *query.Cursor, given to the constructor or to the call; an option it
// does not take (one of the item operations', another package's) is an
// *Error (ProblemOption) wrapping a *keyfirst.OptionError, before any
// request. A Scan has no cursor: WithNext and WithCursorKey are refused.
func TestOptionsThatDoNotApply(t *testing.T) {
	s := newShop(t, "shop")
	ctx := context.Background()
	q := query.On(s.orders, orderByID, "c1")
	refused := map[string]func() error{
		"ConsistentRead on Page": func() error {
			_, err := q.Page(ctx, noCalls{T: t}, keyfirst.ConsistentRead())
			return err
		},
		"CreateOnly on On": func() error {
			_, err := query.On(s.orders, orderByID, "c1", keyfirst.CreateOnly()).Collect(ctx, noCalls{T: t})
			return err
		},
		"MaxAttempts on All": func() error {
			for _, err := range q.All(ctx, noCalls{T: t}, keyfirst.WithMaxAttempts(3)) {
				return err
			}
			return nil
		},
		"a shard read's cursor on Page": func() error {
			_, err := q.Page(ctx, noCalls{T: t}, keyfirst.WithNext(new(shard.Cursor)))
			return err
		},
		"a transaction's token on Fingerprint": func() error { _, err := q.Fingerprint(txn.Token("t")); return err },
		"CursorKey on a Scan": func() error {
			_, err := query.ScanOn(s.customers, customerIndex).Collect(ctx, noCalls{T: t}, keyfirst.WithCursorKey([]byte("0123456789abcdef")))
			return err
		},
	}
	for name, call := range refused {
		err := call()
		var qe *query.Error
		var oe *keyfirst.OptionError
		if !errors.As(err, &qe) || qe.Problem != query.ProblemOption || !errors.As(err, &oe) || !errors.Is(err, keyfirst.ErrInvalidOption) {
			t.Errorf("%s: %v, want an *Error %s wrapping a *keyfirst.OptionError", name, err, query.ProblemOption)
		}
	}
}
