package query_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/query"
)

// Builders are values: each method returns a copy, the receiver is left as
// it was, and no slice is shared with the caller or between copies.
func TestQueryIsAValue(t *testing.T) {
	s := newShop(t, "shop")
	ctx := context.Background()
	send := func(q query.Query[Order]) *canned {
		t.Helper()
		c := &canned{}
		if _, err := q.Page(ctx, c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	values := []query.Value{query.S("c1")}
	attrs := []string{"Status"}
	base := query.Of(s.orders).Index("ByStatusDate").Partition(values...).Project(attrs...)
	values[0] = query.S("c2")
	attrs[0] = "Pad"

	_ = base.Desc().Limit(3).Index("Keys").Project("OrderStatusDate").Sort(statusDate.With1(Cancelled).BeginsWith())
	in := send(base).ins[0]
	if aws.ToString(in.IndexName) != "ByStatusDate" || !aws.ToBool(in.ScanIndexForward) || in.Limit != nil {
		t.Fatalf("the base query changed: %+v", in)
	}
	if got := in.ExpressionAttributeValues; len(got) != 1 || got[":0"].(*types.AttributeValueMemberS).Value != "c1" {
		t.Fatalf("partition values shared with the caller: %v", got)
	}
	if names := in.ExpressionAttributeNames; !hasValue(names, "Status") || hasValue(names, "Pad") {
		t.Fatalf("projection shared with the caller: %v", names)
	}

	// Two queries extended from one base do not see each other.
	a := base.Project("Date")
	b := base.Project("Pad")
	ina, inb := send(a).ins[0], send(b).ins[0]
	if !hasValue(ina.ExpressionAttributeNames, "Date") || hasValue(ina.ExpressionAttributeNames, "Pad") ||
		!hasValue(inb.ExpressionAttributeNames, "Pad") || hasValue(inb.ExpressionAttributeNames, "Date") {
		t.Fatalf("copies share state: %v / %v", ina.ExpressionAttributeNames, inb.ExpressionAttributeNames)
	}

	// Later calls replace earlier ones.
	in = send(base.Desc().Asc().Sort(statusDate.With1(Shipped).BeginsWith()).SortAttr(query.Attr("OrderStatusDate").Ge(query.S("A")))).ins[0]
	if !aws.ToBool(in.ScanIndexForward) || len(in.ExpressionAttributeValues) != 2 {
		t.Fatalf("%+v", in)
	}
}

func hasValue(m map[string]string, v string) bool {
	for _, x := range m {
		if x == v {
			return true
		}
	}
	return false
}
