package query_test

import (
	"context"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
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
	s := keyfirst.StringAttr
	spec := keyfirst.TableSpec{
		Name: "odd", PartitionKey: s("p[0]"), SortKey: s("s.k"),
		GSIs: []keyfirst.Index{{Name: "by-group", PartitionKey: []keyfirst.Attribute{s("g%5B")},
			SortKey: []keyfirst.Attribute{s("o.d[1]")}, Projection: keyfirst.Include("odd[0]")}},
	}
	table, err := keyfirst.NewTable(spec)
	noErr(t, err)
	client := integration.Client(t)
	table = tableFor(t, table)
	id := keyfirst.DeriveString(func(o Odd) (string, error) { return "ODD#" + o.ID, nil })
	odds, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Odd]{Type: "ODD", PartitionKey: id, SortKey: id})
	noErr(t, err)
	ctx := context.Background()
	want := []Odd{{"1", "g", "a", "x1", "y1"}, {"2", "g", "b", "x2", "y2"}, {"3", "h", "c", "x3", "y3"}}
	for _, o := range want {
		_, err := odds.Put(ctx, client, o)
		noErr(t, err)
	}

	got, err := query.Of(odds).Partition(query.S("ODD#2")).SortAttr(query.Attr("s.k").Eq(query.S("ODD#2"))).Collect(ctx, client)
	noErr(t, err)
	if len(got) != 1 || got[0] != want[1] {
		t.Fatalf("table query: %+v", got)
	}
	views, err := query.View[OddView](query.Of(odds).Index("by-group").Partition(query.S("g")).
		SortAttr(query.Attr("o.d[1]").Ge(query.S("b")))).Collect(ctx, client)
	noErr(t, err)
	if len(views) != 1 || views[0] != (OddView{Order: "b", First: "x2"}) {
		t.Fatalf("index view: %+v", views)
	}
}
