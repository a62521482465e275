package txn_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/txn"
)

// Every bad input is refused before any request, with a typed error.
func TestBadInputsBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	client := noCalls{T: t}
	o := order("c1", "o1", Open, "2026-06-23T10:00:00Z")
	orderKey := mustKey(t, orders, o)
	many := func(n int, note string) []txn.Action {
		out := make([]txn.Action, n)
		for i := range out {
			v := order("c1", fmt.Sprintf("o%d", i), Closed, "x")
			v.Note = note
			out[i] = txn.Put(orders, v)
		}
		return out
	}
	big := strings.Repeat("x", 390*1024) // 11 items of 390 KB: over 4 MB

	writes := []struct {
		name    string
		actions []txn.Action
		opts    []func(*keyfirst.Options)
		want    error
	}{
		{"empty", nil, nil, txn.ErrEmpty},
		{"101 actions", many(101, ""), nil, txn.ErrTooManyActions},
		{"over 4 MB", many(11, big), nil, txn.ErrTooLarge},
		{"two actions on one item", []txn.Action{txn.Put(orders, o), txn.Delete(orders, o)}, nil, txn.ErrSameItem},
		{"a key of another entity type", []txn.Action{txn.Check(archived, mustKey(t, orders, o), keyfirst.Field("ID").Exists())}, nil, keyfirst.ErrWrongEntityType},
		{"invalid item", []txn.Action{txn.Put(orders, order("", "o1", Open, "x"))}, nil, keyfirst.ErrInvalidItem},
		{"zero key", []txn.Action{txn.Check(orders, keyfirst.Key[Order]{}, keyfirst.Field("ID").Exists())}, nil, keyfirst.ErrInvalidItem},
		{"check without condition", []txn.Action{txn.Check(orders, orderKey, keyfirst.Cond{})}, nil, keyfirst.ErrInvalidOption},
		{"nil action", []txn.Action{nil}, nil, nil},
		{"invalid token", []txn.Action{txn.Put(orders, o)}, []func(*keyfirst.Options){txn.Token("not a token!")}, keyfirst.ErrInvalidOption},
		{"token too long", []txn.Action{txn.Put(orders, o)}, []func(*keyfirst.Options){txn.Token(strings.Repeat("a", 37))}, keyfirst.ErrInvalidOption},
		{"two tokens", []txn.Action{txn.Put(orders, o)}, []func(*keyfirst.Options){txn.Token("a"), txn.ContentToken()}, keyfirst.ErrInvalidOption},
		{"ConsistentRead", []txn.Action{txn.Put(orders, o)}, []func(*keyfirst.Options){keyfirst.ConsistentRead()}, keyfirst.ErrInvalidOption},
		{"CreateOnly", []txn.Action{txn.Put(orders, o)}, []func(*keyfirst.Options){keyfirst.CreateOnly()}, keyfirst.ErrInvalidOption},
		{"a cursor key", []txn.Action{txn.Put(orders, o)}, []func(*keyfirst.Options){keyfirst.WithCursorKey([]byte("0123456789abcdef"))}, keyfirst.ErrInvalidOption},
		{"a query's cursor", []txn.Action{txn.Put(orders, o)}, []func(*keyfirst.Options){keyfirst.WithNext(new(query.Cursor))}, keyfirst.ErrInvalidOption},
		{"a negative MaxAttempts", []txn.Action{txn.Put(orders, o)}, []func(*keyfirst.Options){keyfirst.WithMaxAttempts(-1)}, keyfirst.ErrInvalidOption},
	}
	for _, c := range writes {
		t.Run("Write/"+c.name, func(t *testing.T) {
			err := txn.Write(ctx, client, c.actions, c.opts...)
			if err == nil || c.want != nil && !errors.Is(err, c.want) {
				t.Fatalf("%v, want %v", err, c.want)
			}
			var le *txn.LimitError
			var ae *txn.ActionError
			var oe *keyfirst.OptionError
			if !errors.As(err, &le) && !errors.As(err, &ae) && !errors.As(err, &oe) {
				t.Fatalf("%T %v: not a typed error", err, err)
			}
			t.Log(err)
		})
	}
	var ae *txn.ActionError
	if err := txn.Write(ctx, client, []txn.Action{txn.Put(orders, o), txn.Put(orders, order("", "o2", Open, "x"))}); !errors.As(err, &ae) || ae.Position != 1 || ae.Entity != "ORDER" || ae.Table != orders.Table().Name() {
		t.Fatalf("%v: want action 1, ORDER in %s", err, orders.Table().Name())
	}
	run := func(ctx context.Context, tx *txn.Tx) ([]txn.Action, error) {
		return []txn.Action{txn.Put(orders, o)}, nil
	}
	if err := txn.Run(ctx, client, run, txn.Token("t")); !errors.Is(err, keyfirst.ErrInvalidOption) {
		t.Fatalf("Run with a token: %v", err)
	}
	var oe *keyfirst.OptionError
	if err := txn.Run(ctx, client, run, keyfirst.WithNext(new(query.Cursor))); !errors.As(err, &oe) || oe.Option != "WithNext" {
		t.Fatalf("Run with a query's cursor: %v", err)
	}
	if err := txn.Get(ctx, client, []txn.Reader{txn.Read(orders, orderKey)}, keyfirst.WithMaxAttempts(2)); !errors.As(err, &oe) {
		t.Fatalf("Get with MaxAttempts: %v", err)
	}

	reads := make([]txn.Reader, 101)
	for i := range reads {
		reads[i] = txn.Read(orders, mustKey(t, orders, order("c1", fmt.Sprintf("o%d", i), Open, "")))
	}
	gets := []struct {
		name  string
		reads []txn.Reader
		want  error
	}{
		{"empty", nil, txn.ErrEmpty},
		{"101 reads", reads, txn.ErrTooManyActions},
		{"one item twice", []txn.Reader{txn.Read(orders, orderKey), txn.Read(orders, orderKey)}, txn.ErrSameItem},
		{"a key of another entity type", []txn.Reader{txn.Read(archived, orderKey)}, keyfirst.ErrWrongEntityType},
		{"zero key", []txn.Reader{txn.Read(orders, keyfirst.Key[Order]{})}, keyfirst.ErrInvalidItem},
	}
	for _, c := range gets {
		t.Run("Get/"+c.name, func(t *testing.T) {
			if err := txn.Get(ctx, client, c.reads); !errors.Is(err, c.want) {
				t.Fatalf("%v, want %v", err, c.want)
			}
		})
	}
	if r := txn.Read(orders, orderKey); !errors.Is(func() error { _, err := r.Result(); return err }(), txn.ErrNotRead) {
		t.Fatal("a read not sent has a result")
	}
}

