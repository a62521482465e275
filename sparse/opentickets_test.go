package sparse_test

import (
	"context"
	"slices"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
)

// dashboardEntry is what open-tickets-index projects of a ticket.
type dashboardEntry struct {
	ID      string `dynamodbav:"id"`
	Subject string `dynamodbav:"subject"`
}

// Seed 001 step by step (openBucket a Const side, bound with If): open three tickets, resolve one, reopen it, change
// an unrelated field, change openedAt. After each step open-tickets-index
// holds exactly the open tickets, oldest first, as the table says; a
// resolved ticket's stored item has no openBucket attribute at all.
func TestOpenTicketsIndexStepByStep(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	client, table, tickets := liveTickets(t, true)
	name := table.Name()

	key := func(id string) keyfirst.Key[Ticket] {
		k, err := tickets.Key(Ticket{ID: id})
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	modify := func(id string, f func(*Ticket)) {
		t.Helper()
		if _, err := tickets.Modify(ctx, client, key(id), func(tk *Ticket) { f(tk) }); err != nil {
			t.Fatal(err)
		}
	}
	update := func(id string, f func(*Ticket)) {
		t.Helper()
		tk, err := tickets.Get(ctx, client, key(id), keyfirst.ConsistentRead())
		if err != nil {
			t.Fatal(err)
		}
		f(&tk)
		if _, err := tickets.Replace(ctx, client, tk); err != nil {
			t.Fatal(err)
		}
	}
	check := func(step string, wantIDs ...string) {
		t.Helper()
		var stored []Ticket
		for _, id := range []string{"a", "b", "c"} {
			tk, err := tickets.Get(ctx, client, key(id), keyfirst.ConsistentRead())
			if err != nil {
				t.Fatalf("%s: %v", step, err)
			}
			stored = append(stored, tk)
			raw := rawItem(t, client, name, storedTicketKey(id))
			_, hasBucket := raw["openBucket"]
			_, hasOpenedAt := raw["openedAt"]
			if hasBucket != tk.IsOpen() || hasOpenedAt != tk.IsOpen() {
				t.Errorf("%s: ticket %s is %s, its item has openBucket: %v, openedAt: %v", step, id, tk.Status, hasBucket, hasOpenedAt)
			}
		}
		got := openTicketsInIndex(t, client, name)
		if want := openTicketsInTable(stored); !slices.Equal(got, want) {
			t.Errorf("%s: the index holds %v, the table's open tickets are %v", step, got, want)
		}
		var gotIDs []string
		for _, e := range got {
			gotIDs = append(gotIDs, e.ID)
		}
		if !slices.Equal(gotIDs, wantIDs) {
			t.Errorf("%s: the index holds %v, want %v", step, gotIDs, wantIDs)
		}
		// The dashboard through the pattern: openBucket is a constant
		// partition side, queried with None{}; the index projects what
		// the dashboard shows, read as a view.
		dashboard, err := query.View[dashboardEntry](query.On(tickets, openTickets, keyfirst.None{})).Collect(ctx, client)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		var readIDs []string
		for _, tk := range dashboard {
			readIDs = append(readIDs, tk.ID)
		}
		if !slices.Equal(readIDs, wantIDs) {
			t.Errorf("%s: query.On reads %v, want %v", step, readIDs, wantIDs)
		}
	}

	// Open three tickets; b is the oldest, c the newest.
	for _, tk := range []Ticket{ticket("a", Open, at(10, 0)), ticket("b", Open, at(9, 0)), ticket("c", Open, at(11, 0))} {
		if _, err := tickets.Put(ctx, client, tk, keyfirst.CreateOnly()); err != nil {
			t.Fatal(err)
		}
	}
	check("open three", "b", "a", "c")

	modify("b", func(tk *Ticket) { tk.Status = Resolved })
	check("resolve b", "a", "c")

	modify("b", func(tk *Ticket) { tk.Status = Open })
	check("reopen b", "b", "a", "c")

	update("a", func(tk *Ticket) { tk.Customer = "someone else" })
	check("change a's customer", "b", "a", "c")

	update("c", func(tk *Ticket) { tk.OpenedAt = at(8, 0) })
	check("change c's openedAt", "c", "b", "a")

	// And the projected subject follows the ticket while it is open.
	update("a", func(tk *Ticket) { tk.Subject = "renamed" })
	check("rename a", "c", "b", "a")
	if got := openTicketsInIndex(t, client, name); got[2].Subject != "renamed" {
		t.Errorf("the index shows a's subject %q, want the new one", got[2].Subject)
	}
}
