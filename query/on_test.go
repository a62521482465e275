package query_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// Issue 11's three silent-empty queries, each accepted before and
// answered with nothing: now each is refused before any request (or, for
// the partition key's Go type, by the compiler).
func TestOnRefusesWhatFoundNothing(t *testing.T) {
	t.Parallel()
	s := newShop(t, "shop")
	ctx := context.Background()
	jul1, oct1 := micro("2019-07-01T00:00:00"), micro("2019-10-01T00:00:00")
	// Same shape and Go types as statusDate, another definition.
	lookalike := keys.NewKey2(keys.Enum(Pending, Shipped, Cancelled, Delivered), keys.Time(keys.Micro))
	fourSegments := keys.NewKey4(keys.ID[string](), keys.Enum(Pending, Shipped, Cancelled, Delivered), keys.Time(keys.Micro), keys.ID[string]())
	unbound := keyfirst.OnIndex("ByStatusDate", keyfirst.Str("CustomerId"), keyfirst.Composite("OrderStatusDate", lookalike))

	tests := []struct {
		name    string
		q       query.Query[Order]
		problem query.Problem
		say     string
	}{
		// 1. A partition key encoded another way than the writes encode it:
		// On takes the Go value and encodes it with the pattern's codec, so
		// the pre-encoded form is a value the codec refuses.
		{"partition pre-encoded", query.On(s.orders, orderByID, "CUST#c9"), query.ProblemPartition, "separator"},
		// 2. A sort key condition built from another key definition.
		{"the table's ORDER# prefix on ByStatusDate", query.On(s.orders, byStatusDate, "c9").Sort(orderSK.Range().BeginsWith()),
			query.ProblemForeignCondition, "ORDER#<id>"},
		{"a four-segment condition on ByStatusDate", query.On(s.orders, byStatusDate, "c9").Sort(fourSegments.With2("c9", Cancelled).HalfOpen(jul1, oct1)),
			query.ProblemForeignCondition, "<id>#<enum>#<time>#<id>"},
		{"a look-alike definition", query.On(s.orders, byStatusDate, "c9").Sort(lookalike.With1(Cancelled).HalfOpen(jul1, oct1)),
			query.ProblemForeignCondition, "another definition of the same shape (<enum>#<time>)"},
		// A raw condition on a sort key of keys: a misspelt status
		// (CANCELED) is no error of a raw value, and found nothing.
		{"a raw begins_with on a composite sort key", query.On(s.orders, byStatusDate, "c9").SortAttr(query.Attr("OrderStatusDate").BeginsWith("CANCELED#")),
			query.ProblemForeignCondition, "a raw condition on a sort key that holds keys of <enum>#<time>"},
		{"a raw condition on a native sort key", query.On(s.orders, byStatusDateNative, "c9").SortAttr(query.Attr("OrderStatus").Eq(query.S("CANCELED"))),
			query.ProblemForeignCondition, "a raw condition on a sort key that holds keys of <enum>#<time>"},
		{"a raw condition on the table's sort key", query.On(s.orders, orderByID, "c9").SortAttr(query.Attr("SK").BeginsWith("ORDR#")),
			query.ProblemForeignCondition, "ORDER#<id>"},
		{"the customer's key on the orders' table pattern", query.On(s.orders, orderByID, "c9").Sort(customerPK.Range().BeginsWith()),
			query.ProblemForeignCondition, "CUST#<id>"},
		// 3. A pattern the entity does not bind (a typo'd index name is
		// refused by NewEntity: see keyfirst's TestPatternBindingRefusals).
		{"a pattern the entity does not bind", query.On(s.orders, unbound, "c9"), query.ProblemPattern, "does not bind"},
		{"a pattern of another entity", query.On(s.orders, customerByID, "c9"), query.ProblemPattern, "does not bind"},
		{"the zero pattern", query.On(s.orders, keyfirst.Pattern[string, string]{}, "c9"), query.ProblemPattern, "zero pattern"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, run := range []func() error{
				func() error { _, err := tt.q.Page(ctx, noCalls{T: t}); return err },
				func() error { _, err := tt.q.Collect(ctx, noCalls{T: t}); return err },
				func() error {
					for _, err := range tt.q.All(ctx, noCalls{T: t}) {
						return err
					}
					return nil
				},
			} {
				err := run()
				var qe *query.Error
				if !errors.As(err, &qe) || qe.Problem != tt.problem || !errors.Is(err, query.ErrInvalidQuery) {
					t.Fatalf("got %v, want %v", err, tt.problem)
				}
				if !strings.Contains(err.Error(), tt.say) {
					t.Fatalf("%q does not say %q", err, tt.say)
				}
			}
		})
	}
}

