package snippet

import (
	"time"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
)

// Ticket is seed 001's ticket.
type Ticket struct {
	ID       string
	Status   string
	OpenedAt time.Time
}

// IsOpen is the condition of open-tickets-index.
func (t Ticket) IsOpen() bool { return t.Status == "OPEN" }

// What the doc's fragment runs in: the table, the ticket's spec without
// the rule, and the codec of openedAt.
var (
	table      *keyfirst.Table
	ticketSpec keyfirst.EntitySpec[Ticket]
	openedAt   = keys.Must(keys.NewKey1(keys.Time(keys.Micro)))
)
