package shard_test

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/shard"
)

type Inner struct{ Region string }

type specItem struct {
	ID    string
	Kind  kind
	Count int
	//lint:ignore U1000 an unexported field, only named: New must refuse to hash it
	hidden string
	*Inner
}

type kind string

// openByKind is an index whose partition side is a string attribute
// stored as it is, and whose sort side is a number.
var openByKind = keyfirst.OnIndex("Open", keyfirst.Str("open_shard"), keyfirst.Num[int]("open_count"))

// New refuses every spec and pattern that cannot work, with a SpecError
// naming the problem, before anything could be written.
func TestNewRefusesBadSpecs(t *testing.T) {
	t.Parallel()
	sort := func(v specItem) int { return v.Count }
	good := shard.Spec[specItem, int]{Base: "OPEN", Shards: 3, Field: "ID", Sort: sort}
	with := func(f func(*shard.Spec[specItem, int])) shard.Spec[specItem, int] {
		s := good
		f(&s)
		return s
	}
	prefixed := keys.NewKey1(keys.ID[string](), keys.WithPrefix("P"))
	tests := []struct {
		name    string
		pattern keyfirst.Pattern[string, int]
		spec    shard.Spec[specItem, int]
		problem shard.SpecProblem
		detail  string
	}{
		{"zero shards", openByKind, with(func(s *shard.Spec[specItem, int]) { s.Shards = 0 }), shard.SpecShards, "0 shards"},
		{"negative shards", openByKind, with(func(s *shard.Spec[specItem, int]) { s.Shards = -2 }), shard.SpecShards, "-2 shards"},
		{"too many shards", openByKind, with(func(s *shard.Spec[specItem, int]) { s.Shards = shard.MaxShards + 1 }), shard.SpecShards, "101 shards"},
		{"empty base", openByKind, with(func(s *shard.Spec[specItem, int]) { s.Base = "" }), shard.SpecBase, "empty base"},
		{"base with #", openByKind, with(func(s *shard.Spec[specItem, int]) { s.Base = "OPEN#X" }), shard.SpecBase, "'#'"},
		{"base not UTF-8", openByKind, with(func(s *shard.Spec[specItem, int]) { s.Base = "OPEN\xff" }), shard.SpecBase, "UTF-8"},
		{"base too long", openByKind, with(func(s *shard.Spec[specItem, int]) { s.Base = strings.Repeat("x", 2047) }), shard.SpecBase, "2048"},
		{"both field and pick", openByKind, with(func(s *shard.Spec[specItem, int]) { s.Pick = func(specItem) int { return 0 } }), shard.SpecChoice, "exactly one"},
		{"neither field nor pick", openByKind, with(func(s *shard.Spec[specItem, int]) { s.Field = "" }), shard.SpecChoice, "exactly one"},
		{"unknown field", openByKind, with(func(s *shard.Spec[specItem, int]) { s.Field = "Nope" }), shard.SpecField, "no exported field Nope"},
		{"unexported field", openByKind, with(func(s *shard.Spec[specItem, int]) { s.Field = "hidden" }), shard.SpecField, "no exported field hidden"},
		{"non-string field", openByKind, with(func(s *shard.Spec[specItem, int]) { s.Field = "Count" }), shard.SpecField, "not of string kind"},
		{"field behind a pointer", openByKind, with(func(s *shard.Spec[specItem, int]) { s.Field = "Region" }), shard.SpecField, "embedded pointer"},
		{"nil sort", openByKind, with(func(s *shard.Spec[specItem, int]) { s.Sort = nil }), shard.SpecSort, "has a sort key"},
		{"both sort and sort field", openByKind, with(func(s *shard.Spec[specItem, int]) { s.SortField = "Count" }), shard.SpecSort, "exactly one of SortField"},
		{"zero pattern", keyfirst.Pattern[string, int]{}, good, shard.SpecPattern, "zero pattern"},
		{"pattern with an error", keyfirst.OnIndex("", keyfirst.Str("s"), keyfirst.Num[int]("n")), good, shard.SpecPattern, "empty index name"},
		{"table key", keyfirst.OnTable(keyfirst.Str("PK"), keyfirst.Num[int]("SK")), good, shard.SpecPattern, "primary key"},
		{"partition through a keys definition", keyfirst.OnIndex("Open", keyfirst.Composite("open_shard", prefixed), keyfirst.Num[int]("n")), good, shard.SpecPattern, "open_shard"},
	}
	for _, tt := range tests {
		_, err := shard.New(tt.pattern, tt.spec)
		var se *shard.SpecError
		if !errors.Is(err, shard.ErrInvalidSpec) || !errors.As(err, &se) || se.Problem != tt.problem || !strings.Contains(err.Error(), tt.detail) {
			t.Errorf("%s: %v, want a SpecError (%s) saying %q", tt.name, err, tt.problem, tt.detail)
		}
	}
	// A pattern's own error stays in the chain.
	_, err := shard.New(keyfirst.Pattern[string, int]{}, good)
	if !errors.Is(err, keyfirst.ErrInvalidPattern) {
		t.Errorf("zero pattern: %v, want the PatternError in the chain", err)
	}

	// A T that is not a struct has no field to hash; Pick works for it.
	strPattern := keyfirst.OnIndex("Open", keyfirst.Str("open_shard"), keyfirst.NoSort())
	if _, err := shard.New(strPattern, shard.Spec[string, keyfirst.None]{Base: "OPEN", Shards: 2, Field: "ID"}); !errors.Is(err, shard.ErrInvalidSpec) {
		t.Errorf("Field on a string T: %v", err)
	}
	if _, err := shard.New(strPattern, shard.Spec[string, keyfirst.None]{Base: "OPEN", Shards: 2, Pick: func(string) int { return 0 }}); err != nil {
		t.Errorf("Pick on a string T, no sort key, nil Sort: %v", err)
	}
	// Without a sort key, neither SortField nor Sort has a key to give.
	for name, spec := range map[string]shard.Spec[string, keyfirst.None]{
		"SortField": {Base: "OPEN", Shards: 2, Pick: func(string) int { return 0 }, SortField: "Date"},
		"Sort":      {Base: "OPEN", Shards: 2, Pick: func(string) int { return 0 }, Sort: func(string) keyfirst.None { return keyfirst.None{} }},
	} {
		var se *shard.SpecError
		if _, err := shard.New(strPattern, spec); !errors.As(err, &se) || se.Problem != shard.SpecSort || !strings.Contains(err.Error(), "no sort key") {
			t.Errorf("%s on an index without a sort key: %v, want a SpecError (%s)", name, err, shard.SpecSort)
		}
	}
	// A named string type is a string-kind field; 1 and MaxShards shards
	// are the bounds.
	for _, n := range []int{1, shard.MaxShards} {
		x, err := shard.New(openByKind, with(func(s *shard.Spec[specItem, int]) { s.Field, s.Shards = "Kind", n }))
		if err != nil {
			t.Fatalf("%d shards on a named string field: %v", n, err)
		}
		if p := x.Partitions(); len(p) != n || p[0] != "OPEN#0" || p[n-1] != "OPEN#"+strconv.Itoa(n-1) {
			t.Errorf("%d shards: partitions %v", n, p)
		}
	}
}

