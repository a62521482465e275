package txn_test

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/avequal"
	"github.com/keyfirst/keyfirst/internal/updates"
	"github.com/keyfirst/keyfirst/txn"
)

// A Replace that Run builds after reading the item is guarded by every
// attribute as read, so it sends the change alone (closing an order: SET
// status, REMOVE the attributes of the indexes it leaves), as Modify
// does; a Replace without a read sends the whole item. Both store the
// complete item.
func TestReplaceAfterReadSendsTheChange(t *testing.T) {
	t.Parallel()
	s, ctx := localShop(t)
	rec := &updates.Recorder{Client: s.client}
	o := order("c1", "o1", Open, "2026-06-23T10:00:00Z")
	if err := txn.Write(ctx, s.client, []txn.Action{txn.Put(s.orders, o)}); err != nil {
		t.Fatal(err)
	}
	key := mustKey(t, s.orders, o)
	if err := txn.Run(ctx, rec, func(ctx context.Context, tx *txn.Tx) ([]txn.Action, error) {
		read := txn.Read(s.orders, key)
		if err := tx.Get(ctx, read); err != nil {
			return nil, err
		}
		v, err := read.Result()
		v.Status = Closed
		return []txn.Action{txn.Replace(s.orders, v)}, err
	}); err != nil {
		t.Fatal(err)
	}
	o.Status = Closed
	if u := rec.Updates(); len(u) != 1 || !u[0].Sets("status") || !u[0].Removes("openBucket", "placedAt", "open_shard", "open_date") {
		t.Errorf("closing the order read: %v, want SET status REMOVE openBucket, open_date, open_shard, placedAt", u)
	}
	s.checkStored(t, o)

	rec.Reset()
	o.Note = "gift"
	if err := txn.Write(ctx, rec, []txn.Action{txn.Replace(s.orders, o)}); err != nil {
		t.Fatal(err)
	}
	if u := rec.Updates(); len(u) != 1 || !u[0].Sets("_type", "customer", "id", "note", "placed", "status") {
		t.Errorf("a Replace without a read: %v, want the whole item", u)
	}
	s.checkStored(t, o)
}

// checkStored asserts that the stored item of o is the item its entity
// computes for it.
func (s shop) checkStored(t *testing.T, o Order) {
	t.Helper()
	want, err := s.orders.Item(o)
	if err != nil {
		t.Fatal(err)
	}
	got := s.raw(t, "CUST#"+o.Customer, "ORDER#"+o.ID)
	if !avequal.Equal(&types.AttributeValueMemberM{Value: got}, &types.AttributeValueMemberM{Value: want}) {
		t.Errorf("stored %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
}
