package sparse_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
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

// The keys and access patterns of seed 001. openedAtKey encodes openedAt in
// UTC at a fixed width (microseconds), so that byte order is chronological
// order (oldest first).
var (
	ticketKey   = keys.NewKey1(keys.ID[string](), keys.WithPrefix("TICKET"))
	openedAtKey = keys.NewKey1(keys.Time(keys.Micro))
	ticketByID  = keyfirst.OnTable(keyfirst.Composite("PK", ticketKey), keyfirst.Const("SK", "TICKET"))
	// openTickets is the dashboard's index: openBucket = "OPEN", sorted by
	// openedAt, a copy of the ticket's opening time.
	openTickets = keyfirst.OnIndex(openTicketsIndex, keyfirst.Const("openBucket", "OPEN"), keyfirst.Composite("openedAt", openedAtKey))
)

// openedAt is the stored openedAt of a ticket opened at t.
func openedAt(t time.Time) string { return keys.Must(openedAtKey.Encode(t)) }

// ticketSpec describes the tickets table: the sparse open-tickets index
// (INCLUDE id and subject, what a dashboard shows), a dense GSI by customer
// (ALL) and a dense LSI by status (KEYS_ONLY), so that every write also
// exercises indexes it does or does not change. The dense ones hold fields
// of every ticket, stored under their own names: no binding derives them.
var ticketSpec = keyfirst.TableSpec{
	Name: "tickets",
	Key:  ticketByID,
	GSIs: []keyfirst.Index{
		projecting(openTickets.Index(), keyfirst.Include("id", "subject")),
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

// projecting is ix with projection p.
func projecting(ix keyfirst.Index, p keyfirst.Projection) keyfirst.Index {
	ix.Projection = p
	return ix
}

// ticketBindings are the Ticket's keys: its own, and open-tickets-index
// while it is open (openBucket and openedAt SET; REMOVEd once resolved).
var ticketBindings = []keyfirst.Binding{
	ticketByID.Fields("ID"),
	keyfirst.If(openTickets.Fields("OpenedAt"), Ticket.IsOpen),
}

// newTickets returns a tickets table and its Ticket entity, versioned or
// not (a batch write takes only unversioned entities).
func newTickets(t testing.TB, versioned bool) (*keyfirst.Table, *keyfirst.Entity[Ticket]) {
	t.Helper()
	table := mustTable(t, ticketSpec)
	entity := keyfirst.EntitySpec[Ticket]{Type: "Ticket", Keys: ticketBindings}
	if versioned {
		entity.Version = "version"
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

// The keys and access patterns of form 1: organizations and users share
// the table's key attributes and GSI1; every organization is in GSI1 under
// its own name, and only admins under GSI1SK = "Admin".
var (
	orgKey     = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORG"))
	userKey    = keys.NewKey1(keys.ID[string](), keys.WithPrefix("USER"))
	orgByName  = keyfirst.OnTable(keyfirst.Composite("PK", orgKey), keyfirst.Composite("SK", orgKey))
	userByName = keyfirst.OnTable(keyfirst.Composite("PK", orgKey), keyfirst.Composite("SK", userKey))
	orgInGSI1  = keyfirst.OnIndex("GSI1", keyfirst.Composite("GSI1PK", orgKey), keyfirst.Composite("GSI1SK", orgKey))
	// adminsOf is form 1: a subset of the Users in the overloaded GSI1.
	adminsOf = keyfirst.OnIndex("GSI1", keyfirst.Composite("GSI1PK", orgKey), keyfirst.Const("GSI1SK", "Admin"))
)

var saasSpec = keyfirst.TableSpec{Name: "saas", Key: orgByName, GSIs: []keyfirst.Index{orgInGSI1.Index()}}

// The keys of each entity type of form 1: organizations use GSI1 too, for
// every organization (not sparse); users only while they are admins.
var (
	orgBindings  = []keyfirst.Binding{orgByName.Fields("Name", "Name"), orgInGSI1.Fields("Name", "Name")}
	userBindings = []keyfirst.Binding{userByName.Fields("Org", "Name"), keyfirst.If(adminsOf.Fields("Org"), User.IsAdmin)}
)

func newSaaS(t testing.TB, name string) (*keyfirst.Table, *keyfirst.Entity[Organization], *keyfirst.Entity[User]) {
	t.Helper()
	spec := saasSpec
	spec.Name = name
	table := mustTable(t, spec)
	orgs, err1 := keyfirst.NewEntity(table, keyfirst.EntitySpec[Organization]{Type: "Organization", Keys: orgBindings})
	users, err2 := keyfirst.NewEntity(table, keyfirst.EntitySpec[User]{Type: "User", Keys: userBindings})
	if err := errors.Join(err1, err2); err != nil {
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

// The keys and access patterns of form 2.
var (
	customerKey  = keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUST"))
	orderKey     = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))
	itemKey      = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ITEM"))
	customerByID = keyfirst.OnTable(keyfirst.Composite("PK", customerKey), keyfirst.Composite("SK", customerKey))
	orderByID    = keyfirst.OnTable(keyfirst.Composite("PK", customerKey), keyfirst.Composite("SK", orderKey))
	itemBySKU    = keyfirst.OnTable(keyfirst.Composite("PK", itemKey), keyfirst.Composite("SK", itemKey))
	// customers is form 2: every Customer, and nothing else, in
	// CustomerIndex: only Customers bind it.
	customers = keyfirst.OnIndex(customerIndex, keyfirst.Str("CustomerIndexId"), keyfirst.NoSort())
)

var shopSpec = keyfirst.TableSpec{Name: "shop", Key: customerByID, GSIs: []keyfirst.Index{scannable(customers.Index())}}

// The keys of each entity type of form 2.
var (
	customerBindings = []keyfirst.Binding{customerByID.Fields("ID", "ID"), customers.Fields("ID")}
	orderBindings    = []keyfirst.Binding{orderByID.Fields("Customer", "ID")}
	itemBindings     = []keyfirst.Binding{itemBySKU.Fields("SKU", "SKU")}
)

// scannable declares ix scannable: a sparse index of one entity type,
// where reading it all is the access pattern.
func scannable(ix keyfirst.Index) keyfirst.Index {
	ix.Scannable = true
	return ix
}

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
	s := shop{table: mustTable(t, spec)}
	var err1, err2, err3 error
	s.customers, err1 = keyfirst.NewEntity(s.table, keyfirst.EntitySpec[Customer]{Type: "Customer", Keys: customerBindings})
	s.orders, err2 = keyfirst.NewEntity(s.table, keyfirst.EntitySpec[Order]{Type: "Order", Keys: orderBindings})
	s.inventory, err3 = keyfirst.NewEntity(s.table, keyfirst.EntitySpec[InventoryItem]{Type: "InventoryItem", Keys: itemBindings})
	if err := errors.Join(err1, err2, err3); err != nil {
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
