package keyfirst

import (
	"bytes"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/itemsize"
)

// sameAttributes reports whether items a and b hold the same values, as
// DynamoDB's = compares them, for each of names (absent in both counts as
// the same).
func sameAttributes(names []string, a, b map[string]types.AttributeValue) bool {
	for _, n := range names {
		x, inA := a[n]
		y, inB := b[n]
		if inA != inB || inA && !equalValues(x, y) {
			return false
		}
	}
	return true
}

// equalValues is DynamoDB's = on two attribute values: numbers compare by
// value, sets regardless of order, lists and maps element by element.
func equalValues(x, y types.AttributeValue) bool {
	switch x := x.(type) {
	case *types.AttributeValueMemberS:
		y, ok := y.(*types.AttributeValueMemberS)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberN:
		y, ok := y.(*types.AttributeValueMemberN)
		return ok && canonicalNumber(x.Value) == canonicalNumber(y.Value)
	case *types.AttributeValueMemberB:
		y, ok := y.(*types.AttributeValueMemberB)
		return ok && bytes.Equal(x.Value, y.Value)
	case *types.AttributeValueMemberBOOL:
		y, ok := y.(*types.AttributeValueMemberBOOL)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberNULL:
		_, ok := y.(*types.AttributeValueMemberNULL)
		return ok
	case *types.AttributeValueMemberSS:
		y, ok := y.(*types.AttributeValueMemberSS)
		return ok && sameSet(x.Value, y.Value, func(s string) string { return s })
	case *types.AttributeValueMemberNS:
		y, ok := y.(*types.AttributeValueMemberNS)
		return ok && sameSet(x.Value, y.Value, canonicalNumber)
	case *types.AttributeValueMemberBS:
		y, ok := y.(*types.AttributeValueMemberBS)
		return ok && sameSet(x.Value, y.Value, func(b []byte) string { return string(b) })
	case *types.AttributeValueMemberL:
		y, ok := y.(*types.AttributeValueMemberL)
		return ok && slices.EqualFunc(x.Value, y.Value, equalValues)
	case *types.AttributeValueMemberM:
		y, ok := y.(*types.AttributeValueMemberM)
		if !ok || len(x.Value) != len(y.Value) {
			return false
		}
		for k, v := range x.Value {
			if w, has := y.Value[k]; !has || !equalValues(v, w) {
				return false
			}
		}
		return true
	}
	return false
}

// sameSet reports whether two sets hold the same elements, each element
// compared by its key.
func sameSet[E any](x, y []E, key func(E) string) bool {
	if len(x) != len(y) {
		return false
	}
	keys := func(s []E) []string {
		out := make([]string, len(s))
		for i, e := range s {
			out[i] = key(e)
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(keys(x), keys(y))
}

// canonicalNumber is the text of a number in which equal numbers are
// equal texts (a number DynamoDB would not take stays as written).
func canonicalNumber(s string) string {
	if d, ok := itemsize.ParseDecimal(s); ok {
		return d.Canonical()
	}
	return s
}
