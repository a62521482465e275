package itemsize

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
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
		if again, ok := ParseDecimal(da.Canonical()); !ok || again.Canonical() != da.Canonical() || again.Size() != da.Size() {
			t.Errorf("Canonical(%q) = %q is not a canonical text of the same size", a, da.Canonical())
		}
		if s := da.Size(); s < 1 || s > 22 {
			t.Errorf("Size(%q) = %d, outside 1..22", a, s)
		}
	})
}

// canonicalForms are the texts DynamoDB Local 3.3 returns for numbers
// written in other ways (put as keys and read back); the root package's
// TestCanonicalFormsMatchDynamoDB checks its keys against Local again.
var canonicalForms = map[string]string{
	"-0": "0", "0": "0", "0.000": "0", "-0.0e5": "0", "00": "0", "0e500": "0",
	"1.0": "1", "1e2": "100", "1E2": "100", "1e+3": "1000", "1.e3": "1000", "+5": "5", "007": "7", "5.": "5",
	"0.10": "0.1", "1.50": "1.5", ".5": "0.5", "01e1": "10", "100": "100", "1e6": "1000000",
	"1e-5": "0.00001", "1.5E-7": "0.00000015", "-1e-5": "-0.00001", "1e-4": "0.0001", "-12.3400e-2": "-0.1234",
	"123456789012345678901234567890e10":      "1234567890123456789012345678900000000000",
	"1e30":                                   "1" + strings.Repeat("0", 30),
	"9.9e125":                                "99" + strings.Repeat("0", 124),
	"1e-130":                                 "0." + strings.Repeat("0", 129) + "1",
	"-1e-130":                                "-0." + strings.Repeat("0", 129) + "1",
	"123e-130":                               "0." + strings.Repeat("0", 127) + "123",
	"12345678901234567890123456789012345678": "12345678901234567890123456789012345678",
	"0.012345678901234567890123456789012345678": "0.012345678901234567890123456789012345678",
}

func TestCanonical(t *testing.T) {
	for in, want := range canonicalForms {
		d, ok := ParseDecimal(in)
		if !ok {
			t.Errorf("ParseDecimal(%q) refused", in)
			continue
		}
		if got := d.Canonical(); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCanonicalKeepsCanonicalTexts(t *testing.T) {
	for _, s := range []string{"0", "12", "-1.5", "0.001", strings.Repeat("9", 38)} {
		d, _ := ParseDecimal(s)
		if n := testing.AllocsPerRun(10, func() { _ = d.Canonical() }); n != 0 {
			t.Errorf("Canonical(%q) allocates %v times", s, n)
		}
	}
}

func TestWhyRefused(t *testing.T) {
	for in, want := range map[string]string{
		"NaN": whyNotFinite, "+Inf": whyNotFinite, "-Inf": whyNotFinite, "12abc": whySyntax, "": whySyntax, "1e": whySyntax,
		strings.Repeat("1", 39): whyDigits, "1e126": whyTooLarge, "-1e200": whyTooLarge, "1e-131": whyTooSmall,
	} {
		if _, why := parseDecimal(in); why != want {
			t.Errorf("parseDecimal(%q) refuses because %q, want %q", in, why, want)
		}
	}
}

func TestParseDecimalValidity(t *testing.T) {
	valid := []string{"0", "-1", "+7", "1.5", ".5", "5.", "1e10", "1E-130", "-2.5e+3", "00012", "0.000",
		strings.Repeat("9", 38), strings.Repeat("9", 38) + "000", "1" + strings.Repeat("0", 50),
		"-1e-130", "0.1E-129", "9.9999999999999999999999999999999999999E+125", "0e999"}
	invalid := []string{"", "-", "abc", "1.2.3", "1e", "e5", "1e+", "1ex", "--1", "1 ", "NaN", "Infinity", "0x10",
		strings.Repeat("9", 39), "1." + strings.Repeat("1", 38),
		"1e-131", "-0.01E-129", "1E+126", "10e125", "1" + strings.Repeat("0", 126), "1e+200", "-1e-200"}
	for _, s := range valid {
		if _, ok := ParseDecimal(s); !ok {
			t.Errorf("%q refused", s)
		}
	}
	for _, s := range invalid {
		if _, ok := ParseDecimal(s); ok {
			t.Errorf("%q accepted", s)
		}
	}
}

// TestIntegerSize: IntegerSize is numberSize for every integer strconv
// formats: the edges of int64 and uint64, powers of ten, runs of zeros
// and random values of every length.
func TestIntegerSize(t *testing.T) {
	texts := []string{"0", "1", "-1", "9", "10", "-10", "12", "100", "101", "120", "1200", "12300", "12340",
		strconv.FormatInt(math.MaxInt64, 10), strconv.FormatInt(math.MinInt64, 10), strconv.FormatUint(math.MaxUint64, 10)}
	for p, n := 0, uint64(1); p < 20; p, n = p+1, n*10 {
		texts = append(texts, strconv.FormatUint(n, 10), strconv.FormatUint(n*7, 10), "-"+strconv.FormatUint(n, 10))
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		n := r.Int64() >> r.UintN(64)
		if r.UintN(3) == 0 {
			n = -n
		}
		if r.UintN(4) == 0 {
			n -= n % 1000
		}
		texts = append(texts, strconv.FormatInt(n, 10))
	}
	for _, s := range texts {
		want, bad := numberSize(s, true)
		if bad != nil {
			t.Fatalf("%s: %v", s, bad)
		}
		if got := IntegerSize(s); got != want {
			t.Fatalf("IntegerSize(%s) = %d, numberSize %d", s, got, want)
		}
	}
}
