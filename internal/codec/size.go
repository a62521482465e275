package codec

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/itemsize"
)

// knownSize is the size [itemsize.Check] gives the attribute of field f
// whose value av encodeAt made, computed from what f's kind makes rather
// than by measuring av: a string checked as UTF-8, an integer's digits
// (always a number DynamoDB takes), a time's ASCII text, a boolean, a list
// of strings. false leaves av to Check: a float (whose magnitude Check
// bounds), a string that is not valid UTF-8 (for Check's error), and the
// other kinds.
func (f *field) knownSize(av types.AttributeValue) (int, bool) {
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		switch f.kind {
		case kString:
			if !itemsize.ValidString(x.Value) {
				return 0, false
			}
		case kInt, kUint, kFloat, kTime: // ASCII texts: a number as a string, RFC 3339
		default:
			return 0, false
		}
		return len(f.Name) + len(x.Value), true
	case *types.AttributeValueMemberN:
		if f.kind != kInt && f.kind != kUint && f.kind != kTime { // a float's range is Check's
			return 0, false
		}
		return len(f.Name) + itemsize.IntegerSize(x.Value), true
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		if f.kind == kSlow {
			return 0, false
		}
		return len(f.Name) + 1, true
	case *types.AttributeValueMemberL:
		if f.kind != kStrings {
			return 0, false
		}
		n := 3 + len(x.Value) // as itemsize measures a list: 1 byte per element
		for _, e := range x.Value {
			s, ok := e.(*types.AttributeValueMemberS)
			if !ok || !itemsize.ValidString(s.Value) {
				return 0, false
			}
			n += len(s.Value)
		}
		return len(f.Name) + n, true
	}
	return 0, false
}

// checkedSize is [itemsize.Check] of the attribute of field f whose value
// av encodeAt or encodeSlow made, through knownSize when it knows it.
func (f *field) checkedSize(av types.AttributeValue) (int, error) {
	if n, ok := f.knownSize(av); ok {
		return n, nil
	}
	return itemsize.Check(f.Name, av)
}
