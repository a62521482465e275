package txn_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
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
// write went through; a NaN reached DynamoDB (ValidationException).

// nestedLists is n lists one inside the other around "x".
func nestedLists(n int) types.AttributeValue {
	var av types.AttributeValue = &types.AttributeValueMemberS{Value: "x"}
	for range n {
		av = &types.AttributeValueMemberL{Value: []types.AttributeValue{av}}
	}
	return av
}

// badConditionValues are values DynamoDB would refuse or change, each in
// a condition.
var badConditionValues = map[string]any{
	"invalid UTF-8":              "\xff",
	"NaN":                        math.NaN(),
	"+Inf":                       math.Inf(1),
	"1e200":                      1e200,
	"39 digits":                  &types.AttributeValueMemberN{Value: "123456789012345678901234567890123456789"},
	"set with one element twice": &types.AttributeValueMemberNS{Value: []string{"1", "1.0"}},
	"empty set":                  &types.AttributeValueMemberSS{Value: []string{}},
	"invalid UTF-8 map key":      map[string]string{"\xfe": "v"},
	"invalid UTF-8 in a list":    []string{"ok", "\xff"},
	"nested too deep":            nestedLists(keyfirst.MaxNesting + 1),
}

// Every action that takes a condition refuses a bad value in it, before
// any request, with an *OptionError on its Condition.
func TestConditionValuesAreRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	emails := keyfirst.Must(txn.NewUnique(users, "email"))
	u := User{ID: "u1", Email: "ann@example.com", Name: "Ann", Version: 1}
	renamed := u
	renamed.Email = "ann@example.org"
	for name, bad := range badConditionValues {
		cond := txn.Name("name").Equal(expression.Value(bad))
		actions := map[string]txn.Action{
			"Put":           txn.Put(users, u, txn.If(cond)),
			"Create":        txn.Create(users, User{ID: "u2"}, txn.If(cond)),
			"Replace":       txn.Replace(users, u, txn.If(cond)),
			"Delete":        txn.Delete(users, u, txn.If(cond)),
			"Check":         txn.Check(users, mustKey(t, users, u), cond),
			"Check, And":    txn.Check(users, mustKey(t, users, u), txn.Name("name").AttributeExists().And(cond)),
			"Unique.Create": emails.Create(User{ID: "u2", Email: "b@example.com"}, txn.If(cond)),
			"Unique.Change": emails.Change(u, renamed, txn.If(cond)),
			"Unique.Delete": emails.Delete(u, txn.If(cond)),
		}
		for action, a := range actions {
			t.Run(name+"/"+action, func(t *testing.T) {
				err := txn.Write(ctx, noCalls{T: t}, []txn.Action{a})
				var oe *keyfirst.OptionError
				var ae *txn.ActionError
				if !errors.As(err, &oe) || oe.Option != "Condition" || !errors.As(err, &ae) || ae.Position != 0 {
					t.Fatalf("%v, want an *ActionError wrapping an *OptionError on Condition", err)
				}
			})
		}
	}
	// Run builds its actions the same way.
	run := func(context.Context, *txn.Tx) ([]txn.Action, error) {
		return []txn.Action{txn.Put(users, u, txn.If(txn.Name("name").Equal(expression.Value("\xff"))))}, nil
	}
	if err := txn.Run(ctx, noCalls{T: t}, run); !errors.Is(err, keyfirst.ErrInvalidOption) {
		t.Fatalf("Run: %v, want ErrInvalidOption", err)
	}
}

// The two cases on DynamoDB Local: the stored name is "\uFFFD";
// a replace on condition name = "\xff" is refused (it was written), one
// on name = NaN too (DynamoDB refused it). The item is left as it was.
func TestConditionValuesOnDynamoDBLocal(t *testing.T) {
	t.Parallel()
	s, ctx := localShop(t)
	put := txn.Put(s.users, User{ID: "u1", Name: "\uFFFD"})
	mustWrite(t, ctx, s.client, put)
	stored, _ := put.Item()
	changed := stored
	changed.Name = "changed"
	for _, bad := range []any{"\xff", math.NaN()} {
		err := txn.Write(ctx, s.client, []txn.Action{txn.Replace(s.users, changed, txn.If(txn.Name("name").Equal(expression.Value(bad))))})
		if !errors.Is(err, keyfirst.ErrInvalidOption) {
			t.Errorf("condition name = %#v: %v, want ErrInvalidOption", bad, err)
		}
	}
	if got, err := s.users.Decode(s.raw(t, "USER#u1", "USER")); err != nil || got != stored {
		t.Fatalf("the stored user changed: %+v, %v; want %+v", got, err, stored)
	}
	// A valid condition still writes.
	mustWrite(t, ctx, s.client, txn.Replace(s.users, changed, txn.If(txn.Name("name").Equal(expression.Value("\uFFFD")))))
}

// TestConditionNestingLimitMatchesDynamoDB proves the boundary of a
// condition's values on DynamoDB Local. A value of a condition is not
// inside an item: DynamoDB takes one level more than in an attribute
// (measured: 32 nested lists pass, 33 are refused, "ExpressionAttributeValues
// contains invalid value: Nesting Levels have exceeded supported limits").
func TestConditionNestingLimitMatchesDynamoDB(t *testing.T) {
	t.Parallel()
	s, ctx := localShop(t)
	mustWrite(t, ctx, s.client, txn.Put(s.users, User{ID: "u1", Name: "Ann"}))
	key := mustKey(t, s.users, User{ID: "u1"})
	deepest := nestedLists(keyfirst.MaxNesting)
	mustWrite(t, ctx, s.client, txn.Check(s.users, key, txn.Name("name").NotEqual(expression.Value(deepest))))

	tooDeep := nestedLists(keyfirst.MaxNesting + 1)
	err := txn.Write(ctx, noCalls{T: t}, []txn.Action{txn.Check(s.users, key, txn.Name("name").NotEqual(expression.Value(tooDeep)))})
	if !errors.Is(err, keyfirst.ErrInvalidOption) {
		t.Fatalf("%d levels: %v, want ErrInvalidOption", keyfirst.MaxNesting+1, err)
	}

	// The same check sent raw: DynamoDB Local refuses it.
	x, err := expression.NewBuilder().WithCondition(expression.Name("name").NotEqual(expression.Value(tooDeep))).Build()
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{
		ConditionCheck: &types.ConditionCheck{TableName: aws.String(s.table.Name()),
			Key:                 map[string]types.AttributeValue{"PK": sv("USER#u1"), "SK": sv("USER")},
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
	codes := keyfirst.Must(txn.NewUnique(badges, "code"))
	long := keyfirst.Must(txn.NewUnique(badges, "long"))
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
