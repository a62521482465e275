package main

import (
	"testing"

	"github.com/keyfirst/keyfirst/examples/internal/demotest"
	"github.com/keyfirst/keyfirst/integration"
)

func TestMain(m *testing.M) { integration.Main(m) }

// The example prints exactly this against DynamoDB Local: charlie's
// promotion writing GSI1PK and GSI1SK, then only admins in GSI1 (charlie
// among them, not greg, not the organization), and only customers in
// CustomerIndex.
func TestRun(t *testing.T) { demotest.Check(t, run, want) }

const want = `form 1: promote charlie, a member of berkshire (Update: one write, no read; GSI1's keys recomputed from the Role it sets):
  > UpdateItem SaaS {PK: "ORG#berkshire", SK: "USER#charlie"}: SET GSI1PK = "ORG#berkshire", GSI1SK = "Admin", Role = "Admin"
    1 request, 2 WCU
berkshire's admins, of its 4 users:
  {berkshire ajit Admin}
  {berkshire charlie Admin}
  {berkshire warren Admin}
  > Query SaaS index GSI1: (GSI1PK = "ORG#berkshire") AND (GSI1SK = "Admin")
    1 request, 3 items read, 3 returned, 0.5 RCU

form 2: every customer, of the 17 items of ECommerce, by a parallel scan of CustomerIndex:
  {c_13 c_13@example.com}
  {c_42 c_42@example.com}
  {c_5 c_5@example.com}
  {c_7 c_7@example.com}
  {c_99 c_99@example.com}
  > Scan ECommerce index CustomerIndex, TotalSegments=4
    4 requests, 5 items read, 5 returned, 2 RCU
`
