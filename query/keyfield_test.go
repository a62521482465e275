package query_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
)

// Episodes of shows: the table's key attributes Show (S) and Number (N)
// are the fields of those names, the GSI ByNumber inverts them, and
// ByTitle projects the other fields only (the table's key is projected
// into every index).
type episode struct {
	Show   string `dynamodbav:"Show"`
	Number int    `dynamodbav:"Number"`
	Title  string `dynamodbav:"Title"`
	Aired  int    `dynamodbav:"Aired"`
}

// Queries of the table and of its indexes, a collection and a scan read
// the items back whole, the key fields filled from the key attributes.
func TestTableKeyFieldsReadBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	number := keyfirst.Num[int]("Number")
	byShow := keyfirst.OnTable(keyfirst.Str("Show"), number)
	byNumber := keyfirst.OnIndex("ByNumber", keyfirst.Num[int]("Number"), keyfirst.Str("Show"))
	byTitle := keyfirst.OnIndex("ByTitle", keyfirst.Str("Title"), keyfirst.NoSort())
	numberIndex, titleIndex := byNumber.Index(), byTitle.Index()
	numberIndex.Scannable = true
	titleIndex.Projection = keyfirst.Include("Aired")
	schema, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "Episodes", Key: byShow, GSIs: []keyfirst.Index{numberIndex, titleIndex}})
	noErr(t, err)
	table := tableFor(t, schema)
	episodes, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[episode]{Type: "Episode", Keys: []keyfirst.Binding{
		byShow.Fields("Show", "Number"), byNumber.Fields("Number", "Show"), byTitle.Fields("Title")}})
	noErr(t, err)
	client := integrationClient(t)
	all := []episode{
		{"Columbo", 1, "Murder by the Book", 1971},
		{"Columbo", 2, "Death Lends a Hand", 1971},
		{"Columbo", 10, "Etude in Black", 1972},
		{"Poirot", 1, "The Adventure of the Clapham Cook", 1989},
	}
	var reqs []keyfirst.WriteRequest
	for _, e := range all {
		reqs = append(reqs, episodes.PutRequest(e))
	}
	write(t, client, table, reqs...)

	for _, tt := range []struct {
		name string
		q    query.Query[episode]
		want []episode
	}{
		{"the table, by number", query.On(episodes, byShow, "Columbo"), all[:3]},
		{"the table, a sort condition", query.On(episodes, byShow, "Columbo").SortValue(number.Gt(2)), all[2:3]},
		{"the inverted GSI", query.On(episodes, byNumber, 1), []episode{all[0], all[3]}},
		{"an INCLUDE GSI", query.On(episodes, byTitle, "Etude in Black"), all[2:3]},
	} {
		got, err := tt.q.Collect(ctx, client)
		noErr(t, err)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
	items, err := query.CollectionOn(table, byShow, "Poirot").Collect(ctx, client)
	noErr(t, err)
	if len(items) != 1 || items[0] != any(all[3]) {
		t.Errorf("collection: %+v, want %+v", items, all[3:])
	}
	scanned, err := query.ScanOn(episodes, byNumber).Collect(ctx, client)
	noErr(t, err)
	slices.SortFunc(scanned, func(a, b episode) int {
		if c := strings.Compare(a.Show, b.Show); c != 0 {
			return c
		}
		return a.Number - b.Number
	})
	if !slices.Equal(scanned, all) {
		t.Errorf("scan: %+v, want %+v", scanned, all)
	}
}
