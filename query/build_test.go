package query_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
)

// projected returns the attribute names of a request's projection.
func projected(names map[string]string, projection *string) []string {
	if projection == nil {
		return nil
	}
	var out []string
	for _, p := range strings.Split(*projection, ", ") {
		out = append(out, names[p])
	}
	slices.Sort(out)
	return out
}

// What each query sends: index, consistency, capacity, projection, and
// never a FilterExpression.
func TestRequest(t *testing.T) {
	s := newShop(t, "shop")
	type orderDates struct {
		Status Status    `dynamodbav:"Status"`
		Date   time.Time `dynamodbav:"Date"`
	}
	type orderPad struct {
		Pad string `dynamodbav:"Pad"`
	}
	type orderKey struct {
		PK, SK string
		Key    string `dynamodbav:"OrderStatusDate"`
	}
	tests := []struct {
		name       string
		read       func(keyfirst.QueryAPI) error
		index      string
		consistent bool
		projection []string
	}{
		{"table", pageOf(query.On(s.orders, orderByID, "c1")), "", false, nil},
		{"table, consistent", pageOf(query.On(s.orders, orderByID, "c1").ConsistentRead()), "", true, nil},
		{"LSI, consistent", pageOf(query.On(s.orders, byPlaced, "c1").ConsistentRead()), "ByPlaced", true, nil},
		{"table, view", pageOf(query.View[orderDates](query.On(s.orders, orderByID, "c1"))), "", false,
			[]string{"Date", "PK", "SK", "Status", "_type"}},
		{"GSI ALL, view", pageOf(query.View[orderPad](query.On(s.orders, byStatusDate, "c1"))), "ByStatusDate", false,
			[]string{"CustomerId", "OrderStatusDate", "PK", "Pad", "SK", "_type"}},
		{"native GSI, view", pageOf(query.View[orderDates](query.On(s.orders, byStatusDateNative, "c1"))), "ByStatusDateNative", false,
			[]string{"CustomerId", "Date", "OrderDate", "OrderStatus", "PK", "SK", "Status", "_type"}},
		{"KEYS_ONLY GSI, view of the keys", pageOf(query.View[orderKey](query.On(s.orders, keysOnly, "c1"))), "Keys", false,
			[]string{"CustomerId", "OrderStatusDate", "PK", "SK"}},
		{"collection, view", pageOf(query.View[orderPad](query.CollectionOn(s.table, orderByID, "c1"))), "", false,
			[]string{"PK", "Pad", "SK"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &canned{}
			if err := tt.read(c); err != nil {
				t.Fatal(err)
			}
			in := c.ins[0]
			if aws.ToString(in.IndexName) != tt.index || aws.ToBool(in.ConsistentRead) != tt.consistent ||
				in.ReturnConsumedCapacity != types.ReturnConsumedCapacityIndexes || in.FilterExpression != nil || in.ExclusiveStartKey != nil {
				t.Fatalf("%+v", in)
			}
			if got := projected(in.ExpressionAttributeNames, in.ProjectionExpression); !slices.Equal(got, tt.projection) {
				t.Fatalf("projection %v, want %v", got, tt.projection)
			}
		})
	}
}
