// Command tickets is seed 001's sparse index of open tickets: the GSI
// open-tickets-index has the partition key openBucket and the sort key
// openedAt, and only open tickets carry them. The dashboard is one query,
// openBucket = "OPEN", oldest first, that reads open tickets only. Resolving
// a ticket REMOVEs both attributes (an empty string would be refused, and
// any other value would keep the ticket in the index); reopening writes
// them again. Every write computes them from the whole ticket.
package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/examples/internal/demo"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// Status is a ticket's status.
type Status string

// The statuses of a ticket.
const (
	Open     Status = "OPEN"
	Resolved Status = "RESOLVED"
)

// Ticket is a support ticket.
type Ticket struct {
	ID       string    `dynamodbav:"ticketId"`
	Subject  string    `dynamodbav:"subject"`
	Status   Status    `dynamodbav:"status"`
	OpenedAt time.Time `dynamodbav:"opened"`
}

// IsOpen is the condition of open-tickets-index.
func (t Ticket) IsOpen() bool { return t.Status == Open }

// The keys, the access patterns, the table and the entity, declared once.
var (
	ticketKey = keys.NewKey1(keys.ID[string](), keys.WithPrefix("TICKET"))
	// openedAt is ISO-8601 in UTC at a fixed width: byte order is time order.
	openedAt   = keys.NewKey1(keys.Time(keys.Second, keys.WithZ))
	ticketByID = keyfirst.OnTable(keyfirst.Composite("PK", ticketKey), keyfirst.NoSort())
	// The dashboard's index: openBucket = "OPEN", sorted by openedAt.
	openTickets = keyfirst.OnIndex("open-tickets-index", keyfirst.Const("openBucket", "OPEN"), keyfirst.Composite("openedAt", openedAt))

	SupportTickets = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "SupportTickets", Key: ticketByID,
		GSIs: []keyfirst.Index{openTickets.Index()}}))
	Tickets = keyfirst.Must(keyfirst.NewEntity(SupportTickets, keyfirst.EntitySpec[Ticket]{Type: "Ticket", Keys: []keyfirst.Binding{
		ticketByID.Fields("ID"),
		// Only open tickets are in the index: one that is not has neither attribute.
		keyfirst.If(openTickets.Fields("OpenedAt"), Ticket.IsOpen),
	}}))
)

func main() { demo.Main(run) }

func run(ctx context.Context, w io.Writer, client *dynamodb.Client) (err error) {
	db := demo.New(w, client)
	defer db.Close(ctx, &err)
	table, err := db.Create(ctx, SupportTickets)
	if err != nil {
		return err
	}
	tickets := keyfirst.Must(Tickets.In(table)) // a binding of its own schema: In cannot fail

	at := func(h, m int) time.Time { return time.Date(2026, 6, 23, h, m, 0, 0, time.UTC) }
	for _, t := range []Ticket{
		{"a91f", "cannot log in", Open, at(9, 0)},
		{"b02c", "invoice is wrong", Open, at(10, 30)},
		{"77de", "export times out", Open, at(8, 15)},
	} {
		if _, err := tickets.Put(ctx, db, t, keyfirst.CreateOnly()); err != nil {
			return err
		}
	}
	dashboard := func(step string) error {
		fmt.Fprintf(w, "\n%s: the open tickets, oldest first\n", step)
		open, err := query.On(tickets, openTickets, keyfirst.None{}).Collect(ctx, db)
		if err != nil {
			return err
		}
		for _, t := range open {
			fmt.Fprintf(w, "  %s  %s  %s\n", t.ID, t.OpenedAt.Format("15:04"), t.Subject)
		}
		db.Report()
		return nil
	}
	// rawItem prints the item as stored (demo.Stored reads it with the raw SDK).
	rawItem := func() error { return db.Stored(ctx, table, "77de", "TICKET#77de") }
	key77de, err := tickets.Key(Ticket{ID: "77de"})
	if err != nil {
		return err
	}
	change := func(step string, f func(*Ticket)) error {
		fmt.Fprintf(w, "\n%s:\n", step)
		_, err := tickets.Modify(ctx, db, key77de, func(t *Ticket) { f(t) }, keyfirst.WithCapacity(&keyfirst.Capacity{}))
		db.Report()
		if err != nil {
			return err
		}
		return rawItem()
	}

	fmt.Fprintln(w, "opened a91f, b02c and 77de")
	if err := rawItem(); err != nil {
		return err
	}
	if err := dashboard("the dashboard"); err != nil {
		return err
	}
	if err := change("resolve 77de", func(t *Ticket) { t.Status = Resolved }); err != nil {
		return err
	}
	if err := dashboard("77de resolved"); err != nil {
		return err
	}
	if err := change("reopen 77de at 12:00", func(t *Ticket) { t.Status, t.OpenedAt = Open, at(12, 0) }); err != nil {
		return err
	}
	return dashboard("77de reopened")
}
