package keyfirst

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
)

// Number is the set of Go types a [Num] side stores.
type Number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 |
		~float32 | ~float64
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
