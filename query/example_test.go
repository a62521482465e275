package query_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// printer is a client that prints each Query request it receives, with the
// expression's placeholders replaced by names and values, and returns no
// items: it shows what a query compiles to.
type printer struct{}

func (printer) Query(_ context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	expr := printed(in)
	index := aws.ToString(in.IndexName)
	if index == "" {
		index = "(the table)"
	}
	fmt.Println("index:", index)
	fmt.Println("key condition:", expr)
	fmt.Println("forward:", aws.ToBool(in.ScanIndexForward), "limit:", aws.ToInt32(in.Limit), "filter:", in.FilterExpression != nil)
	return &dynamodb.QueryOutput{}, nil
}

// printed is the key condition of in, with names and values in place of
// the placeholders.
func printed(in *dynamodb.QueryInput) string {
	return placeholder.ReplaceAllStringFunc(aws.ToString(in.KeyConditionExpression), func(p string) string {
		if p[0] == '#' {
			return in.ExpressionAttributeNames[p]
		}
		return fmt.Sprintf("%q", in.ExpressionAttributeValues[p].(*types.AttributeValueMemberS).Value)
	})
}

// placeholder matches the names and values of an expression.
var placeholder = regexp.MustCompile(`[#:][0-9]+`)

type OrderStatus string

type ShopOrder struct {
	Customer string      `dynamodbav:"CustomerId"`
	ID       string      `dynamodbav:"OrderId"`
	Status   OrderStatus `dynamodbav:"Status"`
	Date     time.Time   `dynamodbav:"Date"`
}

// The examples' shop: key codecs and access patterns, declared once with
// their key types.
var (
	exCustomerKey = keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUST"))
	exOrderKey    = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))
	exStatusDate  = keys.NewKey2(keys.Enum[OrderStatus]("CANCELLED", "SHIPPED"), keys.Time(keys.Micro))

	exOrderByID        = keyfirst.OnTable(keyfirst.Composite("PK", exCustomerKey), keyfirst.Composite("SK", exOrderKey))
	exByStatusDate     = keyfirst.OnIndex("ByStatusDate", keyfirst.Str("CustomerId"), keyfirst.Composite("OrderStatusDate", exStatusDate))
	exByStatusThenDate = keyfirst.OnIndex("ByStatusThenDate", keyfirst.Str("CustomerId"), keyfirst.Native(exStatusDate, "OrderStatus", "OrderDate"))
)

// exampleOrders is the examples' table and its order entity, which binds
// every pattern to its fields.
func exampleOrders() *keyfirst.Entity[ShopOrder] {
	table := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "shop", Key: exOrderByID,
		GSIs: []keyfirst.Index{exByStatusDate.Index(), exByStatusThenDate.Index()}}))
	return keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[ShopOrder]{
		Type: "ORDER",
		Keys: []keyfirst.Binding{
			exOrderByID.Fields("Customer", "ID"),
			exByStatusDate.Fields("Customer", "Status", "Date"),
			exByStatusThenDate.Fields("Customer", "Status", "Date"),
		},
	}))
}

