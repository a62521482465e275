package itemsize

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// ItemSize returns the size of an item as DynamoDB counts it:
//
//   - every attribute costs the UTF-8 bytes of its name plus its value;
//   - a string costs its UTF-8 bytes, a binary its bytes, a boolean or
//     NULL 1 byte;
//   - a number costs [Decimal.Size]: 1 byte plus one byte per pair of
//     significant digits, pairs aligned on the decimal point, plus 1 byte
//     when negative;
//   - a set costs the sum of its elements; a list or map costs 3 bytes plus,
//     per element, 1 byte, the element's size and, in a map, its key's
//     bytes.
//
// A number that is not valid counts as if each of its digits were
// significant (DynamoDB refuses it anyway).
func ItemSize(item map[string]types.AttributeValue) int {
	n := 0
	for name, av := range item {
		n += Size(name, av)
	}
	return n
}

// Size is the size of one attribute, name and value, as [ItemSize] counts
// it.
func Size(name string, av types.AttributeValue) int { return len(name) + valueSize(av) }

// valueSize is the size of one attribute value; nil (and an unknown union
// member) is 0.
func valueSize(av types.AttributeValue) int {
	n, _ := measure(av, false, 0)
	return n
}
