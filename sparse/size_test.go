package sparse_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/sparse"
)

func ExampleItemSize() {
	item := map[string]types.AttributeValue{
		"PK":     &types.AttributeValueMemberS{Value: "TICKET#a91f"},          // 2 + 11
		"total":  &types.AttributeValueMemberN{Value: "123.45"},               // 5 + 4: 01 23 45, one exponent byte
		"tags":   &types.AttributeValueMemberSS{Value: []string{"vip", "eu"}}, // 4 + 5
		"closed": &types.AttributeValueMemberBOOL{Value: false},               // 6 + 1
	}
	fmt.Println(sparse.ItemSize(item))
	// Output: 38
}

// sizeProbes are values of every type whose sizes DynamoDB Local measures
// in TestItemSizeMatchesDynamoDBLocal.
var sizeProbes = map[string]types.AttributeValue{
	"S empty": sv(""), "S": sv("abc"), "S two-byte rune": sv("é"),
	"B":    &types.AttributeValueMemberB{Value: []byte{1, 2, 3}},
	"BOOL": &types.AttributeValueMemberBOOL{Value: true}, "NULL": &types.AttributeValueMemberNULL{Value: true},
	"SS":      &types.AttributeValueMemberSS{Value: []string{"abc", "de"}},
	"NS":      &types.AttributeValueMemberNS{Value: []string{"1", "123", "-1.5"}},
	"BS":      &types.AttributeValueMemberBS{Value: [][]byte{{1, 2, 3}, {4, 5}}},
	"L empty": &types.AttributeValueMemberL{Value: []types.AttributeValue{}},
	"L":       &types.AttributeValueMemberL{Value: []types.AttributeValue{sv("abc"), nv("12.5")}},
	"M empty": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}},
	"M nested": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
		"kk": sv("abc"), "l": &types.AttributeValueMemberL{Value: []types.AttributeValue{nv("-7")}}}},
}

func nv(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

func init() {
	for _, n := range []string{
		"0", "-0", "1", "12", "123", "1234", "100000", "0.001", "-5", "1e10", "1.5", "10.5", "0.5", "0.05",
		"123.45", "-1234", "1000", "1001", "101", "-0.5", "1700000000000", "1.0", "1e-130", "00012.500",
		"12345678901234567890123456789012345678", "-9.9999999999999999999999999999999999999E+125",
	} {
		sizeProbes["N "+n] = nv(n)
	}
}

// ItemSize is the size DynamoDB Local charges for: for each probe value,
// the item padded to the first size that costs 2 WCU has 1025 bytes by
// ItemSize.
func TestItemSizeMatchesDynamoDBLocal(t *testing.T) {
	t.Parallel()
	client, table := liveTable(t, mustTable(t, keyfirst.TableSpec{Name: "sizes", PartitionKey: keyfirst.StringAttr("PK")}))
	name := table.Name()
	ctx := context.Background()
	n := 0
	wcu := func(item map[string]types.AttributeValue) float64 {
		n++
		item["PK"] = sv(fmt.Sprintf("k%06d", n)) // a new item: the cost is its own size
		out, err := client.PutItem(ctx, &dynamodb.PutItemInput{
			TableName: aws.String(name), Item: item, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		})
		if err != nil {
			t.Fatal(err)
		}
		return *out.ConsumedCapacity.CapacityUnits
	}
	for label, v := range sizeProbes {
		t.Run(label, func(t *testing.T) {
			padded := func(pad int) map[string]types.AttributeValue {
				return map[string]types.AttributeValue{"PK": sv("k000000"), "x": v, "pad": sv(strings.Repeat("p", pad))}
			}
			lo, hi := 0, sparse.WriteUnit+1
			for lo < hi { // the smallest padding that costs 2 WCU
				mid := (lo + hi) / 2
				if wcu(padded(mid)) > 1 {
					hi = mid
				} else {
					lo = mid + 1
				}
			}
			if got := sparse.ItemSize(padded(lo)); got != sparse.WriteUnit+1 {
				t.Errorf("DynamoDB Local charges 2 WCU from %d bytes by ItemSize, want from %d: the value's size is off by %d",
					got, sparse.WriteUnit+1, got-(sparse.WriteUnit+1))
			}
		})
	}
}
