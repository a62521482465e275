package sparse

import (
	"math/big"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
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
			d, ok := parseDecimal(tc.in)
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

// numberSizes are sizes measured on DynamoDB Local 3.3 (by the item size at
// which a put costs a second WCU); TestItemSizeMatchesDynamoDBLocal measures
// them again.
var numberSizes = map[string]int{
	"0": 1, "1": 2, "12": 2, "123": 3, "1234": 3, "100000": 2, "0.001": 2,
	"-5": 3, "1e10": 2, "1.5": 3, "10.5": 3, "12.5": 3, "0.5": 2, "0.05": 2,
	"123.45": 4, "-1234": 4, "-1": 3, "1000": 2, "1001": 3, "10": 2, "101": 3,
	"-0.5": 3, "1700000000000": 3, "1.0": 2, "1e-130": 2,
	"12345678901234567890123456789012345678":       20,
	"9.9999999999999999999999999999999999999E+125": 20,
}

func TestNumberSize(t *testing.T) {
	for in, want := range numberSizes {
		if got := numberSize(in); got != want {
			t.Errorf("numberSize(%q) = %d, want %d", in, got, want)
		}
	}
	// Not a number: every digit counted, as an upper bound.
	if got := numberSize("12x4"); got != 3 {
		t.Errorf("numberSize(12x4) = %d, want 3", got)
	}
}

func TestEqualValues(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	many := func(prefix string, k int, rev bool) []string {
		out := make([]string, k)
		for i := range out {
			j := i
			if rev {
				j = k - 1 - i
			}
			out[i] = prefix + strings.Repeat("x", j)
		}
		return out
	}
	tests := []struct {
		name  string
		a, b  types.AttributeValue
		equal bool
	}{
		{"absent", nil, nil, true},
		{"absent and present", nil, s("a"), false},
		{"strings", s("a"), s("a"), true},
		{"different strings", s("a"), s("b"), false},
		{"string and number", s("1"), n("1"), false},
		{"numbers by value", n("1"), n("1.0"), true},
		{"numbers with exponent", n("1500"), n("1.5e3"), true},
		{"different numbers", n("1"), n("10"), false},
		{"negative zero", n("-0"), n("0"), true},
		{"opposite signs", n("-1"), n("1"), false},
		{"binary", &types.AttributeValueMemberB{Value: []byte{1}}, &types.AttributeValueMemberB{Value: []byte{1}}, true},
		{"booleans", &types.AttributeValueMemberBOOL{Value: true}, &types.AttributeValueMemberBOOL{Value: false}, false},
		{"nulls", &types.AttributeValueMemberNULL{Value: true}, &types.AttributeValueMemberNULL{Value: true}, true},
		{"string sets in any order", &types.AttributeValueMemberSS{Value: []string{"a", "b"}}, &types.AttributeValueMemberSS{Value: []string{"b", "a"}}, true},
		{"different string sets", &types.AttributeValueMemberSS{Value: []string{"a", "b"}}, &types.AttributeValueMemberSS{Value: []string{"a", "c"}}, false},
		{"large string sets in any order", &types.AttributeValueMemberSS{Value: many("s", 40, false)}, &types.AttributeValueMemberSS{Value: many("s", 40, true)}, true},
		{"large different string sets", &types.AttributeValueMemberSS{Value: many("s", 40, false)}, &types.AttributeValueMemberSS{Value: many("t", 40, true)}, false},
		{"number sets by value", &types.AttributeValueMemberNS{Value: []string{"1.0", "2"}}, &types.AttributeValueMemberNS{Value: []string{"2", "1"}}, true},
		{"binary sets", &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2}}}, &types.AttributeValueMemberBS{Value: [][]byte{{2}, {1}}}, true},
		{"lists in order", &types.AttributeValueMemberL{Value: []types.AttributeValue{s("a"), n("1")}}, &types.AttributeValueMemberL{Value: []types.AttributeValue{s("a"), n("1.00")}}, true},
		{"lists out of order", &types.AttributeValueMemberL{Value: []types.AttributeValue{s("a"), s("b")}}, &types.AttributeValueMemberL{Value: []types.AttributeValue{s("b"), s("a")}}, false},
		{"lists of other lengths", &types.AttributeValueMemberL{Value: []types.AttributeValue{s("a")}}, &types.AttributeValueMemberL{}, false},
		{"maps", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": s("v")}}, &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": s("v")}}, true},
		{"maps with other keys", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": s("v")}}, &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"j": s("v")}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := equalValues(tc.a, tc.b); got != tc.equal {
				t.Errorf("equalValues = %v, want %v", got, tc.equal)
			}
			if got := equalValues(tc.b, tc.a); got != tc.equal {
				t.Errorf("equalValues, reversed = %v, want %v", got, tc.equal)
			}
		})
	}
	// Two large sets of equal numbers in other spellings are equal; one
	// number more is not.
	a, b := make([]string, 40), make([]string, 40)
	for i := range a {
		a[i] = big.NewInt(int64(i)).String()
		b[39-i] = a[i] + ".0"
	}
	if !equalValues(&types.AttributeValueMemberNS{Value: a}, &types.AttributeValueMemberNS{Value: b}) {
		t.Error("large number sets of equal values differ")
	}
	b[0] = "40"
	if equalValues(&types.AttributeValueMemberNS{Value: a}, &types.AttributeValueMemberNS{Value: b}) {
		t.Error("large number sets of different values are equal")
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
		da, oka := parseDecimal(a)
		db, okb := parseDecimal(b)
		if !oka || !okb {
			return
		}
		ra, ok1 := new(big.Rat).SetString(a)
		rb, ok2 := new(big.Rat).SetString(b)
		if !ok1 || !ok2 {
			t.Fatalf("parseDecimal accepts %q and %q, big.Rat does not", a, b)
		}
		if got, want := da.equal(db), ra.Cmp(rb) == 0; got != want {
			t.Errorf("equal(%q, %q) = %v, values equal: %v", a, b, got, want)
		}
		if got, want := da.canonical() == db.canonical(), ra.Cmp(rb) == 0; got != want {
			t.Errorf("canonical(%q) == canonical(%q): %v, values equal: %v", a, b, got, want)
		}
		c, ok := new(big.Rat).SetString(da.canonical())
		if !ok || c.Cmp(ra) != 0 {
			t.Errorf("canonical(%q) = %q, another value", a, da.canonical())
		}
		if s := da.size(); s < 1 || s > 22 {
			t.Errorf("size(%q) = %d, outside 1..22", a, s)
		}
	})
}
