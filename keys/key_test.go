package keys_test

import (
	"cmp"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/keyfirst/keyfirst/keys"
)

var (
	orderSK = keys.NewKey3(statusCodec, keys.Time(keys.Micro), keys.Uint[uint64](10))
	july1   = time.Date(2019, time.July, 1, 0, 0, 0, 0, time.UTC)
)

func TestKeyRoundTrip(t *testing.T) {
	t.Run("Key1", func(t *testing.T) {
		k := keys.NewKey1(keys.ID[string](), keys.WithPrefix("REPO"))
		s, err := k.Encode("keyfirst")
		check(t, s, err, "REPO#keyfirst")
		a, err := k.Decode(s)
		wantErr(t, err, nil)
		if a != "keyfirst" {
			t.Fatalf("Decode = %q", a)
		}
	})
	t.Run("Key2", func(t *testing.T) {
		k := keys.NewKey2(statusCodec, keys.Time(keys.Micro))
		s, err := k.Encode(Cancelled, july1)
		check(t, s, err, "CANCELLED#2019-07-01T00:00:00.000000")
		a, b, err := k.Decode(s)
		wantErr(t, err, nil)
		if a != Cancelled || !b.Equal(july1) {
			t.Fatalf("Decode = %v, %v", a, b)
		}
	})
	t.Run("Key3", func(t *testing.T) {
		s, err := orderSK.Encode(Cancelled, july1, 12345)
		check(t, s, err, "CANCELLED#2019-07-01T00:00:00.000000#0000012345")
		a, b, c, err := orderSK.Decode(s)
		wantErr(t, err, nil)
		if a != Cancelled || !b.Equal(july1) || c != 12345 {
			t.Fatalf("Decode = %v, %v, %v", a, b, c)
		}
	})
	t.Run("Key4", func(t *testing.T) {
		k := keys.NewKey4(keys.ID[string](), statusCodec, keys.Int[int](3), keys.Literal("END"), keys.WithPrefix("T"), keys.WithSeparator('!'))
		s, err := k.Encode("u_8814", Shipped, -7, struct{}{})
		check(t, s, err, "T!u_8814!SHIPPED!-93!END")
		a, b, c, _, err := k.Decode(s)
		wantErr(t, err, nil)
		if a != "u_8814" || b != Shipped || c != -7 {
			t.Fatalf("Decode = %v, %v, %v", a, b, c)
		}
		parts, err := k.Parts("u_8814", Shipped, -7, struct{}{})
		wantErr(t, err, nil)
		if strings.Join(parts, ",") != "u_8814,SHIPPED,-93,END" {
			t.Fatalf("Parts = %q", parts)
		}
	})
}

func check(t *testing.T, got string, err error, want string) {
	t.Helper()
	wantErr(t, err, nil)
	if got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestKeyAppend(t *testing.T) {
	buf := []byte("PK=")
	buf, err := orderSK.Append(buf, Cancelled, july1, 12345)
	wantErr(t, err, nil)
	if string(buf) != "PK=CANCELLED#2019-07-01T00:00:00.000000#0000012345" {
		t.Fatalf("Append = %s", buf)
	}
	// On error dst comes back unchanged.
	out, err := orderSK.Append(buf, "PENDING", july1, 1)
	wantErr(t, err, keys.ErrNotInEnum)
	if string(out) != string(buf) {
		t.Fatalf("Append on error = %s", out)
	}
}

// Parts are the attribute values of a native multi-attribute key: one per
// typed segment, no prefix, no separator.
func TestKeyParts(t *testing.T) {
	k := keys.NewKey2(statusCodec, keys.Time(keys.Micro), keys.WithPrefix("ORDER"))
	parts, err := k.Parts(Cancelled, july1)
	wantErr(t, err, nil)
	if len(parts) != 2 || parts[0] != "CANCELLED" || parts[1] != "2019-07-01T00:00:00.000000" {
		t.Fatalf("Parts = %q", parts)
	}
	_, err = k.Parts(Cancelled, time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC))
	wantErr(t, err, keys.ErrOutOfRange)
	wantSegment(t, err, 2, "time")
}

func TestKeyDecodeRefuses(t *testing.T) {
	k := keys.NewKey2(statusCodec, keys.Uint[uint8](3), keys.WithPrefix("ORDER"))
	for _, tc := range []struct {
		name    string
		s       string
		want    error
		segment int
		kind    string
	}{
		{"empty", "", keys.ErrMalformed, 0, "prefix"},
		{"no prefix", "CANCELLED#001", keys.ErrMalformed, 0, "prefix"},
		{"prefix without separator", "ORDERCANCELLED#001", keys.ErrMalformed, 0, "prefix"},
		{"longer prefix", "ORDERS#CANCELLED#001", keys.ErrMalformed, 0, "prefix"},
		{"missing segment", "ORDER#CANCELLED", keys.ErrMalformed, 2, "key"},
		{"extra segment", "ORDER#CANCELLED#001#x", keys.ErrMalformed, 3, "key"},
		{"trailing separator", "ORDER#CANCELLED#001#", keys.ErrMalformed, 3, "key"},
		{"empty first segment", "ORDER##001", keys.ErrEmpty, 1, "enum"},
		{"empty last segment", "ORDER#CANCELLED#", keys.ErrEmpty, 2, "uint"},
		{"not in enum", "ORDER#PENDING#001", keys.ErrNotInEnum, 1, "enum"},
		{"bad number", "ORDER#CANCELLED#0x1", keys.ErrMalformed, 2, "uint"},
		{"number too big", "ORDER#CANCELLED#256", keys.ErrOutOfRange, 2, "uint"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b, err := k.Decode(tc.s)
			wantErr(t, err, tc.want)
			wantSegment(t, err, tc.segment, tc.kind)
			if a != "" || b != 0 {
				t.Fatalf("Decode returned values with an error: %v, %v", a, b)
			}
		})
	}
}

