package query

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

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
