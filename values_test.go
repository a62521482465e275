package keyfirst_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/keys"
)

// Issue 9, items 7 and 9: a value that DynamoDB would refuse (an invalid
// number) or silently change (a string that is not valid UTF-8, which the
// SDK sends with U+FFFD for each invalid byte) is refused before any
// request, wherever it is in the item.

// doc has a field of every shape a value can hide in: the codec encodes
// it through attributevalue (maps, interfaces, custom marshalers).
type doc struct {
	ID     string             `dynamodbav:"id"`
	Name   string             `dynamodbav:"name,omitempty"`
	Note   string             `dynamodbav:"note,omitempty"`
	Tags   []string           `dynamodbav:"tags,omitempty"`
	Set    []string           `dynamodbav:"set,stringset,omitempty"`
	Attrs  map[string]string  `dynamodbav:"attrs,omitempty"`
	Ratio  float64            `dynamodbav:"ratio"`
	Small  float32            `dynamodbav:"small"`
	Nums   []float64          `dynamodbav:"nums,numberset,omitempty"`
	Scores map[string]float64 `dynamodbav:"scores,omitempty"`
	Any    any                `dynamodbav:"any,omitempty"`
	Inner  *docInner          `dynamodbav:"inner,omitempty"`
	Custom rawAV              `dynamodbav:"custom,omitempty"`
	Big    attributevalue.Number
}

type docInner struct {
	Label  string
	Weight float64
}

// rawAV marshals to the attribute value it holds (NULL when none).
type rawAV struct{ av types.AttributeValue }

func (r rawAV) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	if r.av == nil {
		return &types.AttributeValueMemberNULL{Value: true}, nil
	}
	return r.av, nil
}

func (r *rawAV) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	r.av = av
	return nil
}

// flat has only the kinds the codec encodes directly (no reflection).
type flat struct {
	ID    string   `dynamodbav:"id"`
	Name  string   `dynamodbav:"name"`
	Tags  []string `dynamodbav:"tags"`
	Ratio float64  `dynamodbav:"ratio"`
	Small float32  `dynamodbav:"small"`
}

func docsSpec(name string) keyfirst.TableSpec {
	return keyfirst.TableSpec{
		Name:         name,
		PartitionKey: keyfirst.StringAttr("PK"),
		GSIs: []keyfirst.Index{{Name: "by-name",
			PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("GSI1PK")}}},
	}
}

type docs struct {
	table *keyfirst.Table
	docs  *keyfirst.Entity[doc]
	flats *keyfirst.Entity[flat]
}

// rawDocs and rawDocsByName are the docs table's key and its by-name
// index with raw sides: the keys are written as the functions give them.
var (
	rawDocs       = keyfirst.OnTable(keyfirst.Str("PK"), keyfirst.NoSort())
	rawDocsByName = keyfirst.OnIndex("by-name", keyfirst.Str("GSI1PK"), keyfirst.NoSort())
)

