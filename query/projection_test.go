package query_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// ---- issue 9's notebook: indexes that project only some attributes ----
//
//	PK          SK     entity   indexes
//	NOTE#<0001> NOTE   Note     ByName (GSI, INCLUDE id name; scannable),
//	                            Whole (GSI, INCLUDE every field of Note),
//	                            ByRank (LSI, KEYS_ONLY), ByRankName (LSI, INCLUDE name)
//	TAG#<l>     TAG    Tag      in none of them

type Note struct {
	ID    int    `dynamodbav:"id"`
	Name  string `dynamodbav:"name"`
	Rank  int    `dynamodbav:"rank"`
	Notes string `dynamodbav:"notes,omitempty"`
}

type Tag struct {
	Label string `dynamodbav:"label"`
	Color string `dynamodbav:"color"`
}

type notebook struct {
	table *keyfirst.Table
	notes *keyfirst.Entity[Note]
	tags  *keyfirst.Entity[Tag]
}

// The notebook's patterns: the notes and the tags in the table, the notes
// in every index (ByName and Whole hold all of them, under a constant
// partition key).
var (
	noteKey         = keys.NewKey1(keys.Int[int](4), keys.WithPrefix("NOTE"))
	rankKey         = keys.NewKey1(keys.Int[int](8))
	tagKey          = keys.NewKey1(keys.ID[string](), keys.WithPrefix("TAG"))
	noteByID        = keyfirst.OnTable(keyfirst.Composite("PK", noteKey), keyfirst.Const("SK", "NOTE"))
	tagByLabel      = keyfirst.OnTable(keyfirst.Composite("PK", tagKey), keyfirst.Const("SK", "TAG"))
	notesByName     = keyfirst.OnIndex("ByName", keyfirst.Const("GSI1PK", "NOTES"), keyfirst.Str("GSI1SK"))
	wholeNotes      = keyfirst.OnIndex("Whole", keyfirst.Const("GSI2PK", "NOTES"), keyfirst.NoSort())
	notesByRank     = keyfirst.OnIndex("ByRank", keyfirst.Composite("PK", noteKey), keyfirst.Composite("LSI1SK", rankKey))
	notesByRankName = keyfirst.OnIndex("ByRankName", keyfirst.Composite("PK", noteKey), keyfirst.Composite("LSI2SK", rankKey))
)

func newNotebook(t testing.TB, name string) notebook {
	t.Helper()
	byName, whole, byRank, byRankName := notesByName.Index(), wholeNotes.Index(), notesByRank.Index(), notesByRankName.Index()
	byName.Projection, byName.Scannable = keyfirst.Include("id", "name"), true
	whole.Projection = keyfirst.Include("id", "name", "rank", "notes")
	byRank.Projection = keyfirst.KeysOnly()
	byRankName.Projection = keyfirst.Include("name")
	table, err := keyfirst.NewTable(keyfirst.TableSpec{Name: name, Key: noteByID,
		GSIs: []keyfirst.Index{byName, whole}, LSIs: []keyfirst.Index{byRank, byRankName}})
	noErr(t, err)
	notes, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Note]{Type: "NOTE", Keys: []keyfirst.Binding{
		noteByID.Fields("ID"),
		notesByName.Fields("Name"),
		wholeNotes.Fields(),
		notesByRank.Fields("ID", "Rank"),
		notesByRankName.Fields("ID", "Rank"),
	}})
	noErr(t, err)
	tags, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Tag]{Type: "TAG", Keys: []keyfirst.Binding{tagByLabel.Fields("Label")}})
	noErr(t, err)
	return notebook{table, notes, tags}
}

// localNotebook creates the notebook's table in DynamoDB Local.
func localNotebook(t testing.TB) notebook {
	t.Helper()
	nb := newNotebook(t, "notebook")
	return nb.in(tableFor(t, nb.table))
}

// in returns the notebook bound to table, a binding of its description.
func (nb notebook) in(table *keyfirst.Table) notebook {
	return notebook{table, keyfirst.Must(nb.notes.In(table)), keyfirst.Must(nb.tags.In(table))}
}

// Issue 9, item 1: put {ID:1, Rank:5, Notes:"important"}, read it through
// an INCLUDE index that projects id and name, change the name, Replace:
// Rank and Notes were gone. The read is now refused before any request.
func TestPartialIndexReadIsRefused(t *testing.T) {
	t.Parallel()
	client := integrationClient(t)
	nb := localNotebook(t)
	ctx := context.Background()
	_, err := nb.notes.Put(ctx, client, Note{ID: 1, Name: "draft", Rank: 5, Notes: "important"})
	noErr(t, err)

	c := &counting{QueryAPI: client}
	page, err := query.On(nb.notes, notesByName, keyfirst.None{}).Page(ctx, c)
	if err == nil {
		// What the old code allowed: a partial Note that Replace took for a
		// whole one.
		n := page.Items[0]
		n.Name = "final"
		_, uerr := nb.notes.Replace(ctx, client, n)
		key, kerr := nb.notes.Key(Note{ID: 1})
		noErr(t, kerr)
		stored, gerr := nb.notes.Get(ctx, client, key)
		t.Fatalf("a read through an INCLUDE index returned %+v; Replace (%v) then stored %+v (%v)", page.Items, uerr, stored, gerr)
	}
	var qe *query.Error
	if !errors.Is(err, query.ErrInvalidQuery) || !errors.As(err, &qe) || qe.Problem != query.ProblemProjection ||
		qe.Index != "ByName" || qe.Attribute != "rank" {
		t.Fatalf("got %#v", err)
	}
	if c.requests() != 0 {
		t.Fatalf("%d requests sent", c.requests())
	}
	for _, want := range []string{"rank", "notes", "query.View"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the message does not mention %q: %v", want, err)
		}
	}
}

