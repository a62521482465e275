package keyfirst_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
)

// The orders of seed 000 with their keys built by the keys package: the
// GSI sort key leads with the status (enum first), then the date.
var (
	customerPK = keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUST"))
	orderSK    = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))
	statusDate = keys.NewKey2(keys.Enum[Status](Open, Shipped, Cancelled), keys.Time(keys.Micro))
)

func keyedOrderSpec() keyfirst.EntitySpec[Order] {
	return keyfirst.EntitySpec[Order]{
		Type: "ORDER",
		Keys: []keyfirst.Binding{
			keyfirst.OnTable(keyfirst.Composite("PK", customerPK), keyfirst.Composite("SK", orderSK)).Fields("Customer", "ID"),
			keyfirst.OnIndex("GSI1", keyfirst.Composite("GSI1PK", customerPK), keyfirst.Composite("GSI1SK", statusDate)).
				Fields("Customer", "Status", "PlacedAt"),
		},
		Version: "version",
	}
}

func TestKeysCodecErrorsAreRefusedBeforeAnyRequest(t *testing.T) {
	table, err := keyfirst.NewTable(shopSpec())
	if err != nil {
		t.Fatal(err)
	}
	orders, err := keyfirst.NewEntity(table, keyedOrderSpec())
	if err != nil {
		t.Fatal(err)
	}
	good := order("c1", "o1", Cancelled, day)
	tests := []struct {
		name     string
		edit     func(*Order)
		attr     string
		sentinel error
	}{
		{"an id with #", func(o *Order) { o.ID = "o#1" }, "SK", keys.ErrSeparator},
		{"a missing key field", func(o *Order) { o.Customer = "" }, "PK", keys.ErrEmpty},
		{"a status outside the enum", func(o *Order) { o.Status = "LOST" }, "GSI1SK", keys.ErrNotInEnum},
		{"a year outside 0000-9999", func(o *Order) { o.PlacedAt = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) }, "GSI1SK", keys.ErrOutOfRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := good
			tt.edit(&o)
			_, err := orders.Put(context.Background(), noCalls{T: t}, o)
			var ie *keyfirst.ItemError
			if !errors.Is(err, tt.sentinel) || !errors.Is(err, keyfirst.ErrInvalidItem) || !errors.As(err, &ie) ||
				ie.Problem != keyfirst.ItemDerive || ie.Attribute != tt.attr {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

// TestSeed000CancelledOrdersOnLocal: "all CANCELLED orders of a customer
// from 1 July through 30 September" is one key condition on GSI1, with
// bounds from typed values; an Replace that cancels an order moves it in.
func TestSeed000CancelledOrdersOnLocal(t *testing.T) {
	t.Parallel()
	client, table := localTable(t)
	orders, err := keyfirst.NewEntity(table, keyedOrderSpec())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	jun30 := time.Date(2019, 6, 30, 23, 59, 59, 999999000, time.UTC)
	jul1 := time.Date(2019, 7, 1, 0, 0, 0, 0, time.UTC)
	sep30 := time.Date(2019, 9, 30, 23, 59, 59, 999999000, time.UTC)
	oct1 := time.Date(2019, 10, 1, 0, 0, 0, 0, time.UTC)
	stored := map[string]Order{}
	for _, o := range []Order{
		order("c1", "before", Cancelled, jun30),
		order("c1", "first", Cancelled, jul1),
		order("c1", "last", Cancelled, sep30),
		order("c1", "after", Cancelled, oct1),
		order("c1", "shipped", Shipped, jul1.AddDate(0, 1, 0)),
		order("c1", "open", Open, jul1.AddDate(0, 2, 0)),
		order("c2", "other-customer", Cancelled, jul1.AddDate(0, 0, 3)),
	} {
		s, err := orders.Put(ctx, client, o)
		if err != nil {
			t.Fatal(err)
		}
		stored[o.ID] = s
	}
	cond, err := statusDate.With1(Cancelled).HalfOpen(jul1, oct1)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := cond.Values()
	pk, err := customerPK.Encode("c1")
	if err != nil {
		t.Fatal(err)
	}
	query := func() []string {
		kc := expression.Key("GSI1PK").Equal(expression.Value(pk)).And(expression.Key("GSI1SK").Between(expression.Value(lo), expression.Value(hi)))
		x, err := expression.NewBuilder().WithKeyCondition(kc).Build()
		if err != nil {
			t.Fatal(err)
		}
		out, err := client.Query(ctx, &dynamodb.QueryInput{
			TableName: ptr(table.Name()), IndexName: ptr("GSI1"),
			KeyConditionExpression: x.KeyCondition(), ExpressionAttributeNames: x.Names(), ExpressionAttributeValues: x.Values(),
		})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, item := range out.Items {
			o, err := orders.Decode(item)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, o.ID)
		}
		return ids
	}
	if got := query(); !reflect.DeepEqual(got, []string{"first", "last"}) {
		t.Fatalf("CANCELLED in Q3: %v", got)
	}
	shipped := stored["shipped"]
	shipped.Status = Cancelled
	if _, err := orders.Replace(ctx, client, shipped); err != nil {
		t.Fatal(err)
	}
	if got := query(); !reflect.DeepEqual(got, []string{"first", "shipped", "last"}) {
		t.Fatalf("after cancelling the shipped order: %v", got)
	}
}
