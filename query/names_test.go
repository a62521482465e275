package query_test

import (
	"context"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// Odd has attribute names that the expression package would read as
// document paths or that look like keyfirst's own encoding of names.
type Odd struct {
	ID    string `dynamodbav:"id"`
	Group string `dynamodbav:"g%5B"`
	Order string `dynamodbav:"o.d[1]"`
	First string `dynamodbav:"odd[0]"`
	Other string `dynamodbav:"a.b"`
}

// OddView is what the INCLUDE index holds.
type OddView struct {
	Order string `dynamodbav:"o.d[1]"`
	First string `dynamodbav:"odd[0]"`
}

// Every attribute name is a name in key conditions and projections, on
// DynamoDB Local: keys named "p[0]", "s.k", "g%5B" and "o.d[1]", projected
// fields "odd[0]" and "a.b".
func TestAttributeNamesInQueries(t *testing.T) {
	t.Parallel()
	oddKey := keys.NewKey1(keys.ID[string](), keys.WithPrefix("ODD"))
	byID := keyfirst.OnTable(keyfirst.Composite("p[0]", oddKey), keyfirst.Composite("s.k", oddKey))
	order := keyfirst.Str("o.d[1]")
	byGroup := keyfirst.OnIndex("by-group", keyfirst.Str("g%5B"), order)
	included := byGroup.Index()
	included.Projection = keyfirst.Include("odd[0]")
	table, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "odd", Key: byID, GSIs: []keyfirst.Index{included}})
	noErr(t, err)
	client := integration.Client(t)
	table = tableFor(t, table)
	odds, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Odd]{Type: "ODD",
		Keys: []keyfirst.Binding{byID.Fields("ID", "ID"), byGroup.Fields("Group", "Order")}})
	noErr(t, err)
	ctx := context.Background()
	want := []Odd{{"1", "g", "a", "x1", "y1"}, {"2", "g", "b", "x2", "y2"}, {"3", "h", "c", "x3", "y3"}}
	for _, o := range want {
		_, err := odds.Put(ctx, client, o)
		noErr(t, err)
	}

	got, err := query.On(odds, byID, "2").Sort(oddKey.Range().Eq("2")).Collect(ctx, client)
	noErr(t, err)
	if len(got) != 1 || got[0] != want[1] {
		t.Fatalf("table query: %+v", got)
	}
	views, err := query.View[OddView](query.On(odds, byGroup, "g").
		SortValue(order.Ge("b"))).Collect(ctx, client)
	noErr(t, err)
	if len(views) != 1 || views[0] != (OddView{Order: "b", First: "x2"}) {
		t.Fatalf("index view: %+v", views)
	}
}
