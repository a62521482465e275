package sparse_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/nocalls"
	"github.com/keyfirst/keyfirst/sparse"
)

// Seed 001 as written: a ticket stores its opening time once, as its own
// attribute openedAt, which is the sort key of open-tickets-index; the
// rule derives openBucket alone, so resolving a ticket REMOVEs openBucket
// and keeps openedAt.
type openedTicket struct {
	ID       string     `dynamodbav:"id"`
	Status   Status     `dynamodbav:"status"`
	OpenedAt *time.Time `dynamodbav:"openedAt,omitempty"`
}

func (t openedTicket) IsOpen() bool { return t.Status == Open }

// bucketOnly is the rule: openBucket = "OPEN" while open; openedAt is the
// field.
var bucketOnly = sparse.In(openTicketsIndex, openedTicket.IsOpen).Fixed("openBucket", "OPEN")

func openedTickets(t testing.TB) (*keyfirst.Table, *keyfirst.Entity[openedTicket]) {
	t.Helper()
	table := mustTable(t, keyfirst.TableSpec{Name: "tickets", PartitionKey: keyfirst.StringAttr("PK"), GSIs: []keyfirst.Index{{
		Name: openTicketsIndex, PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("openBucket")}, SortKey: []keyfirst.Attribute{keyfirst.StringAttr("openedAt")},
	}}})
	spec, err := sparse.Apply(table, keyfirst.EntitySpec[openedTicket]{Type: "Ticket",
		PartitionKey: keyfirst.DeriveString(func(t openedTicket) (string, error) { return "TICKET#" + t.ID, nil })}, bucketOnly)
	if err != nil {
		t.Fatal(err)
	}
	e, err := keyfirst.NewEntity(table, spec)
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
	at9, at10 := at(9, 0), at(10, 0)
	for _, tk := range []openedTicket{{"a", Open, &at10}, {"b", Open, &at9}} {
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
		var got []string
		for _, it := range queryIndex(t, client, table.Name(), openTicketsIndex, expression.Key("openBucket").Equal(expression.Value("OPEN"))) {
			got = append(got, it["id"].(*types.AttributeValueMemberS).Value)
		}
		if !slices.Equal(got, wantOpen) {
			t.Errorf("%s: the index holds %v, want %v", step, got, wantOpen)
		}
	}
	check("open two", "b", "a")
	key, err := tickets.Key(openedTicket{ID: "b"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := tickets.Modify(ctx, client, key, func(tk *openedTicket) error { tk.Status = Resolved; return nil })
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

// An open ticket without openedAt could not be in the index the rule puts
// it in: refused before any request (ItemMissingKey), as the rule's doc
// says; a resolved one may have none.
func TestSparseOmittedSortFieldRefused(t *testing.T) {
	t.Parallel()
	_, tickets := openedTickets(t)
	_, err := tickets.Put(context.Background(), nocalls.Client{T: t}, openedTicket{ID: "a", Status: Open})
	var ie *keyfirst.ItemError
	if !errors.As(err, &ie) || ie.Problem != keyfirst.ItemMissingKey || ie.Index != openTicketsIndex || ie.Attribute != "openedAt" {
		t.Errorf("an open ticket without openedAt: %v, want an ItemError (ItemMissingKey) on openedAt", err)
	}
	if _, err := tickets.Item(openedTicket{ID: "a", Status: Resolved}); err != nil {
		t.Errorf("a resolved ticket without openedAt: %v", err)
	}
}