// A unique attribute must be an attribute of T, on a table whose key can
// hold the marker keys; it is bound only to a table of its description.
func TestNewUniqueRefuses(t *testing.T) {
	t.Parallel()
	if _, err := txn.NewUnique(users, "Mail"); !errors.Is(err, keyfirst.ErrInvalidOption) {
		t.Fatalf("a field T does not have: %v", err)
	}
	for _, f := range []string{"Name", "email"} { // not declared unique; the attribute name, not Go's
		if _, err := txn.NewUnique(users, f); !errors.Is(err, keyfirst.ErrInvalidOption) {
			t.Fatalf("%s: %v, want ErrInvalidOption", f, err)
		}
	}
	numbered := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "numbered", PartitionKey: keyfirst.NumberAttr("n")}))
	e := keyfirst.Must(keyfirst.NewEntity(numbered, keyfirst.EntitySpec[User]{Type: "USER", Unique: []string{"Email"}, Keys: []keyfirst.Binding{
		keyfirst.Func(keyfirst.OnTable(keyfirst.Num[int]("n"), keyfirst.NoSort()), func(User) (int, keyfirst.None, bool) { return 1, keyfirst.None{}, true })}}))
	if _, err := txn.NewUnique(e, "Email"); !errors.Is(err, keyfirst.ErrInvalidOption) {
		t.Fatalf("a table with a number key: %v", err)
	}
	if _, err := txn.NewUnique[User](nil, "Email"); err == nil {
		t.Fatal("a nil entity")
	}
	if _, err := shopEmails.In(numbered); !errors.Is(err, keyfirst.ErrInvalidEntity) {
		t.Fatalf("In a table of another description: %v", err)
	}
}
