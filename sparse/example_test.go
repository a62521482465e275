package sparse_test

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/sparse"
)

// Seed 001: a ticket is in open-tickets-index while it is open. Applied to
// the entity, the rule gives an open ticket its index keys and a resolved
// one none at all: Put leaves them out, Replace and Modify REMOVE them.
func ExampleApply() {
	table, err := keyfirst.NewTable(keyfirst.TableSpec{
		Name:         "tickets",
		PartitionKey: keyfirst.StringAttr("PK"),
		SortKey:      keyfirst.StringAttr("SK"),
		GSIs: []keyfirst.Index{{
			Name:         "open-tickets-index",
			PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("openBucket")},
			SortKey:      []keyfirst.Attribute{keyfirst.StringAttr("openedAt")},
			Projection:   keyfirst.Include("id", "subject"),
		}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	isOpen := sparse.In("open-tickets-index", Ticket.IsOpen).
		Fixed("openBucket", "OPEN").
		Key("openedAt", sparse.String(func(t Ticket) (string, error) {
			return t.OpenedAt.UTC().Format("2006-01-02T15:04:05.000000"), nil
		}))
	spec, err := sparse.Apply(table, keyfirst.EntitySpec[Ticket]{
		Type:         "Ticket",
		PartitionKey: keyfirst.DeriveString(func(t Ticket) (string, error) { return "TICKET#" + t.ID, nil }),
		SortKey:      keyfirst.DeriveString(func(t Ticket) (string, error) { return "TICKET", nil }),
	}, isOpen)
	if err != nil {
		fmt.Println(err)
		return
	}
	tickets, err := keyfirst.NewEntity(table, spec)
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
// other entity types use too.
func ExampleIn() {
	table, err := keyfirst.NewTable(saasSpec)
	if err != nil {
		fmt.Println(err)
		return
	}
	admins := sparse.In("GSI1", User.IsAdmin).
		Key("GSI1PK", sparse.String(func(u User) (string, error) { return "ORG#" + u.Org, nil })).
		Fixed("GSI1SK", "Admin")
	derive, err := admins.IndexKeys(table)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, u := range []User{{"berkshire", "warren", Admin}, {"berkshire", "charlie", Member}} {
		pk, in, _ := derive["GSI1PK"](u)
		sk, _, _ := derive["GSI1SK"](u)
		fmt.Printf("%-7s in GSI1: %-5v GSI1PK=%v GSI1SK=%v\n", u.Name, in, value(pk), value(sk))
	}
	// Output:
	// warren  in GSI1: true  GSI1PK=ORG#berkshire GSI1SK=Admin
	// charlie in GSI1: false GSI1PK=(none) GSI1SK=(none)
}

// Seed 000, form 2: every Customer, and nothing else, carries
// CustomerIndexId, so the index (declared Scannable) can be scanned.
func ExampleEvery() {
	table, err := keyfirst.NewTable(shopSpec)
	if err != nil {
		fmt.Println(err)
		return
	}
	customers := sparse.Every[Customer]("CustomerIndex").
		Key("CustomerIndexId", sparse.String(func(c Customer) (string, error) { return c.ID, nil }))
	derive, err := customers.IndexKeys(table)
	if err != nil {
		fmt.Println(err)
		return
	}
	id, in, _ := derive["CustomerIndexId"](Customer{ID: "c42"})
	fmt.Println(in, value(id))
	// Output: true c42
}

// A rule is checked against the table when it is applied: a value of the
// wrong type for the index key is refused before any entity exists.
func ExampleRuleError() {
	table, err := keyfirst.NewTable(ticketSpec)
	if err != nil {
		fmt.Println(err)
		return
	}
	wrong := sparse.In(openTicketsIndex, Ticket.IsOpen).
		Fixed("openBucket", "OPEN").
		Key("openedAt", sparse.Number(func(t Ticket) (int64, error) { return t.OpenedAt.Unix(), nil }))
	_, err = wrong.IndexKeys(table)
	fmt.Println(err)
	// Output: sparse: invalid membership rule: value of the wrong type (index "open-tickets-index", attribute "openedAt"): the value is N, the attribute is S; use String or Fixed
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
	table, err := keyfirst.NewTable(ticketSpec)
	if err != nil {
		panic(err)
	}
	spec, err := sparse.Apply(table, keyfirst.EntitySpec[Ticket]{
		Type:         "Ticket",
		PartitionKey: keyfirst.DeriveString(func(t Ticket) (string, error) { return "TICKET#" + t.ID, nil }),
		SortKey:      keyfirst.DeriveString(func(t Ticket) (string, error) { return "TICKET", nil }),
	}, openTickets)
	if err != nil {
		panic(err)
	}
	tickets, err := keyfirst.NewEntity(table, spec)
	if err != nil {
		panic(err)
	}
	return table, tickets
}

// value prints a string attribute, or (none).
func value(av types.AttributeValue) string {
	if av == nil {
		return "(none)"
	}
	return str(av)
}
