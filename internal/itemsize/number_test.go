package itemsize

import (
	"math/big"
	"strings"
	"testing"
)

func TestParseDecimal(t *testing.T) {
	tests := []struct {
		in     string
		ok     bool
		neg    bool
		exp    int
		digits int
	}{
		{"0", true, false, 0, 0},
		{"-0.000", true, false, 0, 0},
		{"1", true, false, 1, 1},
		{"+1", true, false, 1, 1},
		{"12", true, false, 2, 2},
		{"100", true, false, 3, 1},
		{"1001", true, false, 4, 4},
		{"1.5", true, false, 1, 2},
		{"0.5", true, false, 0, 1},
		{"0.05", true, false, -1, 1},
		{"-123.450", true, true, 3, 5},
		{"00012.0", true, false, 2, 2},
		{"1e10", true, false, 11, 1},
		{"1.5E-3", true, false, -2, 2},
		{"1e-130", true, false, -129, 1},
		{"1e-131", false, false, 0, 0},
		{"9.9999999999999999999999999999999999999E+125", true, false, 126, 38},
		{"1E+126", false, false, 0, 0},
		{strings.Repeat("1", 38), true, false, 38, 38},
		{strings.Repeat("1", 39), false, false, 0, 0},
		{"1" + strings.Repeat("0", 60), true, false, 61, 1},
		{"", false, false, 0, 0},
		{"-", false, false, 0, 0},
		{".", false, false, 0, 0},
		{"1.2.3", false, false, 0, 0},
		{"1e", false, false, 0, 0},
		{"e5", false, false, 0, 0},
		{"1e+", false, false, 0, 0},
		{"0x10", false, false, 0, 0},
		{"NaN", false, false, 0, 0},
		{" 1", false, false, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			d, ok := ParseDecimal(tc.in)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			if d.neg != tc.neg && d.digits > 0 || d.exp != tc.exp || d.digits != tc.digits {
				t.Errorf("got neg %v exp %d digits %d; want %v %d %d", d.neg, d.exp, d.digits, tc.neg, tc.exp, tc.digits)
			}
		})
	}
}

// FuzzDecimal checks the number parser against math/big: it accepts what
// big.Rat accepts within DynamoDB's range and precision, two numbers are
// equal exactly when their values are, and the canonical text has the same
// value.
func FuzzDecimal(f *testing.F) {
	for _, s := range []string{"0", "1", "-1.5", "0.05", "1e10", "123.450", "1E-130", "00012.0", "9.9e125"} {
		f.Add(s, "1")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		da, oka := ParseDecimal(a)
		db, okb := ParseDecimal(b)
		if !oka || !okb {
			return
		}
		ra, ok1 := new(big.Rat).SetString(a)
		rb, ok2 := new(big.Rat).SetString(b)
		if !ok1 || !ok2 {
			t.Fatalf("ParseDecimal accepts %q and %q, big.Rat does not", a, b)
		}
		if got, want := da.Equal(db), ra.Cmp(rb) == 0; got != want {
			t.Errorf("Equal(%q, %q) = %v, values equal: %v", a, b, got, want)
		}
		if got, want := da.Canonical() == db.Canonical(), ra.Cmp(rb) == 0; got != want {
			t.Errorf("Canonical(%q) == Canonical(%q): %v, values equal: %v", a, b, got, want)
		}
		c, ok := new(big.Rat).SetString(da.Canonical())
		if !ok || c.Cmp(ra) != 0 {
			t.Errorf("Canonical(%q) = %q, another value", a, da.Canonical())
		}
		if s := da.Size(); s < 1 || s > 22 {
			t.Errorf("Size(%q) = %d, outside 1..22", a, s)
		}
	})
}