// An entity read, a Collection and a Scan through a projection that cannot
// give a whole item are refused before any request, on GSIs and LSIs alike
// (issue 9, items 1 and 12); through one that holds every attribute of
// every entity type that can be in it they are sent.
func TestPartialProjectionRefused(t *testing.T) {
	nb := newNotebook(t, "notebook")
	ctx := context.Background()
	notes := query.On(nb.notes, noteByID, 1)
	refused := []struct {
		name      string
		read      func(keyfirst.QueryAPI) error
		index     string
		attribute string
	}{
		{"entity, INCLUDE GSI", pageOf(query.On(nb.notes, notesByName, keyfirst.None{})), "ByName", "rank"},
		{"entity, KEYS_ONLY LSI", pageOf(query.On(nb.notes, notesByRank, 1)), "ByRank", "id"},
		{"entity, INCLUDE LSI", pageOf(query.On(nb.notes, notesByRankName, 1)), "ByRankName", "id"},
		{"collection, INCLUDE GSI", pageOf(query.CollectionOn(nb.table, notesByName, keyfirst.None{})), "ByName", "rank"},
		{"collection, KEYS_ONLY LSI", pageOf(query.CollectionOn(nb.table, notesByRank, 1)), "ByRank", "_type"},
		{"collection, INCLUDE LSI", pageOf(query.CollectionOn(nb.table, notesByRankName, 1)), "ByRankName", "id"},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.read(noCalls{T: t})
			var qe *query.Error
			if !errors.As(err, &qe) || qe.Problem != query.ProblemProjection || qe.Index != tt.index || qe.Attribute != tt.attribute {
				t.Fatalf("got %v", err)
			}
		})
	}
	t.Run("scan, INCLUDE GSI", func(t *testing.T) {
		_, err := query.ScanOn(nb.notes, notesByName).Collect(ctx, noCalls{T: t})
		var qe *query.Error
		if !errors.As(err, &qe) || qe.Problem != query.ProblemProjection || qe.Attribute != "rank" {
			t.Fatalf("got %v", err)
		}
	})

	sent := []struct {
		name string
		read func(keyfirst.QueryAPI) error
	}{
		{"entity, INCLUDE of every field", pageOf(query.On(nb.notes, wholeNotes, keyfirst.None{}))},
		{"collection, INCLUDE of every field of the types in it", pageOf(query.CollectionOn(nb.table, wholeNotes, keyfirst.None{}))},
		{"entity, table", pageOf(notes)},
	}
	for _, tt := range sent {
		t.Run(tt.name, func(t *testing.T) {
			c := &canned{}
			noErr(t, tt.read(c))
			if len(c.ins) != 1 {
				t.Fatalf("%d requests", len(c.ins))
			}
		})
	}
}

// pageOf reads the first page of q.
func pageOf[T any](q query.Query[T]) func(keyfirst.QueryAPI) error {
	return func(c keyfirst.QueryAPI) error {
		_, err := q.Page(context.Background(), c)
		return err
	}
}

// noteName is what the ByName index holds of a Note.
type noteName struct {
	ID   int    `dynamodbav:"id"`
	Name string `dynamodbav:"name"`
}

