package query_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
)

// threeOrders are c1's orders o1, o2, o3 as stored.
func threeOrders(t testing.TB, s shop) []map[string]types.AttributeValue {
	var orders []Order
	for i := 1; i <= 3; i++ {
		orders = append(orders, Order{CustomerID: "c1", ID: fmt.Sprintf("o%d", i), Status: Pending, Date: micro("2019-07-01T00:00:00")})
	}
	return orderItems(t, s, orders...)
}

func capacity(units float64) *types.ConsumedCapacity {
	return &types.ConsumedCapacity{CapacityUnits: aws.Float64(units), Table: &types.Capacity{CapacityUnits: aws.Float64(units)}}
}

// A page with a limit gathers its items over short responses, asking each
// time for what is missing, and adds up their capacity.
func TestPageOverShortResponses(t *testing.T) {
	s := newShop(t, "shop")
	its := threeOrders(t, s)
	c := &scripted{outs: []*dynamodb.QueryOutput{
		{Items: its[:1], LastEvaluatedKey: keyOf(its[0]), ConsumedCapacity: capacity(0.5)},
		{Items: its[1:3], LastEvaluatedKey: keyOf(its[2]), ConsumedCapacity: capacity(1)},
	}}
	var total keyfirst.Capacity
	var next query.Cursor
	q := query.On(s.orders, orderByID, "c1")
	page, err := q.Limit(3).Page(context.Background(), c, keyfirst.WithCapacity(&total), keyfirst.WithNext(&next))
	noErr(t, err)
	if ids := orderIDs(page.Items); !slices.Equal(ids, []string{"o1", "o2", "o3"}) {
		t.Fatalf("items %v", ids)
	}
	if len(c.ins) != 2 || aws.ToInt32(c.ins[0].Limit) != 3 || aws.ToInt32(c.ins[1].Limit) != 2 {
		t.Fatalf("%d requests", len(c.ins))
	}
	if page.Capacity.Total != 1.5 || page.Capacity.Table != 1.5 || page.Capacity.Requests != 2 || total.Total != 1.5 {
		t.Fatalf("capacity %+v, total %+v", page.Capacity, total)
	}
	if page.Next == "" || next != page.Next {
		t.Fatalf("next %q, stored %q", page.Next, next)
	}
	// The cursor resumes after o3: the next request starts there.
	c2 := &scripted{outs: []*dynamodb.QueryOutput{{}}}
	_, err = q.Limit(3).After(page.Next).Page(context.Background(), c2)
	noErr(t, err)
	if got := c2.ins[0].ExclusiveStartKey["SK"].(*types.AttributeValueMemberS).Value; got != "ORDER#o3" {
		t.Fatalf("resumed at %s", got)
	}
}

// On an item that does not decode, a page keeps the items before it and a
// cursor after them; on a failed request, the items of the responses
// before it.
func TestPageErrors(t *testing.T) {
	s := newShop(t, "shop")
	its := threeOrders(t, s)
	customer, err := s.customers.Item(Customer{ID: "c1", Name: "Ada"})
	noErr(t, err)
	q := query.On(s.orders, orderByID, "c1")

	c := &scripted{outs: []*dynamodb.QueryOutput{{Items: []map[string]types.AttributeValue{its[0], customer, its[1]}}}}
	page, err := q.Page(context.Background(), c)
	var typeErr *keyfirst.EntityTypeError
	if !errors.Is(err, keyfirst.ErrWrongEntityType) || !errors.As(err, &typeErr) || typeErr.Got != "CUSTOMER" {
		t.Fatalf("got %v", err)
	}
	if len(page.Items) != 1 || page.Next == "" {
		t.Fatalf("page %+v", page)
	}
	c = &scripted{outs: []*dynamodb.QueryOutput{{}}}
	_, err = q.After(page.Next).Page(context.Background(), c)
	noErr(t, err)
	if got := c.ins[0].ExclusiveStartKey["SK"].(*types.AttributeValueMemberS).Value; got != "ORDER#o1" {
		t.Fatalf("resumed at %s, want after the last item returned", got)
	}

	// The second request fails.
	c = &scripted{outs: []*dynamodb.QueryOutput{{Items: its[:2], LastEvaluatedKey: keyOf(its[1])}}}
	page, err = q.Limit(3).Page(context.Background(), c)
	var re *query.RequestError
	if !errors.Is(err, errScriptEnd) || !errors.As(err, &re) || re.Request != 2 || re.Op != "Query" || re.Table != "shop" {
		t.Fatalf("got %v", err)
	}
	if ids := orderIDs(page.Items); !slices.Equal(ids, []string{"o1", "o2"}) || page.Next == "" {
		t.Fatalf("page %v next %q", ids, page.Next)
	}
}