// Encode allocates the result only; Decode and Append into a large enough
// buffer allocate nothing.
func TestAllocations(t *testing.T) {
	buf := make([]byte, 0, 64)
	repoPK := keys.NewKey1(keys.ID[string](), keys.WithPrefix("REPO"))
	for name, tc := range map[string]struct {
		f    func()
		want float64
	}{
		"Encode":    {func() { _, _ = orderSK.Encode(Cancelled, july1, 12345) }, 1},
		"Append":    {func() { buf, _ = orderSK.Append(buf[:0], Cancelled, july1, 12345) }, 0},
		"Decode":    {func() { _, _, _, _ = orderSK.Decode("CANCELLED#2019-07-01T00:00:00.000000#0000012345") }, 0},
		"Decode ID": {func() { _, _ = repoPK.Decode("REPO#keyfirst") }, 0},
	} {
		if got := testing.AllocsPerRun(100, tc.f); got != tc.want {
			t.Errorf("%s: %v allocations, want %v", name, got, tc.want)
		}
	}
}

// fuzzKey is a key whose segments exercise every kind of boundary: a
// variable-width enum with a member that extends another, a free-form
// identifier, and a signed fixed-width integer.
func fuzzKeys() []keys.Key3[Status, string, int16] {
	return []keys.Key3[Status, string, int16]{
		keys.NewKey3(statusCodec, keys.ID[string](), keys.Int[int16](4)),
		keys.NewKey3(statusCodec, keys.ID[string](), keys.Int[int16](4), keys.WithPrefix("ORD")),
	}
}

type tuple struct {
	s  Status
	id string
	n  int16
}

func compareTuples(x, y tuple) int {
	return cmp.Or(strings.Compare(string(x.s), string(y.s)), strings.Compare(x.id, y.id), cmp.Compare(x.n, y.n))
}

// FuzzKey proves the composite properties: round trip, order of tuples =
// byte order of keys, injectivity, and that Decode accepts only canonical
// keys (so no segment value can forge a boundary: a key decodes into
// exactly the values that encode to it).
func FuzzKey(f *testing.F) {
	f.Add(uint8(1), "a", int16(-5), uint8(4), "a%", int16(7), true, "CANCELLED#a#-995")
	f.Add(uint8(1), "x", int16(0), uint8(1), "x", int16(-1), false, "ORD#CANCELLEDX#b#0000")
	f.Add(uint8(2), "a#b", int16(1), uint8(2), "a", int16(1), false, "A#a#b#0001")
	f.Fuzz(func(t *testing.T, s1 uint8, id1 string, n1 int16, s2 uint8, id2 string, n2 int16, prefixed bool, raw string) {
		k := fuzzKeys()[0]
		if prefixed {
			k = fuzzKeys()[1]
		}
		x := tuple{statuses[int(s1)%len(statuses)], id1, n1}
		y := tuple{statuses[int(s2)%len(statuses)], id2, n2}
		ex, errx := k.Encode(x.s, x.id, x.n)
		ey, erry := k.Encode(y.s, y.id, y.n)
		for _, v := range []struct {
			tu  tuple
			enc string
			err error
		}{{x, ex, errx}, {y, ey, erry}} {
			if v.err != nil {
				// Int[int16](4) holds -999 through 9999 in 4 bytes; the
				// whole key, its prefix and separators included, holds
				// at most MaxKeyBytes.
				size := len(v.tu.s) + 1 + len(v.tu.id) + 1 + 4
				if prefixed {
					size += len("ORD#")
				}
				valid := validID(v.tu.id, keys.MaxKeyBytes) == nil && v.tu.n >= -999 && v.tu.n <= 9999
				switch {
				case valid && size <= keys.MaxKeyBytes:
					t.Fatalf("Encode(%v) = %v", v.tu, v.err)
				case valid && !errors.Is(v.err, keys.ErrTooLong):
					t.Fatalf("Encode(%v), a key of %d bytes, = %v, want ErrTooLong", v.tu, size, v.err)
				}
				continue
			}
			s, id, n, err := k.Decode(v.enc)
			if err != nil || (tuple{s, id, n}) != v.tu {
				t.Fatalf("Decode(Encode(%v)) = %v, %v, %v, %v", v.tu, s, id, n, err)
			}
			parts, err := k.Parts(v.tu.s, v.tu.id, v.tu.n)
			wantErr(t, err, nil)
			if want := strings.TrimPrefix(v.enc, "ORD#"); strings.Join(parts, "#") != want {
				t.Fatalf("Parts(%v) = %q, key %s", v.tu, parts, v.enc)
			}
		}
		if errx == nil && erry == nil {
			if c := compareTuples(x, y); sign(c) != sign(strings.Compare(ex, ey)) {
				t.Fatalf("order of %v, %v not preserved: %s, %s", x, y, ex, ey)
			}
			if (ex == ey) != (x == y) {
				t.Fatalf("%v and %v share the encoding %s", x, y, ex)
			}
		}
		if s, id, n, err := k.Decode(raw); err == nil {
			again, err := k.Encode(s, id, n)
			if err != nil || again != raw {
				t.Fatalf("Decode(%q) = %v, %v, %v, which encodes as %q (%v)", raw, s, id, n, again, err)
			}
		}
	})
}
