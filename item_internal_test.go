package keyfirst

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

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

// validUTF8 agrees with utf8.ValidString on ASCII, multi-byte and invalid
// texts of every length around its eight-byte steps, the odd byte at each
// position.
func TestValidUTF8(t *testing.T) {
	odd := []string{"é", "€", "𝄞", "\xff", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\xf4\x90\x80\x80"}
	for n := 0; n <= 20; n++ {
		ascii := strings.Repeat("a", n)
		if !validUTF8(ascii) {
			t.Fatalf("%q refused", ascii)
		}
		for at := 0; at <= n; at++ {
			for _, o := range odd {
				s := ascii[:at] + o + ascii[at:]
				if got, want := validUTF8(s), utf8.ValidString(s); got != want {
					t.Fatalf("validUTF8(%q) = %v, want %v", s, got, want)
				}
			}
		}
	}
}
