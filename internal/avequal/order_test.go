package avequal

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestCompare(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	b := func(v string) types.AttributeValue { return &types.AttributeValueMemberB{Value: []byte(v)} }
	for _, c := range []struct {
		a, b types.AttributeValue
		want int
	}{
		{s("10"), s("9"), -1}, {s("a"), s("a"), 0}, {s("b"), s("a"), 1},
		{n("10"), n("9"), 1}, {n("-1"), n("-2"), 1}, {n("1.50"), n("1.5"), 0}, {n("1e2"), n("99"), 1},
		{b("\x00"), b("\xff"), -1},
		{s("x"), n("1"), -1}, {n("1"), b("x"), -1}, {nil, s("a"), -1},
	} {
		if got := Compare(c.a, c.b); got != c.want {
			t.Errorf("Compare(%v, %v) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
