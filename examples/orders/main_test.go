package main

import (
	"os"
	"strings"
	"testing"

	"github.com/keyfirst/keyfirst/examples/internal/demotest"
	"github.com/keyfirst/keyfirst/integration"
)

func TestMain(m *testing.M) { integration.Main(m) }

// The example prints exactly this against DynamoDB Local: the same four
// orders read three ways, and what each read and cost.
func TestRun(t *testing.T) { demotest.Check(t, run, want) }

const want = `wrote 121 orders: 363 WCU (table 121, OrderStatusDateGSI 121, OrderStatusDateNativeGSI 121)

c_42's CANCELLED orders, 1 July - 30 September 2019, through OrderStatusDateGSI:
  c_42  o063  CANCELLED  2019-07-09  163
  c_42  o070  CANCELLED  2019-07-30  170
  c_42  o077  CANCELLED  2019-08-20  177
  c_42  o084  CANCELLED  2019-09-10  184
  > Query CustomerOrders index OrderStatusDateGSI: (CustomerId = "c_42") AND (OrderStatusDate BETWEEN "CANCELLED#2019-07-01" AND "CANCELLED#2019-09-30")
    1 request, 4 items read, 4 returned, 0.5 RCU

the same through OrderStatusDateNativeGSI (sort key OrderStatus, OrderDate):
  c_42  o063  CANCELLED  2019-07-09  163
  c_42  o070  CANCELLED  2019-07-30  170
  c_42  o077  CANCELLED  2019-08-20  177
  c_42  o084  CANCELLED  2019-09-10  184
  > Query CustomerOrders index OrderStatusDateNativeGSI: (CustomerId = "c_42") AND (OrderStatus = "CANCELLED") AND (OrderDate BETWEEN "2019-07-01" AND "2019-09-30")
    1 request, 4 items read, 4 returned, 0.5 RCU

the same with a FilterExpression on the table (raw SDK):
  c_42  o063  CANCELLED  2019-07-09  163
  c_42  o070  CANCELLED  2019-07-30  170
  c_42  o077  CANCELLED  2019-08-20  177
  c_42  o084  CANCELLED  2019-09-10  184
  > Query CustomerOrders: PK = "CUSTOMER#c_42"
    FilterExpression: (OrderStatus = "CANCELLED") AND (OrderDate BETWEEN "2019-07-01" AND "2019-09-30")
    1 request, 120 items read, 4 returned, 3 RCU

side by side:
                  OrderStatusDateGSI  native GSI  FilterExpression
  requests        1                   1           1
  items read      4                   4           120
  items returned  4                   4           4
  RCU             0.5                 0.5         3
`

// The README prints the side-by-side table as this example prints it.
func TestREADMEShowsTheTable(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "on DynamoDB Local it prints:\n\n```\n")
	table, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 || !strings.HasSuffix(want, "side by side:\n"+table) {
		t.Fatalf("README.md's table of examples/orders differs from what it prints:\n%s", table)
	}
}
