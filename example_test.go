package keyfirst_test

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
)

// Ticket and Agent share the helpdesk table (single-table design).
type Ticket struct {
	ID       string `dynamodbav:"id"`
	Title    string `dynamodbav:"title"`
	Open     bool   `dynamodbav:"open"`
	OpenedAt string `dynamodbav:"openedAt"`
	Version  int64  `dynamodbav:"version"`
}

type Agent struct {
	ID   string `dynamodbav:"id"`
	Name string `dynamodbav:"name"`
}

func helpdesk() (*keyfirst.Table, *keyfirst.Entity[Ticket], *keyfirst.Entity[Agent]) {
	table, err := keyfirst.NewTable(keyfirst.TableSpec{
		Name:         "helpdesk",
		PartitionKey: keyfirst.StringAttr("PK"),
		SortKey:      keyfirst.StringAttr("SK"),
		GSIs: []keyfirst.Index{{
			// The sparse index of open tickets (seed 001): only open
			// tickets carry openBucket.
			Name:         "open-tickets-index",
			PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("openBucket")},
			SortKey:      []keyfirst.Attribute{keyfirst.StringAttr("openedAt")},
			Projection:   keyfirst.Include("title"),
		}},
	})
	if err != nil {
		panic(err)
	}
	ticketKey := keys.NewKey1(keys.ID[string](), keys.WithPrefix("TICKET"))
	agentKey := keys.NewKey1(keys.ID[string](), keys.WithPrefix("AGENT"))
	// Open tickets are under "OPEN", sorted by their openedAt field.
	openTickets := keyfirst.OnIndex("open-tickets-index", keyfirst.Const("openBucket", "OPEN"), keyfirst.Str("openedAt"))
	tickets, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Ticket]{
		Type: "TICKET",
		Keys: []keyfirst.Binding{
			keyfirst.OnTable(keyfirst.Composite("PK", ticketKey), keyfirst.Composite("SK", ticketKey)).Fields("ID", "ID"),
			keyfirst.If(openTickets.Fields("OpenedAt"), func(t Ticket) bool { return t.Open }),
		},
		Version: "version",
	})
	if err != nil {
		panic(err)
	}
	agents, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Agent]{Type: "AGENT", Keys: []keyfirst.Binding{
		keyfirst.OnTable(keyfirst.Composite("PK", agentKey), keyfirst.Composite("SK", agentKey)).Fields("ID", "ID")}})
	if err != nil {
		panic(err)
	}
	return table, tickets, agents
}

func printItem(item map[string]types.AttributeValue) {
	names := make([]string, 0, len(item))
	for n := range item {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		switch v := item[n].(type) {
		case *types.AttributeValueMemberS:
			fmt.Printf("  %s = %q\n", n, v.Value)
		case *types.AttributeValueMemberN:
			fmt.Printf("  %s = %s\n", n, v.Value)
		case *types.AttributeValueMemberBOOL:
			fmt.Printf("  %s = %t\n", n, v.Value)
		}
	}
}

// An open ticket carries the sparse index's key; a resolved one does not
// carry it at all (no empty string, no placeholder).
func ExampleEntity_Item() {
	_, tickets, _ := helpdesk()
	open, _ := tickets.Item(Ticket{ID: "t1", Title: "Printer on fire", Open: true, OpenedAt: "2026-06-23T09:00:00Z"})
	resolved, _ := tickets.Item(Ticket{ID: "t2", Title: "Password reset", OpenedAt: "2026-06-22T15:30:00Z"})
	fmt.Println("open:")
	printItem(open)
	fmt.Println("resolved:")
	printItem(resolved)
	// Output:
	// open:
	//   PK = "TICKET#t1"
	//   SK = "TICKET#t1"
	//   _type = "TICKET"
	//   id = "t1"
	//   open = true
	//   openBucket = "OPEN"
	//   openedAt = "2026-06-23T09:00:00Z"
	//   title = "Printer on fire"
	//   version = 0
	// resolved:
	//   PK = "TICKET#t2"
	//   SK = "TICKET#t2"
	//   _type = "TICKET"
	//   id = "t2"
	//   open = false
	//   openedAt = "2026-06-22T15:30:00Z"
	//   title = "Password reset"
	//   version = 0
}

