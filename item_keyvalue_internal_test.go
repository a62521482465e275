package keyfirst

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestCheckKeyValueRefusals: every value checkKeyValue refuses gets its
// own problem and explanation (from keyValueError, its cold path), and
// every value it accepts comes back with its size.
func TestCheckKeyValueRefusals(t *testing.T) {
	e := &Entity[struct{}]{typeName: "Thing"}
	s := &derivation[struct{}]{attr: Attribute{Name: "GSI1PK", Type: types.ScalarAttributeTypeS}, index: "GSI1", limit: 8}
	b := &derivation[struct{}]{attr: Attribute{Name: "bin", Type: types.ScalarAttributeTypeB}, limit: 4}
	n := &derivation[struct{}]{attr: Attribute{Name: "num", Type: types.ScalarAttributeTypeN}, limit: 8}
	keysText := *s
	keysText.keysText = true
	for _, c := range []struct {
		name    string
		d       *derivation[struct{}]
		av      types.AttributeValue
		problem ItemProblem
		detail  string
	}{
		{"empty string", s, &types.AttributeValueMemberS{}, ItemEmptyKey, "an empty string is never a key value"},
		{"invalid UTF-8", s, &types.AttributeValueMemberS{Value: "a\xffb"}, ItemBadString, `"a\xffb": the SDK would send each invalid byte as U+FFFD`},
		{"string too long", s, &types.AttributeValueMemberS{Value: "123456789"}, ItemKeyTooLong, "9 bytes, the limit is 8"},
		{"a keys text too long", &keysText, &types.AttributeValueMemberS{Value: "123456789"}, ItemKeyTooLong, "9 bytes, the limit is 8"},
		{"number for a string", s, &types.AttributeValueMemberN{Value: "1"}, ItemKeyType, "got N, the attribute is S"},
		{"string for a binary", b, &types.AttributeValueMemberS{Value: "x"}, ItemKeyType, "got S, the attribute is B"},
		{"empty binary", b, &types.AttributeValueMemberB{}, ItemEmptyKey, "an empty binary is never a key value"},
		{"binary too long", b, &types.AttributeValueMemberB{Value: []byte("12345")}, ItemKeyTooLong, "5 bytes, the limit is 4"},
		{"bad number", n, &types.AttributeValueMemberN{Value: "1e"}, ItemBadNumber, ""},
		{"no value", s, nil, ItemKeyType, "the attribute is S"},
	} {
		av, size, err := e.checkKeyValue(c.d, c.av)
		var ie *ItemError
		if !errors.As(err, &ie) || ie.Problem != c.problem || ie.Attribute != c.d.attr.Name || ie.Index != c.d.index || ie.Entity != "Thing" || !strings.Contains(ie.Detail, c.detail) {
			t.Errorf("%s: got %v, %d, %#v; want %v with %q", c.name, av, size, err, c.problem, c.detail)
		}
		if av != nil || size != 0 {
			t.Errorf("%s: refused, yet gave %v, %d", c.name, av, size)
		}
	}
	for _, c := range []struct {
		d    *derivation[struct{}]
		av   types.AttributeValue
		size int
	}{
		{s, &types.AttributeValueMemberS{Value: "12345678"}, len("GSI1PK") + 8},
		{&keysText, &types.AttributeValueMemberS{Value: "é"}, len("GSI1PK") + 2},
		{b, &types.AttributeValueMemberB{Value: []byte{0}}, len("bin") + 1},
	} {
		if av, size, err := e.checkKeyValue(c.d, c.av); err != nil || av != c.av || size != c.size {
			t.Errorf("%v: got %v, %d, %v; want it back with size %d", c.av, av, size, err, c.size)
		}
	}
	if av, _, err := e.checkKeyValue(n, &types.AttributeValueMemberN{Value: "1.50e2"}); err != nil || av.(*types.AttributeValueMemberN).Value != "150" {
		t.Errorf("a number key: got %v, %v; want its canonical form 150", av, err)
	}
}
