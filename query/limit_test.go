package query_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
)

// bigPartition writes n orders of about 880 bytes for customer "big",
// matching of them CANCELLED in the third quarter of 2019 and spread evenly
// over the partition's table sort order; the others are of other statuses,
// or CANCELLED outside the window. It returns the ids of the matching
// orders in date order.
func bigPartition(t testing.TB, client *dynamodb.Client, s shop, n, matching int) []string {
	t.Helper()
	statuses := []Status{Pending, Shipped, Delivered, Cancelled}
	jun := micro("2019-06-01T00:00:00")
	var reqs []keyfirst.WriteRequest
	var want []string
	for i := range n {
		o := Order{CustomerID: "big", ID: fmt.Sprintf("o%05d", i), Pad: strings.Repeat("x", 700)}
		step := n / matching
		if i%step == step/2 && len(want) < matching {
			o.Status, o.Date = Cancelled, micro("2019-07-01T00:00:00").Add(time.Duration(len(want))*24*time.Hour)
			want = append(want, o.ID)
		} else {
			o.Status = statuses[i%len(statuses)]
			o.Date = jun.Add(time.Duration(i) * time.Hour) // June, or later for other statuses
			if o.Status == Cancelled {
				o.Date = jun.Add(-time.Duration(i) * time.Hour) // before July
			}
		}
		reqs = append(reqs, s.orders.PutRequest(o))
	}
	write(t, client, s.table, reqs...)
	return want
}

// In a partition of 2,000 orders with 10 that match, Limit 10 returns
// exactly 10 items in exactly 1 request and reports its capacity; the same
// question asked with a FilterExpression (raw SDK, allowed in tests only)
// needs many requests and reads every item.
func TestExactLimitVersusFilter(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	want := bigPartition(t, client, s, 2000, 10)
	inQ3, err := statusDate.With1(Cancelled).HalfOpen(micro("2019-07-01T00:00:00"), micro("2019-10-01T00:00:00"))
	noErr(t, err)
	ctx := context.Background()

	// The key condition.
	counter := &counting{QueryAPI: client}
	q := query.On(s.orders, byStatusDate, "big").Sort(inQ3)
	page, err := q.Limit(10).Page(ctx, counter)
	if err != nil {
		t.Fatal(err)
	}
	if got := orderIDs(page.Items); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("got %v, want %v", got, want)
	}
	if counter.requests() != 1 || page.Capacity.Requests != 1 {
		t.Fatalf("%d requests (%d with capacity), want exactly 1", counter.requests(), page.Capacity.Requests)
	}
	if page.Capacity.Total <= 0 || page.Capacity.Indexes["ByStatusDate"] <= 0 {
		t.Fatalf("capacity not reported: %+v", page.Capacity)
	}
	if page.Next == "" {
		t.Fatal("DynamoDB stopped at the limit with a LastEvaluatedKey: Next must resume")
	}

	// The same 10 with a FilterExpression: Limit counts the items read
	// before the filter, so it takes request after request.
	pk, err := customerPK.Encode("big")
	noErr(t, err)
	keyCond := expression.Key("PK").Equal(expression.Value(pk))
	lo, hi := inQ3.Values()
	filter := expression.Name("OrderStatusDate").Between(expression.Value(lo), expression.Value(hi))
	expr, err := expression.NewBuilder().WithKeyCondition(keyCond).WithFilter(filter).Build()
	noErr(t, err)
	var filtered []string
	var filterCapacity keyfirst.Capacity
	var start map[string]types.AttributeValue
	filterRequests, scanned := 0, 0
	for len(filtered) < 10 {
		out, err := client.Query(ctx, &dynamodb.QueryInput{
			TableName:                 aws.String(s.table.Name()),
			KeyConditionExpression:    expr.KeyCondition(),
			FilterExpression:          expr.Filter(),
			ExpressionAttributeNames:  expr.Names(),
			ExpressionAttributeValues: expr.Values(),
			Limit:                     aws.Int32(10),
			ExclusiveStartKey:         start,
			ReturnConsumedCapacity:    types.ReturnConsumedCapacityIndexes,
		})
		noErr(t, err)
		filterRequests++
		scanned += int(out.ScannedCount)
		filterCapacity.AddRead(*out.ConsumedCapacity)
		for _, it := range out.Items {
			o, err := s.orders.Decode(it)
			noErr(t, err)
			filtered = append(filtered, o.ID)
		}
		if out.LastEvaluatedKey == nil {
			break
		}
		start = out.LastEvaluatedKey
	}
	if len(filtered) != 10 {
		t.Fatalf("the filter found %d items", len(filtered))
	}
	if filterRequests <= 1 || filterCapacity.Total <= page.Capacity.Total {
		t.Fatalf("filter: %d requests, %.1f RCU; key condition: 1 request, %.1f RCU", filterRequests, filterCapacity.Total, page.Capacity.Total)
	}
	t.Logf("10 of 2,000: key condition 1 request, %d items read, %.1f RCU; FilterExpression with Limit=10: %d requests, %d items read, %.1f RCU",
		len(page.Items), page.Capacity.Total, filterRequests, scanned, filterCapacity.Total)

	// Exactness around the limit, counted request by request.
	for _, tt := range []struct {
		limit, items, requests int
	}{
		{5, 5, 1},
		{10, 10, 1},
		{15, 10, 1}, // DynamoDB says it is done: no request for an empty page
	} {
		t.Run(fmt.Sprintf("Limit(%d)", tt.limit), func(t *testing.T) {
			counter := &counting{QueryAPI: client}
			var total keyfirst.Capacity
			var next query.Cursor
			got, err := q.Limit(tt.limit).Collect(ctx, counter, keyfirst.WithCapacity(&total), keyfirst.WithNext(&next))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tt.items || counter.requests() != tt.requests || total.Requests != tt.requests {
				t.Fatalf("%d items in %d requests (capacity of %d), want %d in %d", len(got), counter.requests(), total.Requests, tt.items, tt.requests)
			}
			if l := aws.ToInt32(counter.ins[0].Limit); int(l) != tt.limit {
				t.Fatalf("sent Limit=%d, want %d", l, tt.limit)
			}
			if (tt.limit > 10) != (next == "") {
				t.Fatalf("next %q after %d of 10 items", next, len(got))
			}
		})
	}
}
