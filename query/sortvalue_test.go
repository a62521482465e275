package query_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// Valued is an item whose sort keys are its fields as they are: a string
// (the table's), an id, a number and bytes (one GSI each).
type Valued struct {
	Owner string  `dynamodbav:"Owner"`
	S     string  `dynamodbav:"S"`
	I     string  `dynamodbav:"I"`
	N     float64 `dynamodbav:"N"`
	B     []byte  `dynamodbav:"B"`
}

// The valued items' sides and patterns.
var (
	valuedS    = keyfirst.Str("S")
	valuedI    = keyfirst.ID("I")
	valuedN    = keyfirst.Num[float64]("N")
	valuedB    = keyfirst.Bin("B")
	valuedByS  = keyfirst.OnTable(keyfirst.Str("Owner"), valuedS)
	valuedByI  = keyfirst.OnIndex("ByI", keyfirst.Str("Owner"), valuedI)
	valuedByN  = keyfirst.OnIndex("ByN", keyfirst.Str("Owner"), valuedN)
	valuedByB  = keyfirst.OnIndex("ByB", keyfirst.Str("Owner"), valuedB)
	valuedSpec = keyfirst.TableSpec{Name: "valued", Key: valuedByS,
		GSIs: []keyfirst.Index{valuedByI.Index(), valuedByN.Index(), valuedByB.Index()}}
)

// valuedEntity declares the valued items on table.
func valuedEntity(t testing.TB, table *keyfirst.Table) *keyfirst.Entity[Valued] {
	t.Helper()
	e, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Valued]{Type: "VALUED", Keys: []keyfirst.Binding{
		valuedByS.Fields("Owner", "S"), valuedByI.Fields("Owner", "I"),
		valuedByN.Fields("Owner", "N"), valuedByB.Fields("Owner", "B"),
	}})
	noErr(t, err)
	return e
}

