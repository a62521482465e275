package main

import (
	"testing"

	"github.com/keyfirst/keyfirst/examples/internal/demotest"
	"github.com/keyfirst/keyfirst/integration"
)

func TestMain(m *testing.M) { integration.Main(m) }

// The example prints exactly this against DynamoDB Local: the dashboard
// after each step, the UpdateItem that REMOVEs openBucket and openedAt, and
// the stored item without them.
func TestRun(t *testing.T) { demotest.Check(t, run, want) }

const want = `opened a91f, b02c and 77de
  77de as stored: {PK: "TICKET#77de", _type: "Ticket", openBucket: "OPEN", opened: "2026-06-23T08:15:00Z", openedAt: "2026-06-23T08:15:00Z", status: "OPEN", subject: "export times out", ticketId: "77de"}

the dashboard: the open tickets, oldest first
  77de  08:15  export times out
  a91f  09:00  cannot log in
  b02c  10:30  invoice is wrong
  > Query SupportTickets index open-tickets-index: openBucket = "OPEN"
    1 request, 3 items read, 3 returned, 0.5 RCU

resolve 77de:
  > GetItem SupportTickets {PK: "TICKET#77de"}, ConsistentRead
    1 request, 1 item read, 1 returned, 1 RCU
  > UpdateItem SupportTickets {PK: "TICKET#77de"}: REMOVE openBucket, openedAt SET status = "RESOLVED"
    1 request, 2 WCU
  77de as stored: {PK: "TICKET#77de", _type: "Ticket", opened: "2026-06-23T08:15:00Z", status: "RESOLVED", subject: "export times out", ticketId: "77de"}

77de resolved: the open tickets, oldest first
  a91f  09:00  cannot log in
  b02c  10:30  invoice is wrong
  > Query SupportTickets index open-tickets-index: openBucket = "OPEN"
    1 request, 2 items read, 2 returned, 0.5 RCU

reopen 77de at 12:00:
  > GetItem SupportTickets {PK: "TICKET#77de"}, ConsistentRead
    1 request, 1 item read, 1 returned, 1 RCU
  > UpdateItem SupportTickets {PK: "TICKET#77de"}: SET openBucket = "OPEN", opened = "2026-06-23T12:00:00Z", openedAt = "2026-06-23T12:00:00Z", status = "OPEN"
    1 request, 2 WCU
  77de as stored: {PK: "TICKET#77de", _type: "Ticket", openBucket: "OPEN", opened: "2026-06-23T12:00:00Z", openedAt: "2026-06-23T12:00:00Z", status: "OPEN", subject: "export times out", ticketId: "77de"}

77de reopened: the open tickets, oldest first
  a91f  09:00  cannot log in
  b02c  10:30  invoice is wrong
  77de  12:00  export times out
  > Query SupportTickets index open-tickets-index: openBucket = "OPEN"
    1 request, 3 items read, 3 returned, 0.5 RCU
`
