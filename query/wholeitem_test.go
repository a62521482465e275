package query_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// ---- issue 21, item 8: a library whose indexes hold items the current
// definitions do not expect ----
//
//	PK     SK     entity  indexes (by the current definitions)
//	<id>   BOOK   Book    ByShelf (GSI, INCLUDE Id Title; scannable),
//	                      ByTitle (LSI, INCLUDE Id Shelf)
//	<s>    MARK   Mark    ByType (GSI on _type and Spot, KEYS_ONLY)
//	<id>   LOAN   Loan    none
//
// Each index projects every attribute of the types that can be in it, so
// an entity read of Book or Mark and a collection of any of them pass the
// plan's check. A loan written by the older definition (loanV1, which
// stored the location under Shelf, and the book's title and desk beside
// it) is in all three, and so is one that another program tagged "Loan".

type Book struct {
	ID    string `dynamodbav:"Id"`
	Title string `dynamodbav:"Title"`
	Shelf string `dynamodbav:"Shelf"`
}

type Mark struct {
	Spot string `dynamodbav:"Spot"`
}

type Loan struct {
	ID       string `dynamodbav:"Id"`
	Member   string `dynamodbav:"Member"`
	Due      string `dynamodbav:"Due"`
	Location string `dynamodbav:"Location,omitempty"`
}

// loanV1 is Loan as an older release defined it.
type loanV1 struct {
	ID     string `dynamodbav:"Id"`
	Member string `dynamodbav:"Member"`
	Due    string `dynamodbav:"Due"`
	Shelf  string `dynamodbav:"Shelf"`
	Title  string `dynamodbav:"Title"`
	Spot   string `dynamodbav:"Spot"`
}

type library struct {
	table *keyfirst.Table
	books *keyfirst.Entity[Book]
	marks *keyfirst.Entity[Mark]
	loans *keyfirst.Entity[Loan]
	// loansV1 writes loans as the older release did, into the same table.
	loansV1 *keyfirst.Entity[loanV1]
}

// The library's patterns. The loans' index patterns are bound by loanV1
// only: by Loan's current definition, a loan is in no index.
var (
	itemKey    = keys.NewKey1(keys.ID[string]())
	bookByID   = keyfirst.OnTable(keyfirst.Composite("PK", itemKey), keyfirst.Const("SK", "BOOK"))
	markBySpot = keyfirst.OnTable(keyfirst.Composite("PK", itemKey), keyfirst.Const("SK", "MARK"))
	loanByID   = keyfirst.OnTable(keyfirst.Composite("PK", itemKey), keyfirst.Const("SK", "LOAN"))
	byShelf    = keyfirst.OnIndex("ByShelf", keyfirst.Str("Shelf"), keyfirst.NoSort())
	// ByTitle is an LSI: its partition key is the table's, of every type.
	byTitle = keyfirst.OnIndex("ByTitle", keyfirst.Composite("PK", itemKey), keyfirst.Str("Title"))
	// ByType is keyed by the entity-type attribute, which every item
	// stores: a mark's partition there is its type.
	byType = keyfirst.OnIndex("ByType", keyfirst.Str("_type"), keyfirst.Str("Spot"))
)

func librarySpec(name string) keyfirst.TableSpec {
	shelf, types, title := byShelf.Index(), byType.Index(), byTitle.Index()
	shelf.Projection, shelf.Scannable = keyfirst.Include("Id", "Title"), true
	types.Projection = keyfirst.KeysOnly()
	title.Projection = keyfirst.Include("Id", "Shelf")
	return keyfirst.TableSpec{Name: name, Key: bookByID, GSIs: []keyfirst.Index{shelf, types}, LSIs: []keyfirst.Index{title}}
}