// Every typed condition on a sort key stored as a value returns exactly
// the items, in the same order, that DynamoDB Local returns for its twin:
// the raw key condition written by hand with feature/dynamodb/expression
// and sent with the SDK. The values cross the orders where a careless
// encoding would differ: strings by UTF-8 bytes ("Z" < "a" < "é"),
// negative and fractional numbers by value, bytes unsigned (127 < 128).
func TestSortValueMatchesRawDynamoDB(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	client := integrationClient(t)
	table := tableFor(t, mustTable(t, valuedSpec))
	e := valuedEntity(t, table)
	ss := []string{"Z", "a", "ab", "abc", "b", "ba", "Toy Story", "Toy Story 2", "é", "ö1"}
	is := []string{"C_1", "c_1", "c_10", "c_1x", "c_2", "c_20", "d_1", "d_10", "e", "f"}
	ns := []float64{-10.5, -2, -1.25, -0.001, 0, 0.5, 1, 2.75, 10, 100}
	bs := [][]byte{{0}, {0, 1}, {1}, {1, 0}, {1, 255}, {2}, {127}, {128}, {255}, {255, 255}}
	var reqs []keyfirst.WriteRequest
	for i := range ss {
		reqs = append(reqs, e.PutRequest(Valued{Owner: "o", S: ss[i], I: is[i], N: ns[i], B: bs[i]}))
	}
	// Another partition, which no condition may reach.
	reqs = append(reqs, e.PutRequest(Valued{Owner: "p", S: "a", I: "c_1", N: 0, B: []byte{1}}))
	write(t, client, table, reqs...)

	key, val := expression.Key, expression.Value
	onS, onI, onN, onB := query.On(e, valuedByS, "o"), query.On(e, valuedByI, "o"), query.On(e, valuedByN, "o"), query.On(e, valuedByB, "o")
	for _, c := range []struct {
		name  string
		q     query.Query[Valued]
		index string // "" for the table
		cond  keyfirst.SortCond
		twin  expression.KeyConditionBuilder
	}{
		{"Str =", onS, "", valuedS.Eq("ab"), key("S").Equal(val("ab"))},
		{"Str <", onS, "", valuedS.Lt("ab"), key("S").LessThan(val("ab"))},
		{"Str <=", onS, "", valuedS.Le("ab"), key("S").LessThanEqual(val("ab"))},
		{"Str >", onS, "", valuedS.Gt("b"), key("S").GreaterThan(val("b"))},
		{"Str >=", onS, "", valuedS.Ge("b"), key("S").GreaterThanEqual(val("b"))},
		{"Str BETWEEN", onS, "", valuedS.Between("Toy", "b"), key("S").Between(val("Toy"), val("b"))},
		{"Str begins_with", onS, "", valuedS.BeginsWith("Toy Story"), key("S").BeginsWith("Toy Story")},
		{"Str begins_with of a multi-byte rune", onS, "", valuedS.BeginsWith("ö"), key("S").BeginsWith("ö")},
		{"ID =", onI, "ByI", valuedI.Eq("c_10"), key("I").Equal(val("c_10"))},
		{"ID <", onI, "ByI", valuedI.Lt("c_2"), key("I").LessThan(val("c_2"))},
		{"ID <=", onI, "ByI", valuedI.Le("c_2"), key("I").LessThanEqual(val("c_2"))},
		{"ID >", onI, "ByI", valuedI.Gt("c_20"), key("I").GreaterThan(val("c_20"))},
		{"ID >=", onI, "ByI", valuedI.Ge("c_20"), key("I").GreaterThanEqual(val("c_20"))},
		{"ID BETWEEN", onI, "ByI", valuedI.Between("c_1", "d_1"), key("I").Between(val("c_1"), val("d_1"))},
		{"ID begins_with", onI, "ByI", valuedI.BeginsWith("c_1"), key("I").BeginsWith("c_1")},
		{"Num =", onN, "ByN", valuedN.Eq(-1.25), key("N").Equal(val(-1.25))},
		{"Num <", onN, "ByN", valuedN.Lt(-1.25), key("N").LessThan(val(-1.25))},
		{"Num <=", onN, "ByN", valuedN.Le(-1.25), key("N").LessThanEqual(val(-1.25))},
		{"Num > of a negative fraction", onN, "ByN", valuedN.Gt(-0.01), key("N").GreaterThan(val(-0.01))},
		{"Num >=", onN, "ByN", valuedN.Ge(2.75), key("N").GreaterThanEqual(val(2.75))},
		{"Num BETWEEN", onN, "ByN", valuedN.Between(-2, 0.5), key("N").Between(val(-2), val(0.5))},
		{"Num BETWEEN of one value", onN, "ByN", valuedN.Between(10, 10), key("N").Between(val(10), val(10))},
		{"Bin =", onB, "ByB", valuedB.Eq([]byte{1, 0}), key("B").Equal(val([]byte{1, 0}))},
		{"Bin <", onB, "ByB", valuedB.Lt([]byte{1}), key("B").LessThan(val([]byte{1}))},
		{"Bin <=", onB, "ByB", valuedB.Le([]byte{1}), key("B").LessThanEqual(val([]byte{1}))},
		{"Bin > unsigned", onB, "ByB", valuedB.Gt([]byte{127}), key("B").GreaterThan(val([]byte{127}))},
		{"Bin >=", onB, "ByB", valuedB.Ge([]byte{128}), key("B").GreaterThanEqual(val([]byte{128}))},
		{"Bin BETWEEN", onB, "ByB", valuedB.Between([]byte{0, 1}, []byte{2}), key("B").Between(val([]byte{0, 1}), val([]byte{2}))},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.q.SortValue(c.cond).Collect(ctx, client)
			noErr(t, err)
			want := rawQuery(t, client, table.Name(), c.index, c.twin)
			// A twin that selects nothing or everything would not tell
			// a condition from its absence.
			if len(want) == 0 || len(want) == len(ss) {
				t.Fatalf("the twin selects %d of %d items: choose an operand inside the values", len(want), len(ss))
			}
			var gotS []string
			for _, v := range got {
				if v.Owner != "o" {
					t.Fatalf("an item of another partition: %+v", v)
				}
				gotS = append(gotS, v.S)
			}
			if !slices.Equal(gotS, want) {
				t.Fatalf("SortValue returned %q, DynamoDB returns %q for the raw condition", gotS, want)
			}
		})
	}
}

