package txn_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/observetest"
	"github.com/keyfirst/keyfirst/txn"
)

// A write and a read transaction on an observed table are seen, with the
// capacity of every table and index they touched.
func TestTransactionsObserved(t *testing.T) {
	s, ctx := localShop(t)
	rec := &observetest.Recorder{}
	table := s.table.Observed(rec)
	users := keyfirst.Must(s.users.In(table))
	u := User{ID: "u1", Name: "Ann"}
	if err := txn.Write(ctx, s.client, []txn.Action{txn.Put(users, u)}); err != nil {
		t.Fatal(err)
	}
	read := txn.Read(users, mustKey(t, users, u))
	if err := txn.Get(ctx, s.client, []txn.Reader{read}); err != nil {
		t.Fatal(err)
	}
	seen := rec.Take()
	if got, want := observetest.Calls(seen), []string{"TransactWriteItems txn.Write  #1", "TransactGetItems txn.Get  #1"}; !slices.Equal(got, want) {
		t.Fatalf("observed %q, want %q", got, want)
	}
	for _, x := range seen {
		if x.Result.Err != nil || x.Result.Capacity.Total <= 0 || x.Request.Table != table.Name() || !x.SameContext {
			t.Errorf("%s: %+v", x.Request.Operation, x.Result)
		}
	}
	if seen[1].Result.Read != 1 {
		t.Errorf("the read transaction read %d items, want 1", seen[1].Result.Read)
	}
}

// A cancelled transaction shows its Observer the *CanceledError Write
// returns, with the reason of each action, and DynamoDB's code; a read
// transaction's failure is the error Get returns.
func TestTransactionsObservedWithTheirTypedError(t *testing.T) {
	s, ctx := localShop(t)
	rec := &observetest.Recorder{}
	users := keyfirst.Must(s.users.In(s.table.Observed(rec)))
	u := User{ID: "u2", Name: "Bo"}
	if err := txn.Write(ctx, s.client, []txn.Action{txn.Create(users, u)}); err != nil {
		t.Fatal(err)
	}
	rec.Take()
	err := txn.Write(ctx, s.client, []txn.Action{txn.Create(users, u)})
	var ce *txn.CanceledError
	if !errors.As(err, &ce) || !errors.Is(err, keyfirst.ErrAlreadyExists) {
		t.Fatalf("a second Create: %v, want a *CanceledError for ErrAlreadyExists", err)
	}
	seen := rec.Take()
	if msg := observetest.SameError(seen, err, "TransactionCanceledException"); msg != "" {
		t.Error(msg)
	}
	if f, _ := observetest.Failed(seen); !errors.Is(f.Result.Err, keyfirst.ErrAlreadyExists) {
		t.Errorf("observed %v, want the cancellation's reason, ErrAlreadyExists", f.Result.Err)
	}

	gone := keyfirst.Must(s.table.Observed(rec).Named(s.table.Name() + "-absent"))
	absent := keyfirst.Must(s.users.In(gone))
	err = txn.Get(ctx, s.client, []txn.Reader{txn.Read(absent, mustKey(t, absent, u))})
	if err == nil {
		t.Fatal("a read of a missing table succeeded")
	}
	if msg := observetest.SameError(rec.Take(), err, "ResourceNotFoundException"); msg != "" {
		t.Error(msg)
	}
}