// Seed 000: "a customer's CANCELLED orders from 1 July through 30
// September" is one key condition on a GSI whose sort key puts the status
// first; a native multi-attribute GSI (status, date) takes the same
// condition, attribute by attribute.
func Example() {
	orders := exampleOrders()
	jul1 := time.Date(2019, time.July, 1, 0, 0, 0, 0, time.UTC)
	oct1 := time.Date(2019, time.October, 1, 0, 0, 0, 0, time.UTC)
	ctx := context.Background()
	for _, p := range []keyfirst.Pattern[string, keys.T2[OrderStatus, time.Time]]{exByStatusDate, exByStatusThenDate} {
		cancelledInQ3 := query.On(orders, p, "c1").Sort(exStatusDate.With1("CANCELLED").HalfOpen(jul1, oct1)).Limit(10)
		if _, err := cancelledInQ3.Page(ctx, printer{}); err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// index: ByStatusDate
	// key condition: (CustomerId = "c1") AND (OrderStatusDate BETWEEN "CANCELLED#2019-07-01T00:00:00.000000" AND "CANCELLED#2019-09-30T23:59:59.999999")
	// forward: true limit: 10 filter: false
	// index: ByStatusThenDate
	// key condition: (CustomerId = "c1") AND (OrderStatus = "CANCELLED") AND (OrderDate BETWEEN "2019-07-01T00:00:00.000000" AND "2019-09-30T23:59:59.999999")
	// forward: true limit: 10 filter: false
}

// A query of a pattern takes its partition key as the pattern's Go type
// and encodes it as the writes do; a sort key condition built from
// another key definition, one that could only find nothing, is refused
// before any request. (A partition key of another Go type does not
// compile: query.On(orders, exByStatusDate, 42) is an error of the compiler.)
func ExampleOn() {
	orders := exampleOrders()

	ctx := context.Background()
	// The customer's orders: PK = "CUST#c1", encoded by the pattern.
	if _, err := query.On(orders, exOrderByID, "c1").Sort(exOrderKey.Range().BeginsWith()).Page(ctx, printer{}); err != nil {
		fmt.Println(err)
	}
	// The table's ORDER# prefix sent to the status index: refused.
	_, err := query.On(orders, exByStatusDate, "c1").Sort(exOrderKey.Range().BeginsWith()).Page(ctx, printer{})
	var qe *query.Error
	if errors.As(err, &qe) {
		fmt.Println(qe.Problem)
		fmt.Println(qe.Detail)
	}
	// Output:
	// index: (the table)
	// key condition: (PK = "CUST#c1") AND (begins_with (SK, "ORDER#"))
	// forward: true limit: 0 filter: false
	// sort key condition not built from the pattern's sort key
	// the condition begins_with "ORDER#" is built from ORDER#<id>; the index's sort key holds <enum>#<time>: build it from that key
}

// A query that cannot be sent is refused before any request, with a typed
// error that says what to do instead.
func ExampleQuery_ConsistentRead() {
	orders := exampleOrders()

	_, err := query.On(orders, exByStatusDate, "c1").ConsistentRead().Page(context.Background(), printer{})
	var qe *query.Error
	if errors.As(err, &qe) {
		fmt.Println(qe.Problem)
		fmt.Println(qe.Detail)
	}
	// Output:
	// consistent read on a global secondary index
	// a GSI is eventually consistent only: drop ConsistentRead, or read the table or an LSI
}

// Seed 004: a sort key stored as a value (a plain string here) takes the
// typed condition of its own side, with the seven legal verbs only; Desc
// reads it backwards. A raw condition on it is refused before any request.
func ExampleQuery_SortValue() {
	type Role struct{ Actor, Movie, Character string }
	movie := keyfirst.Str("Movie")
	moviesOf := keyfirst.OnTable(keyfirst.Str("Actor"), movie)
	table, _ := keyfirst.NewTable(keyfirst.TableSpec{Name: "MoviesAndActors", Key: moviesOf})
	roles, _ := keyfirst.NewEntity(table, keyfirst.EntitySpec[Role]{Type: "ROLE", Keys: []keyfirst.Binding{moviesOf.Fields("Actor", "Movie")}})
	hanks := query.On(roles, moviesOf, "Tom Hanks")
	_, err := hanks.SortValue(movie.BeginsWith("Toy Story")).Desc().Page(context.Background(), printer{})
	fmt.Println(err)
	_, err = hanks.SortAttr(query.Attr("Movie").BeginsWith("Toy Story")).Page(context.Background(), printer{})
	var qe *query.Error
	fmt.Println(errors.As(err, &qe) && qe.Problem == query.ProblemForeignCondition)
	// Output:
	// index: (the table)
	// key condition: (Actor = "Tom Hanks") AND (begins_with (Movie, "Toy Story"))
	// forward: false limit: 0 filter: false
	// <nil>
	// true
}

// A collection reads the item collections of several patterns, whose
// sort keys no one side describes: its condition is raw, on the index's
// sort key attribute, with the seven legal verbs only.
func ExampleAttr() {
	type Role struct{ Actor, Movie, Character string }
	moviesOf := keyfirst.OnTable(keyfirst.Str("Actor"), keyfirst.Str("Movie"))
	table, _ := keyfirst.NewTable(keyfirst.TableSpec{Name: "MoviesAndActors", Key: moviesOf})
	_, _ = keyfirst.NewEntity(table, keyfirst.EntitySpec[Role]{Type: "ROLE", Keys: []keyfirst.Binding{moviesOf.Fields("Actor", "Movie")}})
	_, err := query.CollectionOn(table, moviesOf, "Tom Hanks").
		SortAttr(query.Attr("Movie").BeginsWith("Toy Story")).
		Page(context.Background(), printer{})
	fmt.Println(err)
	// Output:
	// index: (the table)
	// key condition: (Actor = "Tom Hanks") AND (begins_with (Movie, "Toy Story"))
	// forward: true limit: 0 filter: false
	// <nil>
}

// Seed 000: a repo and its issues live in one item collection; read
// together, newest issue first, each item arrives as its own type, and an
// item of a type no longer registered as a query.Unknown, neither dropped
// nor in the way. (The client here answers with stored items; use a
// *dynamodb.Client.)
func ExampleCollectionOn() {
	type Repo struct{ Name string }
	type Issue struct {
		Repo   string
		Number uint32
	}
	repoKey := keys.NewKey1(keys.ID[string](), keys.WithPrefix("REPO"))
	issueKey := keys.NewKey1(keys.Uint[uint32](8), keys.WithPrefix("ISSUE"))
	repoByName := keyfirst.OnTable(keyfirst.Composite("PK", repoKey), keyfirst.Composite("SK", repoKey))
	issueByNumber := keyfirst.OnTable(keyfirst.Composite("PK", repoKey), keyfirst.Composite("SK", issueKey))
	table, _ := keyfirst.NewTable(keyfirst.TableSpec{Name: "github", Key: repoByName})
	repos, _ := keyfirst.NewEntity(table, keyfirst.EntitySpec[Repo]{Type: "REPO", Keys: []keyfirst.Binding{repoByName.Fields("Name", "Name")}})
	issues, _ := keyfirst.NewEntity(table, keyfirst.EntitySpec[Issue]{Type: "ISSUE", Keys: []keyfirst.Binding{issueByNumber.Fields("Repo", "Number")}})
	repo, _ := repos.Item(Repo{Name: "keyfirst"})
	issue2, _ := issues.Item(Issue{Repo: "keyfirst", Number: 2})
	issue1, _ := issues.Item(Issue{Repo: "keyfirst", Number: 1})
	// An item of a retired entity type, no longer registered.
	label := map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: "REPO#keyfirst"}, "SK": &types.AttributeValueMemberS{Value: "LABEL#bug"},
		"_type": &types.AttributeValueMemberS{Value: "LABEL"},
	}
	client := &scripted{outs: []*dynamodb.QueryOutput{{Items: []map[string]types.AttributeValue{repo, label, issue2, issue1}}}}

	// The repo's collection, read through either pattern of its partition.
	q := query.CollectionOn(table, repoByName, "keyfirst").
		Sort(keys.Between(issueKey.Start(), repoKey.At("keyfirst"))).
		Desc()
	for item, err := range q.All(context.Background(), client) {
		if err != nil {
			fmt.Println(err)
			return
		}
		switch v := item.(type) {
		case Repo:
			fmt.Println("repo", v.Name)
		case Issue:
			fmt.Println("issue", v.Number)
		case query.Unknown:
			fmt.Println("unknown", v.Type, v.Item["SK"].(*types.AttributeValueMemberS).Value)
		}
	}
	fmt.Println(printed(client.ins[0]))
	// Output:
	// repo keyfirst
	// unknown LABEL LABEL#bug
	// issue 2
	// issue 1
	// (PK = "REPO#keyfirst") AND (SK BETWEEN "ISSUE#" AND "REPO#keyfirst")
}

