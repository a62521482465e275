// Command audit is seed 003's actor-scoped audit log: the actor is the
// partition key (PK = "ACTOR#u_8814") and the event's time the sort key
// (SK = "EVT#<ISO-8601>"), so one item collection answers two reads, with
// no GSI: the actor's activity newest first (ScanIndexForward = false, at
// the same cost), and the events of a time window (SK BETWEEN). Sort keys
// are unique in a partition, so two events of the same second are kept
// apart by a sequence number after the time:
// EVT#2026-06-23T12:30:00Z#0000000002.
package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/examples/internal/demo"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// Event is one audit event of an actor.
type Event struct {
	Actor  string    `dynamodbav:"Actor"`
	At     time.Time `dynamodbav:"At"`
	Seq    uint32    `dynamodbav:"Seq"` // tells apart the actor's events of one second
	Action string    `dynamodbav:"Action"`
}

// The keys, the access pattern, the table and the entity, declared once.
var (
	actorKey = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ACTOR"))
	// eventKey is EVT#<ISO-8601 UTC, to the second>#<sequence, zero-padded>.
	eventKey = keys.NewKey2(keys.Time(keys.Second, keys.WithZ), keys.Uint[uint32](10), keys.WithPrefix("EVT"))
	// Generic key names, so that the table can hold other entities later.
	eventsByActor = keyfirst.OnTable(keyfirst.Composite("PK", actorKey), keyfirst.Composite("SK", eventKey))

	AuditLog = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "AuditLog", Key: eventsByActor}))
	Events   = keyfirst.Must(keyfirst.NewEntity(AuditLog, keyfirst.EntitySpec[Event]{
		Type: "Event", Keys: []keyfirst.Binding{eventsByActor.Fields("Actor", "At", "Seq")}}))
)

func main() { demo.Main(run) }

func run(ctx context.Context, w io.Writer, client *dynamodb.Client) (err error) {
	db := demo.New(w, client)
	defer db.Close(ctx, &err)
	table, err := db.Create(ctx, AuditLog)
	if err != nil {
		return err
	}
	events := keyfirst.Must(Events.In(table)) // a binding of its own schema: In cannot fail

	at := func(s string) time.Time {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			panic(err) // a mistyped literal below
		}
		return t
	}
	var reqs []keyfirst.WriteRequest
	for _, e := range []Event{
		{"u_8814", at("2026-06-22T23:59:59Z"), 1, "login"},
		{"u_8814", at("2026-06-23T00:00:00Z"), 1, "view report"},
		{"u_8814", at("2026-06-23T12:30:00Z"), 1, "edit report"},
		{"u_8814", at("2026-06-23T12:30:00Z"), 2, "share report"}, // the same second
		{"u_8814", at("2026-06-23T23:59:59Z"), 1, "logout"},
		{"u_8814", at("2026-06-24T00:00:00Z"), 1, "login"},
		{"u_0001", at("2026-06-23T10:00:00Z"), 1, "another actor's event"},
	} {
		reqs = append(reqs, events.PutRequest(e))
	}
	if err := table.BatchWrite(ctx, db, reqs); err != nil {
		return err
	}

	actor := query.On(events, eventsByActor, "u_8814")
	fmt.Fprintln(w, "read 1: u_8814's activity, newest first")
	if err := printEvents(ctx, w, db, actor.Sort(eventKey.Range().BeginsWith()).Desc()); err != nil {
		return err
	}
	// The upper bound ends with '$', the character after '#': it keeps
	// every event of 23:59:59, whatever its sequence number.
	fmt.Fprintln(w, "\nread 2: u_8814's events of 23 June")
	return printEvents(ctx, w, db, actor.Sort(eventKey.Range().Between(at("2026-06-23T00:00:00Z"), at("2026-06-23T23:59:59Z"))))
}

// printEvents prints the events q reads, each with its sort key, and what
// the query sent and cost.
func printEvents(ctx context.Context, w io.Writer, db *demo.DB, q query.Query[Event]) error {
	found, err := q.Collect(ctx, db)
	if err != nil {
		return err
	}
	for _, e := range found {
		sk, err := eventKey.Encode(e.At, e.Seq)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %s  %s\n", sk, e.Action)
	}
	db.Report()
	return nil
}
