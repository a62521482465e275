package sparse_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/nocalls"
	"github.com/keyfirst/keyfirst/txn"
)

// The items the root package builds for the sparse indexes of the seeds:
// every key attribute of the index SET while the item qualifies, none at
// all otherwise (all or nothing: a constant side is no exception). Both
// forms of seed 000 and seed 001's tickets.
func TestMembershipItems(t *testing.T) {
	t.Parallel()
	_, tickets := newTickets(t, false)
	_, orgs, users := newSaaS(t, "saas")
	s := newShop(t, "shop")
	type built = func() (map[string]types.AttributeValue, error)
	ticketItem := func(s Status) built {
		return func() (map[string]types.AttributeValue, error) { return tickets.Item(ticket("a", s, at(8, 0))) }
	}
	userItem := func(r Role) built {
		return func() (map[string]types.AttributeValue, error) {
			return users.Item(User{Org: "acme", Name: "u", Role: r})
		}
	}
	tests := []struct {
		name    string
		item    built
		present map[string]string // attribute -> value
		absent  []string
	}{
		{"open ticket", ticketItem(Open), map[string]string{"openBucket": "OPEN", "openedAt": "2026-06-23T08:00:00.000000"}, nil},
		{"resolved ticket", ticketItem(Resolved), nil, []string{"openBucket", "openedAt"}},
		{"admin", userItem(Admin), map[string]string{"GSI1PK": "ORG#acme", "GSI1SK": "Admin"}, nil},
		{"member", userItem(Member), nil, []string{"GSI1PK", "GSI1SK"}},
		{"organization (dense in the same index)", func() (map[string]types.AttributeValue, error) { return orgs.Item(Organization{Name: "acme"}) },
			map[string]string{"GSI1PK": "ORG#acme", "GSI1SK": "ORG#acme"}, nil},
		{"customer", func() (map[string]types.AttributeValue, error) { return s.customers.Item(Customer{ID: "c1"}) },
			map[string]string{"CustomerIndexId": "c1"}, nil},
		{"order", func() (map[string]types.AttributeValue, error) { return s.orders.Item(Order{Customer: "c1", ID: "o1"}) },
			nil, []string{"CustomerIndexId"}},
		{"inventory item", func() (map[string]types.AttributeValue, error) { return s.inventory.Item(InventoryItem{SKU: "k"}) },
			nil, []string{"CustomerIndexId"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			item, err := tc.item()
			if err != nil {
				t.Fatal(err)
			}
			for attr, want := range tc.present {
				if got, ok := item[attr].(*types.AttributeValueMemberS); !ok || got.Value != want {
					t.Errorf("%s = %v, want %q", attr, item[attr], want)
				}
			}
			for _, attr := range tc.absent {
				if v, ok := item[attr]; ok {
					t.Errorf("%s = %v, want no attribute at all", attr, v)
				}
			}
		})
	}
}

// Bad values of a sparse index's key while the item qualifies: a Func
// that computes an empty string, a FuncE that fails, a field bound with
// If whose value is over DynamoDB's limit. Each is refused by every write path before the request
// (internal/nocalls; Modify, which reads first, against DynamoDB Local,
// where the stored ticket is left as it was), with the index and attribute
// named. While the item does not qualify its key values are not computed:
// the same ticket resolved is written.
func TestBadValuesRefusedBeforeTheRequest(t *testing.T) {
	t.Parallel()
	errNoOpening := errors.New("no opening time")
	// raw is the documented escape: a Func on raw sides, here beside a
	// constant partition side.
	raw := keyfirst.OnIndex(openTicketsIndex, keyfirst.Const("openBucket", "OPEN"), keyfirst.Str("openedAt"))
	long := strings.Repeat("x", 1025) // over DynamoDB's 1,024 bytes of a sort key value
	tests := []struct {
		name    string
		binding keyfirst.Binding
		subject string
		problem keyfirst.ItemProblem
		attr    string // the attribute named: a Func's error names the first attribute of the key it computes
		cause   error
	}{
		{"Func computes an empty string", keyfirst.Func(raw, func(t Ticket) (keyfirst.None, string, bool) { return keyfirst.None{}, "", t.IsOpen() }),
			"s", keyfirst.ItemEmptyKey, "openedAt", nil},
		{"FuncE fails", keyfirst.FuncE(raw, func(t Ticket) (keyfirst.None, string, bool, error) {
			if !t.IsOpen() {
				return keyfirst.None{}, "", false, nil
			}
			return keyfirst.None{}, "", true, errNoOpening
		}), "s", keyfirst.ItemDerive, "openBucket", errNoOpening},
		{"field over the sort key limit", keyfirst.If(raw.Fields("Subject"), Ticket.IsOpen), long, keyfirst.ItemKeyTooLong, "openedAt", nil},
	}
	client, live := liveTable(t, mustTable(t, ticketSpec))
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := keyfirst.NewEntity(live, keyfirst.EntitySpec[Ticket]{Type: "Ticket" + id(i), Keys: []keyfirst.Binding{ticketByID.Fields("ID"), tc.binding}})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			resolved := ticket(id(i), Resolved, at(8, 0))
			resolved.Subject = tc.subject
			if _, err := e.Put(ctx, client, resolved); err != nil {
				t.Fatalf("a resolved ticket is refused: %v", err)
			}
			open := resolved
			open.Status = Open
			key, err := e.Key(open)
			if err != nil {
				t.Fatal(err)
			}
			none := nocalls.Client{T: t}
			paths := map[string]func() error{
				"Item":    func() error { _, err := e.Item(open); return err },
				"Put":     func() error { _, err := e.Put(ctx, none, open); return err },
				"Replace": func() error { _, err := e.Replace(ctx, none, open); return err },
				"Modify": func() error {
					_, err := e.Modify(ctx, client, key, func(t *Ticket) { t.Status = Open })
					return err
				},
				"BatchWrite": func() error { return e.Table().BatchWrite(ctx, none, []keyfirst.WriteRequest{e.PutRequest(open)}) },
				"txn.Put":    func() error { return txn.Write(ctx, none, []txn.Action{txn.Put(e, open)}) },
				"txn.Replace": func() error {
					return txn.Write(ctx, none, []txn.Action{txn.Replace(e, open)})
				},
			}
			for path, write := range paths {
				err := write()
				var ie *keyfirst.ItemError
				if !errors.As(err, &ie) || !errors.Is(err, keyfirst.ErrInvalidItem) {
					t.Errorf("%s = %v, want a *keyfirst.ItemError", path, err)
					continue
				}
				if ie.Problem != tc.problem || ie.Index != openTicketsIndex || ie.Attribute != tc.attr {
					t.Errorf("%s: problem %v, index %q, attribute %q; want %v, %q, %q", path, ie.Problem, ie.Index, ie.Attribute, tc.problem, openTicketsIndex, tc.attr)
				}
				if tc.cause != nil && !errors.Is(err, tc.cause) {
					t.Errorf("%s: %v does not wrap %v", path, err, tc.cause)
				}
			}
			stored := rawItem(t, client, live.Name(), storedTicketKey(id(i)))
			if str(stored["status"]) != string(Resolved) || stored["openBucket"] != nil {
				t.Errorf("the refused Modify wrote: %v", stored)
			}
		})
	}
}