// The same queries done right find the items, on DynamoDB Local.
func TestOnFindsWhatWasWritten(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	write(t, client, s.table,
		s.orders.PutRequest(Order{CustomerID: "c9", ID: "o1", Status: Cancelled, Date: micro("2019-08-01T00:00:00")}),
		s.orders.PutRequest(Order{CustomerID: "c9", ID: "o2", Status: Shipped, Date: micro("2019-08-02T00:00:00")}),
		s.customers.PutRequest(Customer{ID: "c9", Name: "Nine"}),
	)
	ctx := context.Background()
	jul1, oct1 := micro("2019-07-01T00:00:00"), micro("2019-10-01T00:00:00")
	count := func(q query.Query[Order]) int {
		t.Helper()
		got, err := q.Collect(ctx, client)
		if err != nil {
			t.Fatal(err)
		}
		return len(got)
	}
	if n := count(query.On(s.orders, orderByID, "c9").Sort(orderSK.Range().BeginsWith())); n != 2 {
		t.Fatalf("orders of c9: %d", n)
	}
	if n := count(query.On(s.orders, byStatusDate, "c9").Sort(statusDate.With1(Cancelled).HalfOpen(jul1, oct1))); n != 1 {
		t.Fatalf("cancelled orders of c9: %d", n)
	}
	customers, err := query.On(s.customers, customerIndex, "c9").Collect(ctx, client)
	if err != nil || len(customers) != 1 || customers[0].Name != "Nine" {
		t.Fatalf("customer index: %v %v", customers, err)
	}
}

// A collection query takes conditions from any definition its index's
// sort key holds, and refuses one from elsewhere.
func TestCollectionOnDefinitions(t *testing.T) {
	t.Parallel()
	g := newGithub(t, "github")
	ctx := context.Background()
	repo := query.CollectionOn(g.table, repoByName, "keyfirst")
	q := repo.Sort(eventSK.Range().BeginsWith())
	_, err := q.Page(ctx, noCalls{T: t})
	var qe *query.Error
	if !errors.As(err, &qe) || qe.Problem != query.ProblemForeignCondition || !strings.Contains(err.Error(), "REPO#<id> or ISSUE#<uint> or STAR#<id>") {
		t.Fatalf("got %v", err)
	}
	// A pattern of another table.
	_, err = query.CollectionOn(g.table, eventsByActor, "u1").Page(ctx, noCalls{T: t})
	if !errors.As(err, &qe) || qe.Problem != query.ProblemPattern {
		t.Fatalf("got %v", err)
	}
	// The partition key's Go type is the pattern's: a Key2 pattern takes a
	// keys.T2, checked by the compiler (query.On(s.orders,
	// byCustomerStatus, "c1") does not compile).
	s := newShop(t, "shop")
	_, err = query.On(s.orders, byCustomerStatus, keys.Of2("c1", Status("LOST"))).Page(ctx, noCalls{T: t})
	if !errors.As(err, &qe) || qe.Problem != query.ProblemPartition || !errors.Is(err, keyfirst.ErrInvalidPattern) {
		t.Fatalf("got %v", err)
	}
}

// A sort key stored as it is (Str, Num, Bin) takes raw conditions
// (SortAttr) only: no keys definition describes it.
func TestOnPlainSortKey(t *testing.T) {
	t.Parallel()
	plainKey := keyfirst.OnTable(keyfirst.Composite("PK", actorKey), keyfirst.Str("SK"))
	table, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "plain", Key: plainKey})
	noErr(t, err)
	roles, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Role]{Type: "ROLE", Keys: []keyfirst.Binding{plainKey.Fields("Performer", "Title")}})
	noErr(t, err)
	_, err = query.On(roles, plainKey, "tom-hanks").Sort(movieKey.Range().Ge("c")).Page(context.Background(), noCalls{T: t})
	var qe *query.Error
	if !errors.As(err, &qe) || qe.Problem != query.ProblemForeignCondition || !strings.Contains(err.Error(), "holds no keys definition") {
		t.Fatalf("got %v", err)
	}
}
