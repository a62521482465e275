package sparse_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/sparse"
)

// The models of the seeds, shared by the tests.

// Seed 001: support tickets and the open-tickets index.

type Status string

const (
	Open     Status = "OPEN"
	Resolved Status = "RESOLVED"
)

type Ticket struct {
	ID       string    `dynamodbav:"id"`
	Customer string    `dynamodbav:"customer"`
	Subject  string    `dynamodbav:"subject"`
	Status   Status    `dynamodbav:"status"`
	OpenedAt time.Time `dynamodbav:"opened"`
	Version  int64     `dynamodbav:"version,omitempty"`
}

func (t Ticket) IsOpen() bool { return t.Status == Open }

const openTicketsIndex = "open-tickets-index"

// openedAtKey encodes openedAt in UTC at fixed width (microseconds), so
// that byte order is chronological order (oldest first). (The keys
// package's Time codec does the same, with validation.)
func openedAtKey(t time.Time) (string, error) {
	return t.UTC().Format("2006-01-02T15:04:05.000000"), nil
}

// openTickets is the rule of seed 001: a ticket is in open-tickets-index
// while it is open, with openBucket = "OPEN" and openedAt.
var openTickets = sparse.In(openTicketsIndex, Ticket.IsOpen).
	Fixed("openBucket", "OPEN").
	Key("openedAt", sparse.String(func(t Ticket) (string, error) { return openedAtKey(t.OpenedAt) }))

// ticketSpec describes the tickets table: the sparse open-tickets index
// (INCLUDE id and subject, what a dashboard shows), a dense GSI by customer
// (ALL) and a dense LSI by status (KEYS_ONLY), so that every write also
// exercises indexes it does or does not change.
var ticketSpec = keyfirst.TableSpec{
	Name:         "tickets",
	PartitionKey: keyfirst.StringAttr("PK"),
	SortKey:      keyfirst.StringAttr("SK"),
	GSIs: []keyfirst.Index{
		{
			Name:         openTicketsIndex,
			PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("openBucket")},
			SortKey:      []keyfirst.Attribute{keyfirst.StringAttr("openedAt")},
			Projection:   keyfirst.Include("id", "subject"),
		},
		{
			Name:         "by-customer",
			PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("customer")},
			SortKey:      []keyfirst.Attribute{keyfirst.StringAttr("opened")},
		},
	},
	LSIs: []keyfirst.Index{
		{Name: "by-status", SortKey: []keyfirst.Attribute{keyfirst.StringAttr("status")}, Projection: keyfirst.KeysOnly()},
	},
}

// newTickets returns a tickets table and its Ticket entity, versioned or
// not (a batch write takes only unversioned entities).
func newTickets(t testing.TB, versioned bool) (*keyfirst.Table, *keyfirst.Entity[Ticket]) {
	t.Helper()
	table, err := keyfirst.NewTable(ticketSpec)
	if err != nil {
		t.Fatal(err)
	}
	entity := keyfirst.EntitySpec[Ticket]{
		Type:         "Ticket",
		PartitionKey: keyfirst.DeriveString(func(t Ticket) (string, error) { return "TICKET#" + t.ID, nil }),
		SortKey:      keyfirst.DeriveString(func(t Ticket) (string, error) { return "TICKET", nil }),
	}
	if versioned {
		entity.Version = "version"
	}
	entity, err = sparse.Apply(table, entity, openTickets)
	if err != nil {
		t.Fatal(err)
	}
	ent, err := keyfirst.NewEntity(table, entity)
	if err != nil {
		t.Fatal(err)
	}
	return table, ent
}

// at is 2026-06-23 at h:m UTC.
func at(h, m int) time.Time { return time.Date(2026, 6, 23, h, m, 0, 0, time.UTC) }

func ticket(id string, s Status, opened time.Time) Ticket {
	return Ticket{ID: id, Customer: "c-" + id, Subject: "subject of " + id, Status: s, OpenedAt: opened}
}

// Seed 000, form 1: Organizations and Users in an overloaded GSI1; only
// admins get GSI1SK = "Admin".

