package shard_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/shard"
)

// A ticket open since a time, in a sharded index whose sort key is a keys
// composite.
type openTicket struct {
	ID     string    `dynamodbav:"id"`
	Opened time.Time `dynamodbav:"opened"`
}

// A raw condition on a sharded index's composite sort key is refused, in
// every shard's query, before any request, as in a query of one
// partition: its value is not checked against the key's segments (a
// month 13 found nothing).
func TestReaderRefusesARawConditionOnACompositeSortKey(t *testing.T) {
	t.Parallel()
	openedKey := keys.NewKey1(keys.Time(keys.Micro))
	byID := keyfirst.OnTable(keyfirst.ID("id"), keyfirst.NoSort())
	byOpened := keyfirst.OnIndex("open-by-opened", keyfirst.Str("open_shard"), keyfirst.Composite("opened_at", openedKey))
	x := keyfirst.Must(shard.New(byOpened, shard.Spec[openTicket, time.Time]{Base: "OPEN", Shards: 3, Field: "ID",
		Sort: func(o openTicket) time.Time { return o.Opened }}))
	table := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "tickets", Key: byID, GSIs: []keyfirst.Index{byOpened.Index()}}))
	tickets := keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[openTicket]{Type: "Ticket",
		Keys: []keyfirst.Binding{byID.Fields("ID"), x.Binding()}}))

	r := shard.Query(tickets, x).SortAttr(query.Attr("opened_at").BeginsWith("2024-13"))
	_, err := r.Page(context.Background(), noCalls{T: t})
	var re *shard.ReadError
	var qe *query.Error
	if !errors.As(err, &re) || re.Problem != shard.ReadQuery || !errors.As(err, &qe) || qe.Problem != query.ProblemForeignCondition {
		t.Fatalf("Page: %v, want a ReadQuery *ReadError wrapping ProblemForeignCondition", err)
	}
	for _, err := range r.All(context.Background(), noCalls{T: t}) {
		if !errors.As(err, &qe) || qe.Problem != query.ProblemForeignCondition {
			t.Fatalf("All: %v", err)
		}
	}
}
