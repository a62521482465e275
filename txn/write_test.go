package txn_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/txn"
)

// A transaction of every kind of action, on three entity types and two
// tables; the read transaction returns each item as its type, and a
// missing one as ErrNotFound.
func TestWriteAndReadSeveralEntitiesAndTables(t *testing.T) {
	t.Parallel()
	s, ctx := localShop(t)
	other := integration.TableOf(t, shopTable)
	otherProducts := keyfirst.Must(products.In(other))

	p1, err := s.products.Put(ctx, s.client, Product{ID: "p1", Name: "lamp", Stock: 3})
	if err != nil {
		t.Fatal(err)
	}
	u1, err := s.users.Put(ctx, s.client, User{ID: "u1", Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}

	p1.Stock--
	put := txn.Create(s.orders, order("c1", "o1", Open, "2026-06-23T10:00:00Z"))
	replace := txn.Replace(s.products, p1)
	del := keyfirst.Must(shopEmails.In(s.table)).Delete(u1) // a user's delete moves its email's marker (u1 has none)
	check := txn.Check(s.products, mustKey(t, s.products, p1), keyfirst.Field("Stock").Gt(0))
	inOther := txn.Put(otherProducts, Product{ID: "p1", Name: "lamp elsewhere", Stock: 9})
	// The check and the replace are on one item: DynamoDB refuses that.
	if err := txn.Write(ctx, s.client, []txn.Action{put, replace, check}); !errors.Is(err, txn.ErrSameItem) {
		t.Fatalf("replace and check of one item: %v, want ErrSameItem", err)
	}
	mustWrite(t, ctx, s.client, put, replace, del, inOther)

	if p, ok := replace.Item(); !ok || p.Version != 2 || p.Stock != 2 {
		t.Fatalf("replaced product %+v %v, want version 2, stock 2", p, ok)
	}
	if p, ok := inOther.Item(); !ok || p.Version != 1 {
		t.Fatalf("product of the other table %+v %v, want version 1", p, ok)
	}

	rp := txn.Read(s.products, mustKey(t, s.products, p1))
	ro := txn.Read(s.orders, mustKey(t, s.orders, order("c1", "o1", "", "")))
	ru := txn.Read(s.users, mustKey(t, s.users, u1))
	rx := txn.Read(otherProducts, mustKey(t, otherProducts, p1))
	if err := txn.Get(ctx, s.client, []txn.Reader{rp, ro, ru, rx}); err != nil {
		t.Fatal(err)
	}
	if p, err := rp.Result(); err != nil || p.Stock != 2 || p.Version != 2 {
		t.Fatalf("product %+v %v", p, err)
	}
	if o, err := ro.Result(); err != nil || o.Status != Open {
		t.Fatalf("order %+v %v", o, err)
	}
	if _, err := ru.Result(); !errors.Is(err, keyfirst.ErrNotFound) || ru.Found() {
		t.Fatalf("deleted user: %v, want ErrNotFound", err)
	}
	if p, err := rx.Result(); err != nil || p.Name != "lamp elsewhere" {
		t.Fatalf("other table's product %+v %v", p, err)
	}
}

// Each kind of cancellation leaves every item of the transaction as it
// was, and names the action that failed (position, entity type, key) and
// why; the stored item comes back as T.
func TestCancelledWritesNothing(t *testing.T) {
	t.Parallel()
	s, ctx := localShop(t)
	p1, err := s.products.Put(ctx, s.client, Product{ID: "p1", Name: "lamp", Stock: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.orders.Put(ctx, s.client, order("c1", "o1", Open, "2026-06-23T10:00:00Z")); err != nil {
		t.Fatal(err)
	}
	// An item of another entity type under the key of order c1/o5.
	if _, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table.Name()), Item: map[string]types.AttributeValue{
		"PK": sv("CUST#c1"), "SK": sv("ORDER#o5"), "_type": sv("ARCHIVED"), "id": sv("o5")}}); err != nil {
		t.Fatal(err)
	}
	keys := [][2]string{{"PRODUCT#p1", "PRODUCT"}, {"CUST#c1", "ORDER#o1"}, {"CUST#c1", "ORDER#o2"}, {"CUST#c1", "ORDER#o5"}}
	snapshot := func() []map[string]types.AttributeValue {
		out := make([]map[string]types.AttributeValue, len(keys))
		for i, k := range keys {
			out[i] = s.raw(t, k[0], k[1])
		}
		return out
	}
	before := snapshot()

	stale := p1
	stale.Version = 7
	stale.Stock = 0
	newOrder := txn.Put(s.orders, order("c1", "o2", Open, "2026-06-23T11:00:00Z"))
	cases := []struct {
		name    string
		actions []txn.Action
		at      int
		want    error
		reason  string
	}{
		{"version conflict", []txn.Action{newOrder, txn.Replace(s.products, stale)}, 1, keyfirst.ErrVersionConflict, "ConditionalCheckFailed"},
		{"already exists", []txn.Action{txn.Create(s.orders, order("c1", "o1", Closed, "x")), txn.Replace(s.products, p1)}, 0, keyfirst.ErrAlreadyExists, "ConditionalCheckFailed"},
		{"not found", []txn.Action{newOrder, txn.Replace(s.orders, order("c1", "o3", Open, "x"))}, 1, keyfirst.ErrNotFound, "ConditionalCheckFailed"},
		{"condition failed", []txn.Action{newOrder, txn.Replace(s.products, p1, txn.If(keyfirst.Field("Stock").Gt(10)))}, 1, keyfirst.ErrConditionFailed, "ConditionalCheckFailed"},
		{"check failed", []txn.Action{newOrder, txn.Check(s.products, mustKey(t, s.products, p1), keyfirst.Field("Stock").Eq(0))}, 1, keyfirst.ErrConditionFailed, "ConditionalCheckFailed"},
		{"wrong entity type", []txn.Action{newOrder, txn.Put(s.orders, order("c1", "o5", Open, "x"))}, 1, keyfirst.ErrWrongEntityType, "ConditionalCheckFailed"},
		{"version conflict on delete", []txn.Action{newOrder, txn.Delete(s.products, stale)}, 1, keyfirst.ErrVersionConflict, "ConditionalCheckFailed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := txn.Write(ctx, s.client, c.actions)
			if !errors.Is(err, txn.ErrCanceled) || !errors.Is(err, c.want) {
				t.Fatalf("%v, want ErrCanceled and %v", err, c.want)
			}
			var ae *txn.ActionError
			if !errors.As(err, &ae) || ae.Position != c.at || ae.Reason != c.reason || ae.Entity == "" || ae.Key == "" {
				t.Fatalf("%#v, want action %d, reason %s", ae, c.at, c.reason)
			}
			if after := snapshot(); !reflect.DeepEqual(after, before) {
				t.Fatalf("the cancelled transaction changed items:\nbefore %v\nafter  %v", before, after)
			}
			if _, ok := newOrder.Item(); ok {
				t.Fatal("the put of a cancelled transaction reports success")
			}
		})
	}

	// The stored item comes back as T, with the stored version.
	replace := txn.Replace(s.products, stale)
	err = txn.Write(ctx, s.client, []txn.Action{newOrder, replace})
	var cond *keyfirst.ConditionError
	if !errors.As(err, &cond) || cond.Expected != 7 || cond.Actual != 1 {
		t.Fatalf("%v: want expected version 7, stored 1", err)
	}
	stored, ok, derr := replace.Stored(err)
	if !ok || derr != nil || stored != p1 {
		t.Fatalf("stored %+v %v %v, want %+v", stored, ok, derr, p1)
	}
	if _, ok, _ := newOrder.Stored(err); ok {
		t.Fatal("the action that did not fail has a stored item")
	}
	t.Logf("version conflict: %v", err)

}
