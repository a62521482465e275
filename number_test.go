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

// A Num side writes every Go number kind as DynamoDB writes numbers
// (attributevalue's format) and refuses NaN and the infinities, which
// have no DynamoDB form, with a *PatternError (PatternValue).
func TestNumSideFormatsEveryKind(t *testing.T) {
	n := func(s string) types.AttributeValue { return &types.AttributeValueMemberN{Value: s} }
	values := func(av []types.AttributeValue, err error) (types.AttributeValue, error) {
		if err != nil {
			return nil, err
		}
		return av[0], nil
	}
	tests := []struct {
		name string
		got  func() ([]types.AttributeValue, error)
		want types.AttributeValue // nil: refused
	}{
		{"int64", func() ([]types.AttributeValue, error) {
			return keyfirst.OnTable(keyfirst.Num[int64]("N"), keyfirst.NoSort()).PartitionValues(-42)
		}, n("-42")},
		{"uint64", func() ([]types.AttributeValue, error) {
			return keyfirst.OnTable(keyfirst.Num[uint64]("N"), keyfirst.NoSort()).PartitionValues(math.MaxUint64)
		}, n("18446744073709551615")},
		{"named int", func() ([]types.AttributeValue, error) {
			return keyfirst.OnTable(keyfirst.Num[rank]("N"), keyfirst.NoSort()).PartitionValues(7)
		}, n("7")},
		{"float64", func() ([]types.AttributeValue, error) {
			return keyfirst.OnTable(keyfirst.Num[float64]("N"), keyfirst.NoSort()).PartitionValues(2.5)
		}, n("2.5")},
		{"named float32", func() ([]types.AttributeValue, error) {
			return keyfirst.OnTable(keyfirst.Num[score]("N"), keyfirst.NoSort()).PartitionValues(0.1)
		}, n("0.1")},
		{"NaN", func() ([]types.AttributeValue, error) {
			return keyfirst.OnTable(keyfirst.Num[float64]("N"), keyfirst.NoSort()).PartitionValues(math.NaN())
		}, nil},
		{"+Inf", func() ([]types.AttributeValue, error) {
			return keyfirst.OnTable(keyfirst.Num[float64]("N"), keyfirst.NoSort()).PartitionValues(math.Inf(1))
		}, nil},
		{"float32 NaN", func() ([]types.AttributeValue, error) {
			return keyfirst.OnTable(keyfirst.Num[float32]("N"), keyfirst.NoSort()).PartitionValues(float32(math.NaN()))
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := values(tt.got())
			if tt.want == nil {
				var pe *keyfirst.PatternError
				if !errors.As(err, &pe) || pe.Problem != keyfirst.PatternValue || got != nil {
					t.Fatalf("got %v, %v, want a PatternValue *PatternError", got, err)
				}
				return
			}
			if err != nil || avString(got) != avString(tt.want) {
				t.Fatalf("got %s, %v, want %s", avString(got), err, avString(tt.want))
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
