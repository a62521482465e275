package query

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// TestValidUTF8IsTheStandardCheck: validUTF8 agrees with utf8.ValidString
// on strings of every length up to 40 around each kind of bad or
// multi-byte sequence, at every offset, and on random bytes.
func TestValidUTF8IsTheStandardCheck(t *testing.T) {
	pieces := []string{"", "a", "é", "€", "𝄞", "\x80", "\xc3", "\xe2\x82", "\xf0\x9d\x84", "\xff", "\xed\xa0\x80", "\xc0\xaf", "\x7f"}
	for n := range 41 {
		for _, p := range pieces {
			for at := 0; at <= n; at++ {
				s := strings.Repeat("x", at) + p + strings.Repeat("y", n-at)
				if got, want := validUTF8(s), utf8.ValidString(s); got != want {
					t.Fatalf("validUTF8(%q) = %v, want %v", s, got, want)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(48))
		for i := range b {
			b[i] = byte(r.IntN(128))
			if r.IntN(20) == 0 {
				b[i] = byte(r.IntN(256))
			}
		}
		if got, want := validUTF8(string(b)), utf8.ValidString(string(b)); got != want {
			t.Fatalf("validUTF8(%q) = %v, want %v", b, got, want)
		}
	}
}

// TestKeyValueOKIsCheckValue: a value keyValueOK accepts is one checkValue
// accepts without it, for every type, emptiness, length about the limit
// and validity.
func TestKeyValueOKIsCheckValue(t *testing.T) {
	f := failer{table: "t"}
	values := []types.AttributeValue{
		nil,
		&types.AttributeValueMemberS{}, &types.AttributeValueMemberS{Value: "a"}, &types.AttributeValueMemberS{Value: "abcdefghij"},
		&types.AttributeValueMemberS{Value: "abcdefgh\xff"}, &types.AttributeValueMemberS{Value: "é"},
		&types.AttributeValueMemberB{}, &types.AttributeValueMemberB{Value: []byte{0xff}}, &types.AttributeValueMemberB{Value: make([]byte, 10)},
		&types.AttributeValueMemberN{Value: "1"}, &types.AttributeValueMemberN{Value: "x"},
		&types.AttributeValueMemberBOOL{Value: true},
	}
	for _, typ := range []types.ScalarAttributeType{types.ScalarAttributeTypeS, types.ScalarAttributeTypeN, types.ScalarAttributeTypeB} {
		a := keyfirst.Attribute{Name: "k", Type: typ}
		for _, av := range values {
			for _, limit := range []int{1, 2, 9, 10, 11} {
				if !keyValueOK(av, typ, limit) {
					continue
				}
				if err := checkValueEach(f, a, Value{av: av}, limit, ProblemSortKey); err != nil {
					t.Errorf("keyValueOK(%s, %s, %d) accepts what checkValue refuses: %v", avString(av), typ, limit, err)
				}
			}
		}
	}
}