// Seed 001: a dashboard lists open tickets from a GSI that projects only
// what the dashboard shows. A Ticket read through it would lack its body
// and pass for a whole ticket, so that read is refused before any request;
// a view reads the projected fields into a type of its own, which no write
// takes. (The client here answers with a stored item; use a
// *dynamodb.Client.)
func ExampleView() {
	type Ticket struct {
		ID       string `dynamodbav:"id"`
		Subject  string `dynamodbav:"subject"`
		Body     string `dynamodbav:"body"`
		OpenedAt string `dynamodbav:"OpenedAt"`
	}
	type TicketLine struct {
		ID      string `dynamodbav:"id"`
		Subject string `dynamodbav:"subject"`
	}
	ticketKey := keys.NewKey1(keys.ID[string](), keys.WithPrefix("TICKET"))
	ticketByID := keyfirst.OnTable(keyfirst.Composite("PK", ticketKey), keyfirst.Composite("SK", ticketKey))
	openTickets := keyfirst.OnIndex("Open", keyfirst.Const("OpenBucket", "OPEN"), keyfirst.Str("OpenedAt"))
	dashboard := openTickets.Index()
	dashboard.Projection = keyfirst.Include("id", "subject")
	table, _ := keyfirst.NewTable(keyfirst.TableSpec{Name: "tickets", Key: ticketByID, GSIs: []keyfirst.Index{dashboard}})
	tickets, _ := keyfirst.NewEntity(table, keyfirst.EntitySpec[Ticket]{Type: "TICKET",
		Keys: []keyfirst.Binding{ticketByID.Fields("ID", "ID"), openTickets.Fields("OpenedAt")}})
	ctx := context.Background()
	open := query.On(tickets, openTickets, keyfirst.None{})

	_, err := open.Page(ctx, printer{})
	var qe *query.Error
	if errors.As(err, &qe) {
		fmt.Println("refused:", qe.Problem, qe.Attribute)
	}

	item, _ := tickets.Item(Ticket{ID: "t1", Subject: "printer on fire", Body: "it is really on fire", OpenedAt: "2026-06-23T10:00:00Z"})
	client := &scripted{outs: []*dynamodb.QueryOutput{{Items: []map[string]types.AttributeValue{item}}}}
	page, err := query.View[TicketLine](open).Page(ctx, client)
	fmt.Printf("%+v %v\n", page.Items, err)
	fmt.Println("projection:", projected(client.ins[0].ExpressionAttributeNames, client.ins[0].ProjectionExpression))
	// Output:
	// refused: projection body
	// [{ID:t1 Subject:printer on fire}] <nil>
	// projection: [OpenBucket OpenedAt PK SK _type id subject]
}
