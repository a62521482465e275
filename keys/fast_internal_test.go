package keys

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// A key stays comparable (its quick path is held by pointer).
var _ = Key1[string]{} == Key1[string]{}

// general is k without its quick path: every append through the codec's
// general one.
func general[A any](k Key1[A]) Key1[A] {
	k.fast = nil
	return k
}

// sameAppend fails t unless k appends v to dst as its general path does:
// the same bytes, the same error (its kind and text), dst untouched on
// an error.
func sameAppend(t *testing.T, k Key1[string], dst []byte, v string) {
	t.Helper()
	want, wantErr := general(k).Append(bytes.Clone(dst), v)
	got, err := k.Append(bytes.Clone(dst), v)
	if !bytes.Equal(got, want) || (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
		t.Fatalf("Append(%q, %q) = %q, %v; the general path gives %q, %v", dst, v, got, err, want, wantErr)
	}
}

// quickKeys are keys of one identifier that have a quick path, with and
// without a prefix, with every separator and a short MaxLen.
func quickKeys(t testing.TB) []Key1[string] {
	var ks []Key1[string]
	for sep := byte('!'); sep <= '+'; sep++ {
		for _, opts := range [][]func(*Options){
			{WithSeparator(sep)},
			{WithSeparator(sep), WithPrefix("CUST")},
		} {
			for _, c := range []Codec[string]{ID[string](), ID[string](MaxLen(6))} {
				k := NewKey1(c, opts...)
				if k.fast == nil {
					t.Fatalf("%s: no quick path", k.ID())
				}
				ks = append(ks, k)
			}
		}
	}
	return ks
}

// TestFastAppendIsGeneral: a key of one identifier appends through its
// quick path exactly what the general path appends, and refuses what it
// refuses, for every separator, around every limit (the codec's MaxLen,
// the key's 2048 bytes), with every byte at every position of short
// texts.
func TestFastAppendIsGeneral(t *testing.T) {
	long := strings.Repeat("a", MaxKeyBytes)
	for _, k := range quickKeys(t) {
		for _, dst := range [][]byte{nil, []byte("kept")} {
			for _, v := range []string{"", "a", "abc", "abcd", "c0001", "abcdef", "abcdefg", "abcdefgh", "abcdefghi",
				"é-id", "idé", "a#b", "a+b", "ab!c", "a b", "ab\x7fcd", "ab\x80cd", long[:MaxKeyBytes-5], long[:MaxKeyBytes-4], long} {
				sameAppend(t, k, dst, v)
			}
			for n := range 12 {
				for at := range n {
					for c := range 256 {
						b := []byte(strings.Repeat("x", n))
						b[at] = byte(c)
						sameAppend(t, k, dst, string(b))
					}
				}
			}
		}
	}
	// A codec that cannot be built has no quick path, and the key says
	// why it cannot be used.
	k := NewKey1(ID[string](MaxLen(-1)))
	if k.fast != nil {
		t.Fatal("a key whose codec has an error has a quick path")
	}
	if _, err := k.Append(nil, "abcd"); !errors.Is(err, ErrDefinition) {
		t.Fatalf("Append with a bad codec: %v", err)
	}
}

// FuzzFastAppend: the quick path of a key of one identifier appends what
// the general path appends.
func FuzzFastAppend(f *testing.F) {
	f.Add("c0001", byte('#'), true)
	f.Add("ab\x7fcdefgh", byte('#'), false)
	f.Add("abc,defgh", byte('+'), true)
	f.Fuzz(func(t *testing.T, v string, sep byte, prefix bool) {
		opts := []func(*Options){WithSeparator('!' + sep%11)}
		if prefix {
			opts = append(opts, WithPrefix("P"))
		}
		sameAppend(t, NewKey1(ID[string](), opts...), nil, v)
		sameAppend(t, NewKey1(ID[string](MaxLen(8)), opts...), []byte("x"), v)
	})
}
