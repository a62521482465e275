package keyfirst_test

import (
	"errors"
	"math"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

type rank int16
type score float32

func TestDeriveAdapters(t *testing.T) {
	type item struct {
		S  string
		On bool
	}
	errBoom := errors.New("boom")
	n := func(s string) types.AttributeValue { return &types.AttributeValueMemberN{Value: s} }
	tests := []struct {
		name   string
		derive keyfirst.Derive[item]
		in     item
		want   types.AttributeValue
		ok     bool
		err    error
	}{
		{"S", keyfirst.DeriveString(func(i item) (string, error) { return i.S, nil }), item{S: "a"}, sAV("a"), true, nil},
		{"S error", keyfirst.DeriveString(func(item) (string, error) { return "", errBoom }), item{}, nil, false, errBoom},
		{"SIf in", keyfirst.DeriveStringIf(func(i item) (string, bool, error) { return "OPEN", i.On, nil }), item{On: true}, sAV("OPEN"), true, nil},
		{"SIf out", keyfirst.DeriveStringIf(func(i item) (string, bool, error) { return "OPEN", i.On, nil }), item{}, nil, false, nil},
		{"SIf error", keyfirst.DeriveStringIf(func(item) (string, bool, error) { return "x", true, errBoom }), item{}, nil, false, errBoom},
		{"N int64", keyfirst.DeriveNumber(func(item) (int64, error) { return -42, nil }), item{}, n("-42"), true, nil},
		{"N uint64", keyfirst.DeriveNumber(func(item) (uint64, error) { return math.MaxUint64, nil }), item{}, n("18446744073709551615"), true, nil},
		{"N named int", keyfirst.DeriveNumber(func(item) (rank, error) { return 7, nil }), item{}, n("7"), true, nil},
		{"N float64", keyfirst.DeriveNumber(func(item) (float64, error) { return 2.5, nil }), item{}, n("2.5"), true, nil},
		{"N named float32", keyfirst.DeriveNumber(func(item) (score, error) { return 0.1, nil }), item{}, n("0.1"), true, nil},
		{"N NaN", keyfirst.DeriveNumber(func(item) (float64, error) { return math.NaN(), nil }), item{}, nil, false, nil},
		{"N +Inf", keyfirst.DeriveNumber(func(item) (float64, error) { return math.Inf(1), nil }), item{}, nil, false, nil},
		{"N error", keyfirst.DeriveNumber(func(item) (int, error) { return 0, errBoom }), item{}, nil, false, errBoom},
		{"NIf in", keyfirst.DeriveNumberIf(func(i item) (int, bool, error) { return 3, i.On, nil }), item{On: true}, n("3"), true, nil},
		{"NIf out", keyfirst.DeriveNumberIf(func(i item) (int, bool, error) { return 3, i.On, nil }), item{}, nil, false, nil},
		{"NIf NaN", keyfirst.DeriveNumberIf(func(item) (float32, bool, error) { return float32(math.NaN()), true, nil }), item{}, nil, false, nil},
		{"B", keyfirst.DeriveBinary(func(item) ([]byte, error) { return []byte{1}, nil }), item{}, &types.AttributeValueMemberB{Value: []byte{1}}, true, nil},
		{"B error", keyfirst.DeriveBinary(func(item) ([]byte, error) { return nil, errBoom }), item{}, nil, false, errBoom},
		{"BIf in", keyfirst.DeriveBinaryIf(func(i item) ([]byte, bool, error) { return []byte{2}, i.On, nil }), item{On: true}, &types.AttributeValueMemberB{Value: []byte{2}}, true, nil},
		{"BIf out", keyfirst.DeriveBinaryIf(func(i item) ([]byte, bool, error) { return []byte{2}, i.On, nil }), item{}, nil, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := tt.derive(tt.in)
			nonNumber := tt.name == "N NaN" || tt.name == "N +Inf" || tt.name == "NIf NaN"
			switch {
			case nonNumber:
				if err == nil || ok || got != nil {
					t.Fatalf("got %v %v %v, want an error", got, ok, err)
				}
			case tt.err != nil:
				if !errors.Is(err, tt.err) || ok || got != nil {
					t.Fatalf("got %v %v %v", got, ok, err)
				}
			default:
				if err != nil || ok != tt.ok || avString(got) != avString(tt.want) {
					t.Fatalf("got %s %v %v, want %s %v", avString(got), ok, err, avString(tt.want), tt.ok)
				}
			}
		})
	}
}

func avString(av types.AttributeValue) string {
	switch x := av.(type) {
	case *types.AttributeValueMemberB:
		return "B:" + string(x.Value)
	case nil:
		return "<none>"
	}
	return avText(av)
}
