package keyfirst_test

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// An expression prints with the names and values it stands for, on one
// line: what an Observer logs.
func ExampleRenderExpression() {
	x := "(#0 = :0) AND (#1 BETWEEN :1 AND :2)\n REMOVE #10"
	names := map[string]string{"#0": "CustomerId", "#1": "OrderStatusDate", "#10": "openBucket"}
	values := map[string]types.AttributeValue{
		":0": &types.AttributeValueMemberS{Value: "c_42"},
		":1": &types.AttributeValueMemberS{Value: "A#1"},
		":2": &types.AttributeValueMemberN{Value: "7"},
	}
	fmt.Println(keyfirst.RenderExpression(aws.String(x), names, values))
	fmt.Println(keyfirst.RenderItem(map[string]types.AttributeValue{
		"b": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "x"}, &types.AttributeValueMemberBOOL{Value: true}}},
		"a": &types.AttributeValueMemberS{Value: "1"},
	}))
	// Output:
	// (CustomerId = "c_42") AND (OrderStatusDate BETWEEN "A#1" AND 7) REMOVE openBucket
	// {a: "1", b: ["x", true]}
}
