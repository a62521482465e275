package avequal

import (
	"math/big"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

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
			if got := Equal(tc.a, tc.b); got != tc.equal {
				t.Errorf("Equal = %v, want %v", got, tc.equal)
			}
			if got := Equal(tc.b, tc.a); got != tc.equal {
				t.Errorf("Equal, reversed = %v, want %v", got, tc.equal)
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
	if !Equal(&types.AttributeValueMemberNS{Value: a}, &types.AttributeValueMemberNS{Value: b}) {
		t.Error("large number sets of equal values differ")
	}
	b[0] = "40"
	if Equal(&types.AttributeValueMemberNS{Value: a}, &types.AttributeValueMemberNS{Value: b}) {
		t.Error("large number sets of different values are equal")
	}
}