// localLibrary creates the library's table in DynamoDB Local, with the
// current entities and, on a description of its own (an older release's),
// loanV1.
func localLibrary(t testing.TB) (*dynamodb.Client, library) {
	t.Helper()
	schema, err := keyfirst.NewTable(librarySpec("library"))
	noErr(t, err)
	table := tableFor(t, schema)
	books, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Book]{Type: "Book",
		Keys: []keyfirst.Binding{bookByID.Fields("ID"), byShelf.Fields("Shelf"), byTitle.Fields("ID", "Title")}})
	noErr(t, err)
	marks, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Mark]{Type: "Mark",
		Keys: []keyfirst.Binding{markBySpot.Fields("Spot"),
			keyfirst.FuncPartition(byType, func(Mark) (string, bool, error) { return "Mark", true, nil }, "Spot")}})
	noErr(t, err)
	loans, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Loan]{Type: "Loan", Keys: []keyfirst.Binding{loanByID.Fields("ID")}})
	noErr(t, err)
	old, err := keyfirst.NewTable(librarySpec(table.Name()))
	noErr(t, err)
	loansV1, err := keyfirst.NewEntity(old, keyfirst.EntitySpec[loanV1]{Type: "Loan", Keys: []keyfirst.Binding{
		loanByID.Fields("ID"), byShelf.Fields("Shelf"), byTitle.Fields("ID", "Title"),
		keyfirst.FuncPartition(byType, func(loanV1) (string, bool, error) { return "Loan", true, nil }, "Spot")}})
	noErr(t, err)
	return integrationClient(t), library{table, books, marks, loans, loansV1}
}

// stock stores a book, a mark, loan l1 as the older release wrote it and
// loan l2 as another program tagged it, each of the loans in every index.
func (lib library) stock(t testing.TB, client *dynamodb.Client) {
	t.Helper()
	ctx := context.Background()
	_, err := lib.books.Put(ctx, client, Book{ID: "b1", Title: "Dune", Shelf: "A"})
	noErr(t, err)
	_, err = lib.marks.Put(ctx, client, Mark{Spot: "desk"})
	noErr(t, err)
	_, err = lib.loansV1.Put(ctx, client, loanV1{ID: "l1", Member: "ada", Due: "2026-07-01", Shelf: "A", Title: "Dune", Spot: "desk"})
	noErr(t, err)
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	putRaw(t, client, lib.table.Name(), map[string]types.AttributeValue{
		"PK": s("l2"), "SK": s("LOAN"), "_type": s("Loan"),
		"Id": s("l2"), "Member": s("bob"), "Due": s("2026-08-01"), "Shelf": s("A"), "Title": s("Emma"), "Spot": s("desk"),
	})
}

// libraryItem names an item of the library, with what it holds.
func libraryItem(v any) string {
	switch v := v.(type) {
	case Book:
		return fmt.Sprintf("Book %+v", v)
	case Mark:
		return fmt.Sprintf("Mark %+v", v)
	case Loan:
		return fmt.Sprintf("Loan %+v", v)
	case query.Unknown:
		return fmt.Sprintf("Unknown %s %s", v.Type, v.Item["PK"].(*types.AttributeValueMemberS).Value)
	}
	return fmt.Sprintf("%T", v)
}

// Issue 21, item 8: a collection of an index that projects every attribute
// of the types that can be in it met a loan that, by Loan's current
// definition, cannot be there; it came back as a whole-looking Loan with
// Member and Due zero, and a Replace of it erased them. Such an item is
// now an Unknown, on an INCLUDE GSI, an INCLUDE LSI and a KEYS_ONLY GSI,
// whether an older release wrote it or another program tagged it; the
// items whose type the index holds whole decode as before.
func TestCollectionNeverDecodesPartialItem(t *testing.T) {
	t.Parallel()
	client, lib := localLibrary(t)
	lib.stock(t, client)
	ctx := context.Background()

	// The scenario first: read, change, Replace.
	items, err := query.CollectionOn(lib.table, byShelf, "A").Collect(ctx, client)
	noErr(t, err)
	for _, v := range items {
		if l, ok := v.(Loan); ok {
			l.Due = "2026-09-01"
			_, rerr := lib.loans.Replace(ctx, client, l)
			key, kerr := lib.loans.Key(l)
			noErr(t, kerr)
			stored, gerr := lib.loans.Get(ctx, client, key)
			t.Fatalf("the collection returned the partial %+v; Replace (%v) then stored %+v (%v)", l, rerr, stored, gerr)
		}
	}

	book := "Book {ID:b1 Title:Dune Shelf:A}"
	for _, tt := range []struct {
		name string
		q    query.Query[any]
		want []string
	}{
		{"INCLUDE GSI", query.CollectionOn(lib.table, byShelf, "A"), []string{book, "Unknown Loan l1", "Unknown Loan l2"}},
		{"INCLUDE LSI, an older release's item", query.CollectionOn(lib.table, byTitle, "l1"), []string{"Unknown Loan l1"}},
		{"INCLUDE LSI, another program's item", query.CollectionOn(lib.table, byTitle, "l2"), []string{"Unknown Loan l2"}},
		{"INCLUDE LSI, a whole item", query.CollectionOn(lib.table, byTitle, "b1"), []string{book}},
		{"KEYS_ONLY GSI", query.CollectionOn(lib.table, byType, "Loan"), []string{"Unknown Loan l1", "Unknown Loan l2"}},
		{"KEYS_ONLY GSI, a whole item", query.CollectionOn(lib.table, byType, "Mark"), []string{"Mark {Spot:desk}"}},
		{"the table", query.CollectionOn(lib.table, loanByID, "l1"), []string{"Loan {ID:l1 Member:ada Due:2026-07-01 Location:}"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.q.Collect(ctx, client)
			noErr(t, err)
			names := make([]string, len(got))
			for i, v := range got {
				names[i] = libraryItem(v)
			}
			slices.Sort(names)
			if !slices.Equal(names, tt.want) {
				t.Fatalf("got %q, want %q", names, tt.want)
			}
		})
	}

	// Page by page, one item each: every page moves past its Unknown.
	q := query.CollectionOn(lib.table, byShelf, "A").Limit(1)
	var names []string
	var next query.Cursor
	for range 5 {
		page, err := q.After(next).Page(ctx, client)
		noErr(t, err)
		for _, v := range page.Items {
			names = append(names, libraryItem(v))
		}
		if next = page.Next; next == "" {
			break
		}
	}
	slices.Sort(names)
	if want := []string{book, "Unknown Loan l1", "Unknown Loan l2"}; !slices.Equal(names, want) {
		t.Fatalf("paged: %q, want %q", names, want)
	}
}

