package main

import (
	"testing"

	"github.com/keyfirst/keyfirst/examples/internal/demotest"
	"github.com/keyfirst/keyfirst/integration"
)

func TestMain(m *testing.M) { integration.Main(m) }

// The example prints exactly this against DynamoDB Local: the repo with
// only its issues, and with only its stars, from one item collection.
func TestRun(t *testing.T) { demotest.Check(t, run, want) }

const want = `the repo keyfirst/keyfirst and its two newest issues:
  repo   keyfirst/keyfirst: key conditions only
  issue  #10 examples
  issue  #9 sparse indexes
  > Query GitHub: (PK = "REPO#keyfirst/keyfirst") AND (SK <= "REPO#keyfirst/keyfirst"), ScanIndexForward=false, Limit=3
    1 request, 3 items read, 3 returned, 0.5 RCU

its stars, newest first, then the repo:
  star   ada, 2026-06-23T10:00:00Z
  star   linus, 2026-06-22T08:00:00Z
  star   grace, 2026-06-21T09:00:00Z
  repo   keyfirst/keyfirst: key conditions only
  > Query GitHub: (PK = "REPO#keyfirst/keyfirst") AND (SK >= "REPO#keyfirst/keyfirst"), ScanIndexForward=false
    1 request, 4 items read, 4 returned, 0.5 RCU
`
