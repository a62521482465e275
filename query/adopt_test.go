package query_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/query"
)

// TestReadAdopted reads seed 002's orders written with the raw SDK,
// without the entity-type attribute, through keyfirst: an entity read of
// the table and of the ALL index, and a collection, decode them as the
// entity whose Adopt claims their key.
func TestReadAdopted(t *testing.T) {
	t.Parallel()
	desc := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "open", Key: openOrderByID, GSIs: []keyfirst.Index{openOrdersIx.Index()}}))
	table := integration.TableOf(t, desc)
	orders := keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[OpenOrder]{Type: "Order",
		Adopt: func(_, sk types.AttributeValue) bool {
			s, ok := sk.(*types.AttributeValueMemberS)
			return ok && strings.HasPrefix(s.Value, "ORDER#")
		},
		Keys: []keyfirst.Binding{
			keyfirst.Func(openOrderByID, func(o OpenOrder) (string, string, bool) { return "ORDER#" + o.ID, "ORDER#" + o.ID, true }),
			keyfirst.If(keyfirst.Func(openOrdersIx, func(o OpenOrder) (string, string, bool) { return "OPEN#0", o.At, true }),
				func(o OpenOrder) bool { return o.Status == "OPEN" }),
		}}))
	client := integration.Client(t)
	ctx, cancel := integration.Context(t)
	defer cancel()
	var want []OpenOrder
	for i := range 5 {
		o := openOrder(i)
		want = append(want, o)
		item := keyfirst.Must(orders.Item(o))
		delete(item, table.TypeAttribute())
		if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table.Name()), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	byIndex, err := query.On(orders, openOrdersIx, "OPEN#0").Collect(ctx, client)
	if err != nil || !slices.Equal(byIndex, want) {
		t.Fatalf("index: %d orders, %v", len(byIndex), err)
	}
	one, err := query.On(orders, openOrderByID, "ORDER#o002").Collect(ctx, client)
	if err != nil || len(one) != 1 || one[0] != want[2] {
		t.Fatalf("table: %v, %v", one, err)
	}
	mixed, err := query.CollectionOn(table, openOrderByID, "ORDER#o003").Collect(ctx, client)
	if err != nil || len(mixed) != 1 || mixed[0] != any(want[3]) {
		t.Fatalf("collection: %v, %v", mixed, err)
	}
}