// A mixed collection decodes each item into its own type.
func TestPageMixed(t *testing.T) {
	s := newShop(t, "shop")
	its := threeOrders(t, s)
	customer, err := s.customers.Item(Customer{ID: "c1", Name: "Ada"})
	noErr(t, err)
	c := &scripted{outs: []*dynamodb.QueryOutput{{Items: []map[string]types.AttributeValue{customer, its[0]}}}}
	page, err := query.CollectionOn(s.table, orderByID, "c1").Page(context.Background(), c)
	noErr(t, err)
	if len(page.Items) != 2 || page.Next != "" {
		t.Fatalf("%+v", page)
	}
	if cu, ok := page.Items[0].(Customer); !ok || cu.Name != "Ada" {
		t.Fatalf("%T %+v", page.Items[0], page.Items[0])
	}
	if o, ok := page.Items[1].(Order); !ok || o.ID != "o1" {
		t.Fatalf("%T %+v", page.Items[1], page.Items[1])
	}
}

// Key and CursorAfter expose, for each item of a page gathered over two
// responses, its key attributes and the cursor after it: resuming from
// CursorAfter(i) starts the next request at item i's key, and Fingerprint
// is the same for two partitions of one query.
func TestPageKeyAndCursorAfter(t *testing.T) {
	s := newShop(t, "shop")
	its := threeOrders(t, s)
	c := &scripted{outs: []*dynamodb.QueryOutput{
		{Items: its[:1], LastEvaluatedKey: keyOf(its[0])},
		{Items: its[1:3], LastEvaluatedKey: keyOf(its[2])},
	}}
	q := query.On(s.orders, orderByID, "c1")
	page, err := q.Limit(3).Page(context.Background(), c)
	noErr(t, err)
	for i := range page.Items {
		key := page.Key(i)
		if want := keyOf(its[i]); !reflect.DeepEqual(key, want) {
			t.Errorf("Key(%d) = %v, want %v", i, key, want)
		}
		after, err := page.CursorAfter(i)
		noErr(t, err)
		c2 := &scripted{outs: []*dynamodb.QueryOutput{{}}}
		_, err = q.After(after).Page(context.Background(), c2)
		noErr(t, err)
		if got := c2.ins[0].ExclusiveStartKey; !reflect.DeepEqual(got, keyOf(its[i])) {
			t.Errorf("after CursorAfter(%d) the request starts at %v, want %v", i, got, keyOf(its[i]))
		}
	}
	if page.Next == "" {
		t.Fatal("no Next")
	}
	if last, _ := page.CursorAfter(2); last != page.Next {
		t.Errorf("CursorAfter(last) = %q, Next = %q", last, page.Next)
	}
	f1, err1 := q.Fingerprint()
	f2, err2 := query.On(s.orders, orderByID, "c2").Fingerprint()
	f3, err3 := q.Desc().Fingerprint()
	noErr(t, errors.Join(err1, err2, err3))
	if f1 != f2 || f1 == f3 {
		t.Errorf("fingerprints c1 %q, c2 %q, c1 desc %q: want the same across partitions, another for another direction", f1, f2, f3)
	}
	if _, err := q.Limit(0).Fingerprint(); !errors.Is(err, query.ErrInvalidQuery) {
		t.Errorf("Fingerprint of Limit(0): %v, want ErrInvalidQuery", err)
	}
}
