// Package avequal compares DynamoDB attribute values as DynamoDB's =
// does: numbers by value, sets in any order, lists and maps element by
// element. sparse uses it to see which attributes a write changes, the
// root package to tell a Modify conflict from a condition that cannot
// hold.
package avequal

import (
	"bytes"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/itemsize"
)

// Equal reports whether two attribute values are the same as
// DynamoDB sees them: numbers compare by value ("1.0" is "1"), sets ignore
// order, lists and maps compare element by element. nil (absent) equals
// only nil.
func Equal(a, b types.AttributeValue) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case *types.AttributeValueMemberS:
		y, ok := b.(*types.AttributeValueMemberS)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberN:
		y, ok := b.(*types.AttributeValueMemberN)
		return ok && equalNumbers(x.Value, y.Value)
	case *types.AttributeValueMemberB:
		y, ok := b.(*types.AttributeValueMemberB)
		return ok && bytes.Equal(x.Value, y.Value)
	case *types.AttributeValueMemberBOOL:
		y, ok := b.(*types.AttributeValueMemberBOOL)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberNULL:
		_, ok := b.(*types.AttributeValueMemberNULL)
		return ok
	case *types.AttributeValueMemberSS:
		y, ok := b.(*types.AttributeValueMemberSS)
		return ok && sameSet(x.Value, y.Value, func(p, q string) bool { return p == q }, stringKey)
	case *types.AttributeValueMemberNS:
		y, ok := b.(*types.AttributeValueMemberNS)
		return ok && sameSet(x.Value, y.Value, equalNumbers, itemsize.NumberKey)
	case *types.AttributeValueMemberBS:
		y, ok := b.(*types.AttributeValueMemberBS)
		return ok && sameSet(x.Value, y.Value, bytes.Equal, bytesKey)
	case *types.AttributeValueMemberL:
		y, ok := b.(*types.AttributeValueMemberL)
		if !ok || len(x.Value) != len(y.Value) {
			return false
		}
		for i := range x.Value {
			if !Equal(x.Value[i], y.Value[i]) {
				return false
			}
		}
		return true
	case *types.AttributeValueMemberM:
		y, ok := b.(*types.AttributeValueMemberM)
		return ok && EqualMaps(x.Value, y.Value)
	}
	return false
}

// EqualMaps compares two attribute maps (items, or M values).
func EqualMaps(a, b map[string]types.AttributeValue) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !Equal(v, w) {
			return false
		}
	}
	return true
}

// equalNumbers compares two numbers by value; texts that are not numbers
// compare as text.
func equalNumbers(a, b string) bool {
	if a == b {
		return true
	}
	x, okx := itemsize.ParseDecimal(a)
	y, oky := itemsize.ParseDecimal(b)
	return okx && oky && x.Equal(y)
}

// sameSet reports whether a and b hold the same elements, in any order.
// DynamoDB sets have no duplicates. Small sets are compared pairwise, large
// ones through a map of canonical keys.
func sameSet[E any](a, b []E, eq func(E, E) bool, key func(E) string) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) > smallSet {
		seen := make(map[string]bool, len(a))
		for _, x := range a {
			seen[key(x)] = true
		}
		for _, y := range b {
			if !seen[key(y)] {
				return false
			}
		}
		return true
	}
outer:
	for _, x := range a {
		for _, y := range b {
			if eq(x, y) {
				continue outer
			}
		}
		return false
	}
	return true
}

// smallSet is the size up to which sets are compared pairwise.
const smallSet = 16

func stringKey(s string) string { return s }

func bytesKey(b []byte) string { return string(b) }
