package keyfirst_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
)

// Event is stored with its time as an index sort key: once, as the field
// At itself (attribute "at"), and as a copy under another name ("when").
type Event struct {
	ID   string    `dynamodbav:"id"`
	Feed string    `dynamodbav:"feed"`
	At   time.Time `dynamodbav:"at"`
}

var (
	eventByID  = keyfirst.OnTable(keyfirst.ID("id"), keyfirst.NoSort())
	eventAt    = keyfirst.Time("at")
	eventWhen  = keyfirst.Time("when")
	feedByAt   = keyfirst.OnIndex("ByAt", keyfirst.ID("feed"), eventAt)
	feedByWhen = keyfirst.OnIndex("ByWhen", keyfirst.ID("feed"), eventWhen)
)

// TestTimeSide: a Time sort side stores instants in TimeKeyLayout, as the
// field itself or as a copy, and its typed conditions (ranges across
// zones, a date prefix) return exactly the events DynamoDB compares in;
// a prefix no time key begins with is refused before any request.
func TestTimeSide(t *testing.T) {
	ctx := context.Background()
	client, table := localTableOf(t, keyfirst.TableSpec{Name: "events", Key: eventByID, GSIs: []keyfirst.Index{feedByAt.Index(), feedByWhen.Index()}})
	events, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Event]{Type: "Event",
		Keys: []keyfirst.Binding{eventByID.Fields("ID"), feedByAt.Fields("Feed", "At"), feedByWhen.Fields("Feed", "At")}})
	if err != nil {
		t.Fatal(err)
	}
	paris := time.FixedZone("Paris", 2*3600)
	at := []time.Time{
		time.Date(2024, 3, 31, 23, 30, 0, 0, time.UTC),
		time.Date(2024, 4, 1, 1, 15, 0, 0, paris), // 2024-03-31T23:15Z: March in UTC
		time.Date(2024, 4, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2024, 4, 15, 12, 0, 0, 500, time.UTC),
		time.Date(2024, 4, 30, 23, 59, 59, 999999999, time.UTC),
		time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC),
	}
	for i, a := range at {
		mustPut(t, client, events, Event{ID: string(rune('a' + i)), Feed: "f", At: a})
	}
	stored := rawItem(t, client, table.Name(), map[string]types.AttributeValue{"id": sAV("b")})
	for _, attr := range []string{"at", "when"} {
		if got := avText(stored[attr]); got != "2024-03-31T23:15:00.000000000Z" {
			t.Errorf("%s stored as %s, want the instant in TimeKeyLayout", attr, got)
		}
	}
	got, err := events.Get(ctx, client, mustKey(t, events, Event{ID: "b"}))
	if err != nil || !got.At.Equal(at[1]) {
		t.Fatalf("read back %v, %v; want the instant %v", got.At, err, at[1])
	}
	ids := func(q query.Query[Event]) []string {
		t.Helper()
		es, err := q.Collect(ctx, client)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range es {
			out = append(out, e.ID)
		}
		return out
	}
	for _, p := range []struct {
		pattern keyfirst.Pattern[string, time.Time]
		side    keyfirst.Side[time.Time]
	}{{feedByAt, eventAt}, {feedByWhen, eventWhen}} {
		apr1 := time.Date(2024, 4, 1, 2, 0, 0, 0, paris) // 2024-04-01T00:00Z
		for _, tc := range []struct {
			name string
			cond keyfirst.SortCond
			want []string
		}{
			{"April as a date prefix", p.side.BeginsWith("2024-04"), []string{"c", "d", "e"}},
			{"March 31 as a date prefix", p.side.BeginsWith("2024-03-31"), []string{"b", "a"}},
			{"from April 1 in Paris's zone", p.side.Ge(apr1), []string{"c", "d", "e", "f"}},
			{"before April 1", p.side.Lt(apr1), []string{"b", "a"}},
			{"the first half of April", p.side.Between(apr1, time.Date(2024, 4, 15, 12, 0, 0, 500, time.UTC)), []string{"c", "d"}},
			{"exactly", p.side.Eq(at[4]), []string{"e"}},
		} {
			if got := ids(query.On(events, p.pattern, "f").SortValue(tc.cond)); !slices.Equal(got, tc.want) {
				t.Errorf("%s, %s: %v, want %v", p.pattern.IndexName(), tc.name, got, tc.want)
			}
		}
	}
	for _, bad := range []string{"2024-4", "2024-13", "2024-04-1T", "2024-04-31", "2024-04-01T00:00:00.000000000Z0"} {
		_, err := query.On(events, feedByAt, "f").SortValue(eventAt.BeginsWith(bad)).Collect(ctx, noCalls{T: t})
		var qe *query.Error
		if !errors.As(err, &qe) || qe.Problem != query.ProblemSortKey {
			t.Errorf("BeginsWith(%q): %v, want ProblemSortKey before any request", bad, err)
		}
	}
	_, err = query.On(events, feedByAt, "f").SortValue(eventAt.Ge(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC))).Collect(ctx, noCalls{T: t})
	if !errors.Is(err, keyfirst.ErrInvalidItem) {
		t.Errorf("a year past 9999: %v, want the time key's error", err)
	}
	_, err = query.On(events, feedByAt, "f").SortValue(eventWhen.Ge(at[0])).Collect(ctx, noCalls{T: t})
	var qe *query.Error
	if !errors.As(err, &qe) || qe.Problem != query.ProblemForeignCondition {
		t.Errorf("another Time side's condition: %v, want ProblemForeignCondition", err)
	}
}
