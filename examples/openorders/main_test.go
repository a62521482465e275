package main

import (
	"testing"

	"github.com/keyfirst/keyfirst/examples/internal/demotest"
	"github.com/keyfirst/keyfirst/integration"
)

func TestMain(m *testing.M) { integration.Main(m) }

// The example prints exactly this against DynamoDB Local: the shard count's
// arithmetic, each order's shard, the order as create_order stored it
// (open_status_shard beside its order_date), the three shard queries of
// list_open_orders merged newest first, close_order's UpdateItem as the seed
// writes it, SET status = "CLOSED" REMOVE open_status_shard, with the
// capacity DynamoDB reported beside sparse's estimate, the closed order
// keeping its order_date, and, after the re-shard to 8 shards (its end
// reported through the public hook: the 9 items it read), the open orders on
// their new shards.
func TestRun(t *testing.T) { demotest.Check(t, run, want) }

const want = `peak 2000 writes/s of orders under 1 KB: 2000 WCU/s on OpenOrdersByDate
shard.Count(2000) = ceil(2000 / 800) = ceil(2.5) = 3 shards

create_order ord123  2024-04-01T09:15:00  -> OPEN#2
create_order ord102  2024-03-28T16:20:00  -> OPEN#2
create_order ord103  2024-04-02T14:00:00  -> OPEN#0
create_order ord105  2024-04-03T08:30:00  -> OPEN#1
create_order ord108  2024-04-05T17:45:00  -> OPEN#0
create_order ord110  2024-04-08T11:00:00  -> OPEN#1
  ord123 as stored: {PK: "ORDER#ord123", _type: "Order", customer_id: "c_42", open_status_shard: "OPEN#2", order_date: "2024-04-01T09:15:00", order_id: "ord123", rep_id: "r_7", status: "OPEN", total_amount: "129.90"}

list_open_orders("2024-04"): every shard, newest first, merged by order_date
  OPEN#1  2024-04-08T11:00:00  ord110  c_17  77.25
  OPEN#0  2024-04-05T17:45:00  ord108  c_8  9.99
  OPEN#1  2024-04-03T08:30:00  ord105  c_17  310.50
  OPEN#0  2024-04-02T14:00:00  ord103  c_42  42.00
  OPEN#2  2024-04-01T09:15:00  ord123  c_42  129.90
  > Query orders index OpenOrdersByDate: (open_status_shard = "OPEN#0") AND (begins_with (order_date, "2024-04")), ScanIndexForward=false
    1 request, 2 items read, 2 returned, 0.5 RCU
  > Query orders index OpenOrdersByDate: (open_status_shard = "OPEN#1") AND (begins_with (order_date, "2024-04")), ScanIndexForward=false
    1 request, 2 items read, 2 returned, 0.5 RCU
  > Query orders index OpenOrdersByDate: (open_status_shard = "OPEN#2") AND (begins_with (order_date, "2024-04")), ScanIndexForward=false
    1 request, 1 item read, 1 returned, 0.5 RCU

close_order ord123:
  > UpdateItem orders {PK: "ORDER#ord123"}: REMOVE open_status_shard SET status = "CLOSED"
    1 request, 2 WCU
  estimate: table 1 WCU + OpenOrdersByDate leave = 2 WCU
  ord123 as stored: {PK: "ORDER#ord123", _type: "Order", customer_id: "c_42", order_date: "2024-04-01T09:15:00", order_id: "ord123", rep_id: "r_7", status: "CLOSED", total_amount: "129.90"}

peak 6000 writes/s: shard.Count(6000) = 8 shards; Shards: 8, PreviousShards: 3, then Index.Reshard
  > shard.Reshard orders: 9 done

list_open_orders("2024-04"): every shard, newest first, merged by order_date
  OPEN#2  2024-04-08T11:00:00  ord110  c_17  77.25
  OPEN#3  2024-04-05T17:45:00  ord108  c_8  9.99
  OPEN#4  2024-04-03T08:30:00  ord105  c_17  310.50
  OPEN#6  2024-04-02T14:00:00  ord103  c_42  42.00
  > Query orders index OpenOrdersByDate: (open_status_shard = "OPEN#0") AND (begins_with (order_date, "2024-04")), ScanIndexForward=false
    1 request, 0 items read, 0 returned, 0 RCU
  > Query orders index OpenOrdersByDate: (open_status_shard = "OPEN#1") AND (begins_with (order_date, "2024-04")), ScanIndexForward=false
    1 request, 0 items read, 0 returned, 0 RCU
  > Query orders index OpenOrdersByDate: (open_status_shard = "OPEN#2") AND (begins_with (order_date, "2024-04")), ScanIndexForward=false
    1 request, 1 item read, 1 returned, 0.5 RCU
  > Query orders index OpenOrdersByDate: (open_status_shard = "OPEN#3") AND (begins_with (order_date, "2024-04")), ScanIndexForward=false
    1 request, 1 item read, 1 returned, 0.5 RCU
  > Query orders index OpenOrdersByDate: (open_status_shard = "OPEN#4") AND (begins_with (order_date, "2024-04")), ScanIndexForward=false
    1 request, 1 item read, 1 returned, 0.5 RCU
  > Query orders index OpenOrdersByDate: (open_status_shard = "OPEN#5") AND (begins_with (order_date, "2024-04")), ScanIndexForward=false
    1 request, 0 items read, 0 returned, 0 RCU
  > Query orders index OpenOrdersByDate: (open_status_shard = "OPEN#6") AND (begins_with (order_date, "2024-04")), ScanIndexForward=false
    1 request, 1 item read, 1 returned, 0.5 RCU
  > Query orders index OpenOrdersByDate: (open_status_shard = "OPEN#7") AND (begins_with (order_date, "2024-04")), ScanIndexForward=false
    1 request, 0 items read, 0 returned, 0 RCU
`
