package txn_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/txn"
)

// Issue 21, item 4: the values of a caller's condition are checked as
// item values are. A condition If(name = "\xff") was sent, the SDK turned
// the invalid byte into U+FFFD, it matched a stored "\uFFFD" and the
// write went through; a NaN reached DynamoDB (ValidationException). The
// conditions are keyfirst.Cond now, on Go fields, their values converted
// to the field's type: the raw values go through Badge.Code, of type any.

// nestedLists is n lists one inside the other around "x", raw.
func nestedLists(n int) types.AttributeValue {
	var av types.AttributeValue = &types.AttributeValueMemberS{Value: "x"}
	for range n {
		av = &types.AttributeValueMemberL{Value: []types.AttributeValue{av}}
	}
	return av
}

// nested is n Go lists one inside the other around "x", which encode as
// nestedLists(n).
func nested(n int) any {
	var v any = "x"
	for range n {
		v = []any{v}
	}
	return v
}

// badConditionValues are values DynamoDB would refuse or change, each in
// a condition on a field of Badge: Code, of type any, or Num, an
// attributevalue.Number.
var badConditionValues = map[string]keyfirst.Cond{
	"invalid UTF-8":           keyfirst.Field("Code").Eq("\xff"),
	"NaN":                     keyfirst.Field("Code").Eq(math.NaN()),
	"+Inf":                    keyfirst.Field("Code").Ne(math.Inf(1)),
	"1e200":                   keyfirst.Field("Code").Eq(1e200),
	"39 digits":               keyfirst.Field("Num").Eq(attributevalue.Number("123456789012345678901234567890123456789")),
	"not a number":            keyfirst.Field("Num").Eq(attributevalue.Number("12a")),
	"invalid UTF-8 map key":   keyfirst.Field("Code").Eq(map[string]string{"\xfe": "v"}),
	"invalid UTF-8 in a list": keyfirst.Not(keyfirst.Field("Code").Eq([]string{"ok", "\xff"})),
	"nested too deep":         keyfirst.Or(keyfirst.Field("Long").Exists(), keyfirst.Field("Code").Eq(nested(keyfirst.MaxNesting))),
}

// conditionActions are the actions that take a condition, on badges (the
// unique value on long) or users (the unique value on email).
func conditionActions[T any](t *testing.T, e *keyfirst.Entity[T], attr string, v, created, changed T, cond keyfirst.Cond) map[string]txn.Action {
	u := keyfirst.Must(txn.NewUnique(e, attr))
	return map[string]txn.Action{
		"Put":           txn.Put(e, v, txn.If(cond)),
		"Create":        txn.Create(e, created, txn.If(cond)),
		"Replace":       txn.Replace(e, v, txn.If(cond)),
		"Delete":        txn.Delete(e, v, txn.If(cond)),
		"Check":         txn.Check(e, mustKey(t, e, v), cond),
		"Check, And":    txn.Check(e, mustKey(t, e, v), keyfirst.And(keyfirst.Field("ID").Exists(), cond)),
		"Unique.Create": u.Create(created, txn.If(cond)),
		"Unique.Change": u.Change(v, changed, txn.If(cond)),
		"Unique.Delete": u.Delete(v, txn.If(cond)),
	}
}

// refusedBeforeAnyRequest fails the test unless each action fails, before
// any request, with an *ActionError at position 0 that check accepts.
func refusedBeforeAnyRequest(t *testing.T, name string, actions map[string]txn.Action, check func(error) bool) {
	for action, a := range actions {
		t.Run(name+"/"+action, func(t *testing.T) {
			err := txn.Write(context.Background(), noCalls{T: t}, []txn.Action{a})
			var ae *txn.ActionError
			if !check(err) || !errors.As(err, &ae) || ae.Position != 0 {
				t.Fatalf("%v, want an *ActionError at 0 for the condition", err)
			}
		})
	}
}

