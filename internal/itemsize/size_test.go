package itemsize

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestItemSize(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	item := map[string]types.AttributeValue{
		"name": s("héllo"),                                                                        // 4 + 6 bytes
		"n":    &types.AttributeValueMemberN{Value: "-123.45"},                                    // 1 + 5: 01 23 45, exponent, sign
		"b":    &types.AttributeValueMemberB{Value: []byte{1, 2, 3}},                              // 1 + 3
		"t":    &types.AttributeValueMemberBOOL{Value: true},                                      // 1 + 1
		"z":    &types.AttributeValueMemberNULL{Value: true},                                      // 1 + 1
		"ss":   &types.AttributeValueMemberSS{Value: []string{"ab", "c"}},                         // 2 + 3
		"ns":   &types.AttributeValueMemberNS{Value: []string{"1", "22"}},                         // 2 + 2 + 2
		"bs":   &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2, 3}}},                       // 2 + 3
		"l":    &types.AttributeValueMemberL{Value: []types.AttributeValue{s("x"), s("yz")}},      // 1 + 3 + 2 + 3
		"m":    &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": s("v")}}, // 1 + 3 + 1+1+1
	}
	want := 10 + 6 + 4 + 2 + 2 + 5 + 6 + 5 + 9 + 7
	if got := ItemSize(item); got != want {
		t.Fatalf("ItemSize = %d, want %d", got, want)
	}
	if got := valueSize(nil); got != 0 {
		t.Fatalf("valueSize(nil) = %d", got)
	}
}

// numberSizes are sizes measured on DynamoDB Local 3.3 (by the item size at
// which a put costs a second WCU); sparse's TestItemSizeMatchesDynamoDBLocal
// measures them again.
var numberSizes = map[string]int{
	"0": 1, "1": 2, "12": 2, "123": 3, "1234": 3, "100000": 2, "0.001": 2,
	"-5": 3, "1e10": 2, "1.5": 3, "10.5": 3, "12.5": 3, "0.5": 2, "0.05": 2,
	"123.45": 4, "-1234": 4, "-1": 3, "1000": 2, "1001": 3, "10": 2, "101": 3,
	"-0.5": 3, "1700000000000": 3, "1.0": 2, "1e-130": 2,
	"12345678901234567890123456789012345678":       20,
	"9.9999999999999999999999999999999999999E+125": 20,
}

func TestNumberSize(t *testing.T) {
	for in, want := range numberSizes {
		if got, _ := numberSize(in, false); got != want {
			t.Errorf("numberSize(%q) = %d, want %d", in, got, want)
		}
	}
	// Not a number: every digit counted, as an upper bound.
	if got, _ := numberSize("12x4", false); got != 3 {
		t.Errorf("numberSize(12x4) = %d, want 3", got)
	}
}