// The rest of issue 21, item 8's class on the same items: an entity read
// (On, a scan) never returns a partial T either. An entity reads only the
// indexes of its own patterns (each of which projects it whole, or the
// read is refused: TestPartialProjectionRefused), so Loan's reads of the
// indexes the older release put loans in are refused before any request;
// in a read of a type the index holds whole, a loan among the items stops
// the read with a *DecodeError, as any item of another type does.
func TestEntityReadNeverDecodesPartialItem(t *testing.T) {
	t.Parallel()
	client, lib := localLibrary(t)
	lib.stock(t, client)
	ctx := context.Background()

	for _, tt := range []struct {
		name, index string
		read        func(keyfirst.QueryAPI) error
	}{
		{"INCLUDE GSI", "ByShelf", pageOf(query.On(lib.loans, byShelf, "A"))},
		{"INCLUDE LSI", "ByTitle", pageOf(query.On(lib.loans, byTitle, "l1"))},
		{"KEYS_ONLY GSI", "ByType", pageOf(query.On(lib.loans, byType, "Loan"))},
		{"a scan", "ByShelf", func(keyfirst.QueryAPI) error {
			_, err := query.ScanOn(lib.loans, byShelf).Collect(ctx, noCalls{T: t})
			return err
		}},
	} {
		t.Run("refused, "+tt.name, func(t *testing.T) {
			err := tt.read(noCalls{T: t})
			var qe *query.Error
			if !errors.As(err, &qe) || qe.Problem != query.ProblemPattern || qe.Index != tt.index {
				t.Fatalf("got %v", err)
			}
		})
	}

	for _, tt := range []struct {
		name string
		read func() ([]Book, error)
	}{
		{"INCLUDE GSI", func() ([]Book, error) {
			return query.On(lib.books, byShelf, "A").Collect(ctx, client)
		}},

		{"a scan", func() ([]Book, error) { return query.ScanOn(lib.books, byShelf).Collect(ctx, client) }},
	} {
		t.Run("stopped, "+tt.name, func(t *testing.T) {
			got, err := tt.read()
			var de *query.DecodeError
			var te *keyfirst.EntityTypeError
			if !errors.As(err, &de) || !errors.Is(err, keyfirst.ErrWrongEntityType) || !errors.As(err, &te) || te.Got != "Loan" {
				t.Fatalf("got %+v, %v", got, err)
			}
			for _, b := range got {
				if b != (Book{ID: "b1", Title: "Dune", Shelf: "A"}) {
					t.Fatalf("returned %+v", b)
				}
			}
		})
	}
	marks, err := query.On(lib.marks, byType, "Mark").Collect(ctx, client)
	if err != nil || !slices.Equal(marks, []Mark{{Spot: "desk"}}) {
		t.Fatalf("marks %+v, %v", marks, err)
	}
	if _, err := query.On(lib.marks, byType, "Loan").Collect(ctx, client); !errors.Is(err, keyfirst.ErrWrongEntityType) {
		t.Fatalf("marks of the Loan partition: %v", err)
	}
}
