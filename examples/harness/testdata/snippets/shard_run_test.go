package snippet

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/shard"
)

func TestMain(m *testing.M) { integration.Main(m) }

// The shard package doc's declarations, as printed, on DynamoDB Local:
// the entity writes the open orders into the 3 shards of OpenOrders, a
// Replace that closes one takes it out, and the sharded read returns the
// open ones, newest first.
func TestShardDocExample(t *testing.T) {
	ctx := context.Background()
	client := integration.Client(t)
	orders := keyfirst.Must(Orders.In(integration.TableOf(t, Shop)))
	if got := openOrders.Partitions(); !slices.Equal(got, []string{"OPEN#0", "OPEN#1", "OPEN#2"}) {
		t.Fatalf("partitions %v, want the 3 shards of shard.Count(2000)", got)
	}
	var want []string
	shards := map[int]bool{}
	for i := range 30 {
		o := Order{ID: fmt.Sprintf("o%02d", i), Status: "OPEN", Date: fmt.Sprintf("2024-04-%02dT09:15:00", i+1)}
		if i%4 == 0 {
			o.Status = "CLOSED"
		} else if o.ID != "o01" {
			want = append(want, o.ID)
			n, err := openOrders.Shard(o)
			if err != nil {
				t.Fatal(err)
			}
			shards[n] = true
		}
		if _, err := orders.Put(ctx, client, o); err != nil {
			t.Fatal(err)
		}
	}
	if len(shards) != 3 {
		t.Fatalf("the open orders are on shards %v, want all 3", shards)
	}
	if _, err := orders.Replace(ctx, client, Order{ID: "o01", Status: "CLOSED", Date: "2024-04-02T09:15:00"}); err != nil {
		t.Fatal(err)
	}
	slices.Reverse(want)
	got, err := shard.Query(orders, openOrders).SortValue(orderDate.BeginsWith("2024-04")).Desc().Collect(ctx, client)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, o := range got {
		ids = append(ids, o.ID)
	}
	if !slices.Equal(ids, want) {
		t.Fatalf("open orders of April, newest first: %v, want %v", ids, want)
	}
}