// Every action that takes a condition refuses a bad value in it, before
// any request: a value DynamoDB would refuse or change with an
// *OptionError on its Condition, a value of the wrong type for its field
// (or out of its range), or a field named by its attribute rather than
// in Go, with the *UpdateError of the partial update's conditions.
func TestConditionValuesAreRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	onCondition := func(err error) bool {
		var oe *keyfirst.OptionError
		return errors.As(err, &oe) && oe.Option == "Condition" && errors.Is(err, keyfirst.ErrInvalidOption)
	}
	b := Badge{ID: "b1", Long: "l1"}
	for name, bad := range badConditionValues {
		refusedBeforeAnyRequest(t, name, conditionActions(t, badgesBy["Long"], "Long", b, Badge{ID: "b2", Long: "l2"}, Badge{ID: "b1", Long: "l3"}, bad), onCondition)
	}
	update := func(p keyfirst.UpdateProblem) func(error) bool {
		return func(err error) bool {
			var ue *keyfirst.UpdateError
			return errors.As(err, &ue) && ue.Problem == p
		}
	}
	u := User{ID: "u1", Email: "ann@example.com", Name: "Ann", Version: 1}
	for name, c := range map[string]struct {
		cond  keyfirst.Cond
		check func(error) bool
	}{
		"invalid UTF-8 for a string":   {keyfirst.Field("Name").Eq("\xff"), onCondition},
		"invalid UTF-8, Ne":            {keyfirst.Not(keyfirst.Field("Name").Ne("\xff")), onCondition},
		"a number for a string":        {keyfirst.Field("Name").Eq(5), update(keyfirst.UpdateValueType)},
		"a string for a number":        {keyfirst.Field("Version").Ge("1"), update(keyfirst.UpdateValueType)},
		"beyond the field's range":     {keyfirst.Field("Version").Lt(uint64(math.MaxUint64)), update(keyfirst.UpdateValueType)},
		"a fraction for an integer":    {keyfirst.Field("Version").Eq(1.5), update(keyfirst.UpdateValueType)},
		"the attribute name, not Go's": {keyfirst.Field("name").Exists(), update(keyfirst.UpdateUnknownField)},
	} {
		refusedBeforeAnyRequest(t, name, conditionActions(t, users, "Email", u, User{ID: "u2", Email: "b@example.com"},
			User{ID: "u1", Email: "ann@example.org", Name: "Ann", Version: 1}, c.cond), c.check)
	}
	// Run builds its actions the same way.
	run := func(context.Context, *txn.Tx) ([]txn.Action, error) {
		return []txn.Action{txn.Put(users, u, txn.If(keyfirst.Field("Name").Eq("\xff")))}, nil
	}
	if err := txn.Run(context.Background(), noCalls{T: t}, run); !errors.Is(err, keyfirst.ErrInvalidOption) {
		t.Fatalf("Run: %v, want ErrInvalidOption", err)
	}
}

// The two cases on DynamoDB Local: the stored name is "\uFFFD";
// a replace on condition Name = "\xff" is refused (it was written), one
// on Name = NaN too (DynamoDB refused it; now a value of the wrong type for
// the field). The item is left as it was.
func TestConditionValuesOnDynamoDBLocal(t *testing.T) {
	t.Parallel()
	s, ctx := localShop(t)
	put := txn.Put(s.users, User{ID: "u1", Name: "\uFFFD"})
	mustWrite(t, ctx, s.client, put)
	stored, _ := put.Item()
	changed := stored
	changed.Name = "changed"
	for bad, want := range map[keyfirst.Cond]error{
		keyfirst.Field("Name").Eq("\xff"):     keyfirst.ErrInvalidOption, // the value
		keyfirst.Field("Name").Eq(math.NaN()): keyfirst.ErrInvalidUpdate, // its type
	} {
		err := txn.Write(ctx, s.client, []txn.Action{txn.Replace(s.users, changed, txn.If(bad))})
		if !errors.Is(err, want) {
			t.Errorf("condition %v: %v, want %v", bad, err, want)
		}
	}
	if got, err := s.users.Decode(s.raw(t, "USER#u1", "USER")); err != nil || got != stored {
		t.Fatalf("the stored user changed: %+v, %v; want %+v", got, err, stored)
	}
	// A valid condition still writes.
	mustWrite(t, ctx, s.client, txn.Replace(s.users, changed, txn.If(keyfirst.Field("Name").Eq("\uFFFD"))))
}

