package sparse

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/itemsize"
)

// WriteUnit is the size one write capacity unit (WCU) writes: 1 KB.
// A write of n bytes costs ceil(n / WriteUnit) WCUs.
const WriteUnit = 1024

// MaxItemSize is DynamoDB's item size limit, 400 KB (the root package's
// [keyfirst.MaxItemSize]).
const MaxItemSize = keyfirst.MaxItemSize

// ItemSize returns the size of an item as DynamoDB counts it for capacity
// and for the 400 KB limit, by the rules of its developer guide, each of
// which was checked against DynamoDB Local 3.3:
//
//   - every attribute costs the UTF-8 bytes of its name plus its value;
//   - a string costs its UTF-8 bytes, a binary its bytes, a boolean or
//     NULL 1 byte;
//   - a number costs 1 byte plus one byte per pair of significant digits,
//     pairs aligned on the decimal point (DynamoDB stores base-100 digits),
//     plus 1 byte when negative: 1 and 12 cost 2, 1.5 and 123 cost 3, 0
//     costs 1, -1 costs 3 (the "significant digits / 2 + 1" of the
//     documentation, exact);
//   - a set costs the sum of its elements; a list or map costs 3 bytes plus,
//     per element, 1 byte, the element's size and, in a map, its key's
//     bytes.
//
// A number that is not valid counts as if each of its digits were
// significant. [Estimator.Estimate] refuses invalid numbers instead.
func ItemSize(item map[string]types.AttributeValue) int {
	return itemsize.ItemSize(item)
}
