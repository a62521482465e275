package keys_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/keyfirst/keyfirst/keys"
)

// The four keys are definitions of their values.
var (
	_ keys.Def[string]                                = keys.Key1[string]{}
	_ keys.Def[keys.T2[string, int]]                  = keys.Key2[string, int]{}
	_ keys.Def[keys.T3[string, int, time.Time]]       = keys.Key3[string, int, time.Time]{}
	_ keys.Def[keys.T4[string, int, time.Time, uint]] = keys.Key4[string, int, time.Time, uint]{}
)

// useDef binds a key of any arity the way the root package does: V is
// inferred from the KeyN passed.
func useDef[V any](d keys.Def[V], v V) (string, V, error) {
	s, err := d.EncodeValue(v)
	if err != nil {
		return "", v, err
	}
	back, err := d.DecodeValue(s)
	return s, back, err
}

func TestDefInference(t *testing.T) {
	k2 := keys.NewKey2(statusCodec, keys.Uint[uint32](4), keys.WithPrefix("ORDER"))
	s, back, err := useDef(k2, keys.Of2(Cancelled, uint32(12)))
	wantErr(t, err, nil)
	if s != "ORDER#CANCELLED#0012" || back != keys.Of2(Cancelled, uint32(12)) {
		t.Fatalf("useDef(k2) = %q, %v", s, back)
	}
	k1 := keys.NewKey1(keys.ID[string]())
	if s, back, err := useDef(k1, "keyfirst"); err != nil || s != "keyfirst" || back != "keyfirst" {
		t.Fatalf("useDef(k1) = %q, %q, %v", s, back, err)
	}
}

func TestDefIdentity(t *testing.T) {
	k1 := keys.NewKey1(keys.ID[string](), keys.WithPrefix("REPO"))
	k2 := keys.NewKey1(keys.ID[string](), keys.WithPrefix("REPO"))
	copied := k1
	switch {
	case k1.ID().IsZero() || k2.ID().IsZero():
		t.Fatal("a constructed key has the zero DefID")
	case k1.ID() == k2.ID():
		t.Fatal("two NewKey1 calls with identical arguments share a DefID")
	case copied.ID() != k1.ID():
		t.Fatal("a copy of a key has another DefID")
	case !(keys.Key1[string]{}).ID().IsZero():
		t.Fatal("the zero Key1 has a DefID")
	case !(keys.DefID{}).IsZero():
		t.Fatal("the zero DefID is not zero")
	}
	if err := keys.NewKey1(keys.ID[string](), keys.WithPrefix("bad#")).Err(); err == nil {
		t.Fatal("NewKey1 accepted a prefix holding the separator")
	}
}