// TestConditionNestingLimitMatchesDynamoDB proves the boundary of a
// condition's values on DynamoDB Local. A typed condition's value is a
// value of its field, which DynamoDB stores nested MaxNesting-1 deep at
// most: one that deep passes, one level more is refused before any
// request. (A value sent raw in a condition may be one level deeper:
// measured, 32 nested lists pass, 33 are refused, "ExpressionAttributeValues
// contains invalid value: Nesting Levels have exceeded supported limits";
// a field holds none of them.)
func TestConditionNestingLimitMatchesDynamoDB(t *testing.T) {
	t.Parallel()
	client, e, _ := localBadges(t, "")
	ctx := context.Background()
	deepest := nested(keyfirst.MaxNesting - 1)
	mustWrite(t, ctx, client, txn.Put(e, Badge{ID: "b1", Code: deepest}))
	key := mustKey(t, e, Badge{ID: "b1"})
	mustWrite(t, ctx, client, txn.Check(e, key, keyfirst.Field("Code").Eq(deepest)))

	tooDeep := nested(keyfirst.MaxNesting)
	err := txn.Write(ctx, noCalls{T: t}, []txn.Action{txn.Check(e, key, keyfirst.Field("Code").Ne(tooDeep))})
	var oe *keyfirst.OptionError
	if !errors.As(err, &oe) || oe.Option != "Condition" {
		t.Fatalf("%d levels: %v, want an *OptionError on Condition", keyfirst.MaxNesting, err)
	}

	// One level more sent raw: DynamoDB Local refuses it.
	x, err := expression.NewBuilder().WithCondition(expression.Name("code").NotEqual(expression.Value(nestedLists(keyfirst.MaxNesting + 1)))).Build()
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{
		ConditionCheck: &types.ConditionCheck{TableName: aws.String(e.Table().Name()),
			Key:                 map[string]types.AttributeValue{"PK": sv("BADGE#b1"), "SK": sv("BADGE")},
			ConditionExpression: x.Condition(), ExpressionAttributeNames: x.Names(), ExpressionAttributeValues: x.Values()},
	}}})
	if !isValidationException(err) {
		t.Fatalf("%d levels sent raw: %v, want DynamoDB Local's ValidationException", keyfirst.MaxNesting+1, err)
	}
	t.Logf("%d levels sent raw: %v", keyfirst.MaxNesting+1, err)
}

// isValidationException reports DynamoDB's refusal of a request as
// invalid, by its error code.
func isValidationException(err error) bool {
	var api smithy.APIError
	return errors.As(err, &api) && api.ErrorCode() == "ValidationException"
}

// Issue 21, item 9, in transactions: every action that writes an item
// refuses one nested deeper than DynamoDB takes, before any request.
func TestTooDeepItemsAreRefusedInTransactions(t *testing.T) {
	t.Parallel()
	var deep any = "x"
	for range keyfirst.MaxNesting {
		deep = []any{deep}
	}
	codes := keyfirst.Must(txn.NewUnique(badgesBy["Code"], "Code"))
	long := keyfirst.Must(txn.NewUnique(badgesBy["Long"], "Long"))
	good := Badge{ID: "b1", Long: "l"}
	bad := Badge{ID: "b1", Long: "m", Code: deep}
	for name, a := range map[string]txn.Action{
		"Put":           txn.Put(badges, bad),
		"Create":        txn.Create(badges, bad),
		"Replace":       txn.Replace(badges, bad),
		"Unique.Create": long.Create(bad),
		"Unique.Change": long.Change(good, bad),
		"Unique value":  codes.Create(Badge{ID: "b2", Code: deep}),
	} {
		err := txn.Write(context.Background(), noCalls{T: t}, []txn.Action{a})
		var ie *keyfirst.ItemError
		if !errors.As(err, &ie) || ie.Problem != keyfirst.ItemTooDeep || ie.Attribute != "code" {
			t.Errorf("%s: %v, want an *ItemError %q on code", name, err, keyfirst.ItemTooDeep)
		}
	}
}
