package main

import (
	"testing"

	"github.com/keyfirst/keyfirst/examples/internal/demotest"
	"github.com/keyfirst/keyfirst/integration"
)

func TestMain(m *testing.M) { integration.Main(m) }

// The example prints exactly this against DynamoDB Local: four concurrent
// writers' 32 records, a consumer that crashes at the 13th with its
// checkpoint after the 10th, a second that resumes from that checkpoint
// (through JSON) and receives the 11th and 12th again, whose updates the
// watermarks refuse (run fails when they do not, or when the counts kept
// differ from the index's), and the counts kept equal to those of the
// open orders in OpenOrdersByDate; then the counts wiped and rebuilt from
// scratch while 4 writers write (a backfill's visit of every order, read
// partly before and partly after their writes, corrected by the 36 records
// since the consumer stopped: in a run without them, two days came out
// 7 instead of 8), and a third consumer resumed from the
// rebuild's position after 4 more writers, each time equal to the index.
func TestRun(t *testing.T) { demotest.Check(t, run, want) }

const want = `4 writers: 24 orders created, 4 closed, 4 moved to 2024-04-04: 32 records in the stream
consumer 1: crashed at record 13, its checkpoint saved after record 10
consumer 2: resumed from it, caught up after 22 records of orders (11 and 12 again: the watermarks skip their updates)

open orders per day  kept  in OpenOrdersByDate
2024-04-01              8     8
2024-04-02              4     4
2024-04-03              4     4
2024-04-04              4     4
equal

rebuild: counts wiped; a backfill visited every order while 4 writers wrote (each also closed a first order),
then the 36 records of orders since the consumer stopped replaced what it read of the orders they changed
open orders per day  kept  in OpenOrdersByDate
2024-04-01             12    12
2024-04-02              8     8
2024-04-03              8     8
2024-04-04              8     8
equal

4 writers wrote again; consumer 3: resumed from the rebuild's position, caught up after 36 records of orders
open orders per day  kept  in OpenOrdersByDate
2024-04-01             16    16
2024-04-02             12    12
2024-04-03             12    12
2024-04-04             12    12
equal
`
