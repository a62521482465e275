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
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		return len(x.Value)
	case *types.AttributeValueMemberN:
		return numberSize(x.Value)
	case *types.AttributeValueMemberB:
		return len(x.Value)
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return 1
	case *types.AttributeValueMemberSS:
		return sum(x.Value, func(s string) int { return len(s) })
	case *types.AttributeValueMemberNS:
		return sum(x.Value, numberSize)
	case *types.AttributeValueMemberBS:
		return sum(x.Value, func(b []byte) int { return len(b) })
	case *types.AttributeValueMemberL:
		return 3 + sum(x.Value, func(e types.AttributeValue) int { return 1 + valueSize(e) })
	case *types.AttributeValueMemberM:
		n := 3
		for k, e := range x.Value {
			n += 1 + len(k) + valueSize(e)
		}
		return n
	}
	return 0
}

// sum adds size(e) over the elements of s.
func sum[E any](s []E, size func(E) int) int {
	n := 0
	for _, e := range s {
		n += size(e)
	}
	return n
}

// numberSize is the stored size of the number s.
func numberSize(s string) int {
	d, ok := ParseDecimal(s)
	if !ok {
		digits := 0
		for i := 0; i < len(s); i++ {
			if s[i] >= '0' && s[i] <= '9' {
				digits++
			}
		}
		return (digits+1)/2 + 1
	}
	return d.Size()
}
