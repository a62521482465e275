package keyfirst

import (
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Derive computes the value of one key attribute from an item. ok reports
// whether the item has a value: false for an index key attribute means the
// item is not in that index (a sparse index), and every write then leaves
// the attribute out (Put) or REMOVEs it (Replace). A primary key derivation
// must always report a value.
//
// Most derivations are written with the adapters [DeriveString], [DeriveStringIf], [DeriveNumber],
// [DeriveNumberIf], [DeriveBinary] and [DeriveBinaryIf] around a function of the item, typically a keys codec:
//
//	keyfirst.DeriveString(func(o Order) (string, error) { return orderSK.Encode(o.Status, o.Date) })
type Derive[T any] func(item T) (value types.AttributeValue, ok bool, err error)

// Number is the set of Go types a number derivation may return.
type Number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 |
		~float32 | ~float64
}

// DeriveString derives a string (S) attribute that every item has.
func DeriveString[T any](f func(T) (string, error)) Derive[T] {
	return func(item T) (types.AttributeValue, bool, error) {
		s, err := f(item)
		if err != nil {
			return nil, false, err
		}
		return &types.AttributeValueMemberS{Value: s}, true, nil
	}
}

// DeriveStringIf derives a string (S) attribute that only the items for which f
// reports true have: a sparse index key.
func DeriveStringIf[T any](f func(T) (string, bool, error)) Derive[T] {
	return func(item T) (types.AttributeValue, bool, error) {
		s, ok, err := f(item)
		if err != nil || !ok {
			return nil, false, err
		}
		return &types.AttributeValueMemberS{Value: s}, true, nil
	}
}

// DeriveNumber derives a number (N) attribute that every item has.
func DeriveNumber[T any, V Number](f func(T) (V, error)) Derive[T] {
	return func(item T) (types.AttributeValue, bool, error) {
		n, err := f(item)
		if err != nil {
			return nil, false, err
		}
		s, err := formatNumber(n)
		if err != nil {
			return nil, false, err
		}
		return &types.AttributeValueMemberN{Value: s}, true, nil
	}
}

// DeriveNumberIf derives a number (N) attribute that only the items for which f
// reports true have.
func DeriveNumberIf[T any, V Number](f func(T) (V, bool, error)) Derive[T] {
	return func(item T) (types.AttributeValue, bool, error) {
		n, ok, err := f(item)
		if err != nil || !ok {
			return nil, false, err
		}
		s, err := formatNumber(n)
		if err != nil {
			return nil, false, err
		}
		return &types.AttributeValueMemberN{Value: s}, true, nil
	}
}

// DeriveBinary derives a binary (B) attribute that every item has.
func DeriveBinary[T any](f func(T) ([]byte, error)) Derive[T] {
	return func(item T) (types.AttributeValue, bool, error) {
		b, err := f(item)
		if err != nil {
			return nil, false, err
		}
		return &types.AttributeValueMemberB{Value: b}, true, nil
	}
}

// DeriveBinaryIf derives a binary (B) attribute that only the items for which f
// reports true have.
func DeriveBinaryIf[T any](f func(T) ([]byte, bool, error)) Derive[T] {
	return func(item T) (types.AttributeValue, bool, error) {
		b, ok, err := f(item)
		if err != nil || !ok {
			return nil, false, err
		}
		return &types.AttributeValueMemberB{Value: b}, true, nil
	}
}

// formatNumber writes n as DynamoDB writes numbers (attributevalue's
// format); NaN and infinities have no DynamoDB form.
func formatNumber[V Number](n V) (string, error) {
	switch reflect.TypeFor[V]().Kind() {
	case reflect.Float32:
		return formatFloat(float64(n), 32)
	case reflect.Float64:
		return formatFloat(float64(n), 64)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(uint64(n), 10), nil
	}
	return strconv.FormatInt(int64(n), 10), nil
}

func formatFloat(f float64, bits int) (string, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", fmt.Errorf("%v is not a DynamoDB number", f)
	}
	return strconv.FormatFloat(f, 'f', -1, bits), nil
}
