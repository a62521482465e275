package codec

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestItemSize(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	item := map[string]types.AttributeValue{
		"name": s("héllo"),                                                                        // 4 + 6 bytes
		"n":    &types.AttributeValueMemberN{Value: "-123.45"},                                    // 1 + (5+1)/2+1 = 5
		"b":    &types.AttributeValueMemberB{Value: []byte{1, 2, 3}},                              // 1 + 3
		"t":    &types.AttributeValueMemberBOOL{Value: true},                                      // 1 + 1
		"z":    &types.AttributeValueMemberNULL{Value: true},                                      // 1 + 1
		"ss":   &types.AttributeValueMemberSS{Value: []string{"ab", "c"}},                         // 2 + 3
		"ns":   &types.AttributeValueMemberNS{Value: []string{"1", "22"}},                         // 2 + 2 + 2
		"bs":   &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2, 3}}},                       // 2 + 3
		"l":    &types.AttributeValueMemberL{Value: []types.AttributeValue{s("x"), s("yz")}},      // 1 + 3 + 2 + 3
		"m":    &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": s("v")}}, // 1 + 3 + 1+1+1
	}
	want := 10 + 5 + 4 + 2 + 2 + 5 + 6 + 5 + 9 + 7
	if got := ItemSize(item); got != want {
		t.Fatalf("itemSize = %d, want %d", got, want)
	}
	if got := numberSize(strings.Repeat("9", 80)); got != 21 {
		t.Fatalf("numberSize caps at 21, got %d", got)
	}
	if got := valueSize(nil); got != 0 {
		t.Fatalf("valueSize(nil) = %d", got)
	}
}
