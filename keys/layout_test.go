package keys_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/keyfirst/keyfirst/keys"
)

func TestOptions(t *testing.T) {
	id := keys.ID[string]()
	for _, tc := range []struct {
		name string
		opts []func(*keys.Options)
		want string
		err  error
	}{
		{"defaults", nil, "a#b", nil},
		{"prefix", []func(*keys.Options){keys.WithPrefix("ORDER")}, "ORDER#a#b", nil},
		{"separator", []func(*keys.Options){keys.WithSeparator('!')}, "a!b", nil},
		{"both, options struct", []func(*keys.Options){func(o *keys.Options) { o.Prefix, o.Separator = "X", '+' }}, "X+a+b", nil},
		{"last option wins", []func(*keys.Options){keys.WithPrefix("X"), keys.WithPrefix("")}, "a#b", nil},
		{"separator above '+'", []func(*keys.Options){keys.WithSeparator('|')}, "", keys.ErrDefinition},
		{"separator ':'", []func(*keys.Options){keys.WithSeparator(':')}, "", keys.ErrDefinition},
		{"separator space", []func(*keys.Options){keys.WithSeparator(' ')}, "", keys.ErrDefinition},
		{"prefix with separator", []func(*keys.Options){keys.WithPrefix("A#B")}, "", keys.ErrSeparator},
		{"prefix with space", []func(*keys.Options){keys.WithPrefix("A B")}, "", keys.ErrReserved},
		{"prefix with DEL", []func(*keys.Options){keys.WithPrefix("A\x7f")}, "", keys.ErrReserved},
		{"prefix not UTF-8", []func(*keys.Options){keys.WithPrefix("A\xfe")}, "", keys.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := keys.NewKey2(id, id, tc.opts...)
			err := k.Err()
			wantErr(t, err, tc.err)
			if tc.err != nil {
				wantErr(t, err, keys.ErrDefinition)
				return
			}
			got, err := k.Encode("a", "b")
			wantErr(t, err, nil)
			if got != tc.want {
				t.Fatalf("Encode = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestNilCodec(t *testing.T) {
	err := keys.NewKey2[string, string](keys.ID[string](), nil).Err()
	wantErr(t, err, keys.ErrDefinition)
	wantSegment(t, err, 2, "key")
}

// The zero Key value of every arity refuses every operation instead of
// panicking (a Key holds its layout by pointer, nil in the zero value).
func TestZeroKey(t *testing.T) {
	var k keys.Key2[string, string]
	_, err := k.Encode("a", "b")
	wantErr(t, err, keys.ErrDefinition)
	_, err = k.Append(nil, "a", "b")
	wantErr(t, err, keys.ErrDefinition)
	_, _, err = k.Decode("a#b")
	wantErr(t, err, keys.ErrDefinition)
	_, err = k.Parts("a", "b")
	wantErr(t, err, keys.ErrDefinition)
	_, err = k.Range().Eq("a")
	wantErr(t, err, keys.ErrDefinition)
	_, err = k.With1("a").BeginsWith()
	wantErr(t, err, keys.ErrDefinition)
	_, err = k.At("a", "b").Eq()
	wantErr(t, err, keys.ErrDefinition)
	_, err = k.Start().Le()
	wantErr(t, err, keys.ErrDefinition)
	_, err = k.End().Ge()
	wantErr(t, err, keys.ErrDefinition)

	zeroDef(t, keys.Key1[string]{}, "a")
	zeroDef(t, keys.Key2[string, int]{}, keys.T2[string, int]{V1: "a", V2: 1})
	zeroDef(t, keys.Key3[string, int, string]{}, keys.T3[string, int, string]{V1: "a", V2: 1, V3: "c"})
	zeroDef(t, keys.Key4[string, int, string, int]{}, keys.T4[string, int, string, int]{V1: "a", V2: 1, V3: "c", V4: 4})
	for name, f := range map[string]func() error{
		"Key1.Start": func() error { _, err := keys.Key1[string]{}.Start().Le(); return err },
		"Key1.End":   func() error { _, err := keys.Key1[string]{}.End().Ge(); return err },
		"Key1.At":    func() error { _, err := keys.Key1[string]{}.At("a").Eq(); return err },
		"Key1.Range": func() error { _, err := keys.Key1[string]{}.Range().Eq("a"); return err },
		"Key3.With2": func() error { _, err := keys.Key3[string, int, string]{}.With2("a", 1).Eq("c"); return err },
		"Key3.At":    func() error { _, err := keys.Key3[string, int, string]{}.At("a", 1, "c").Eq(); return err },
		"Key4.With3": func() error { _, err := keys.Key4[string, int, string, int]{}.With3("a", 1, "c").Eq(4); return err },
		"Key4.End":   func() error { _, err := keys.Key4[string, int, string, int]{}.End().Ge(); return err },
	} {
		if err := f(); !errors.Is(err, keys.ErrDefinition) {
			t.Errorf("%s of the zero Key: %v, want ErrDefinition", name, err)
		}
	}
}

// zeroDef checks every method of Def on a zero Key: an error wrapping
// ErrDefinition, a zero ID, the dst of AppendValue unchanged.
func zeroDef[V any](t *testing.T, def keys.Def[V], v V) {
	t.Helper()
	if err := def.Err(); !errors.Is(err, keys.ErrDefinition) {
		t.Errorf("%T.Err: %v", def, err)
	}
	if !def.ID().IsZero() {
		t.Errorf("%T.ID is not zero", def)
	}
	if _, err := def.EncodeValue(v); !errors.Is(err, keys.ErrDefinition) {
		t.Errorf("%T.EncodeValue: %v", def, err)
	}
	dst := []byte("kept")
	if out, err := def.AppendValue(dst, v); !errors.Is(err, keys.ErrDefinition) || string(out) != "kept" {
		t.Errorf("%T.AppendValue: %q, %v", def, out, err)
	}
	if _, err := def.DecodeValue("a#1#c#4"); !errors.Is(err, keys.ErrDefinition) {
		t.Errorf("%T.DecodeValue: %v", def, err)
	}
	if _, err := def.PartsValue(v); !errors.Is(err, keys.ErrDefinition) {
		t.Errorf("%T.PartsValue: %v", def, err)
	}
}

// The zero Range and Anchor refuse every operation instead of panicking.
func TestZeroRangeAndAnchor(t *testing.T) {
	var r keys.Range[int]
	for _, f := range []func() (keys.Cond, error){
		func() (keys.Cond, error) { return r.Eq(1) },
		func() (keys.Cond, error) { return r.HalfOpen(1, 2) },
		r.BeginsWith,
	} {
		_, err := f()
		wantErr(t, err, keys.ErrDefinition)
	}
	var a keys.Anchor
	_, err := a.Le()
	wantErr(t, err, keys.ErrDefinition)
	_, err = a.Key()
	wantErr(t, err, keys.ErrDefinition)
	_, err = keys.Between(a, repoSK.At("x"))
	wantErr(t, err, keys.ErrDefinition)
}

// No key attribute can exceed DynamoDB's 2048 bytes.
func TestKeyTooLong(t *testing.T) {
	id := keys.ID[string]()
	k := keys.NewKey2(id, id, keys.WithPrefix("P"))
	long := strings.Repeat("a", 1023)
	_, err := k.Encode(long, long) // 2 + 1023 + 1 + 1023 = 2049 bytes
	wantErr(t, err, keys.ErrTooLong)
	wantSegment(t, err, 2, "key")
	_, err = k.Encode(long, long[1:])
	wantErr(t, err, nil)
}
