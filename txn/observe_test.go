package txn_test

import (
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
