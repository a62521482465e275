package query_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
)

// Seed 004 as its items are: the table's key attributes Actor and Movie
// are the fields of those names, the GSI MovieActors inverts them, and
// ByRole projects the other fields only (the table's key is projected into
// every index).
type castRole struct {
	Actor string `dynamodbav:"Actor"`
	Movie string `dynamodbav:"Movie"`
	Role  string `dynamodbav:"Role"`
	Year  int    `dynamodbav:"Year"`
}

var (
	castByActor = keyfirst.OnTable(keyfirst.Str("Actor"), keyfirst.Str("Movie"))
	castByMovie = keyfirst.OnIndex("MovieActors", keyfirst.Str("Movie"), keyfirst.Str("Actor"))
	castByRole  = keyfirst.OnIndex("ByRole", keyfirst.Str("Role"), keyfirst.NoSort())
)

// Queries of the table and of its indexes, a collection and a scan read
// the items back whole, the key fields filled from the key attributes.
func TestTableKeyFieldsReadBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	byMovie, byRole := castByMovie.Index(), castByRole.Index()
	byMovie.Scannable = true
	byRole.Projection = keyfirst.Include("Year")
	schema, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "MoviesAndActors", Key: castByActor, GSIs: []keyfirst.Index{byMovie, byRole}})
	noErr(t, err)
	table := tableFor(t, schema)
	roles, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[castRole]{Type: "Role", Keys: []keyfirst.Binding{
		castByActor.Fields("Actor", "Movie"), castByMovie.Fields("Movie", "Actor"), castByRole.Fields("Role")}})
	noErr(t, err)
	client := integrationClient(t)
	cast := []castRole{
		{"Natalie Portman", "Black Swan", "Nina Sayers", 2010},
		{"Tim Allen", "Toy Story", "Buzz Lightyear", 1995},
		{"Tom Hanks", "Cast Away", "Chuck Noland", 2000},
		{"Tom Hanks", "Toy Story", "Woody", 1995},
	}
	var reqs []keyfirst.WriteRequest
	for _, r := range cast {
		reqs = append(reqs, roles.PutRequest(r))
	}
	write(t, client, table, reqs...)

	for _, tt := range []struct {
		name string
		q    query.Query[castRole]
		want []castRole
	}{
		{"the table", query.On(roles, castByActor, "Tom Hanks"), cast[2:]},
		{"the table, a sort condition", query.On(roles, castByActor, "Tom Hanks").SortAttr(query.Attr("Movie").BeginsWith("Toy")), cast[3:]},
		{"the inverted GSI", query.On(roles, castByMovie, "Toy Story"), []castRole{cast[1], cast[3]}},
		{"an INCLUDE GSI", query.On(roles, castByRole, "Woody"), cast[3:]},
	} {
		got, err := tt.q.Collect(ctx, client)
		noErr(t, err)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
	items, err := query.CollectionOn(table, castByActor, "Tom Hanks").Collect(ctx, client)
	noErr(t, err)
	if len(items) != 2 || items[0] != any(cast[2]) || items[1] != any(cast[3]) {
		t.Errorf("collection: %+v, want %+v", items, cast[2:])
	}
	scanned, err := query.ScanIndex(roles, "MovieActors").Collect(ctx, client)
	noErr(t, err)
	slices.SortFunc(scanned, func(a, b castRole) int { return strings.Compare(a.Actor+"/"+a.Movie, b.Actor+"/"+b.Movie) })
	if !slices.Equal(scanned, cast) {
		t.Errorf("scan: %+v, want %+v", scanned, cast)
	}
}
