package query_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/keyfirst/keyfirst/internal/nocalls"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/keys"
)

func TestMain(m *testing.M) { integration.Main(m) }

// ---- seed 000: customers and their orders ----
//
//	PK          SK            entity     GSIs
//	CUST#<id>   CUST#<id>     Customer   CustomerIndex (sparse, scannable)
//	CUST#<id>   ORDER#<id>    Order      ByStatusDate (concatenated),
//	                                     ByStatusDateNative (status, date),
//	                                     ByCustomerStatus (customer, status; date),
//	                                     ByPlaced (LSI)

type Status string

const (
	Pending   Status = "PENDING"
	Shipped   Status = "SHIPPED"
	Cancelled Status = "CANCELLED"
	Delivered Status = "DELIVERED"
)

var (
	customerPK = keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUST"))
	orderSK    = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))
	// statusDate is OrderStatusDate: CANCELLED#2019-07-01T00:00:00.000000.
	// Enum first (seed 000).
	statusDate = keys.NewKey2(keys.Enum(Pending, Shipped, Cancelled, Delivered), keys.Time(keys.Micro))
	statusKey  = keys.NewKey1(keys.Enum(Pending, Shipped, Cancelled, Delivered))
	placedKey  = keys.NewKey1(keys.Time(keys.Micro))
)

// The shop's access patterns, declared once: the table, the indexes and
// the entities below are built from them, and the queries start from them.
var (
	orderByID    = keyfirst.OnTable(keyfirst.Composite("PK", customerPK), keyfirst.Composite("SK", orderSK))
	customerByID = keyfirst.OnTable(keyfirst.Composite("PK", customerPK), keyfirst.Composite("SK", customerPK))
	byStatusDate = keyfirst.OnIndex("ByStatusDate", keyfirst.Str("CustomerId"), keyfirst.Composite("OrderStatusDate", statusDate))
	// the same two segments in two attributes of a native sort key
	byStatusDateNative = keyfirst.OnIndex("ByStatusDateNative", keyfirst.Str("CustomerId"), keyfirst.Native(statusDate, "OrderStatus", "OrderDate"))
	// a native partition key: the CustomerId field as it is, and the status
	byCustomerStatus = keyfirst.OnIndex("ByCustomerStatus",
		keyfirst.Tuple2(keyfirst.Str("CustomerId"), keyfirst.Composite("OrderStatus", statusKey)), keyfirst.Composite("OrderDate", placedKey))
	customerIndex = keyfirst.OnIndex("CustomerIndex", keyfirst.Str("CustomerIndexId"), keyfirst.NoSort())
	keysOnly      = keyfirst.OnIndex("Keys", keyfirst.Str("CustomerId"), keyfirst.Composite("OrderStatusDate", statusDate))
	byPlaced      = keyfirst.OnIndex("ByPlaced", keyfirst.Composite("PK", customerPK), keyfirst.Composite("Placed", placedKey))
)

type Order struct {
	CustomerID string    `dynamodbav:"CustomerId"`
	ID         string    `dynamodbav:"OrderId"`
	Status     Status    `dynamodbav:"Status"`
	Date       time.Time `dynamodbav:"Date"`
	Pad        string    `dynamodbav:"Pad,omitempty"`
}

type Customer struct {
	ID   string `dynamodbav:"Id"`
	Name string `dynamodbav:"Name"`
}

type shop struct {
	table     *keyfirst.Table
	orders    *keyfirst.Entity[Order]
	customers *keyfirst.Entity[Customer]
}

func shopSpec(name string) keyfirst.TableSpec {
	scannable := customerIndex.Index()
	scannable.Scannable = true
	projected := keysOnly.Index()
	projected.Projection = keyfirst.KeysOnly()
	return keyfirst.TableSpec{
		Name: name,
		Key:  orderByID,
		GSIs: []keyfirst.Index{byStatusDate.Index(), byStatusDateNative.Index(), byCustomerStatus.Index(), scannable, projected},
		LSIs: []keyfirst.Index{byPlaced.Index()},
	}
}

