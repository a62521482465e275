package keys_test

import (
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

// The zero Key value refuses every operation instead of panicking.
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
