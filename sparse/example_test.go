package sparse_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/sparse"
)

// Seed 001: a ticket is in open-tickets-index while it is open. The
// index's partition key is a constant side, its sort key the opening time;
// If gives an open ticket both attributes and a resolved one neither: Put
// leaves them out, Replace and Modify REMOVE them.
func Example_openTickets() {
	ticketKey := keys.NewKey1(keys.ID[string](), keys.WithPrefix("TICKET"))
	openedAt := keys.NewKey1(keys.Time(keys.Micro))
	ticketByID := keyfirst.OnTable(keyfirst.Composite("PK", ticketKey), keyfirst.Const("SK", "TICKET"))
	openTickets := keyfirst.OnIndex("open-tickets-index", keyfirst.Const("openBucket", "OPEN"), keyfirst.Composite("openedAt", openedAt))

	table, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "tickets", Key: ticketByID, GSIs: []keyfirst.Index{openTickets.Index()}})
	if err != nil {
		fmt.Println(err)
		return
	}
	tickets, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Ticket]{Type: "Ticket", Keys: []keyfirst.Binding{
		ticketByID.Fields("ID"),
		keyfirst.If(openTickets.Fields("OpenedAt"), Ticket.IsOpen),
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	opened := time.Date(2026, 6, 23, 9, 30, 0, 0, time.UTC)
	for _, t := range []Ticket{
		{ID: "a91f", Customer: "c1", Status: Open, OpenedAt: opened},
		{ID: "77de", Customer: "c1", Status: Resolved, OpenedAt: opened},
	} {
		item, err := tickets.Item(t)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s %-8s openBucket=%v openedAt=%v\n", t.ID, t.Status, value(item["openBucket"]), value(item["openedAt"]))
	}
	// Output:
	// a91f OPEN     openBucket=OPEN openedAt=2026-06-23T09:30:00.000000
	// 77de RESOLVED openBucket=(none) openedAt=(none)
}

// Seed 000, form 1: only admins get GSI1SK = "Admin", in GSI1, an index
// organizations use too: a constant sort side bound with If.
func Example_admins() {
	_, users := exampleSaaS()
	for _, u := range []User{{"berkshire", "warren", Admin}, {"berkshire", "charlie", Member}} {
		item, err := users.Item(u)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-7s GSI1PK=%v GSI1SK=%v\n", u.Name, value(item["GSI1PK"]), value(item["GSI1SK"]))
	}
	// Output:
	// warren  GSI1PK=ORG#berkshire GSI1SK=Admin
	// charlie GSI1PK=(none) GSI1SK=(none)
}

// Seed 000, form 2: every Customer, and nothing else, carries
// CustomerIndexId: Customers alone bind the index's pattern, so the index
// (declared Scannable) can be scanned.
func Example_customers() {
	table, err := keyfirst.NewTable(shopSpec)
	if err != nil {
		fmt.Println(err)
		return
	}
	customerEntity, err1 := keyfirst.NewEntity(table, keyfirst.EntitySpec[Customer]{Type: "Customer", Keys: customerBindings})
	orderEntity, err2 := keyfirst.NewEntity(table, keyfirst.EntitySpec[Order]{Type: "Order", Keys: orderBindings})
	if err := errors.Join(err1, err2); err != nil {
		fmt.Println(err)
		return
	}
	c, err1 := customerEntity.Item(Customer{ID: "c42"})
	o, err2 := orderEntity.Item(Order{Customer: "c42", ID: "o1"})
	if err := errors.Join(err1, err2); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("customer:", value(c["CustomerIndexId"]))
	fmt.Println("order:   ", value(o["CustomerIndexId"]))
	// Output:
	// customer: c42
	// order:    (none)
}

// A sparse index declared wrong is refused before any entity exists: an
// empty constant (DynamoDB refuses "" as a key value, and it would not
// take an item out of the index anyway) and a sort side whose type is not
// the index's.
func Example_refused() {
	empty := keyfirst.OnIndex(openTicketsIndex, keyfirst.Const("openBucket", ""), keyfirst.Composite("openedAt", openedAtKey))
	fmt.Println("empty constant:", errors.Is(empty.Err(), keyfirst.ErrInvalidPattern))

	table, err := keyfirst.NewTable(ticketSpec)
	if err != nil {
		fmt.Println(err)
		return
	}
	numeric := keyfirst.OnIndex(openTicketsIndex, keyfirst.Const("openBucket", "OPEN"), keyfirst.Num[int64]("openedAt"))
	_, err = keyfirst.NewEntity(table, keyfirst.EntitySpec[Ticket]{Type: "Ticket", Keys: []keyfirst.Binding{
		ticketByID.Fields("ID"),
		keyfirst.If(keyfirst.Func(numeric, func(t Ticket) (keyfirst.None, int64, bool) { return keyfirst.None{}, t.OpenedAt.Unix(), true }), Ticket.IsOpen),
	}})
	var ee *keyfirst.EntityError
	fmt.Println("number sort key for a string attribute:", errors.As(err, &ee) && ee.Problem == keyfirst.EntityPattern)
	// Output:
	// empty constant: true
	// number sort key for a string attribute: true
}

// Seed 002's example: a 3 KB item with three GSIs, KEYS_ONLY, INCLUDE and
// ALL, costs 9 WCU to put.
func ExampleEstimator_Estimate() {
	table, err := keyfirst.NewTable(seed002Spec)
	if err != nil {
		fmt.Println(err)
		return
	}
	est, err := sparse.NewEstimator(table)
	if err != nil {
		fmt.Println(err)
		return
	}
	cost, err := est.Estimate(nil, seed002Item())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("table: %d bytes, %d WCU\n", cost.TableSize, cost.TableWCU)
	for _, ix := range cost.Indexes {
		fmt.Printf("%-9s %-5v %d write, %4d bytes, %d WCU\n", ix.Index, ix.Transition, ix.Writes, ix.After, ix.WCU)
	}
	fmt.Printf("total: %d WCU\n", cost.WCU())
	// Output:
	// table: 2976 bytes, 3 WCU
	// keys-only enter 1 write,  141 bytes, 1 WCU
	// include   enter 1 write, 1648 bytes, 2 WCU
	// all       enter 1 write, 2976 bytes, 3 WCU
	// total: 9 WCU
}

// Resolving a ticket: it leaves the sparse index (1 write), the dense
// by-customer index (ALL) sees a projected change (1 write), and the
// by-status LSI a new key (2 writes).
func ExampleEstimateItems() {
	table, tickets := exampleTickets()
	est, err := sparse.NewEstimator(table)
	if err != nil {
		fmt.Println(err)
		return
	}
	open := Ticket{ID: "a91f", Customer: "c1", Subject: "printer on fire", Status: Open, OpenedAt: time.Date(2026, 6, 23, 9, 30, 0, 0, time.UTC)}
	resolved := open
	resolved.Status = Resolved
	cost, err := sparse.EstimateItems(est, tickets, &open, &resolved)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, ix := range cost.Indexes {
		fmt.Printf("%-18s %-6v %d\n", ix.Index, ix.Transition, ix.Writes)
	}
	fmt.Println("index writes:", cost.IndexWrites(), "WCU:", cost.WCU())
	// Output:
	// open-tickets-index leave  1
	// by-customer        stay in 1
	// by-status          move   2
	// index writes: 4 WCU: 5
}

// exampleTickets is the tickets table of the tests, for the examples.
func exampleTickets() (*keyfirst.Table, *keyfirst.Entity[Ticket]) {
	table := keyfirst.Must(keyfirst.NewTable(ticketSpec))
	return table, keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[Ticket]{Type: "Ticket", Keys: ticketBindings}))
}

// exampleSaaS is the table of seed 000's form 1 and its User entity.
func exampleSaaS() (*keyfirst.Table, *keyfirst.Entity[User]) {
	table := keyfirst.Must(keyfirst.NewTable(saasSpec))
	return table, keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[User]{Type: "User", Keys: userBindings}))
}

// value prints a string attribute, or (none).
func value(av types.AttributeValue) string {
	if av == nil {
		return "(none)"
	}
	return str(av)
}