func newShop(t testing.TB, name string) shop {
	t.Helper()
	table, err := keyfirst.NewTable(shopSpec(name))
	if err != nil {
		t.Fatal(err)
	}
	orders, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Order]{
		Type: "ORDER",
		Keys: []keyfirst.Binding{
			orderByID.Fields("CustomerID", "ID"),
			byStatusDate.Fields("CustomerID", "Status", "Date"),
			byStatusDateNative.Fields("CustomerID", "Status", "Date"),
			byCustomerStatus.Fields("CustomerID", "Status", "Date"),
			keysOnly.Fields("CustomerID", "Status", "Date"),
			byPlaced.Fields("CustomerID", "Date"),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	customers, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Customer]{
		Type: "CUSTOMER",
		Keys: []keyfirst.Binding{customerByID.Fields("ID", "ID"), customerIndex.Fields("ID")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return shop{table, orders, customers}
}

// in returns the shop bound to table, a binding of its description.
func (s shop) in(table *keyfirst.Table) shop {
	return shop{table, keyfirst.Must(s.orders.In(table)), keyfirst.Must(s.customers.In(table))}
}

// localShop creates the shop's table in DynamoDB Local for this test.
func localShop(t testing.TB) (*dynamodb.Client, shop) {
	t.Helper()
	s := newShop(t, "shop")
	return integration.Client(t), s.in(tableFor(t, s.table))
}

// ---- seed 000: a repo, its issues and its stars in one collection ----
//
//	PK             SK                 entity
//	REPO#<name>    ISSUE#<00000042>   Issue
//	REPO#<name>    REPO#<name>        Repo
//	REPO#<name>    STAR#<user>        Star

var (
	repoPK  = keys.NewKey1(keys.ID[string](), keys.WithPrefix("REPO"))
	repoSK  = repoPK
	issueSK = keys.NewKey1(keys.Uint[uint32](8), keys.WithPrefix("ISSUE"))
	starSK  = keys.NewKey1(keys.ID[string](), keys.WithPrefix("STAR"))
)

type Repo struct {
	Name        string `dynamodbav:"Name"`
	Description string `dynamodbav:"Description"`
}

type Issue struct {
	Repo   string `dynamodbav:"Repo"`
	Number uint32 `dynamodbav:"Number"`
	Title  string `dynamodbav:"Title"`
}

type Star struct {
	Repo string `dynamodbav:"Repo"`
	User string `dynamodbav:"User"`
}

type github struct {
	table  *keyfirst.Table
	repos  *keyfirst.Entity[Repo]
	issues *keyfirst.Entity[Issue]
	stars  *keyfirst.Entity[Star]
}

// The collection's patterns: one per entity type, one partition key.
var (
	repoByName    = keyfirst.OnTable(keyfirst.Composite("PK", repoPK), keyfirst.Composite("SK", repoSK))
	issueByNumber = keyfirst.OnTable(keyfirst.Composite("PK", repoPK), keyfirst.Composite("SK", issueSK))
	starByUser    = keyfirst.OnTable(keyfirst.Composite("PK", repoPK), keyfirst.Composite("SK", starSK))
)

func newGithub(t testing.TB, name string) github {
	t.Helper()
	table, err := keyfirst.NewTable(keyfirst.TableSpec{Name: name, Key: repoByName})
	noErr(t, err)
	repos, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Repo]{Type: "REPO", Keys: []keyfirst.Binding{repoByName.Fields("Name", "Name")}})
	noErr(t, err)
	issues, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Issue]{Type: "ISSUE", Keys: []keyfirst.Binding{issueByNumber.Fields("Repo", "Number")}})
	noErr(t, err)
	stars, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Star]{Type: "STAR", Keys: []keyfirst.Binding{starByUser.Fields("Repo", "User")}})
	noErr(t, err)
	return github{table, repos, issues, stars}
}

// in returns the collection bound to table, a binding of its description.
func (g github) in(table *keyfirst.Table) github {
	return github{table, keyfirst.Must(g.repos.In(table)), keyfirst.Must(g.issues.In(table)), keyfirst.Must(g.stars.In(table))}
}

// ---- seed 003: an audit log ----
//
//	PK              SK
//	ACTOR#u_8814    EVT#2026-06-23T10:00:00Z

var (
	actorPK = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ACTOR"))
	eventSK = keys.NewKey1(keys.Time(keys.Second, keys.WithZ), keys.WithPrefix("EVT"))
)

type Event struct {
	Actor  string    `dynamodbav:"Actor"`
	At     time.Time `dynamodbav:"At"`
	Action string    `dynamodbav:"Action"`
}

var eventsByActor = keyfirst.OnTable(keyfirst.Composite("PK", actorPK), keyfirst.Composite("SK", eventSK))

func newAudit(t testing.TB, name string) (*keyfirst.Table, *keyfirst.Entity[Event]) {
	t.Helper()
	table, err := keyfirst.NewTable(keyfirst.TableSpec{Name: name, Key: eventsByActor})
	noErr(t, err)
	events, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Event]{Type: "EVENT", Keys: []keyfirst.Binding{eventsByActor.Fields("Actor", "At")}})
	noErr(t, err)
	return table, events
}

// localAudit creates the audit log's table in DynamoDB Local for this test.
func localAudit(t testing.TB) (*keyfirst.Table, *keyfirst.Entity[Event]) {
	t.Helper()
	table, events := newAudit(t, "audit")
	table = tableFor(t, table)
	return table, keyfirst.Must(events.In(table))
}

// auditLog creates the audit log in DynamoDB Local for this test and
// writes n events of actor u_8814, one a second from 2026-06-23, whose
// Action is their number.
func auditLog(t testing.TB, client *dynamodb.Client, n int) *keyfirst.Entity[Event] {
	t.Helper()
	table, events := localAudit(t)
	base := time.Date(2026, 6, 23, 0, 0, 0, 0, time.UTC)
	reqs := make([]keyfirst.WriteRequest, n)
	for i := range reqs {
		reqs[i] = events.PutRequest(Event{Actor: "u_8814", At: base.Add(time.Duration(i) * time.Second), Action: fmt.Sprint(i)})
	}
	write(t, client, table, reqs...)
	return events
}

