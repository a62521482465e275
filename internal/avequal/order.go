package avequal

import (
	"bytes"
	"cmp"
	"math/big"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Compare orders two key values as DynamoDB orders them: strings and
// binaries by their bytes, numbers by value. Values of different types
// (which no key of one attribute holds) order by type, S < N < B, and an
// absent value first, so that the order stays total.
func Compare(a, b types.AttributeValue) int {
	switch x := a.(type) {
	case *types.AttributeValueMemberS:
		if y, ok := b.(*types.AttributeValueMemberS); ok {
			return strings.Compare(x.Value, y.Value)
		}
	case *types.AttributeValueMemberB:
		if y, ok := b.(*types.AttributeValueMemberB); ok {
			return bytes.Compare(x.Value, y.Value)
		}
	case *types.AttributeValueMemberN:
		if y, ok := b.(*types.AttributeValueMemberN); ok {
			if x.Value == y.Value {
				return 0
			}
			rx, okx := new(big.Rat).SetString(x.Value)
			ry, oky := new(big.Rat).SetString(y.Value)
			if okx && oky {
				return rx.Cmp(ry)
			}
			return strings.Compare(x.Value, y.Value)
		}
	}
	return cmp.Compare(rank(a), rank(b))
}

// rank orders the kinds of key values.
func rank(v types.AttributeValue) int {
	switch v.(type) {
	case *types.AttributeValueMemberS:
		return 1
	case *types.AttributeValueMemberN:
		return 2
	case *types.AttributeValueMemberB:
		return 3
	}
	return 0
}
