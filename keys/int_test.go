package keys_test

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/keyfirst/keyfirst/keys"
)

func TestIntEncoding(t *testing.T) {
	c := keys.Int[int](4)
	values := []int{-1000, -999, -10, -5, -1, 0, 7, 42, 9999}
	want := []string{"-000", "-001", "-990", "-995", "-999", "0000", "0007", "0042", "9999"}
	var encs []string
	for i, v := range values {
		b, err := c.Append(nil, '#', v)
		wantErr(t, err, nil)
		if string(b) != want[i] {
			t.Errorf("Append(%d) = %s, want %s", v, b, want[i])
		}
		back, err := c.Parse(string(b), '#')
		wantErr(t, err, nil)
		if back != v {
			t.Errorf("Parse(%s) = %d, want %d", b, back, v)
		}
		encs = append(encs, string(b))
	}
	if !slices.IsSorted(encs) {
		t.Errorf("encodings of increasing values are not sorted: %v", encs)
	}
}

func TestIntLimits(t *testing.T) {
	for _, tc := range []struct {
		name string
		enc  func() ([]byte, error)
		want string
		err  error
	}{
		{"uint 10 digits", func() ([]byte, error) { return keys.Uint[uint64](10).Append(nil, '#', 12345) }, "0000012345", nil},
		{"uint overflow", func() ([]byte, error) { return keys.Uint[uint64](10).Append(nil, '#', 10_000_000_000) }, "", keys.ErrOutOfRange},
		{"uint64 max", func() ([]byte, error) { return keys.Uint[uint64](20).Append(nil, '#', math.MaxUint64) }, "18446744073709551615", nil},
		{"uint8 in 3", func() ([]byte, error) { return keys.Uint[uint8](3).Append(nil, '#', 255) }, "255", nil},
		{"uint width 1", func() ([]byte, error) { return keys.Uint[uint](1).Append(nil, '#', 9) }, "9", nil},
		{"uint width 1 overflow", func() ([]byte, error) { return keys.Uint[uint](1).Append(nil, '#', 10) }, "", keys.ErrOutOfRange},
		{"int64 min", func() ([]byte, error) { return keys.Int[int64](20).Append(nil, '#', math.MinInt64) }, "-0776627963145224192", nil},
		{"int64 max", func() ([]byte, error) { return keys.Int[int64](20).Append(nil, '#', math.MaxInt64) }, "09223372036854775807", nil},
		{"int64 min in 19", func() ([]byte, error) { return keys.Int[int64](19).Append(nil, '#', math.MinInt64) }, "", keys.ErrOutOfRange},
		{"int8 min", func() ([]byte, error) { return keys.Int[int8](4).Append(nil, '#', math.MinInt8) }, "-872", nil},
		{"int8 below width", func() ([]byte, error) { return keys.Int[int8](3).Append(nil, '#', -101) }, "", keys.ErrOutOfRange},
		{"int8 at width", func() ([]byte, error) { return keys.Int[int8](3).Append(nil, '#', -100) }, "-00", nil},
		{"int width 1", func() ([]byte, error) { return keys.Int[int](1).Append(nil, '#', -1) }, "-", nil},
		{"int width 1 below", func() ([]byte, error) { return keys.Int[int](1).Append(nil, '#', -2) }, "", keys.ErrOutOfRange},
		{"int overflow", func() ([]byte, error) { return keys.Int[int32](4).Append(nil, '#', 10000) }, "", keys.ErrOutOfRange},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := tc.enc()
			wantErr(t, err, tc.err)
			if tc.err == nil && string(b) != tc.want {
				t.Fatalf("got %s, want %s", b, tc.want)
			}
		})
	}
}

func TestIntDecodeRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    string
		dec  func(string) error
		want error
	}{
		{"short", "123", parseInt[int](4), keys.ErrMalformed},
		{"long", "12345", parseInt[int](4), keys.ErrMalformed},
		{"empty", "", parseInt[int](4), keys.ErrEmpty},
		{"plus", "+123", parseInt[int](4), keys.ErrMalformed},
		{"space", " 123", parseInt[int](4), keys.ErrMalformed},
		{"minus twice", "--12", parseInt[int](4), keys.ErrMalformed},
		{"minus in unsigned", "-123", parseUint[uint](4), keys.ErrMalformed},
		{"fullwidth digit", "１23", parseInt[int](4), keys.ErrMalformed},
		{"above the type", "256", parseUint[uint8](3), keys.ErrOutOfRange},
		{"below the type", "-871", parseInt[int8](4), keys.ErrOutOfRange},
		{"above the type, signed", "0128", parseInt[int8](4), keys.ErrOutOfRange},
		{"above uint64", "99999999999999999999", parseUint[uint64](20), keys.ErrOutOfRange},
		{"below int64", "-0000000000000000000", parseInt[int64](20), keys.ErrOutOfRange},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.dec(tc.s)
			wantErr(t, err, tc.want)
		})
	}
}

func parseInt[I keys.Signed](w int) func(string) error {
	return func(s string) error { _, err := keys.Int[I](w).Parse(s, '#'); return err }
}

func parseUint[U keys.Unsigned](w int) func(string) error {
	return func(s string) error { _, err := keys.Uint[U](w).Parse(s, '#'); return err }
}