// ---- seed 004: MoviesAndActors, and the inverted GSI ----

var (
	actorKey = keys.NewKey1(keys.ID[string]())
	movieKey = keys.NewKey1(keys.ID[string]())
)

type Role struct {
	Performer string `dynamodbav:"Performer"`
	Title     string `dynamodbav:"Title"`
	Character string `dynamodbav:"Character"`
}

// The table's key and the inverted GSI: the same two attributes, swapped.
var (
	moviesOfActor = keyfirst.OnTable(keyfirst.Composite("Actor", actorKey), keyfirst.Composite("Movie", movieKey))
	actorsInMovie = keyfirst.OnIndex("MovieActors", keyfirst.Composite("Movie", movieKey), keyfirst.Composite("Actor", actorKey))
)

func newMovies(t testing.TB, name string) (*keyfirst.Table, *keyfirst.Entity[Role]) {
	t.Helper()
	table, err := keyfirst.NewTable(keyfirst.TableSpec{Name: name, Key: moviesOfActor, GSIs: []keyfirst.Index{actorsInMovie.Index()}})
	noErr(t, err)
	roles, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Role]{
		Type: "ROLE",
		Keys: []keyfirst.Binding{moviesOfActor.Fields("Performer", "Title"), actorsInMovie.Fields("Title", "Performer")},
	})
	noErr(t, err)
	return table, roles
}

// ---- scores: a table keyed by a string and a number ----

type BoardScore struct {
	Board string  `dynamodbav:"Board"`
	Score float64 `dynamodbav:"Score"`
}

// scoreByBoard is the scores' table key: both fields as they are.
var scoreByBoard = keyfirst.OnTable(keyfirst.Str("Board"), keyfirst.Num[float64]("Score"))

func newBoardScores(t testing.TB) (*keyfirst.Table, *keyfirst.Entity[BoardScore]) {
	t.Helper()
	table, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "scores", Key: scoreByBoard})
	noErr(t, err)
	scores, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[BoardScore]{Type: "SCORE", Keys: []keyfirst.Binding{scoreByBoard.Fields("Board", "Score")}})
	noErr(t, err)
	return table, scores
}

// ---- helpers ----

// noErr fails t on err.
func noErr(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// integrationClient is the DynamoDB Local client of the test binary.
func integrationClient(t testing.TB) *dynamodb.Client { return integration.Client(t) }

// tableFor creates table's table in DynamoDB Local for this test and
// returns table's description bound to the name it got.
func tableFor(t testing.TB, table *keyfirst.Table) *keyfirst.Table {
	t.Helper()
	return integration.TableOf(t, table)
}

// write stores items with BatchWrite, within the test's own deadline:
// loading data is not what the tests measure.
func write(t testing.TB, client *dynamodb.Client, table *keyfirst.Table, reqs ...keyfirst.WriteRequest) {
	t.Helper()
	ctx, cancel := integration.Context(t)
	defer cancel()
	if err := table.BatchWrite(ctx, client, reqs); err != nil {
		t.Fatal(err)
	}
}

// counting counts the Query requests sent through it.
type counting struct {
	keyfirst.QueryAPI
	mu    sync.Mutex
	calls int
	ins   []*dynamodb.QueryInput
}

func (c *counting) Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.mu.Lock()
	c.calls++
	cp := *in
	c.ins = append(c.ins, &cp)
	c.mu.Unlock()
	return c.QueryAPI.Query(ctx, in, optFns...)
}

func (c *counting) requests() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}

// noCalls fails the test on any request: bad input must be refused
// before any request.
type noCalls = nocalls.Client

// scripted answers request n with outs[n-1] (an error past the end, or
// the context's error), and records the requests.
type scripted struct {
	outs []*dynamodb.QueryOutput
	ins  []*dynamodb.QueryInput
}

func (c *scripted) Query(ctx context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	cp := *in
	c.ins = append(c.ins, &cp)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(c.ins) > len(c.outs) {
		return nil, errScriptEnd
	}
	return c.outs[len(c.ins)-1], nil
}

var errScriptEnd = errors.New("scripted: no more responses")

// orderItems returns the items of orders as Put would write them.
func orderItems(t testing.TB, s shop, orders ...Order) []map[string]types.AttributeValue {
	t.Helper()
	out := make([]map[string]types.AttributeValue, len(orders))
	for i, o := range orders {
		it, err := s.orders.Item(o)
		noErr(t, err)
		out[i] = it
	}
	return out
}

// keyOf returns the table key of an item, as a LastEvaluatedKey.
func keyOf(it map[string]types.AttributeValue) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": it["PK"], "SK": it["SK"]}
}
