package shard_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/shard"
)

// Seed 002: 2,000 writes/s of items under 1 KB is 2,000 WCU/s on the
// index, which 3 shards of 800 WCU/s absorb.
func ExampleCount() {
	fmt.Println(shard.Count(2000))
	fmt.Println(shard.Count(800))
	// Output:
	// 3
	// 1
}

// An index write costs one unit per started KB of the projected item: the
// same 2,000 writes/s of 2.5 KB items need 6,000 WCU/s, so 8 shards.
func ExampleCountForItems() {
	fmt.Println(shard.CountForItems(2000, 900))
	fmt.Println(shard.CountForItems(2000, 2560))
	// Output:
	// 3
	// 8
}

// Seed 002 as written: an order keeps its date in order_date, the sort
// key of the sharded index, stored once; open_status_shard alone says
// whether it is open. Closing it removes open_status_shard and nothing
// else.
func ExampleNew() {
	type Order struct {
		ID     string `dynamodbav:"order_id"`
		Status string `dynamodbav:"status"`
		Date   string `dynamodbav:"order_date"`
	}
	orderByID := keyfirst.OnTable(keyfirst.Composite("PK", keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))), keyfirst.NoSort())
	openByDate := keyfirst.OnIndex("OpenOrdersByDate", keyfirst.Str("open_status_shard"), keyfirst.Str("order_date"))
	openOrders := keyfirst.Must(shard.New(openByDate, shard.Spec[Order, string]{
		Base:      "OPEN",
		Shards:    shard.Count(2000),
		Field:     "ID",
		SortField: "Date",
		When:      func(o Order) bool { return o.Status == "OPEN" },
	}))
	table := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "orders", Key: orderByID, GSIs: []keyfirst.Index{openByDate.Index()}}))
	orders := keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[Order]{
		Type: "Order",
		Keys: []keyfirst.Binding{orderByID.Fields("ID"), openOrders.Binding()},
	}))

	o := Order{ID: "ord123", Status: "OPEN", Date: "2024-04-01T09:15:00"}
	for _, status := range []string{"OPEN", "CLOSED"} {
		o.Status = status
		item, err := orders.Item(o)
		if err != nil {
			fmt.Println(err)
			return
		}
		var attrs []string
		for _, name := range slices.Sorted(maps.Keys(item)) {
			attrs = append(attrs, name+"="+item[name].(*types.AttributeValueMemberS).Value)
		}
		fmt.Println(strings.Join(attrs, " "))
	}
	// Output:
	// PK=ORDER#ord123 _type=Order open_status_shard=OPEN#2 order_date=2024-04-01T09:15:00 order_id=ord123 status=OPEN
	// PK=ORDER#ord123 _type=Order order_date=2024-04-01T09:15:00 order_id=ord123 status=CLOSED
}
