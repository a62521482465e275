package keyfirst_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/keys"
)

// Account is an entity whose fields are every kind an update changes: a
// counter of each width, a list, a set, an optional field, a version.
type Account struct {
	ID      string   `dynamodbav:"id"`
	Owner   string   `dynamodbav:"owner"`
	Balance int64    `dynamodbav:"balance"`
	Small   int32    `dynamodbav:"small"`
	Stock   uint32   `dynamodbav:"stock"`
	Rate    float64  `dynamodbav:"rate"`
	Log     []string `dynamodbav:"log,omitempty"`
	Labels  []string `dynamodbav:"labels,stringset,omitempty"`
	Nick    *string  `dynamodbav:"nick,omitempty"`
	Version int64    `dynamodbav:"version"`
}

var accountKey = keyfirst.OnTable(keyfirst.Composite("PK", keys.NewKey1(keys.ID[string](), keys.WithPrefix("ACCT"))), keyfirst.NoSort())

// accountEntity declares the versioned accounts.
func accountEntity() *keyfirst.Entity[Account] {
	table := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "accounts", Key: accountKey}))
	return keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[Account]{Type: "Account", Version: "version",
		Keys: []keyfirst.Binding{accountKey.Fields("ID")}}))
}

// accounts are the accounts in a table of this test's own.
func accounts(t testing.TB) *keyfirst.Entity[Account] {
	t.Helper()
	e := accountEntity()
	return keyfirst.Must(e.In(integration.TableOf(t, e.Table())))
}

