package keyfirst

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestEqualValuesAsDynamoDB holds sameAttributes (avequal.Equal), with
// which Modify tells contention from a condition that cannot hold, to
// DynamoDB's = on DynamoDB Local: each value is stored, read back, and
// compared with the other in a condition.
func TestEqualValuesAsDynamoDB(t *testing.T) {
	t.Parallel()
	client, table := localKeyTable(t)
	name := table.Name()
	ctx := context.Background()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	m := func(kv ...any) types.AttributeValue {
		out := map[string]types.AttributeValue{}
		for i := 0; i < len(kv); i += 2 {
			out[kv[i].(string)] = kv[i+1].(types.AttributeValue)
		}
		return &types.AttributeValueMemberM{Value: out}
	}
	l := func(v ...types.AttributeValue) types.AttributeValue { return &types.AttributeValueMemberL{Value: v} }
	ss := func(v ...string) types.AttributeValue { return &types.AttributeValueMemberSS{Value: v} }
	ns := func(v ...string) types.AttributeValue { return &types.AttributeValueMemberNS{Value: v} }
	bs := func(v ...[]byte) types.AttributeValue { return &types.AttributeValueMemberBS{Value: v} }
	b := func(v ...byte) types.AttributeValue {
		return &types.AttributeValueMemberB{Value: append([]byte{}, v...)}
	}
	null := &types.AttributeValueMemberNULL{Value: true}
	pairs := []struct{ stored, other types.AttributeValue }{
		{s("a"), s("a")}, {s("a"), s("b")}, {s(""), s("")}, {s("1"), n("1")},
		{n("1.50"), n("1.5")}, {n("1.50"), n("001.5000")}, {n("1E3"), n("1000")}, {n("-0.0"), n("0")}, {n("1"), n("2")},
		{b(1, 2), b(1, 2)}, {b(1, 2), b(2, 1)}, {b(), b()},
		{&types.AttributeValueMemberBOOL{Value: true}, &types.AttributeValueMemberBOOL{Value: true}},
		{&types.AttributeValueMemberBOOL{Value: true}, &types.AttributeValueMemberBOOL{Value: false}},
		{null, null}, {null, s("")},
		{ss("z", "a", "m"), ss("a", "m", "z")}, {ss("a", "b"), ss("a")}, {ss("a", "b"), ss("a", "c")},
		{ns("10", "1.5", "-3"), ns("1.50", "-3", "1E1")}, {ns("1", "2"), ns("1", "3")},
		{bs([]byte{3}, []byte{1}), bs([]byte{1}, []byte{3})}, {bs([]byte{3}), bs([]byte{4})},
		{l(n("1"), s("x")), l(n("1.0"), s("x"))}, {l(n("1"), s("x")), l(s("x"), n("1"))}, {l(), l()}, {l(), m()},
		{m("x", ns("3", "2", "1"), "y", null), m("y", null, "x", ns("1", "2", "3"))},
		{m("x", s("a")), m("x", s("a"), "y", s("b"))}, {m("x", s("a")), m("y", s("a"))}, {m(), m()},
		{m("l", l(m("k", ss("b", "a")))), m("l", l(m("k", ss("a", "b"))))},
	}
	key := map[string]types.AttributeValue{"PK": s("k")}
	equal, unequal := 0, 0
	for i, p := range pairs {
		shape := fmt.Sprintf("pair %d: %v = %v", i, p.stored, p.other)
		if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: &name,
			Item: map[string]types.AttributeValue{"PK": s("k"), "a": p.stored}}); err != nil {
			t.Fatal(shape, err)
		}
		out, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: &name, Key: key, ConsistentRead: aws.Bool(true)})
		if err != nil {
			t.Fatal(shape, err)
		}
		_, err = client.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: &name, Key: key,
			UpdateExpression: aws.String("SET #b = :b"), ConditionExpression: aws.String("#a = :a"),
			ExpressionAttributeNames:  map[string]string{"#a": "a", "#b": "b"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":a": p.other, ":b": s("b")}})
		var ccf *types.ConditionalCheckFailedException
		if err != nil && !errors.As(err, &ccf) {
			t.Fatal(shape, err)
		}
		dynamo := err == nil
		if got := sameAttributes([]string{"a", "absent"}, out.Item, map[string]types.AttributeValue{"a": p.other}); got != dynamo {
			t.Fatalf("%s: keyfirst says %v, DynamoDB says %v", shape, got, dynamo)
		}
		if dynamo {
			equal++
		} else {
			unequal++
		}
	}
	if equal == 0 || unequal == 0 {
		t.Fatalf("%d equal and %d unequal pairs", equal, unequal)
	}
	if sameAttributes([]string{"a"}, map[string]types.AttributeValue{"a": s("x")}, nil) {
		t.Fatal("an attribute that is gone is a change")
	}
}