func TestIntDefinition(t *testing.T) {
	for _, w := range []int{-1, 0, 21} {
		err := keys.NewKey1(keys.Int[int](w)).Err()
		wantErr(t, err, keys.ErrDefinition)
		err = keys.NewKey1(keys.Uint[uint](w)).Err()
		wantErr(t, err, keys.ErrDefinition)
		_, err = keys.Uint[uint](w).Parse("1", '#')
		wantErr(t, err, keys.ErrDefinition)
		_, err = keys.Int[int](w).Append(nil, '#', 1)
		wantErr(t, err, keys.ErrDefinition)
	}
}

// intOracle is the signed encoding, restated with big integers: the value
// range and the expected string, or "" when out of range.
func intOracle(v int64, w int) string {
	lo := new(big.Int).Neg(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(w-1)), nil))
	hi := new(big.Int).Sub(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(w)), nil), big.NewInt(1))
	bv := big.NewInt(v)
	if bv.Cmp(lo) < 0 || bv.Cmp(hi) > 0 {
		return ""
	}
	if v >= 0 {
		return fmt.Sprintf("%0*d", w, v)
	}
	comp := new(big.Int).Sub(bv, lo) // 10^(w-1) + v
	if w == 1 {
		return "-"
	}
	return "-" + fmt.Sprintf("%0*s", w-1, comp.String())
}

func FuzzInt(f *testing.F) {
	f.Add(int64(-10), int64(-5), uint8(3), "-995")
	f.Add(int64(math.MinInt64), int64(math.MaxInt64), uint8(19), "-0776627963145224192")
	f.Add(int64(-1), int64(0), uint8(0), "-")
	f.Add(int64(999), int64(1000), uint8(2), "0999")
	f.Fuzz(func(t *testing.T, x, y int64, w8 uint8, raw string) {
		w := int(w8%20) + 1
		c := keys.Int[int64](w)
		ex, errx := c.Append(nil, '#', x)
		ey, erry := c.Append(nil, '#', y)
		for _, v := range []struct {
			v   int64
			enc []byte
			err error
		}{{x, ex, errx}, {y, ey, erry}} {
			want := intOracle(v.v, w)
			if want == "" {
				wantErr(t, v.err, keys.ErrOutOfRange)
				continue
			}
			wantErr(t, v.err, nil)
			if string(v.enc) != want {
				t.Fatalf("Int(%d).Append(%d) = %s, want %s", w, v.v, v.enc, want)
			}
			back, err := c.Parse(want, '#')
			if err != nil || back != v.v {
				t.Fatalf("Parse(%s) = %d, %v", want, back, err)
			}
		}
		if errx == nil && erry == nil {
			if sign(cmpInt(x, y)) != sign(strings.Compare(string(ex), string(ey))) {
				t.Fatalf("order of %d, %d not preserved: %s, %s", x, y, ex, ey)
			}
		}
		// A narrower type refuses what it cannot hold.
		if x8, err := keys.Int[int8](w).Append(nil, '#', int8(x)); err == nil {
			if want := intOracle(int64(int8(x)), w); string(x8) != want {
				t.Fatalf("Int[int8](%d).Append(%d) = %s, want %s", w, int8(x), x8, want)
			}
		}
		if v, err := keys.Int[int8](w).Parse(raw, '#'); err == nil {
			if again, _ := keys.Int[int8](w).Append(nil, '#', v); string(again) != raw {
				t.Fatalf("Int[int8] Parse(%q) = %d, which encodes as %q", raw, v, again)
			}
		}
		if v, err := c.Parse(raw, '#'); err == nil {
			if again, _ := c.Append(nil, '#', v); string(again) != raw {
				t.Fatalf("Parse(%q) = %d, which encodes as %q", raw, v, again)
			}
		}
	})
}

func cmpInt[I int64 | uint64](x, y I) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func FuzzUint(f *testing.F) {
	f.Add(uint64(12345), uint64(12346), uint8(9), "0000012345")
	f.Add(uint64(math.MaxUint64), uint64(0), uint8(19), "18446744073709551616")
	f.Add(uint64(9), uint64(10), uint8(0), "9")
	f.Fuzz(func(t *testing.T, x, y uint64, w8 uint8, raw string) {
		w := int(w8%20) + 1
		c := keys.Uint[uint64](w)
		ex, errx := c.Append(nil, '#', x)
		ey, erry := c.Append(nil, '#', y)
		for _, v := range []struct {
			v   uint64
			enc []byte
			err error
		}{{x, ex, errx}, {y, ey, erry}} {
			want := fmt.Sprintf("%0*d", w, v.v)
			if len(want) > w {
				wantErr(t, v.err, keys.ErrOutOfRange)
				continue
			}
			wantErr(t, v.err, nil)
			if string(v.enc) != want {
				t.Fatalf("Uint(%d).Append(%d) = %s, want %s", w, v.v, v.enc, want)
			}
			back, err := c.Parse(want, '#')
			if err != nil || back != v.v {
				t.Fatalf("Parse(%s) = %d, %v", want, back, err)
			}
		}
		if errx == nil && erry == nil && sign(cmpInt(x, y)) != sign(strings.Compare(string(ex), string(ey))) {
			t.Fatalf("order of %d, %d not preserved: %s, %s", x, y, ex, ey)
		}
		if v, err := c.Parse(raw, '#'); err == nil {
			if again, _ := c.Append(nil, '#', v); string(again) != raw {
				t.Fatalf("Parse(%q) = %d, which encodes as %q", raw, v, again)
			}
		}
	})
}
