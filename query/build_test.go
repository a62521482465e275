package query_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

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
	c1 := query.Encoded(customerPK.Encode("c1"))
	tests := []struct {
		name       string
		q          query.Query[Order]
		index      string
		consistent bool
		projection []string
	}{
		{"table", query.Of(s.orders).Partition(c1), "", false, nil},
		{"table, consistent", query.Of(s.orders).Partition(c1).ConsistentRead(), "", true, nil},
		{"LSI, consistent", query.Of(s.orders).Index("ByPlaced").Partition(c1).ConsistentRead(), "ByPlaced", true, nil},
		{"table, projected", query.Of(s.orders).Partition(c1).Project("Status", "Status", "Date"), "", false,
			[]string{"Date", "PK", "SK", "Status", "_type"}},
		{"GSI ALL, projected", query.Of(s.orders).Index("ByStatusDate").Partition(query.S("c1")).Project("Pad"), "ByStatusDate", false,
			[]string{"CustomerId", "OrderStatusDate", "PK", "Pad", "SK", "_type"}},
		{"native GSI, projected", query.Of(s.orders).Index("ByStatusDateNative").Partition(query.S("c1")).Project("Status"), "ByStatusDateNative", false,
			[]string{"CustomerId", "OrderDate", "OrderStatus", "PK", "SK", "Status", "_type"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &canned{}
			if _, err := tt.q.Page(context.Background(), c); err != nil {
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
