package keyfirst

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestValidNumber(t *testing.T) {
	valid := []string{"0", "-1", "+7", "1.5", ".5", "5.", "1e10", "1E-130", "-2.5e+3", "00012", "0.000",
		strings.Repeat("9", 38), strings.Repeat("9", 38) + "000", "1" + strings.Repeat("0", 50),
		"-1e-130", "0.1E-129", "9.9999999999999999999999999999999999999E+125", "0e999"}
	invalid := []string{"", "-", "abc", "1.2.3", "1e", "e5", "1e+", "1ex", "--1", "1 ", "NaN", "Infinity", "0x10",
		strings.Repeat("9", 39), "1." + strings.Repeat("1", 38),
		"1e-131", "-0.01E-129", "1E+126", "10e125", "1" + strings.Repeat("0", 126), "1e+200", "-1e-200"}
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
