package query

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/itemsize"
)

// keyValueOK reports, in one pass over the value, that av passes every
// check of [checkValue] as a key value of type typ of at most limit bytes:
// a non-empty string of valid UTF-8, or non-empty bytes, of the
// attribute's type and within the limit. It is false for any other value,
// numbers included, which checkValue then checks one by one (and refuses
// with the reason, or accepts): a query's common values, strings, are
// checked without it.
func keyValueOK(av types.AttributeValue, typ types.ScalarAttributeType, limit int) bool {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return typ == types.ScalarAttributeTypeS && len(v.Value) > 0 && len(v.Value) <= limit && itemsize.ValidString(v.Value)
	case *types.AttributeValueMemberB:
		return typ == types.ScalarAttributeTypeB && len(v.Value) > 0 && len(v.Value) <= limit
	}
	return false
}
