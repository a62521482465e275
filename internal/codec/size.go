package codec

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/itemsize"
)

// The size [itemsize.Check] gives an attribute of a fast kind is decided
// by the kind where encodeAt makes its value (a string checked as UTF-8,
// an integer's digits, always a number DynamoDB takes, a time's ASCII
// text, a boolean, a NULL, a list of strings), without measuring the
// value made: encodeAt returns it. The rest (a float's number, whose
// magnitude Check bounds, a string that is not valid UTF-8, for Check's
// error, binaries, sets and the slow kinds) it leaves to Check, which
// checkedSize calls.

// stringSize is the size of the attribute of field f holding s, 0 when s
// is not valid UTF-8 (Check refuses it).
func (f *field) stringSize(s string) int {
	if !itemsize.ValidString(s) {
		return 0
	}
	return len(f.Name) + len(s)
}

// listSize is the size of the attribute of field f holding the list of
// strings ss, as itemsize measures a list (3 bytes, and 1 per element),
// 0 when one of them is not valid UTF-8.
func (f *field) listSize(ss []string) int {
	n := len(f.Name) + 3 + len(ss)
	for _, s := range ss {
		if !itemsize.ValidString(s) {
			return 0
		}
		n += len(s)
	}
	return n
}

// checkedSize is the size of the attribute of field f whose value av
// encodeAt or encodeSlow made: known, the size encodeAt returned, or
// [itemsize.Check]'s when it is 0.
func (f *field) checkedSize(av types.AttributeValue, known int) (int, error) {
	if known > 0 {
		return known, nil
	}
	return itemsize.Check(f.Name, av)
}
