package main

import (
	"testing"

	"github.com/keyfirst/keyfirst/examples/internal/demotest"
	"github.com/keyfirst/keyfirst/integration"
)

func TestMain(m *testing.M) { integration.Main(m) }

// The example prints exactly this against DynamoDB Local: u_8814's events
// newest first, then those of 23 June, the two of 12:30:00 kept apart.
func TestRun(t *testing.T) { demotest.Check(t, run, want) }

const want = `read 1: u_8814's activity, newest first
  EVT#2026-06-24T00:00:00Z#0000000001  login
  EVT#2026-06-23T23:59:59Z#0000000001  logout
  EVT#2026-06-23T12:30:00Z#0000000002  share report
  EVT#2026-06-23T12:30:00Z#0000000001  edit report
  EVT#2026-06-23T00:00:00Z#0000000001  view report
  EVT#2026-06-22T23:59:59Z#0000000001  login
  > Query AuditLog: (PK = "ACTOR#u_8814") AND (begins_with (SK, "EVT#")), ScanIndexForward=false
    1 request, 6 items read, 6 returned, 0.5 RCU

read 2: u_8814's events of 23 June
  EVT#2026-06-23T00:00:00Z#0000000001  view report
  EVT#2026-06-23T12:30:00Z#0000000001  edit report
  EVT#2026-06-23T12:30:00Z#0000000002  share report
  EVT#2026-06-23T23:59:59Z#0000000001  logout
  > Query AuditLog: (PK = "ACTOR#u_8814") AND (SK BETWEEN "EVT#2026-06-23T00:00:00Z" AND "EVT#2026-06-23T23:59:59Z$")
    1 request, 4 items read, 4 returned, 0.5 RCU
`
