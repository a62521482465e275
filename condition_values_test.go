package keyfirst_test

import (
	"errors"
	"math"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// Issue 21, item 4: every value of a transaction action's options, its
// Condition and its Read image, is checked as an item's values are: a
// value DynamoDB would refuse or change is an *OptionError naming the
// option, when the action is built (before any request). The Condition
// is a keyfirst.Cond: a value of the wrong type for its field is the
// partial update's *UpdateError.
func TestTransactOptionValuesAreChecked(t *testing.T) {
	t.Parallel()
	s := newShop(t, "shop")
	o := order("c1", "o1", Open, day)
	c := Customer{ID: "c1", Name: "Ann"}
	read := mustItem(t, s.customers, c)
	deep := types.AttributeValue(&types.AttributeValueMemberS{Value: "x"})
	for range keyfirst.MaxNesting + 1 {
		deep = &types.AttributeValueMemberL{Value: []types.AttributeValue{deep}}
	}
	bad := map[string]any{
		"invalid UTF-8":   "\xff",
		"NaN":             math.NaN(),
		"-Inf":            math.Inf(-1),
		"duplicate set":   &types.AttributeValueMemberSS{Value: []string{"a", "a"}},
		"nested too deep": deep,
	}
	onCondition := func(action string) func(error) bool {
		return func(err error) bool {
			var oe *keyfirst.OptionError
			return errors.As(err, &oe) && oe.Option == "Condition" && oe.Op == action
		}
	}
	valueType := func(string) func(error) bool {
		return func(err error) bool {
			var ue *keyfirst.UpdateError
			return errors.As(err, &ue) && ue.Problem == keyfirst.UpdateValueType && ue.Field == "Total"
		}
	}
	for name, c := range map[string]struct {
		cond  keyfirst.Cond
		check func(action string) func(error) bool
	}{
		"invalid UTF-8":           {keyfirst.Field("Note").Eq("\xff"), onCondition},
		"invalid UTF-8 in a list": {keyfirst.Field("Tags").Ne([]string{"a", "\xff"}), onCondition},
		"NaN for an int64":        {keyfirst.Field("Total").Eq(math.NaN()), valueType},
		"-Inf for an int64":       {keyfirst.Field("Total").Ge(math.Inf(-1)), valueType},
		"a string for an int64":   {keyfirst.Field("Total").Eq("1"), valueType},
	} {
		cond := keyfirst.TransactOptions{Condition: c.cond}
		for action, build := range map[string]func() error{
			"TransactPut":     func() error { _, _, err := s.orders.TransactPut(o, cond); return err },
			"TransactReplace": func() error { _, _, err := s.orders.TransactReplace(o, cond); return err },
			"TransactDelete":  func() error { _, err := s.orders.TransactDelete(o, cond); return err },
			"TransactCheck":   func() error { _, err := s.orders.TransactCheck(mustKey(t, s.orders, o), cond); return err },
		} {
			if err := build(); !c.check(action)(err) {
				t.Errorf("%s, condition %s: %v", action, name, err)
			}
		}
	}
	for name, v := range bad {
		// The read image of a read-modify-write becomes a condition too.
		av, err := expressionValue(v)
		if err != nil {
			t.Fatal(err)
		}
		image := map[string]types.AttributeValue{}
		for k, x := range read {
			image[k] = x
		}
		image["name"] = av
		opts := keyfirst.TransactOptions{Read: image}
		for action, build := range map[string]func() error{
			"TransactReplace": func() error { _, _, err := s.customers.TransactReplace(c, opts); return err },
			"TransactDelete":  func() error { _, err := s.customers.TransactDelete(c, opts); return err },
		} {
			var oe *keyfirst.OptionError
			if err := build(); !errors.As(err, &oe) || oe.Option != "Read" || oe.Op != action {
				t.Errorf("%s, read value %s: %v, want an *OptionError on %s's Read", action, name, err, action)
			}
		}
	}
	// Good values pass.
	if _, _, err := s.orders.TransactReplace(o, keyfirst.TransactOptions{Condition: keyfirst.Field("Note").Eq("\uFFFD")}); err != nil {
		t.Fatalf("a valid condition: %v", err)
	}
	if _, _, err := s.customers.TransactReplace(c, keyfirst.TransactOptions{Read: read}); err != nil {
		t.Fatalf("a valid read image: %v", err)
	}
}

// expressionValue is v as the expression package sends it.
func expressionValue(v any) (types.AttributeValue, error) {
	x, err := expression.NewBuilder().WithCondition(expression.Name("a").Equal(expression.Value(v))).Build()
	if err != nil {
		return nil, err
	}
	return x.Values()[":0"], nil
}