func TestUpdateChangesInOneWrite(t *testing.T) {
	ctx := context.Background()
	client := integration.Client(t)
	e := accounts(t)
	start, err := e.Put(ctx, client, Account{ID: "a1", Owner: "ann", Balance: 10, Log: []string{"open"}, Labels: []string{"new"}})
	if err != nil {
		t.Fatal(err)
	}
	key := mustKey(t, e, start)
	var used keyfirst.Capacity
	got, err := e.Update(ctx, client, key, keyfirst.Add("Balance", 5).Add("Rate", 0.5).Append("Log", []string{"deposit"}).
		AddToSet("Labels", []string{"vip"}).Set("Nick", "annie").If(keyfirst.Field("Balance").Ge(10)), keyfirst.WithCapacity(&used))
	if err != nil {
		t.Fatal(err)
	}
	nick := "annie"
	want := Account{ID: "a1", Owner: "ann", Balance: 15, Rate: 0.5, Log: []string{"open", "deposit"}, Labels: []string{"new", "vip"}, Nick: &nick, Version: 2}
	if !equalAccounts(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if used.Write != 1 {
		t.Errorf("capacity %+v, want 1 WCU", used)
	}
	if stored := mustGet(t, client, e, key); !equalAccounts(stored, want) {
		t.Errorf("stored %+v, want %+v", stored, want)
	}
	got, err = e.Update(ctx, client, key, keyfirst.Remove("Nick").DeleteFromSet("Labels", []string{"new"}).Add("Balance", -15))
	if err != nil {
		t.Fatal(err)
	}
	want.Nick, want.Labels, want.Balance, want.Version = nil, []string{"vip"}, 0, 3
	if !equalAccounts(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func equalAccounts(a, b Account) bool {
	return a.ID == b.ID && a.Owner == b.Owner && a.Balance == b.Balance && a.Small == b.Small && a.Stock == b.Stock && a.Rate == b.Rate &&
		strings.Join(a.Log, ",") == strings.Join(b.Log, ",") && sameSet(a.Labels, b.Labels) &&
		(a.Nick == nil) == (b.Nick == nil) && (a.Nick == nil || *a.Nick == *b.Nick) && a.Version == b.Version
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	in := map[string]bool{}
	for _, x := range a {
		in[x] = true
	}
	for _, x := range b {
		if !in[x] {
			return false
		}
	}
	return true
}

// The guards of every other write: an update never creates an item,
// never writes another type's, says which condition failed, and keeps a
// counter within its field.
func TestUpdateGuards(t *testing.T) {
	ctx := context.Background()
	client := integration.Client(t)
	e := accounts(t)
	start, err := e.Put(ctx, client, Account{ID: "a1", Balance: 3, Small: math.MaxInt32 - 1, Stock: 1})
	if err != nil {
		t.Fatal(err)
	}
	key := mustKey(t, e, start)
	fails := func(u keyfirst.Update, sentinel error, failed string) *keyfirst.ConditionError {
		t.Helper()
		_, err := e.Update(ctx, client, key, u)
		var ce *keyfirst.ConditionError
		if !errors.As(err, &ce) || !errors.Is(err, sentinel) || ce.Failed != failed {
			t.Fatalf("got %v, want %v with Failed %q", err, sentinel, failed)
		}
		return ce
	}
	ce := fails(keyfirst.Add("Balance", -5).If(keyfirst.Field("Balance").Ge(5)), keyfirst.ErrConditionFailed, "Balance >= 5")
	if !ce.Found || ce.Item["balance"].(*types.AttributeValueMemberN).Value != "3" {
		t.Errorf("the stored item is not in the error: %+v", ce)
	}
	fails(keyfirst.Add("Small", 2), keyfirst.ErrConditionFailed, "Small <= 2147483645 (so that the Add fits its int32 field)")
	fails(keyfirst.Add("Stock", -2), keyfirst.ErrConditionFailed, "Stock >= 2 (so that the Add fits its uint32 field)")
	ce = fails(keyfirst.Set("Owner", "bo").If(keyfirst.Field("Version").Eq(7)), keyfirst.ErrVersionConflict, "")
	if ce.Expected != 7 || ce.Actual != 1 {
		t.Errorf("expected/actual %d/%d, want 7/1", ce.Expected, ce.Actual)
	}
	if got := mustGet(t, client, e, key); got.Balance != 3 || got.Small != math.MaxInt32-1 || got.Stock != 1 || got.Owner != "" || got.Version != 1 {
		t.Errorf("a refused update wrote: %+v", got)
	}
	// An expected version that holds: the write stores the next one.
	if got, err := e.Update(ctx, client, key, keyfirst.Set("Owner", "bo").If(keyfirst.Field("Version").Eq(1))); err != nil || got.Version != 2 {
		t.Fatalf("got %+v, %v", got, err)
	}

	// A missing item: ErrNotFound, and nothing created.
	missing := mustKey(t, e, Account{ID: "nobody"})
	if _, err := e.Update(ctx, client, missing, keyfirst.Add("Balance", 1)); !errors.Is(err, keyfirst.ErrNotFound) {
		t.Fatalf("got %v, want ErrNotFound", err)
	}
	if item := rawItem(t, client, e.Table().Name(), map[string]types.AttributeValue{"PK": sAV("ACCT#nobody")}); item != nil {
		t.Errorf("the update created %v", item)
	}

	// Another entity type's item under the key: ErrWrongEntityType.
	other := keyfirst.Must(keyfirst.NewEntity(e.Table(), keyfirst.EntitySpec[Account]{Type: "Other", Keys: []keyfirst.Binding{accountKey.Fields("ID")}}))
	if _, err := other.Update(ctx, client, mustKey(t, other, start), keyfirst.Add("Balance", 1)); !errors.Is(err, keyfirst.ErrWrongEntityType) {
		t.Fatalf("got %v, want ErrWrongEntityType", err)
	}
}

// Bad input: a typed error before any request, for every change and
// every condition.
func TestUpdateRefusesBadInputBeforeAnyRequest(t *testing.T) {
	e := accountEntity()
	key := mustKey(t, e, Account{ID: "a1"})
	bad := "\xff"
	long := keyfirst.Set("Owner", "x")
	for range 200 {
		long = long.If(keyfirst.Field("Owner").Ne("y"))
	}
	for _, c := range []struct {
		name    string
		u       keyfirst.Update
		problem keyfirst.UpdateProblem
		item    keyfirst.ItemProblem
	}{
		{"no change", keyfirst.Update{}, keyfirst.UpdateEmpty, 0},
		{"an unknown field", keyfirst.Set("Missing", 1), keyfirst.UpdateUnknownField, 0},
		{"an attribute name for a Go name", keyfirst.Set("balance", 1), keyfirst.UpdateUnknownField, 0},
		{"the type attribute", keyfirst.Set("_type", "Other"), keyfirst.UpdateUnknownField, 0},
		{"a key field", keyfirst.Set("ID", "a2"), keyfirst.UpdateKeyField, 0},
		{"the version by hand", keyfirst.Set("Version", 9), keyfirst.UpdateVersionField, 0},
		{"a field changed twice", keyfirst.Set("Owner", "a").Set("Owner", "b"), keyfirst.UpdateFieldTwice, 0},
		{"a string for a number", keyfirst.Set("Balance", "10"), keyfirst.UpdateValueType, 0},
		{"a number too large for the field", keyfirst.Set("Small", int64(math.MaxInt32)+1), keyfirst.UpdateValueType, 0},
		{"a negative number for an unsigned field", keyfirst.Set("Stock", -1), keyfirst.UpdateValueType, 0},
		{"a uint64 beyond the int64 field", keyfirst.Set("Balance", uint64(math.MaxUint64)), keyfirst.UpdateValueType, 0},
		{"a fraction for an integer field", keyfirst.Set("Balance", 1.5), keyfirst.UpdateValueType, 0},
		{"Add to a string", keyfirst.Add("Owner", 1), keyfirst.UpdateNotNumber, 0},
		{"Add of a fraction to an integer", keyfirst.Add("Balance", 0.5), keyfirst.UpdateValueType, 0},
		{"Add of a string", keyfirst.Add("Balance", "1"), keyfirst.UpdateValueType, 0},
		{"Add that always overflows", keyfirst.Add("Small", int64(math.MaxInt32)*3), keyfirst.UpdateValueType, 0},
		{"Append to a set", keyfirst.Append("Labels", []string{"a"}), keyfirst.UpdateNotList, 0},
		{"Append of nothing", keyfirst.Append("Log", []string{}), keyfirst.UpdateEmptyValue, 0},
		{"AddToSet on a list", keyfirst.AddToSet("Log", []string{"a"}), keyfirst.UpdateNotSet, 0},
		{"AddToSet on a number", keyfirst.AddToSet("Balance", 1), keyfirst.UpdateNotSet, 0},
		{"DeleteFromSet of nothing", keyfirst.DeleteFromSet("Labels", []string(nil)), keyfirst.UpdateEmptyValue, 0},
		{"a condition on an unknown field", keyfirst.Set("Owner", "a").If(keyfirst.Field("Nope").Eq(1)), keyfirst.UpdateUnknownField, 0},
		{"a condition of the wrong type", keyfirst.Set("Owner", "a").If(keyfirst.Field("Balance").Ge("x")), keyfirst.UpdateValueType, 0},
		{"an order on a list", keyfirst.Set("Owner", "a").If(keyfirst.Field("Log").Lt([]string{"a"})), keyfirst.UpdateCondition, 0},
		{"an order on an omitted zero", keyfirst.Set("Owner", "a").If(keyfirst.Field("Log").Gt([]string(nil))), keyfirst.UpdateCondition, 0},
		{"invalid UTF-8", keyfirst.Set("Owner", bad), 0, keyfirst.ItemBadString},
		{"invalid UTF-8 in a condition", keyfirst.Set("Owner", "a").If(keyfirst.Field("Owner").Eq(bad)), 0, keyfirst.ItemBadString},
		{"NaN", keyfirst.Set("Rate", math.NaN()), 0, keyfirst.ItemBadNumber},
		{"Add of NaN", keyfirst.Add("Rate", math.NaN()), 0, keyfirst.ItemBadNumber},
		{"Add of infinity", keyfirst.Add("Rate", math.Inf(1)), 0, keyfirst.ItemBadNumber},
		{"a set with a duplicate", keyfirst.AddToSet("Labels", []string{"a", "a"}), 0, keyfirst.ItemBadSet},
		{"a condition beyond DynamoDB's 300 operators", long, 0, keyfirst.ItemExpression},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.Update(context.Background(), noCalls{T: t}, key, c.u)
			if c.problem != 0 {
				var ue *keyfirst.UpdateError
				if !errors.As(err, &ue) || ue.Problem != c.problem || !errors.Is(err, keyfirst.ErrInvalidUpdate) {
					t.Fatalf("got %v, want %v", err, c.problem)
				}
				return
			}
			var ie *keyfirst.ItemError
			if !errors.As(err, &ie) || ie.Problem != c.item {
				t.Fatalf("got %v, want %v", err, c.item)
			}
		})
	}
	if _, err := e.Update(context.Background(), noCalls{T: t}, keyfirst.Key[Account]{}, keyfirst.Set("Owner", "a")); !errors.Is(err, keyfirst.ErrInvalidItem) {
		t.Errorf("the zero key: got %v", err)
	}
	if _, err := e.Update(context.Background(), noCalls{T: t}, key, keyfirst.Set("Owner", "a"), keyfirst.ConsistentRead()); !errors.Is(err, keyfirst.ErrInvalidOption) {
		t.Errorf("an option Update does not take: got %v", err)
	}
}
