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
// orders read three ways, each followed by what its read sent and cost.
func TestRun(t *testing.T) { demotest.Check(t, run, want) }

const want = `wrote 121 orders: 363 WCU, 121 on the table and 242 on its two GSIs

c_42's CANCELLED orders, 1 July - 30 September 2019, through OrderStatusDateGSI, then OrderStatusDateNativeGSI:
  c_42  o063  CANCELLED  2019-07-09  163
  c_42  o070  CANCELLED  2019-07-30  170
  c_42  o077  CANCELLED  2019-08-20  177
  c_42  o084  CANCELLED  2019-09-10  184
  > Query CustomerOrders index OrderStatusDateGSI: (CustomerId = "c_42") AND (OrderStatusDate BETWEEN "CANCELLED#2019-07-01" AND "CANCELLED#2019-09-30")
    1 request, 4 items read, 4 returned, 0.5 RCU
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
`

// The README prints what each of the three reads sent and cost as this
// example prints it: each of its lines, in order.
func TestREADMEShowsTheCosts(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "on DynamoDB Local it prints:\n\n```\n")
	shown, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 || shown == "" {
		t.Fatal("README.md shows no output of examples/orders")
	}
	printed := want
	for line := range strings.Lines(shown) {
		_, after, found := strings.Cut(printed, "\n"+line)
		if !found {
			t.Fatalf("README.md shows a line that examples/orders does not print there:\n%s", line)
		}
		printed = "\n" + after
	}
}