// Items of several entity types (a query over an item collection returns
// them mixed) decode each into its own Go type.
func ExampleTable_Decode() {
	table, tickets, agents := helpdesk()
	t, _ := tickets.Item(Ticket{ID: "t1", Title: "Printer on fire", Open: true, OpenedAt: "2026-06-23T09:00:00Z"})
	a, _ := agents.Item(Agent{ID: "a7", Name: "Grace"})
	for _, item := range []map[string]types.AttributeValue{t, a} {
		v, err := table.Decode(item)
		if err != nil {
			panic(err)
		}
		switch v := v.(type) {
		case Ticket:
			fmt.Println("ticket:", v.Title)
		case Agent:
			fmt.Println("agent:", v.Name)
		}
	}
	_, err := table.Decode(map[string]types.AttributeValue{"_type": &types.AttributeValueMemberS{Value: "INVOICE"}})
	fmt.Println(errors.Is(err, keyfirst.ErrUnknownEntityType))
	// Output:
	// ticket: Printer on fire
	// agent: Grace
	// true
}

// DecodeTo decodes into a T of the caller's, here the elements of a
// slice made for the items, without a copy of each T.
func ExampleEntity_DecodeTo() {
	_, tickets, _ := helpdesk()
	stored := []map[string]types.AttributeValue{
		keyfirst.Must(tickets.Item(Ticket{ID: "t1", Title: "Printer on fire", Open: true, OpenedAt: "2026-06-23T09:00:00Z"})),
		keyfirst.Must(tickets.Item(Ticket{ID: "t2", Title: "Password reset", OpenedAt: "2026-06-22T15:30:00Z"})),
	}
	out := make([]Ticket, len(stored))
	for i, item := range stored {
		if err := tickets.DecodeTo(item, &out[i]); err != nil {
			panic(err)
		}
	}
	for _, t := range out {
		fmt.Println(t.ID, t.Title, t.Open)
	}
	// Output:
	// t1 Printer on fire true
	// t2 Password reset false
}

// The table's CreateTableInput: each key attribute defined once, the
// projections with the entity-type attribute added to INCLUDE.
func ExampleTable_CreateTableInput() {
	table, _, _ := helpdesk()
	in := table.CreateTableInput()
	fmt.Println(aws.ToString(in.TableName), in.BillingMode)
	for _, d := range in.AttributeDefinitions {
		fmt.Printf("  %s %s\n", aws.ToString(d.AttributeName), d.AttributeType)
	}
	for _, g := range in.GlobalSecondaryIndexes {
		var keys []string
		for _, k := range g.KeySchema {
			keys = append(keys, aws.ToString(k.AttributeName)+" "+string(k.KeyType))
		}
		fmt.Printf("  %s: %s; %s %v\n", aws.ToString(g.IndexName), strings.Join(keys, ", "),
			g.Projection.ProjectionType, g.Projection.NonKeyAttributes)
	}
	// Output:
	// helpdesk PAY_PER_REQUEST
	//   PK S
	//   SK S
	//   openBucket S
	//   openedAt S
	//   open-tickets-index: openBucket HASH, openedAt RANGE; INCLUDE [title _type]
}

// Bad input is refused before any request, with a typed error that names
// the attribute and the problem.
func ExampleItemError() {
	_, tickets, _ := helpdesk()
	// An open ticket without openedAt would put "" in an index key.
	_, err := tickets.Item(Ticket{ID: "t3", Title: "no date", Open: true})
	var ie *keyfirst.ItemError
	if errors.As(err, &ie) {
		fmt.Println(ie.Index, ie.Attribute, "-", ie.Problem)
	}
	fmt.Println(errors.Is(err, keyfirst.ErrInvalidItem))
	// Output:
	// open-tickets-index openedAt - empty key value
	// true
}
