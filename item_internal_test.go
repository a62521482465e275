package keyfirst

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestValidNumber(t *testing.T) {
	valid := []string{"0", "-1", "+7", "1.5", ".5", "5.", "1e10", "1E-130", "-2.5e+3", "00012", "0.000",
		strings.Repeat("9", 38), strings.Repeat("9", 38) + "000", "1" + strings.Repeat("0", 50)}
	invalid := []string{"", "-", "abc", "1.2.3", "1e", "e5", "1e+", "1ex", "--1", "1 ", "NaN", "Infinity", "0x10",
		strings.Repeat("9", 39), "1." + strings.Repeat("1", 38)}
	for _, s := range valid {
		if !validNumber(s) {
			t.Errorf("%q refused", s)
		}
	}
	for _, s := range invalid {
		if validNumber(s) {
			t.Errorf("%q accepted", s)
		}
	}
}

func TestItemSize(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	item := map[string]types.AttributeValue{
		"name": s("héllo"),                                                                        // 4 + 6 bytes
		"n":    &types.AttributeValueMemberN{Value: "-123.45"},                                    // 1 + (5+1)/2+1 = 5
		"b":    &types.AttributeValueMemberB{Value: []byte{1, 2, 3}},                              // 1 + 3
		"t":    &types.AttributeValueMemberBOOL{Value: true},                                      // 1 + 1
		"z":    &types.AttributeValueMemberNULL{Value: true},                                      // 1 + 1
		"ss":   &types.AttributeValueMemberSS{Value: []string{"ab", "c"}},                         // 2 + 3
		"ns":   &types.AttributeValueMemberNS{Value: []string{"1", "22"}},                         // 2 + 2 + 2
		"bs":   &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2, 3}}},                       // 2 + 3
		"l":    &types.AttributeValueMemberL{Value: []types.AttributeValue{s("x"), s("yz")}},      // 1 + 3 + 2 + 3
		"m":    &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": s("v")}}, // 1 + 3 + 1+1+1
	}
	want := 10 + 5 + 4 + 2 + 2 + 5 + 6 + 5 + 9 + 7
	if got := itemSize(item); got != want {
		t.Fatalf("itemSize = %d, want %d", got, want)
	}
	if got := numberSize(strings.Repeat("9", 80)); got != 21 {
		t.Fatalf("numberSize caps at 21, got %d", got)
	}
	if got := valueSize(nil); got != 0 {
		t.Fatalf("valueSize(nil) = %d", got)
	}
}

func TestAVTypeName(t *testing.T) {
	for av, want := range map[types.AttributeValue]string{
		&types.AttributeValueMemberS{}: "S", &types.AttributeValueMemberN{}: "N", &types.AttributeValueMemberB{}: "B",
		&types.AttributeValueMemberBOOL{}: "BOOL", &types.AttributeValueMemberNULL{}: "NULL", &types.AttributeValueMemberL{}: "L",
		&types.AttributeValueMemberM{}: "M", &types.AttributeValueMemberSS{}: "SS", &types.AttributeValueMemberNS{}: "NS",
		&types.AttributeValueMemberBS{}: "BS", &types.UnknownUnionMember{}: "*types.UnknownUnionMember",
	} {
		if got := avTypeName(av); got != want {
			t.Errorf("%T: %q", av, got)
		}
	}
	if avTypeName(nil) != "nothing" {
		t.Error("nil")
	}
}
