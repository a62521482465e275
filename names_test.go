package keyfirst_test

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// Odd has fields named with every character an expression would otherwise
// read as syntax: document paths (dots, list indexes), placeholders (#, :),
// spaces, unbalanced and non-numeric brackets, and the escape of the
// library's own name encoding (%).
type Odd struct {
	ID       string   `dynamodbav:"id"`
	Index    string   `dynamodbav:"odd[0]"`
	Dot      string   `dynamodbav:"a.b"`
	Space    string   `dynamodbav:"a b"`
	Hash     string   `dynamodbav:"#x"`
	Colon    string   `dynamodbav:":y"`
	Unicode  string   `dynamodbav:"ü"`
	Close    string   `dynamodbav:"x]"`
	Open     string   `dynamodbav:"["`
	Word     string   `dynamodbav:"a[b]"`
	Escaped  string   `dynamodbav:"%5B"`
	Dollar   string   `dynamodbav:"$n,omitempty"`
	Nested   []string `dynamodbav:"l[0][1].m,omitempty"`
	Revision int64    `dynamodbav:"v[1]"`
}

// oddNames are the attribute names of Odd's string fields.
var oddNames = []string{"odd[0]", "a.b", "a b", "#x", ":y", "ü", "x]", "[", "a[b]", "%5B"}

func oddValue(o *Odd, name string) *string {
	return map[string]*string{"odd[0]": &o.Index, "a.b": &o.Dot, "a b": &o.Space, "#x": &o.Hash, ":y": &o.Colon,
		"ü": &o.Unicode, "x]": &o.Close, "[": &o.Open, "a[b]": &o.Word, "%5B": &o.Escaped}[name]
}

// oddTable has key and entity-type attributes with such names too.
func oddTable(t *testing.T) (*dynamodb.Client, *keyfirst.Table) {
	t.Helper()
	return localTableOf(t, keyfirst.TableSpec{Name: "odd", PartitionKey: keyfirst.StringAttr("p[0]"),
		SortKey: keyfirst.StringAttr("s.k"), TypeAttribute: "t[y]"})
}

func oddSpec(typ, version string) keyfirst.EntitySpec[Odd] {
	return keyfirst.EntitySpec[Odd]{Type: typ, Keys: []keyfirst.Binding{selfKey("p[0]", "s.k", typ)}, Version: version}
}

// TestAttributeNamesAreNames writes, with every write path, an item whose
// attribute names are full of expression syntax, on a table whose key and
// type attributes are too, and checks the stored item after each step.
func TestAttributeNamesAreNames(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"v[1]", ""} {
		name := "versioned"
		if version == "" {
			name = "unversioned"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			client, table := oddTable(t)
			odds, err := keyfirst.NewEntity(table, oddSpec("ODD", version))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			key := map[string]types.AttributeValue{"p[0]": sAV("ODD#1"), "s.k": sAV("ODD#1")}
			expect := func(step string, o Odd) {
				t.Helper()
				raw := rawItem(t, client, table.Name(), key)
				for _, n := range oddNames {
					if got := avText(raw[n]); got != *oddValue(&o, n) {
						t.Fatalf("%s: attribute %q = %q, want %q (stored %v)", step, n, got, *oddValue(&o, n), raw)
					}
				}
				if got := avText(raw["$n"]); got != o.Dollar {
					t.Fatalf("%s: attribute $n = %q, want %q", step, got, o.Dollar)
				}
				if _, has := raw["l[0][1].m"]; has != (o.Nested != nil) {
					t.Fatalf("%s: attribute l[0][1].m present %v, want %v", step, has, o.Nested != nil)
				}
				if avText(raw["t[y]"]) != "ODD" || (version != "" && avText(raw["v[1]"]) != strconv.FormatInt(o.Revision, 10)) {
					t.Fatalf("%s: stored %v", step, raw)
				}
				got, err := odds.Get(ctx, client, mustKey(t, odds, o), keyfirst.ConsistentRead())
				if err != nil || got.Dollar != o.Dollar || got.Index != o.Index || got.Revision != o.Revision {
					t.Fatalf("%s: Get %+v, %v; want %+v", step, got, err, o)
				}
			}
			fill := func(o *Odd, prefix string) {
				for _, n := range oddNames {
					*oddValue(o, n) = prefix + n
				}
			}

			o := Odd{ID: "1", Dollar: "d", Nested: []string{"x"}}
			fill(&o, "put ")
			if o, err = odds.Put(ctx, client, o, keyfirst.CreateOnly()); err != nil {
				t.Fatal("Put: ", err)
			}
			expect("Put", o)
			if _, err := odds.Put(ctx, client, Odd{ID: "1"}, keyfirst.CreateOnly()); !errors.Is(err, keyfirst.ErrAlreadyExists) {
				t.Fatal("CreateOnly over the item: ", err)
			}

			fill(&o, "update ")
			o.Dollar, o.Nested = "", nil
			if o, err = odds.Replace(ctx, client, o); err != nil {
				t.Fatal("Replace: ", err)
			}
			expect("Replace", o)

			// Another program adds attributes that look like document
			// paths: Modify's guard must not read them as paths.
			raw := rawItem(t, client, table.Name(), key)
			raw["list[0]"] = sAV("foreign")
			raw["map.key"] = sAV("foreign")
			putRaw(t, client, table.Name(), raw)
			calls := 0
			o, err = odds.Modify(ctx, client, mustKey(t, odds, o), func(m *Odd) {
				calls++
				fill(m, "modify ")
				m.Dollar = "back"

			}, keyfirst.WithMaxAttempts(3))
			if err != nil || calls != 1 {
				t.Fatalf("Modify: %d calls, %v", calls, err)
			}
			expect("Modify", o)
			if raw := rawItem(t, client, table.Name(), key); avText(raw["list[0]"]) != "foreign" || avText(raw["map.key"]) != "foreign" {
				t.Fatalf("Modify dropped a foreign attribute: %v", raw)
			}

			if err := odds.Delete(ctx, client, o); err != nil {
				t.Fatal("Delete: ", err)
			}
			if raw := rawItem(t, client, table.Name(), key); raw != nil {
				t.Fatalf("Delete left %v", raw)
			}
		})
	}
}