// newDocs registers doc and flat, whose keys derive without any check:
// "RAW#" + ID, "NAME#" + Name.
func newDocs(t testing.TB, name string) docs {
	t.Helper()
	table, err := keyfirst.NewTable(docsSpec(name))
	if err != nil {
		t.Fatal(err)
	}
	d, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[doc]{
		Type: "DOC",
		Keys: []keyfirst.Binding{
			keyfirst.Func(rawDocs, func(d doc) (string, keyfirst.None, bool) { return "RAW#" + d.ID, keyfirst.None{}, true }),
			keyfirst.Func(rawDocsByName, func(d doc) (string, keyfirst.None, bool) { return "NAME#" + d.Name, keyfirst.None{}, d.Name != "" }),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	f, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[flat]{Type: "FLAT", Keys: []keyfirst.Binding{
		keyfirst.Func(rawDocs, func(f flat) (string, keyfirst.None, bool) { return "FLAT#" + f.ID, keyfirst.None{}, true })}})
	if err != nil {
		t.Fatal(err)
	}
	return docs{table, d, f}
}

// localDocs creates the docs table in DynamoDB Local, for this test only.
func localDocs(t *testing.T) (*dynamodb.Client, docs) {
	t.Helper()
	client := integration.Client(t)
	d := newDocs(t, "docs")
	return client, d.in(localBinding(t, d.table))
}

// in returns the docs bound to table, a binding of their description.
func (d docs) in(table *keyfirst.Table) docs {
	return docs{table, keyfirst.Must(d.docs.In(table)), keyfirst.Must(d.flats.In(table))}
}

// valueCase is an item that must be refused: the problem and where.
type valueCase[T any] struct {
	name    string
	edit    func(*T)
	problem keyfirst.ItemProblem
	index   string
	attr    string
	at      string // the path inside the attribute the message names
}

// refuseEverywhere checks that every write path refuses each case's item
// with an *ItemError before any request.
func refuseEverywhere[T any](t *testing.T, table *keyfirst.Table, e *keyfirst.Entity[T], good T, cases []valueCase[T]) {
	t.Helper()
	ctx := context.Background()
	client := noCalls{T: t}
	paths := map[string]func(T) error{
		"Item":    func(v T) error { _, err := e.Item(v); return err },
		"Put":     func(v T) error { _, err := e.Put(ctx, client, v); return err },
		"Replace": func(v T) error { _, err := e.Replace(ctx, client, v); return err },
		"BatchWrite": func(v T) error {
			return table.BatchWrite(ctx, client, []keyfirst.WriteRequest{e.PutRequest(v)})
		},
	}
	if _, err := e.Item(good); err != nil {
		t.Fatalf("the good item is refused: %v", err)
	}
	for _, tc := range cases {
		v := good
		tc.edit(&v)
		for path, write := range paths {
			t.Run(tc.name+"/"+path, func(t *testing.T) {
				err := write(v)
				var ie *keyfirst.ItemError
				if !errors.As(err, &ie) || !errors.Is(err, keyfirst.ErrInvalidItem) {
					t.Fatalf("err = %v, want an *ItemError", err)
				}
				if ie.Problem != tc.problem || ie.Index != tc.index || ie.Attribute != tc.attr {
					t.Fatalf("got %q index %q attribute %q, want %q %q %q (%v)",
						ie.Problem, ie.Index, ie.Attribute, tc.problem, tc.index, tc.attr, err)
				}
				if !strings.Contains(err.Error(), tc.at) {
					t.Fatalf("the message does not name %s: %v", tc.at, err)
				}
			})
		}
	}
}

func goodDoc() doc {
	return doc{ID: "user", Name: "ana", Note: "n", Tags: []string{"a"}, Set: []string{"x"},
		Attrs: map[string]string{"k": "v"}, Ratio: 0.5, Small: 1.5, Nums: []float64{1, 2},
		Scores: map[string]float64{"s": 1}, Any: []any{"x", 1.5}, Inner: &docInner{Label: "l", Weight: 2},
		Custom: rawAV{&types.AttributeValueMemberN{Value: "12"}}, Big: "1e100"}
}

func TestInvalidUTF8IsRefusedBeforeAnyRequest(t *testing.T) {
	d := newDocs(t, "docs")
	bad := "user\xff"
	refuseEverywhere(t, d.table, d.docs, goodDoc(), []valueCase[doc]{
		{"derived partition key", func(v *doc) { v.ID = bad }, keyfirst.ItemBadString, "", "PK", `"RAW#user\xff"`},
		{"derived index key", func(v *doc) { v.Name = bad }, keyfirst.ItemBadString, "by-name", "GSI1PK", `"NAME#user\xff"`},
		{"string field", func(v *doc) { v.Note = bad }, keyfirst.ItemBadString, "", "note", `"user\xff"`},
		{"list element", func(v *doc) { v.Tags = []string{"a", bad} }, keyfirst.ItemBadString, "", "tags", "tags[1]"},
		{"string set element", func(v *doc) { v.Set = []string{bad} }, keyfirst.ItemBadString, "", "set", "set[0]"},
		{"map key", func(v *doc) { v.Attrs = map[string]string{bad: "v"} }, keyfirst.ItemBadString, "", "attrs", `"user\xff"`},
		{"map value", func(v *doc) { v.Attrs = map[string]string{"k": bad} }, keyfirst.ItemBadString, "", "attrs", "attrs.k"},
		{"nested struct", func(v *doc) { v.Inner = &docInner{Label: bad} }, keyfirst.ItemBadString, "", "inner", "inner.Label"},
		{"interface", func(v *doc) { v.Any = map[string]any{"l": []any{1, bad}} }, keyfirst.ItemBadString, "", "any", "any.l[1]"},
		{"custom marshaler", func(v *doc) { v.Custom = rawAV{&types.AttributeValueMemberS{Value: bad}} }, keyfirst.ItemBadString, "", "custom", `"user\xff"`},
	})
	refuseEverywhere(t, d.table, d.flats, flat{ID: "f", Name: "n", Tags: []string{"t"}}, []valueCase[flat]{
		{"string field of a direct type", func(v *flat) { v.Name = bad }, keyfirst.ItemBadString, "", "name", `"user\xff"`},
		{"list element of a direct type", func(v *flat) { v.Tags = []string{bad} }, keyfirst.ItemBadString, "", "tags", "tags[0]"},
	})
}

func TestInvalidUTF8KeyIsRefused(t *testing.T) {
	d := newDocs(t, "docs")
	_, err := d.docs.Key(doc{ID: "user\xfe"})
	var ie *keyfirst.ItemError
	if !errors.As(err, &ie) || ie.Problem != keyfirst.ItemBadString || ie.Attribute != "PK" {
		t.Fatalf("Key of an invalid UTF-8 id: %v", err)
	}
}

// forgedDef is a keys.Def of its own that gives any text it is given:
// keyfirst trusts the texts of a keys.Key1 (keys checks them) and of no
// other Def.
type forgedDef struct{ keys.Key1[string] }

func (forgedDef) AppendValue(dst []byte, v string) ([]byte, error) { return append(dst, v...), nil }
func (forgedDef) EncodeValue(v string) (string, error)             { return v, nil }

// TestCompositeTextsAreChecked: a Composite of a keys.Key1 refuses an
// invalid UTF-8 value (keys checks it), and a Composite of another Def
// has its texts checked as any key value is.
func TestCompositeTextsAreChecked(t *testing.T) {
	id := keys.NewKey1(keys.ID[string](), keys.WithPrefix("FLAT"))
	for name, def := range map[string]keys.Def[string]{"keys.Key1": id, "another Def": forgedDef{id}} {
		table, err := keyfirst.NewTable(docsSpec("docs"))
		if err != nil {
			t.Fatal(err)
		}
		e, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[flat]{Type: "FLAT",
			Keys: []keyfirst.Binding{keyfirst.OnTable(keyfirst.Composite("PK", def), keyfirst.NoSort()).Fields("ID")}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Item(flat{ID: "ok"}); err != nil {
			t.Fatalf("%s: a valid id: %v", name, err)
		}
		_, err = e.Item(flat{ID: "user\xfe"})
		var ie *keyfirst.ItemError
		if !errors.As(err, &ie) || ie.Attribute != "PK" || (ie.Problem != keyfirst.ItemBadString && !errors.Is(err, keys.ErrMalformed)) {
			t.Fatalf("%s: an invalid UTF-8 id: %v", name, err)
		}
	}
}

func TestInvalidUTF8NamesAreRefused(t *testing.T) {
	t.Run("table attribute", func(t *testing.T) {
		spec := docsSpec("docs")
		spec.PartitionKey = keyfirst.StringAttr("P\xffK")
		_, err := keyfirst.NewTable(spec)
		var se *keyfirst.SchemaError
		if !errors.As(err, &se) || se.Problem != keyfirst.SchemaAttributeName {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("entity type", func(t *testing.T) {
		table, err := keyfirst.NewTable(docsSpec("docs"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = keyfirst.NewEntity(table, keyfirst.EntitySpec[flat]{Type: "FLAT\xff", Keys: []keyfirst.Binding{rawDocs.Fields("ID")}})
		var ee *keyfirst.EntityError
		if !errors.As(err, &ee) || ee.Problem != keyfirst.EntityTypeName {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestInvalidUTF8KeysDoNotCollide is the case on DynamoDB Local:
// two ids that differ only in an invalid byte were both written, the
// second over the first (each byte became U+FFFD).
func TestInvalidUTF8KeysDoNotCollide(t *testing.T) {
	t.Parallel()
	client, d := localDocs(t)
	ctx := context.Background()
	for _, id := range []string{"user\xff", "user\xfe"} {
		if _, err := d.flats.Put(ctx, client, flat{ID: id}); !errors.Is(err, keyfirst.ErrInvalidItem) {
			t.Errorf("Put of id %q: err = %v, want ErrInvalidItem", id, err)
		}
	}
	if item := rawItem(t, client, d.table.Name(), map[string]typesAV{"PK": sAV("FLAT#user\uFFFD")}); item != nil {
		t.Fatalf("an item was stored under the mangled key: %v", item)
	}
}

func TestInvalidNumbersAreRefusedBeforeAnyRequest(t *testing.T) {
	d := newDocs(t, "docs")
	nan, inf := math.NaN(), math.Inf(1)
	digits39 := strings.Repeat("9", 39)
	refuseEverywhere(t, d.table, d.docs, goodDoc(), []valueCase[doc]{
		{"NaN float64", func(v *doc) { v.Ratio = nan }, keyfirst.ItemBadNumber, "", "ratio", "NaN"},
		{"+Inf float64", func(v *doc) { v.Ratio = inf }, keyfirst.ItemBadNumber, "", "ratio", "Inf"},
		{"float64 above 1E+126", func(v *doc) { v.Ratio = 1e200 }, keyfirst.ItemBadNumber, "", "ratio", "1E+126"},
		{"float64 below 1E-130", func(v *doc) { v.Ratio = -1e-200 }, keyfirst.ItemBadNumber, "", "ratio", "1E-130"},
		{"NaN float32", func(v *doc) { v.Small = float32(nan) }, keyfirst.ItemBadNumber, "", "small", "NaN"},
		{"-Inf float32", func(v *doc) { v.Small = float32(math.Inf(-1)) }, keyfirst.ItemBadNumber, "", "small", "Inf"},
		{"number set element", func(v *doc) { v.Nums = []float64{1, nan} }, keyfirst.ItemBadNumber, "", "nums", "nums[1]"},
		{"map value", func(v *doc) { v.Scores = map[string]float64{"s": inf} }, keyfirst.ItemBadNumber, "", "scores", "scores.s"},
		{"nested struct", func(v *doc) { v.Inner = &docInner{Weight: nan} }, keyfirst.ItemBadNumber, "", "inner", "inner.Weight"},
		{"interface", func(v *doc) { v.Any = []any{1, 1e300} }, keyfirst.ItemBadNumber, "", "any", "any[1]"},
		{"custom marshaler", func(v *doc) { v.Custom = rawAV{&types.AttributeValueMemberN{Value: digits39}} }, keyfirst.ItemBadNumber, "", "custom", "38 significant digits"},
		{"attributevalue.Number", func(v *doc) { v.Big = "1e126" }, keyfirst.ItemBadNumber, "", "Big", "1E+126"},
		{"not a number", func(v *doc) { v.Big = "12abc" }, keyfirst.ItemBadNumber, "", "Big", `"12abc"`},
	})
	refuseEverywhere(t, d.table, d.flats, flat{ID: "f", Name: "n"}, []valueCase[flat]{
		{"NaN in a direct type", func(v *flat) { v.Ratio = nan }, keyfirst.ItemBadNumber, "", "ratio", "NaN"},
		{"+Inf float32 in a direct type", func(v *flat) { v.Small = float32(inf) }, keyfirst.ItemBadNumber, "", "small", "Inf"},
		{"1e-300 in a direct type", func(v *flat) { v.Ratio = 1e-300 }, keyfirst.ItemBadNumber, "", "ratio", "1E-130"},
	})
}

// TestFloatBoundsMatchDynamoDB: the extreme float64 values DynamoDB stores
// are accepted, their neighbours outside the range refused (DynamoDB Local
// stores the first and refuses the others).
func TestFloatBoundsMatchDynamoDB(t *testing.T) {
	t.Parallel()
	client, d := localDocs(t)
	ctx := context.Background()
	below126 := math.Nextafter(1e126, 0)
	tests := []struct {
		x  float64
		ok bool
	}{
		{1e-130, true}, {-1e-130, true}, {below126, true}, {-below126, true}, {math.MaxFloat32, true},
		{math.Nextafter(1e-130, 0), false}, {1e126, false}, {-1e126, false}, {math.SmallestNonzeroFloat64, false},
	}
	for _, tt := range tests {
		_, err := d.flats.Put(ctx, client, flat{ID: "bounds", Ratio: tt.x})
		if tt.ok && err != nil || !tt.ok && !errors.Is(err, keyfirst.ErrInvalidItem) {
			t.Errorf("Put of %g: err = %v, want ok %v", tt.x, err, tt.ok)
		}
	}
}

// TestModifyRefusesInvalidValues: Modify builds its write with the same
// item plan, so a change that DynamoDB would refuse or mangle is refused
// before the write, and the stored item is left as it was.
func TestModifyRefusesInvalidValues(t *testing.T) {
	t.Parallel()
	client, d := localDocs(t)
	ctx := context.Background()
	stored := flat{ID: "m", Name: "before", Tags: []string{"t"}, Ratio: 1}
	if _, err := d.flats.Put(ctx, client, stored); err != nil {
		t.Fatal(err)
	}
	k := mustKey(t, d.flats, stored)
	for name, tc := range map[string]struct {
		edit    func(*flat)
		problem keyfirst.ItemProblem
	}{
		"NaN":           {func(f *flat) { f.Ratio = math.NaN() }, keyfirst.ItemBadNumber},
		"invalid UTF-8": {func(f *flat) { f.Tags = append(f.Tags, "\xff") }, keyfirst.ItemBadString},
	} {
		_, err := d.flats.Modify(ctx, client, k, func(f *flat) { tc.edit(f) })
		var ie *keyfirst.ItemError
		if !errors.As(err, &ie) || ie.Problem != tc.problem {
			t.Errorf("%s: err = %v, want an *ItemError %q", name, err, tc.problem)
		}
	}
	if got, err := d.flats.Get(ctx, client, k, keyfirst.ConsistentRead()); err != nil || got.Name != "before" || len(got.Tags) != 1 || got.Ratio != 1 {
		t.Fatalf("stored %+v, %v", got, err)
	}
}

// Sets DynamoDB refuses ("may not be empty", "Input collection contains
// duplicates", numbers compared by value: measured on DynamoDB Local) are
// refused before any request, on every write path.
func TestInvalidSetsAreRefusedBeforeAnyRequest(t *testing.T) {
	d := newDocs(t, "docs")
	refuseEverywhere(t, d.table, d.docs, goodDoc(), []valueCase[doc]{
		{"duplicate string", func(v *doc) { v.Set = []string{"a", "b", "a"} }, keyfirst.ItemBadSet, "", "set", "set[2]"},
		{"duplicate number", func(v *doc) { v.Nums = []float64{1, 1} }, keyfirst.ItemBadSet, "", "nums", "nums[1]"},
		{"one number written twice", func(v *doc) {
			v.Custom = rawAV{&types.AttributeValueMemberNS{Value: []string{"1", "1.0"}}}
		}, keyfirst.ItemBadSet, "", "custom", "custom[1]"},
		{"duplicate binary", func(v *doc) {
			v.Custom = rawAV{&types.AttributeValueMemberBS{Value: [][]byte{{1}, {1}}}}
		}, keyfirst.ItemBadSet, "", "custom", "duplicates"},
		{"empty string set", func(v *doc) {
			v.Custom = rawAV{&types.AttributeValueMemberSS{Value: []string{}}}
		}, keyfirst.ItemBadSet, "", "custom", "empty set"},
		{"set in a list", func(v *doc) {
			v.Custom = rawAV{&types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberSS{Value: []string{"x", "x"}}}}}
		}, keyfirst.ItemBadSet, "", "custom", "custom[0][1]"},
	})
}

// The sets the check lets through are the ones DynamoDB Local stores:
// distinct elements, an empty string or binary as an element.
func TestValidSetsAreStored(t *testing.T) {
	t.Parallel()
	client, d := localDocs(t)
	ctx := context.Background()
	for _, av := range []types.AttributeValue{
		&types.AttributeValueMemberSS{Value: []string{"a", "b", ""}},
		&types.AttributeValueMemberNS{Value: []string{"1", "1.5", "-1"}},
		&types.AttributeValueMemberBS{Value: [][]byte{{1}, {}}},
	} {
		v := goodDoc()
		v.Custom = rawAV{av}
		if _, err := d.docs.Put(ctx, client, v); err != nil {
			t.Fatalf("%#v: %v", av, err)
		}
	}
}
