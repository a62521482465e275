package query_test

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
)

// Options of the constructor apply to every call, a call's options after
// them; WithCursorKey copies its key.
func TestOptions(t *testing.T) {
	s := newShop(t, "shop")
	key := []byte("0123456789abcdef")
	var queryTotal, callTotal keyfirst.Capacity
	it := orderItems(t, s, Order{CustomerID: "c1", ID: "o1", Status: Pending, Date: micro("2019-07-01T00:00:00")})[0]
	q := query.Of(s.orders, keyfirst.WithCursorKey(key), keyfirst.WithCapacity(&queryTotal)).Partition(query.Encoded(customerPK.Encode("c1")))
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