// rawQuery sends partition Owner = "o" and the sort condition sort to
// index (the table when "") with the SDK alone, and returns the S of the
// items DynamoDB returns, in its order.
func rawQuery(t *testing.T, client *dynamodb.Client, table, index string, sort expression.KeyConditionBuilder) []string {
	t.Helper()
	expr, err := expression.NewBuilder().WithKeyCondition(expression.Key("Owner").Equal(expression.Value("o")).And(sort)).Build()
	noErr(t, err)
	in := &dynamodb.QueryInput{TableName: aws.String(table), KeyConditionExpression: expr.KeyCondition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	var out []string
	for p := dynamodb.NewQueryPaginator(client, in); p.HasMorePages(); {
		page, err := p.NextPage(context.Background())
		noErr(t, err)
		for _, it := range page.Items {
			s, ok := it["S"].(*types.AttributeValueMemberS)
			if !ok {
				t.Fatalf("an item without S: %v", it)
			}
			out = append(out, s.Value)
		}
	}
	return out
}

// mustTable builds spec's table description.
func mustTable(t testing.TB, spec keyfirst.TableSpec) *keyfirst.Table {
	t.Helper()
	table, err := keyfirst.NewTable(spec)
	noErr(t, err)
	return table
}

// A condition that cannot select what it says is refused before any
// request, with a typed error: one of another side (even of the same
// attribute name), one of a side that takes no value conditions, a
// begins_with on a number or bytes, a BETWEEN upside down, a value or
// prefix the side refuses, and a raw condition on a sort key stored as a
// value.
func TestSortValueRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	e := valuedEntity(t, mustTable(t, valuedSpec))
	onS, onI, onN, onB := query.On(e, valuedByS, "o"), query.On(e, valuedByI, "o"), query.On(e, valuedByN, "o"), query.On(e, valuedByB, "o")
	// Sides of the same attribute names in patterns of their own.
	otherN := keyfirst.Num[float64]("N")
	otherS := keyfirst.Str("S")
	_ = keyfirst.OnIndex("ByN", keyfirst.Str("Owner"), otherN)
	_ = keyfirst.OnTable(keyfirst.Str("Owner"), otherS)
	constant := keyfirst.Const("S", "ADMIN")
	composite := keyfirst.Composite("S", keys.NewKey1(keys.ID[string](), keys.WithPrefix("S")))
	tuple := keyfirst.Tuple2(keyfirst.Str("S"), keyfirst.Num[int]("N"))
	for _, c := range []struct {
		name    string
		q       query.Query[Valued]
		problem query.Problem
		is      error // a cause errors.Is must find, if any
	}{
		{"another Num side of the same attribute", onN.SortValue(otherN.Gt(1)), query.ProblemForeignCondition, nil},
		{"another Str side of the same attribute", onS.SortValue(otherS.Eq("a")), query.ProblemForeignCondition, nil},
		{"the Str side on the ID pattern", onI.SortValue(valuedS.Eq("a")), query.ProblemForeignCondition, nil},
		{"a Const side's condition", onS.SortValue(constant.Eq(keyfirst.None{})), query.ProblemSortKey, nil},
		{"a Composite side's condition", onS.SortValue(composite.Eq("a")), query.ProblemSortKey, nil},
		{"a tuple side's condition", onS.SortValue(tuple.Eq(keys.Of2("a", 1))), query.ProblemSortKey, nil},
		{"the zero SortCond", onS.SortValue(keyfirst.SortCond{}), query.ProblemSortKey, nil},
		{"begins_with on Num", onN.SortValue(valuedN.BeginsWith("1")), query.ProblemSortKey, nil},
		{"begins_with on Bin", onB.SortValue(valuedB.BeginsWith("a")), query.ProblemSortKey, nil},
		{"Num BETWEEN upside down", onN.SortValue(valuedN.Between(0.5, -0.5)), query.ProblemSortKey, nil},
		{"Str BETWEEN upside down", onS.SortValue(valuedS.Between("b", "a")), query.ProblemSortKey, nil},
		{"ID BETWEEN upside down", onI.SortValue(valuedI.Between("d_1", "c_1")), query.ProblemSortKey, nil},
		{"Bin BETWEEN upside down", onB.SortValue(valuedB.Between([]byte{2}, []byte{1, 255})), query.ProblemSortKey, nil},
		{"an ID prefix with the separator", onI.SortValue(valuedI.BeginsWith("c#")), query.ProblemSortKey, keys.ErrSeparator},
		{"an ID value with the separator", onI.SortValue(valuedI.Eq("c#1")), query.ProblemSortKey, keys.ErrSeparator},
		{"an empty Str prefix", onS.SortValue(valuedS.BeginsWith("")), query.ProblemSortKey, nil},
		{"an empty ID prefix", onI.SortValue(valuedI.BeginsWith("")), query.ProblemSortKey, nil},
		{"a Str prefix not UTF-8", onS.SortValue(valuedS.BeginsWith("a\xff")), query.ProblemSortKey, nil},
		{"an empty Str value", onS.SortValue(valuedS.Lt("")), query.ProblemSortKey, nil},
		{"a NaN", onN.SortValue(valuedN.Ge(math.NaN())), query.ProblemSortKey, nil},
		{"a number above 1E+126", onN.SortValue(valuedN.Lt(1e200)), query.ProblemSortKey, nil},
		{"SortAttr on a Str side", onS.SortAttr(query.Attr("S").BeginsWith("Toy")), query.ProblemForeignCondition, nil},
		{"SortAttr on an ID side", onI.SortAttr(query.Attr("I").Eq(query.S("c_1"))), query.ProblemForeignCondition, nil},
		{"SortAttr on a Num side", onN.SortAttr(query.Attr("N").Gt(query.N(1))), query.ProblemForeignCondition, nil},
		{"SortAttr on a Bin side", onB.SortAttr(query.Attr("B").Lt(query.B([]byte{1}))), query.ProblemForeignCondition, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.q.Collect(context.Background(), noCalls{T: t})
			var qe *query.Error
			if !errors.As(err, &qe) || !errors.Is(err, query.ErrInvalidQuery) || qe.Problem != c.problem {
				t.Fatalf("got %v, want problem %q", err, c.problem)
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Fatalf("%v does not match %v", err, c.is)
			}
		})
	}
}