type Organization struct {
	Name string `dynamodbav:"name"`
}

type Role string

const (
	Admin  Role = "Admin"
	Member Role = "Member"
)

type User struct {
	Org  string `dynamodbav:"org"`
	Name string `dynamodbav:"name"`
	Role Role   `dynamodbav:"role"`
}

func (u User) IsAdmin() bool { return u.Role == Admin }

var saasSpec = keyfirst.TableSpec{
	Name:         "saas",
	PartitionKey: keyfirst.StringAttr("PK"),
	SortKey:      keyfirst.StringAttr("SK"),
	GSIs: []keyfirst.Index{{
		Name:         "GSI1",
		PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("GSI1PK")},
		SortKey:      []keyfirst.Attribute{keyfirst.StringAttr("GSI1SK")},
	}},
}

func orgKey(org string) string { return "ORG#" + org }

// admins is form 1: a subset of the Users in the overloaded GSI1.
var admins = sparse.In("GSI1", User.IsAdmin).
	Key("GSI1PK", sparse.String(func(u User) (string, error) { return orgKey(u.Org), nil })).
	Fixed("GSI1SK", "Admin")

func newSaaS(t testing.TB, name string) (*keyfirst.Table, *keyfirst.Entity[Organization], *keyfirst.Entity[User]) {
	t.Helper()
	spec := saasSpec
	spec.Name = name
	table, err := keyfirst.NewTable(spec)
	if err != nil {
		t.Fatal(err)
	}
	// Organizations use GSI1 too, for every organization (not sparse).
	orgs, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Organization]{
		Type:         "Organization",
		PartitionKey: keyfirst.DeriveString(func(o Organization) (string, error) { return orgKey(o.Name), nil }),
		SortKey:      keyfirst.DeriveString(func(o Organization) (string, error) { return orgKey(o.Name), nil }),
		Indexes: map[string]keyfirst.IndexKeys[Organization]{"GSI1": {
			"GSI1PK": keyfirst.DeriveString(func(o Organization) (string, error) { return orgKey(o.Name), nil }),
			"GSI1SK": keyfirst.DeriveString(func(o Organization) (string, error) { return orgKey(o.Name), nil }),
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	userSpec, err := sparse.Apply(table, keyfirst.EntitySpec[User]{
		Type:         "User",
		PartitionKey: keyfirst.DeriveString(func(u User) (string, error) { return orgKey(u.Org), nil }),
		SortKey:      keyfirst.DeriveString(func(u User) (string, error) { return "USER#" + u.Name, nil }),
	}, admins)
	if err != nil {
		t.Fatal(err)
	}
	users, err := keyfirst.NewEntity(table, userSpec)
	if err != nil {
		t.Fatal(err)
	}
	return table, orgs, users
}

// Seed 000, form 2: Customers, Orders and InventoryItems interleaved in one
// table; only Customers get CustomerIndexId, in a scannable index.

type Customer struct {
	ID    string `dynamodbav:"id"`
	Email string `dynamodbav:"email"`
}

type Order struct {
	Customer string `dynamodbav:"customer"`
	ID       string `dynamodbav:"id"`
	Total    int    `dynamodbav:"total"`
}

type InventoryItem struct {
	SKU   string `dynamodbav:"sku"`
	Stock int    `dynamodbav:"stock"`
}

const customerIndex = "CustomerIndex"

var shopSpec = keyfirst.TableSpec{
	Name:         "shop",
	PartitionKey: keyfirst.StringAttr("PK"),
	SortKey:      keyfirst.StringAttr("SK"),
	GSIs: []keyfirst.Index{{
		Name:         customerIndex,
		PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("CustomerIndexId")},
		Scannable:    true,
	}},
}

// customers is form 2: every Customer, and nothing else, in CustomerIndex.
var customers = sparse.Every[Customer](customerIndex).
	Key("CustomerIndexId", sparse.String(func(c Customer) (string, error) { return c.ID, nil }))

type shop struct {
	table     *keyfirst.Table
	customers *keyfirst.Entity[Customer]
	orders    *keyfirst.Entity[Order]
	inventory *keyfirst.Entity[InventoryItem]
}

// in returns the shop bound to table, a binding of its description.
func (s shop) in(table *keyfirst.Table) shop {
	return shop{table, keyfirst.Must(s.customers.In(table)), keyfirst.Must(s.orders.In(table)), keyfirst.Must(s.inventory.In(table))}
}

func newShop(t testing.TB, name string) shop {
	t.Helper()
	spec := shopSpec
	spec.Name = name
	table, err := keyfirst.NewTable(spec)
	if err != nil {
		t.Fatal(err)
	}
	customerSpec, err := sparse.Apply(table, keyfirst.EntitySpec[Customer]{
		Type:         "Customer",
		PartitionKey: keyfirst.DeriveString(func(c Customer) (string, error) { return "CUST#" + c.ID, nil }),
		SortKey:      keyfirst.DeriveString(func(c Customer) (string, error) { return "CUST#" + c.ID, nil }),
	}, customers)
	if err != nil {
		t.Fatal(err)
	}
	s := shop{table: table}
	if s.customers, err = keyfirst.NewEntity(table, customerSpec); err != nil {
		t.Fatal(err)
	}
	if s.orders, err = keyfirst.NewEntity(table, keyfirst.EntitySpec[Order]{
		Type:         "Order",
		PartitionKey: keyfirst.DeriveString(func(o Order) (string, error) { return "CUST#" + o.Customer, nil }),
		SortKey:      keyfirst.DeriveString(func(o Order) (string, error) { return "ORDER#" + o.ID, nil }),
	}); err != nil {
		t.Fatal(err)
	}
	if s.inventory, err = keyfirst.NewEntity(table, keyfirst.EntitySpec[InventoryItem]{
		Type:         "InventoryItem",
		PartitionKey: keyfirst.DeriveString(func(i InventoryItem) (string, error) { return "ITEM#" + i.SKU, nil }),
		SortKey:      keyfirst.DeriveString(func(i InventoryItem) (string, error) { return "ITEM#" + i.SKU, nil }),
	}); err != nil {
		t.Fatal(err)
	}
	return s
}

// Seed 002: the write amplification example, a 3 KB item with three GSIs
// (KEYS_ONLY, INCLUDE, ALL).

var seed002Spec = keyfirst.TableSpec{
	Name:         "seed002",
	PartitionKey: keyfirst.StringAttr("PK"),
	SortKey:      keyfirst.StringAttr("SK"),
	GSIs: []keyfirst.Index{
		{Name: "keys-only", PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("K1")}, Projection: keyfirst.KeysOnly()},
		{Name: "include", PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("K2")}, Projection: keyfirst.Include("summary")},
		{Name: "all", PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("K3")}},
	},
}

// seed002Item is about 3 KB: keys of about 200 bytes together, a 1.5 KB
// summary (projected into the INCLUDE index) and a body.
func seed002Item() map[string]types.AttributeValue {
	s := func(n int, c byte) types.AttributeValue {
		b := make([]byte, n)
		for i := range b {
			b[i] = c
		}
		return &types.AttributeValueMemberS{Value: string(b)}
	}
	return map[string]types.AttributeValue{
		"PK":      s(45, 'p'),
		"SK":      s(45, 's'),
		"K1":      s(45, 'a'),
		"K2":      s(45, 'b'),
		"K3":      s(45, 'c'),
		"summary": s(1500, 'm'),
		"body":    s(1230, 'x'),
	}
}

func mustTable(t testing.TB, spec keyfirst.TableSpec) *keyfirst.Table {
	t.Helper()
	table, err := keyfirst.NewTable(spec)
	if err != nil {
		t.Fatal(err)
	}
	return table
}

func mustEstimator(t testing.TB, table *keyfirst.Table) *sparse.Estimator {
	t.Helper()
	e, err := sparse.NewEstimator(table)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func id(i int) string { return fmt.Sprintf("t%04d", i) }