// A view reads what a partial index holds into a type of its own, with the
// query's limits and cursors; key attributes can be fields of it.
func TestViewReadsProjection(t *testing.T) {
	t.Parallel()
	client := integrationClient(t)
	nb := localNotebook(t)
	ctx := context.Background()
	for i, name := range []string{"a", "b", "c"} {
		_, err := nb.notes.Put(ctx, client, Note{ID: i + 1, Name: name, Rank: 5 * (i + 1), Notes: "n" + name})
		noErr(t, err)
	}

	byName := query.View[noteName](query.On(nb.notes, notesByName, keyfirst.None{}))
	page, err := byName.Limit(2).Page(ctx, client)
	noErr(t, err)
	if fmt.Sprint(page.Items) != "[{1 a} {2 b}]" || page.Next == "" {
		t.Fatalf("page 1: %+v", page)
	}
	page, err = byName.Limit(2).After(page.Next).Page(ctx, client)
	noErr(t, err)
	if fmt.Sprint(page.Items) != "[{3 c}]" {
		t.Fatalf("page 2: %+v", page)
	}

	// The keys of a KEYS_ONLY LSI.
	type noteRank struct {
		PK   string
		Rank string `dynamodbav:"LSI1SK"`
	}
	ranks, err := query.View[noteRank](query.On(nb.notes, notesByRank, 2)).Collect(ctx, client)
	noErr(t, err)
	if fmt.Sprint(ranks) != "[{NOTE#0002 00000010}]" {
		t.Fatalf("ranks %+v", ranks)
	}

	// A scan, and a view of a collection.
	scanned, err := query.ScanView[noteName](query.ScanOn(nb.notes, notesByName)).Collect(ctx, client)
	noErr(t, err)
	mixed, err := query.View[noteName](query.CollectionOn(nb.table, notesByName, keyfirst.None{})).Collect(ctx, client)
	noErr(t, err)
	if len(scanned) != 3 || fmt.Sprint(mixed) != "[{1 a} {2 b} {3 c}]" {
		t.Fatalf("scanned %+v, mixed %+v", scanned, mixed)
	}

	// To write, read the item whole: nothing is lost.
	key, err := nb.notes.Key(Note{ID: mixed[0].ID})
	noErr(t, err)
	whole, err := nb.notes.Get(ctx, client, key)
	noErr(t, err)
	whole.Name = "final"
	_, err = nb.notes.Replace(ctx, client, whole)
	noErr(t, err)
	if stored, err := nb.notes.Get(ctx, client, key); err != nil || stored != (Note{ID: 1, Name: "final", Rank: 5, Notes: "na"}) {
		t.Fatalf("stored %+v, %v", stored, err)
	}
}

// A view with a field the index does not hold, or into a type that is not
// a struct, is refused before any request.
func TestViewRefused(t *testing.T) {
	nb := newNotebook(t, "notebook")
	type noteRank struct {
		ID   int `dynamodbav:"id"`
		Rank int `dynamodbav:"rank"`
	}
	type noteNotes struct {
		Notes string `dynamodbav:"notes"`
	}
	byName := query.On(nb.notes, notesByName, keyfirst.None{})
	tests := []struct {
		name      string
		read      func(keyfirst.QueryAPI) error
		attribute string
	}{
		{"a field an INCLUDE GSI lacks", pageOf(query.View[noteRank](byName)), "rank"},
		{"a field an INCLUDE LSI lacks", pageOf(query.View[noteNotes](query.On(nb.notes, notesByRankName, 1))), "notes"},
		{"a field a KEYS_ONLY LSI lacks", pageOf(query.View[noteName](query.On(nb.notes, notesByRank, 1))), "id"},
		{"a collection view, a field the index lacks", pageOf(query.View[noteRank](query.CollectionOn(nb.table, notesByName, keyfirst.None{}))), "rank"},
		{"not a struct", pageOf(query.View[int](byName)), ""},
		{"a view of a view", pageOf(query.View[noteRank](query.View[noteName](byName))), "rank"},
		{"a scan view", func(keyfirst.QueryAPI) error {
			_, err := query.ScanView[noteRank](query.ScanOn(nb.notes, notesByName)).Collect(context.Background(), noCalls{T: t})
			return err
		}, "rank"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.read(noCalls{T: t})
			var qe *query.Error
			if !errors.Is(err, query.ErrInvalidQuery) || !errors.As(err, &qe) || qe.Problem != query.ProblemProjection || qe.Attribute != tt.attribute {
				t.Fatalf("got %v", err)
			}
		})
	}
	if _, err := query.View[noteName](query.On((*keyfirst.Entity[Note])(nil), noteByID, 1)).Page(context.Background(), noCalls{T: t}); !errors.Is(err, query.ErrInvalidQuery) {
		t.Fatalf("a view of a nil entity: %v", err)
	}
}

// A view of an entity's query refuses an item of another entity type when
// the index holds the entity-type attribute, with a cursor past it.
func TestViewChecksEntityType(t *testing.T) {
	nb := newNotebook(t, "notebook")
	tag, err := nb.tags.Item(Tag{Label: "x", Color: "red"})
	noErr(t, err)
	tag["id"] = &types.AttributeValueMemberN{Value: "7"}
	c := &canned{items: []map[string]types.AttributeValue{tag}}
	// The client answers the notes' query with the tag.
	_, err = query.View[noteName](query.On(nb.notes, noteByID, 1)).Page(context.Background(), c)
	var de *query.DecodeError
	if !errors.Is(err, keyfirst.ErrWrongEntityType) || !errors.As(err, &de) || de.Skip == "" {
		t.Fatalf("got %v", err)
	}
	// A view of the collection takes it.
	page, err := query.View[noteName](query.CollectionOn(nb.table, tagByLabel, "x")).Page(context.Background(), c)
	if err != nil || fmt.Sprint(page.Items) != "[{7 }]" {
		t.Fatalf("got %+v, %v", page.Items, err)
	}
}