// Partitions is OPEN#0 .. OPEN#N-1 in shard order, a copy; Pattern is
// the pattern given to New.
func TestPartitionsAndPattern(t *testing.T) {
	t.Parallel()
	x, err := shard.New(openByKind, shard.Spec[specItem, int]{Base: "OPEN", Shards: 10, Field: "ID", Sort: func(v specItem) int { return v.Count }})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"OPEN#0", "OPEN#1", "OPEN#2", "OPEN#3", "OPEN#4", "OPEN#5", "OPEN#6", "OPEN#7", "OPEN#8", "OPEN#9"}
	if got := x.Partitions(); !slices.Equal(got, want) {
		t.Errorf("Partitions() = %v", got)
	}
	x.Partitions()[0] = "changed"
	if x.Partitions()[0] != "OPEN#0" {
		t.Error("Partitions returns the index's own slice")
	}
	if x.Pattern().ID() != openByKind.ID() {
		t.Error("Pattern() is not the pattern given to New")
	}
}

// Shard refuses an item without a valid shard: an empty or invalid hash
// field, a Pick result out of range (both ends).
func TestShardRefusals(t *testing.T) {
	t.Parallel()
	sort := func(v specItem) int { return v.Count }
	hashed := keyfirst.Must(shard.New(openByKind, shard.Spec[specItem, int]{Base: "OPEN", Shards: 3, Field: "ID", Sort: sort}))
	picked := keyfirst.Must(shard.New(openByKind, shard.Spec[specItem, int]{Base: "OPEN", Shards: 3, Pick: func(v specItem) int { return v.Count }, Sort: sort}))
	tests := []struct {
		name    string
		shard   func() (int, error)
		problem shard.PickProblem
	}{
		{"empty field", func() (int, error) { return hashed.Shard(specItem{}) }, shard.PickEmptyField},
		{"invalid UTF-8", func() (int, error) { return hashed.Shard(specItem{ID: "a\xffb"}) }, shard.PickInvalidUTF8},
		{"pick -1", func() (int, error) { return picked.Shard(specItem{Count: -1}) }, shard.PickOutOfRange},
		{"pick 3 of 3", func() (int, error) { return picked.Shard(specItem{Count: 3}) }, shard.PickOutOfRange},
	}
	for _, tt := range tests {
		_, err := tt.shard()
		var pe *shard.PickError
		if !errors.Is(err, shard.ErrNoShard) || !errors.As(err, &pe) || pe.Problem != tt.problem || pe.Index != "Open" {
			t.Errorf("%s: %v, want a PickError (%s)", tt.name, err, tt.problem)
		}
	}
	if n, err := picked.Shard(specItem{Count: 2}); n != 2 || err != nil {
		t.Errorf("pick 2: %d, %v", n, err)
	}
}
