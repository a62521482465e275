package query

import (
	"bytes"
	"fmt"
	"reflect"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/itemsize"
)

// Value is one typed key value: a string (S), a number (N) or bytes (B),
// for a raw sort key condition ([Attr]). Build it with [S], [N] or [B]. A
// Value is immutable; one that could not be built keeps its error, which the query
// returns before any request.
type Value struct {
	av  types.AttributeValue
	err error
}

// S is a string value.
func S(v string) Value { return Value{av: &types.AttributeValueMemberS{Value: v}} }

// N is a number value. A number DynamoDB cannot store (NaN, an infinity,
// a magnitude outside 1E-130 to below 1E+126) is kept as an error.
func N[V keyfirst.Number](v V) Value {
	rv := reflect.ValueOf(v)
	var s string
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		s = strconv.FormatInt(rv.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		s = strconv.FormatUint(rv.Uint(), 10)
	default:
		s = strconv.FormatFloat(rv.Float(), 'g', -1, rv.Type().Bits())
		if _, err := itemsize.ParseNumber(s); err != nil {
			return Value{err: fmt.Errorf("query: %w", err)}
		}
	}
	return Value{av: &types.AttributeValueMemberN{Value: s}}
}

// B is a binary value; b is copied.
func B(b []byte) Value {
	return Value{av: &types.AttributeValueMemberB{Value: bytes.Clone(b)}}
}

// Type returns the value's DynamoDB type ("S", "N" or "B"), or "" for a
// value that could not be built (or the zero Value).
func (v Value) Type() types.ScalarAttributeType { return avType(v.av) }

// String renders the value for messages, as in S:"CUST#c1".
func (v Value) String() string {
	if v.err != nil {
		return "error: " + v.err.Error()
	}
	return avString(v.av)
}

// avType is the scalar type of a key attribute value ("" for any other).
func avType(av types.AttributeValue) types.ScalarAttributeType {
	switch av.(type) {
	case *types.AttributeValueMemberS:
		return types.ScalarAttributeTypeS
	case *types.AttributeValueMemberN:
		return types.ScalarAttributeTypeN
	case *types.AttributeValueMemberB:
		return types.ScalarAttributeTypeB
	}
	return ""
}

// avString renders a scalar attribute value as TYPE:"value".
func avString(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return "S:" + strconv.Quote(v.Value)
	case *types.AttributeValueMemberN:
		return "N:" + v.Value
	case *types.AttributeValueMemberB:
		return fmt.Sprintf("B:%x", v.Value)
	case nil:
		return "(none)"
	}
	return fmt.Sprintf("%T", av)
}

// avEmpty reports an empty S or B value, which DynamoDB refuses in a key.
func avEmpty(av types.AttributeValue) bool {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value == ""
	case *types.AttributeValueMemberB:
		return len(v.Value) == 0
	}
	return false
}

// avLen is the size of a key value in bytes (the limits are on S and B).
func avLen(av types.AttributeValue) int {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberB:
		return len(v.Value)
	}
	return 0
}

// avProblem says why DynamoDB would refuse or change a key value: a
// string that is not valid UTF-8 (the SDK would send U+FFFD for each
// invalid byte, another key), a number DynamoDB does not store. It is ""
// for a good value.
func avProblem(av types.AttributeValue) string {
	if _, err := itemsize.Check("", av); err != nil {
		return err.Error()
	}
	return ""
}

// avEqual reports whether two scalar key values are equal as DynamoDB
// compares them: strings and bytes exactly, numbers by value.
func avEqual(a, b types.AttributeValue) bool {
	switch x := a.(type) {
	case *types.AttributeValueMemberS:
		y, ok := b.(*types.AttributeValueMemberS)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberB:
		y, ok := b.(*types.AttributeValueMemberB)
		return ok && bytes.Equal(x.Value, y.Value)
	case *types.AttributeValueMemberN:
		y, ok := b.(*types.AttributeValueMemberN)
		if !ok {
			return false
		}
		if x.Value == y.Value {
			return true
		}
		dx, okx := itemsize.ParseDecimal(x.Value)
		dy, oky := itemsize.ParseDecimal(y.Value)
		return okx && oky && dx.Equal(dy)
	}
	return false
}
