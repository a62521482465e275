package query_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/query"
)

// Builders are values: each method returns a copy, the receiver is left as
// it was, and no state is shared between copies.
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
	base := query.On(s.orders, byStatusDate, "c1")

	_ = base.Desc().Limit(3).Sort(statusDate.With1(Cancelled).BeginsWith()).ConsistentRead()
	_ = query.View[struct{ Pad string }](base)
	in := send(base).ins[0]
	if aws.ToString(in.IndexName) != "ByStatusDate" || !aws.ToBool(in.ScanIndexForward) || in.Limit != nil || in.ProjectionExpression != nil {
		t.Fatalf("the base query changed: %+v", in)
	}
	if got := in.ExpressionAttributeValues; len(got) != 1 || got[":0"].(*types.AttributeValueMemberS).Value != "c1" {
		t.Fatalf("the base query's values changed: %v", got)
	}

	// Two queries extended from one base do not see each other.
	a := base.Limit(1)
	b := base.Limit(2)
	ina, inb := send(a).ins[0], send(b).ins[0]
	if aws.ToInt32(ina.Limit) != 1 || aws.ToInt32(inb.Limit) != 2 {
		t.Fatalf("copies share state: %v / %v", aws.ToInt32(ina.Limit), aws.ToInt32(inb.Limit))
	}

	// Later calls replace earlier ones.
	in = send(base.Desc().Asc().SortAttr(query.Attr("OrderStatusDate").Ge(query.S("A"))).Sort(statusDate.With1(Shipped).BeginsWith())).ins[0]
	if !aws.ToBool(in.ScanIndexForward) || len(in.ExpressionAttributeValues) != 2 {
		t.Fatalf("%+v", in)
	}
}
