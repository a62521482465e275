package snippet

import "time"

// Ticket is seed 001's ticket.
type Ticket struct {
	ID       string
	Status   string
	OpenedAt time.Time
}

// IsOpen is the condition of open-tickets-index.
func (t Ticket) IsOpen() bool { return t.Status == "OPEN" }
