package keyfirst

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Every expression keyfirst builds checks its values as it is built, so
// that a kind of write whose values are not checked where they enter
// still sends none DynamoDB would refuse or change; of several bad
// values, the first placeholder's is reported.
func TestBuildChecksEveryValue(t *testing.T) {
	table, err := NewTable(TableSpec{Name: "values", PartitionKey: StringAttr("PK")})
	if err != nil {
		t.Fatal(err)
	}
	type one struct {
		ID string `dynamodbav:"id"`
	}
	e, err := NewEntity(table, EntitySpec[one]{Type: "ONE", Keys: []Binding{OnTable(Str("PK"), NoSort()).Fields("ID")}})
	if err != nil {
		t.Fatal(err)
	}
	deep := types.AttributeValue(&types.AttributeValueMemberS{Value: "x"})
	for range MaxNesting + 1 {
		deep = &types.AttributeValueMemberL{Value: []types.AttributeValue{deep}}
	}
	cases := []struct {
		name    string
		b       expression.Builder
		problem ItemProblem
		detail  string
	}{
		{"condition", expression.NewBuilder().WithCondition(name("a").Equal(expression.Value("\xff"))), ItemBadString, `"\xff"`},
		{"update", expression.NewBuilder().WithUpdate(expression.Set(name("a"), expression.Value(math.NaN()))), ItemBadNumber, "NaN"},
		{"nested", expression.NewBuilder().WithCondition(name("a").Equal(expression.Value(deep))), ItemTooDeep, "32 levels"},
		{"first of several", expression.NewBuilder().WithCondition(expression.And(
			name("a").Equal(expression.Value("ok")), name("b").Equal(expression.Value(1)),
			name("c").Equal(expression.Value("\xfe")), name("d").Equal(expression.Value("\xfd")),
			name("e").Equal(expression.Value(1)), name("f").Equal(expression.Value(1)), name("g").Equal(expression.Value(1)),
			name("h").Equal(expression.Value(1)), name("i").Equal(expression.Value(1)), name("j").Equal(expression.Value(1)),
			name("k").Equal(expression.Value("\xfc")))), ItemBadString, `"\xfe"`}, // :2, not :10
	}
	for _, tc := range cases {
		_, err := e.build(tc.b)
		var ie *ItemError
		if !errors.As(err, &ie) || ie.Problem != tc.problem || !strings.Contains(ie.Detail, tc.detail) {
			t.Errorf("%s: %v, want an *ItemError %q naming %s", tc.name, err, tc.problem, tc.detail)
		}
	}
	if _, err := e.build(expression.NewBuilder().WithCondition(name("a").Equal(expression.Value("\uFFFD")))); err != nil {
		t.Fatalf("a valid value: %v", err)
	}
}
