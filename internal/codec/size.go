package codec

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// ItemSize estimates an item's size as DynamoDB counts it (attribute names
// plus values; numbers about one byte per two significant digits plus one;
// 3 bytes of overhead per list or map and 1 per element). It errs on the
// large side, so an item it accepts is accepted by DynamoDB.
func ItemSize(item map[string]types.AttributeValue) int {
	n := 0
	for name, av := range item {
		n += Size(name, av)
	}
	return n
}

// Size is the size of one attribute, name and value, as ItemSize counts it.
func Size(name string, av types.AttributeValue) int { return len(name) + valueSize(av) }

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
		n := 0
		for _, s := range x.Value {
			n += len(s)
		}
		return n
	case *types.AttributeValueMemberNS:
		n := 0
		for _, s := range x.Value {
			n += numberSize(s)
		}
		return n
	case *types.AttributeValueMemberBS:
		n := 0
		for _, b := range x.Value {
			n += len(b)
		}
		return n
	case *types.AttributeValueMemberL:
		n := 3
		for _, e := range x.Value {
			n += 1 + valueSize(e)
		}
		return n
	case *types.AttributeValueMemberM:
		n := 3
		for k, e := range x.Value {
			n += 1 + len(k) + valueSize(e)
		}
		return n
	}
	return 0
}

// numberSize: one byte per two digits, plus one; at most 21 bytes.
func numberSize(s string) int {
	digits := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			digits++
		}
	}
	return min((digits+1)/2+1, 21)
}
