package sparse_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/nocalls"
	"github.com/keyfirst/keyfirst/query"
)

// Seed 001 as written: a ticket stores its opening time once, as its own
// attribute openedAt, which is the sort key of open-tickets-index; the
// pattern's sort side is that field (a Str side bound to the field of its
// name), so resolving a ticket REMOVEs openBucket, the constant side, and
// keeps openedAt.
type openedTicket struct {
	ID     string `dynamodbav:"id"`
	Status Status `dynamodbav:"status"`
	// OpenedAt is ISO-8601 text in UTC, at a fixed width.
	OpenedAt string `dynamodbav:"openedAt,omitempty"`
}

func (t openedTicket) IsOpen() bool { return t.Status == Open }

var (
	openedTicketByID = keyfirst.OnTable(keyfirst.Composite("PK", ticketKey), keyfirst.NoSort())
	// openByField: openBucket = "OPEN" while open; openedAt is the field.
	openByField = keyfirst.OnIndex(openTicketsIndex, keyfirst.Const("openBucket", "OPEN"), keyfirst.Str("openedAt"))
)

func openedTickets(t testing.TB) (*keyfirst.Table, *keyfirst.Entity[openedTicket]) {
	t.Helper()
	table := mustTable(t, keyfirst.TableSpec{Name: "tickets", Key: openedTicketByID, GSIs: []keyfirst.Index{openByField.Index()}})
	e, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[openedTicket]{Type: "Ticket", Keys: []keyfirst.Binding{
		openedTicketByID.Fields("ID"),
		keyfirst.If(openByField.Fields("OpenedAt"), openedTicket.IsOpen),
	}})
	if err != nil {
		t.Fatal(err)
	}
	return table, e
}

// On DynamoDB Local: open, resolve (Modify), reopen (Replace); the stored
// ticket keeps openedAt throughout and has openBucket exactly while open;
// the index holds the open tickets, oldest first.
func TestSparseSortKeyIsTheField(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	schema, e := openedTickets(t)
	client, table := liveTable(t, schema)
	tickets := keyfirst.Must(e.In(table))
	at9, at10 := openedAt(at(9, 0)), openedAt(at(10, 0))
	for _, tk := range []openedTicket{{"a", Open, at10}, {"b", Open, at9}} {
		if _, err := tickets.Put(ctx, client, tk); err != nil {
			t.Fatal(err)
		}
	}
	check := func(step string, wantOpen ...string) {
		t.Helper()
		for _, id := range []string{"a", "b"} {
			raw := rawItem(t, client, table.Name(), map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "TICKET#" + id}})
			tk, err := tickets.Decode(raw)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"PK", "_type", "id", "openedAt", "status"}
			if tk.IsOpen() {
				want = []string{"PK", "_type", "id", "openBucket", "openedAt", "status"}
			}
			if got := slices.Sorted(maps.Keys(raw)); !slices.Equal(got, want) {
				t.Errorf("%s: ticket %s (%s) stores %v, want %v", step, id, tk.Status, got, want)
			}
		}
		var got, read []string
		for _, it := range queryIndex(t, client, table.Name(), openTicketsIndex, expression.Key("openBucket").Equal(expression.Value("OPEN"))) {
			got = append(got, it["id"].(*types.AttributeValueMemberS).Value)
		}
		if !slices.Equal(got, wantOpen) {
			t.Errorf("%s: the index holds %v, want %v", step, got, wantOpen)
		}
		// The dashboard, read through the pattern: the same, in order.
		open, err := query.On(tickets, openByField, keyfirst.None{}).Collect(ctx, client)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		for _, tk := range open {
			read = append(read, tk.ID)
		}
		if !slices.Equal(read, wantOpen) {
			t.Errorf("%s: query.On reads %v, want %v", step, read, wantOpen)
		}
	}
	check("open two", "b", "a")
	key, err := tickets.Key(openedTicket{ID: "b"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := tickets.Modify(ctx, client, key, func(tk *openedTicket) { tk.Status = Resolved })
	if err != nil {
		t.Fatal(err)
	}
	check("resolve b", "a")
	b.Status = Open
	if _, err := tickets.Replace(ctx, client, b); err != nil {
		t.Fatal(err)
	}
	check("reopen b", "b", "a")
}

// An open ticket without openedAt could not be in the index If puts it
// in: refused before any request (ItemMissingKey), on every write path; a
// resolved one may have none.
func TestSparseOmittedSortFieldRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, tickets := openedTickets(t)
	client := nocalls.Client{T: t}
	open := openedTicket{ID: "a", Status: Open}
	for path, write := range map[string]func() error{
		"Item":    func() error { _, err := tickets.Item(open); return err },
		"Put":     func() error { _, err := tickets.Put(ctx, client, open); return err },
		"Replace": func() error { _, err := tickets.Replace(ctx, client, open); return err },
		"BatchWrite": func() error {
			return tickets.Table().BatchWrite(ctx, client, []keyfirst.WriteRequest{tickets.PutRequest(open)})
		},
	} {
		var ie *keyfirst.ItemError
		if err := write(); !errors.As(err, &ie) || ie.Problem != keyfirst.ItemMissingKey || ie.Index != openTicketsIndex || ie.Attribute != "openedAt" {
			t.Errorf("%s of an open ticket without openedAt: %v, want an ItemError (ItemMissingKey) on openedAt", path, err)
		}
	}
	if _, err := tickets.Item(openedTicket{ID: "a", Status: Resolved}); err != nil {
		t.Errorf("a resolved ticket without openedAt: %v", err)
	}
}