func TestDefIDString(t *testing.T) {
	for _, tc := range []struct {
		id   keys.DefID
		want string
	}{
		{keys.DefID{}, "(no key definition)"},
		{keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER")).ID(), "ORDER#<id>"},
		{keys.NewKey1(keys.Int[int8](3)).ID(), "<int>"},
		{statusDate.ID(), "<enum>#<time>"},
		{keys.NewKey3(statusCodec, keys.Time(keys.Micro), keys.Uint[uint64](10), keys.WithSeparator('$')).ID(), "<enum>$<time>$<uint>"},
		{keys.NewKey4(keys.Literal("V"), keys.ID[string](), keys.Int[int](4), keys.Time(keys.Second), keys.WithPrefix("EVT")).ID(), "EVT#<literal>#<id>#<int>#<time>"},
	} {
		if got := tc.id.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}

// defCase checks one key's Def methods against its arity-specific ones.
func defCase[V any](t *testing.T, d keys.Def[V], v V, encode func() (string, error), parts func() ([]string, error), types ...reflect.Type) {
	t.Helper()
	want, err := encode()
	wantErr(t, err, nil)
	got, err := d.EncodeValue(v)
	if err != nil || got != want {
		t.Fatalf("EncodeValue = %q, %v; Encode = %q", got, err, want)
	}
	buf, err := d.AppendValue([]byte("x"), v)
	if err != nil || string(buf) != "x"+want {
		t.Fatalf("AppendValue = %q, %v; want %q", buf, err, "x"+want)
	}
	back, err := d.DecodeValue(want)
	if err != nil || !reflect.DeepEqual(back, v) {
		t.Fatalf("DecodeValue(%q) = %v, %v; want %v", want, back, err, v)
	}
	if _, err := d.DecodeValue(want + "!"); err == nil {
		t.Fatalf("DecodeValue(%q) accepted a malformed key", want+"!")
	}
	wantParts, err := parts()
	wantErr(t, err, nil)
	gotParts, err := d.PartsValue(v)
	if err != nil || !slices.Equal(gotParts, wantParts) {
		t.Fatalf("PartsValue = %q, %v; Parts = %q", gotParts, err, wantParts)
	}
	if segs := d.Segments(); !slices.Equal(segs, types) {
		t.Fatalf("Segments = %v, want %v", segs, types)
	}
	if d.ID().IsZero() {
		t.Fatal("ID is zero")
	}
}

func TestDefRoundTrip(t *testing.T) {
	when := time.Date(2019, time.July, 1, 0, 0, 0, 0, time.UTC)
	tStatus, tTime, tUint, tString := reflect.TypeFor[Status](), reflect.TypeFor[time.Time](), reflect.TypeFor[uint64](), reflect.TypeFor[string]()
	k1 := keys.NewKey1(keys.ID[string](), keys.WithPrefix("REPO"))
	k2 := statusDate
	k3 := keys.NewKey3(statusCodec, keys.Time(keys.Micro), keys.Uint[uint64](10))
	k4 := keys.NewKey4(keys.ID[string](), statusCodec, keys.Time(keys.Micro), keys.Uint[uint64](10), keys.WithPrefix("T"))
	t.Run("Key1", func(t *testing.T) {
		defCase(t, k1, "keyfirst",
			func() (string, error) { return k1.Encode("keyfirst") },
			func() ([]string, error) { return k1.Parts("keyfirst") }, tString)
	})
	t.Run("Key2", func(t *testing.T) {
		defCase(t, k2, keys.Of2(Cancelled, when),
			func() (string, error) { return k2.Encode(Cancelled, when) },
			func() ([]string, error) { return k2.Parts(Cancelled, when) }, tStatus, tTime)
	})
	t.Run("Key3", func(t *testing.T) {
		defCase(t, k3, keys.Of3(Cancelled, when, uint64(12345)),
			func() (string, error) { return k3.Encode(Cancelled, when, 12345) },
			func() ([]string, error) { return k3.Parts(Cancelled, when, 12345) }, tStatus, tTime, tUint)
	})
	t.Run("Key4", func(t *testing.T) {
		defCase(t, k4, keys.Of4("acme", Cancelled, when, uint64(12345)),
			func() (string, error) { return k4.Encode("acme", Cancelled, when, 12345) },
			func() ([]string, error) { return k4.Parts("acme", Cancelled, when, 12345) }, tString, tStatus, tTime, tUint)
	})
	t.Run("zero keys", func(t *testing.T) {
		for _, err := range []error{
			errOf(keys.Key1[string]{}.EncodeValue("x")),
			errOf(keys.Key2[Status, time.Time]{}.DecodeValue("A#B")),
			errOf(keys.Key3[Status, time.Time, uint64]{}.PartsValue(keys.T3[Status, time.Time, uint64]{})),
			errOf(keys.Key4[string, Status, time.Time, uint64]{}.AppendValue(nil, keys.T4[string, Status, time.Time, uint64]{})),
		} {
			wantErr(t, err, keys.ErrDefinition)
		}
	})
}

// errOf returns the error of a (value, error) pair.
func errOf[V any](_ V, err error) error { return err }

func TestCondDefs(t *testing.T) {
	repoSK := keys.NewKey1(keys.ID[string](), keys.WithPrefix("REPO"))
	issueSK := keys.NewKey2(statusCodec, keys.Uint[uint32](6), keys.WithPrefix("ISSUE"))
	k4 := keys.NewKey4(keys.ID[string](), statusCodec, keys.Time(keys.Micro), keys.Uint[uint64](10))
	other := keys.NewKey1(keys.ID[string](), keys.WithPrefix("REPO")) // same shape as repoSK
	unrelated := keys.NewKey1(keys.ID[string]()).ID()
	repo, issue, four := repoSK.ID(), issueSK.ID(), k4.ID()
	when := time.Date(2019, time.July, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		cond func() (keys.Cond, error)
		want []keys.DefID
	}{
		{"Range.Eq", func() (keys.Cond, error) { return repoSK.Range().Eq("keyfirst") }, []keys.DefID{repo}},
		{"Range.BeginsWith", func() (keys.Cond, error) { return repoSK.Range().BeginsWith() }, []keys.DefID{repo}},
		{"With1.Lt", func() (keys.Cond, error) { return issueSK.With1(Cancelled).Lt(7) }, []keys.DefID{issue}},
		{"With1.HalfOpen", func() (keys.Cond, error) { return issueSK.With1(Active).HalfOpen(1, 9) }, []keys.DefID{issue}},
		{"With2.Ge", func() (keys.Cond, error) { return k4.With2("a", Shipped).Ge(when) }, []keys.DefID{four}},
		{"With3.Between", func() (keys.Cond, error) { return k4.With3("a", Shipped, when).Between(1, 2) }, []keys.DefID{four}},
		{"At.Eq", func() (keys.Cond, error) { return repoSK.At("keyfirst").Eq() }, []keys.DefID{repo}},
		{"Start.Gt", func() (keys.Cond, error) { return issueSK.Start().Gt() }, []keys.DefID{issue}},
		{"End.Lt", func() (keys.Cond, error) { return issueSK.End().Lt() }, []keys.DefID{issue}},
		{"Between one key", func() (keys.Cond, error) {
			return keys.Between(issueSK.At(Active, 1), issueSK.At(Shipped, 2))
		}, []keys.DefID{issue}},
		{"Between two keys", func() (keys.Cond, error) {
			return keys.Between(issueSK.Start(), repoSK.At("keyfirst"))
		}, []keys.DefID{issue, repo}},
		{"Between two keys of one shape", func() (keys.Cond, error) {
			return keys.Between(repoSK.At("a"), other.At("b"))
		}, []keys.DefID{repo, other.ID()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := tc.cond()
			wantErr(t, err, nil)
			if got := c.Defs(); !slices.Equal(got, tc.want) {
				t.Fatalf("Defs() = %v, want %v", got, tc.want)
			}
			if !c.BuiltFrom(tc.want...) || !c.BuiltFrom(append([]keys.DefID{unrelated, {}}, tc.want...)...) {
				t.Fatalf("BuiltFrom(%v) = false", tc.want)
			}
			for i := range tc.want { // each definition is required
				if without := slices.Delete(slices.Clone(tc.want), i, i+1); c.BuiltFrom(append(without, unrelated)...) {
					t.Fatalf("BuiltFrom(%v) = true, without %v", without, tc.want[i])
				}
			}
		})
	}
	var zero keys.Cond
	if zero.Defs() != nil || zero.BuiltFrom() || zero.BuiltFrom(keys.DefID{}) || zero.BuiltFrom(repo) {
		t.Fatal("the zero Cond reports a definition")
	}
	c, err := repoSK.Range().Eq("keyfirst")
	wantErr(t, err, nil)
	if c.BuiltFrom() {
		t.Fatal("BuiltFrom() with no definitions = true")
	}
}

// A key of any arity as one value: Key2 is a Def of T2, and the
// condition remembers the key it was built from.
func ExampleDef() {
	type Status string
	orderSK := keys.NewKey2(
		keys.Enum[Status]("ACTIVE", "CANCELLED", "SHIPPED"),
		keys.Uint[uint32](6),
		keys.WithPrefix("ORDER"),
	)
	var def keys.Def[keys.T2[Status, uint32]] = orderSK
	key, err := def.EncodeValue(keys.Of2[Status]("CANCELLED", uint32(42)))
	fmt.Println(key, err)
	v, err := def.DecodeValue(key)
	fmt.Println(v.V1, v.V2, err)

	cond, _ := orderSK.With1("CANCELLED").Ge(40)
	fmt.Println(cond.Defs(), cond.BuiltFrom(def.ID()))
	// Output:
	// ORDER#CANCELLED#000042 <nil>
	// CANCELLED 42 <nil>
	// [ORDER#<enum>#<uint>] true
}
