package keyfirst

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/keyfirst/keyfirst/integration"
)

// TestExpressionLimitsAsDynamoDB sends expressions on both sides of each
// limit to DynamoDB Local and checks that checkExpressions refuses exactly
// the ones DynamoDB refuses, and that it counts operators and bytes as
// DynamoDB reports them.
func TestExpressionLimitsAsDynamoDB(t *testing.T) {
	t.Parallel()
	client, table := localKeyTable(t)
	type one struct {
		ID string `dynamodbav:"id"`
	}
	e, err := NewEntity(table, EntitySpec[one]{Type: "ONE", Keys: []Binding{OnTable(Str("PK"), NoSort()).Fields("ID")}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	v := &types.AttributeValueMemberS{Value: "v"}
	reported := regexp.MustCompile(`(operator count|expression size): (\d+)`)
	// send sends the request and returns DynamoDB's refusal, if any (a
	// failed condition is an accepted expression).
	send := func(in *dynamodb.UpdateItemInput) string {
		in.TableName = aws.String(table.Name())
		in.Key = map[string]types.AttributeValue{"PK": v}
		_, err := client.UpdateItem(ctx, in)
		var ccf *types.ConditionalCheckFailedException
		var api smithy.APIError
		switch {
		case err == nil || errors.As(err, &ccf):
			return ""
		case errors.As(err, &api) && api.ErrorCode() == "ValidationException":
			return api.ErrorMessage()
		}
		t.Fatal(err)
		return ""
	}
	// compare checks one expression: the same verdict, and the count
	// DynamoDB reports when it refuses.
	var sides [2]int // how many expressions passed, and were refused
	bothSides := func(group string) {
		t.Helper()
		if sides[0] == 0 || sides[1] == 0 {
			t.Fatalf("%s: %d passed, %d refused: the range misses the limit", group, sides[0], sides[1])
		}
		sides = [2]int{}
	}
	compare := func(shape string, x built) {
		t.Helper()
		ours := e.checkExpressions("Replace", x)
		refusal := send(e.updateInput(itemPlan[one]{key: Key[one]{pk: partOf(v)}}, x, Options{}))
		if (ours == nil) != (refusal == "") {
			t.Fatalf("%s: keyfirst says %v, DynamoDB says %q", shape, ours, refusal)
		}
		if ours == nil {
			sides[0]++
		} else {
			sides[1]++
		}
		// DynamoDB reports the size of the expression, and the operator
		// count at which it stopped counting (the first beyond the limit).
		if m := reported.FindStringSubmatch(refusal); m != nil {
			n, _ := strconv.Atoi(m[2])
			c := *x.Condition()
			ops, size := countOperators(c), len(c)
			if m[1] == "expression size" && size != n || m[1] == "operator count" && (n != maxExpressionOperators+1 || ops < n) {
				t.Fatalf("%s: DynamoDB reports %s %d, keyfirst counts %d operators and %d bytes", shape, m[1], n, ops, size)
			}
		}
	}
	clauses := func(n int, absent func(i int) bool) expression.ConditionBuilder {
		conds := make([]expression.ConditionBuilder, n)
		for i := range conds {
			if absent(i) {
				conds[i] = name(fmt.Sprintf("a%d", i)).AttributeNotExists()
			} else {
				conds[i] = name(fmt.Sprintf("a%d", i)).Equal(expression.Value(v))
			}
		}
		return expression.And(conds[0], conds[1], conds[2:]...)
	}
	setOne := expression.Set(name("s"), expression.Value(v))
	for _, mix := range []struct {
		name     string
		from, to int
		absent   func(i int) bool
	}{
		{"equalities", 148, 153, func(int) bool { return false }},          // operators bind: 299 pass, 301 do not
		{"attribute_not_exists", 121, 126, func(int) bool { return true }}, // bytes bind at 124 clauses
		{"half absent", 148, 153, func(i int) bool { return i%2 == 0 }},
		{"mostly absent", 125, 150, func(i int) bool { return i%5 != 0 }},
	} {
		for n := mix.from; n <= mix.to; n++ {
			x, err := e.build(expression.NewBuilder().WithUpdate(setOne).WithCondition(clauses(n, mix.absent)))
			if err != nil {
				t.Fatal(err)
			}
			compare(fmt.Sprintf("%d %s", n, mix.name), x)
		}
		bothSides(mix.name)
	}
	for n := 378; n <= 388; n++ { // the update expression passes 4,096 bytes at 383 attributes
		ub := setOne
		for i := range n {
			if i%4 == 0 {
				ub = ub.Remove(name(fmt.Sprintf("r%d", i)))
			} else {
				ub = ub.Set(name(fmt.Sprintf("s%d", i)), expression.Value(v))
			}
		}
		x, err := e.build(expression.NewBuilder().WithUpdate(ub).WithCondition(name("PK").AttributeExists()))
		if err != nil {
			t.Fatal(err)
		}
		compare(fmt.Sprintf("update of %d attributes", n), x)
	}
	bothSides("updates")

	// Operators keyfirst does not write today, counted as DynamoDB counts
	// them: 100 or 150 clauses of each kind pass, one more does not.
	for _, op := range []struct {
		clause string
		pass   int
	}{
		{"#a BETWEEN :v AND :v", 145}, {"#a IN (:v, :v)", 150}, {"NOT #a = :v", 100}, {"size (#a) = :v", 100},
		{"#a < :v", 150}, {"#a <> :v", 150}, {"attribute_type (#a, :v)", 150}, {"begins_with (#a, :v)", 150},
	} {
		for _, n := range []int{op.pass, op.pass + 1} {
			c := strings.TrimSuffix(strings.Repeat("("+op.clause+") AND ", n), " AND ")
			ours := countOperators(c) <= maxExpressionOperators && len(c) <= maxExpressionBytes
			refusal := send(&dynamodb.UpdateItemInput{ConditionExpression: &c, UpdateExpression: aws.String("SET #a = :v"),
				ExpressionAttributeNames: map[string]string{"#a": "a"}, ExpressionAttributeValues: map[string]types.AttributeValue{":v": v}})
			if ours != (refusal == "") {
				t.Fatalf("%d x %s: %d operators, %d bytes; DynamoDB says %q", n, op.clause, countOperators(c), len(c), refusal)
			}
		}
	}
}

// localKeyTable creates, in DynamoDB Local, a table of one string partition
// key "PK" for this test.
func localKeyTable(t *testing.T) (*dynamodb.Client, *Table) {
	t.Helper()
	table, err := NewTable(TableSpec{Name: "keyed", PartitionKey: StringAttr("PK")})
	if err != nil {
		t.Fatal(err)
	}
	return integration.Client(t), integration.TableOf(t, table)
}
