package attrname

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
)

// TestNamesSurviveTheBuilder: every name comes back as one alias, mapped to
// the name itself, in conditions and in updates alike.
func TestNamesSurviveTheBuilder(t *testing.T) {
	names := []string{"plain", "odd[0]", "a.b", "a b", "#x", ":y", "ü", "x]", "[", "]", "a[b]", "[0]", "l[0][1].m",
		"%", "%5B", "%255B", "%5", "$n", "a%5Bb[", "%%]]"}
	var ub expression.UpdateBuilder
	var cond expression.ConditionBuilder
	for i, n := range names {
		ub = ub.Set(Name(n), expression.Value(i))
		c := Name(n).AttributeExists()
		if i == 0 {
			cond = c
		} else {
			cond = cond.And(c)
		}
	}
	x, err := expression.NewBuilder().WithUpdate(ub).WithCondition(cond).Build()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, n := range Names(x) {
		got[n] = true
	}
	if len(got) != len(names) || len(Names(x)) != len(names) {
		t.Fatalf("names %v, want one alias each for %q", Names(x), names)
	}
	for _, n := range names {
		if !got[n] {
			t.Fatalf("%q missing from %v", n, Names(x))
		}
	}
	if x, err := expression.NewBuilder().WithProjection(expression.NamesList(expression.Name("a"))).Build(); err != nil || Names(x)["#0"] != "a" {
		t.Fatalf("%v %v", Names(x), err)
	}
	if Names(expression.Expression{}) != nil {
		t.Fatal("no names gives nil")
	}
}

// TestEncodingIsInjective: distinct names never share an encoding.
func TestEncodingIsInjective(t *testing.T) {
	seen := map[string]string{}
	alphabet := []string{"%", "[", "]", "5", "B", "D", "2", "a"}
	var walk func(prefix string, depth int)
	walk = func(prefix string, depth int) {
		if prefix != "" {
			enc := encode(prefix)
			if other, dup := seen[enc]; dup {
				t.Fatalf("%q and %q both encode to %q", prefix, other, enc)
			}
			seen[enc] = prefix
			if dec := decoder.Replace(enc); dec != prefix {
				t.Fatalf("%q encodes to %q, which decodes to %q", prefix, enc, dec)
			}
		}
		if depth == 0 {
			return
		}
		for _, c := range alphabet {
			walk(prefix+c, depth-1)
		}
	}
	walk("", 5)
}

// TestNamesOfPlainNamesCostNothing: an expression none of whose names
// needed encoding gives its own names, with no copy, so that a request
// built from a cached expression allocates nothing for them; a name that
// was encoded is still decoded.
func TestNamesOfPlainNamesCostNothing(t *testing.T) {
	x, err := expression.NewBuilder().WithCondition(Name("PK").AttributeNotExists().Or(Name("_type").Equal(expression.Value("T")))).Build()
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _ = Names(x) }); n != 0 {
		t.Fatalf("Names allocates %v times for plain names", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = Name("plain") }); n != 0 {
		t.Fatalf("Name allocates %v times for a plain name", n)
	}
	if got := Names(x); got["#0"] != "PK" || got["#1"] != "_type" {
		t.Fatalf("names %v", got)
	}
	odd, err := expression.NewBuilder().WithCondition(Name("a[0]").AttributeExists().And(Name("b").AttributeExists())).Build()
	if err != nil {
		t.Fatal(err)
	}
	if got := Names(odd); got["#0"] != "a[0]" || got["#1"] != "b" {
		t.Fatalf("names %v", got)
	}
}
