package txn_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/txn"
)

// failingWrite is a TransactWriteItems that fails (not a cancellation:
// nothing is retried) while fail is set, and succeeds otherwise.
type failingWrite struct{ fail bool }

func (f *failingWrite) TransactWriteItems(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	if f.fail {
		return nil, errors.New("unavailable")
	}
	return &dynamodb.TransactWriteItemsOutput{}, nil
}

// Timed is an entity whose writes stamp the time of its clock, which
// moves on a second at each write built.
type Timed struct {
	ID      string    `dynamodbav:"id"`
	Updated time.Time `dynamodbav:"updated"`
}

// TestItemAfterFailedWrite: an action sent again in a transaction that
// fails keeps, for Op.Item, the item as the last transaction that
// succeeded wrote it (its time and version), and takes the new one when
// a transaction succeeds again; before any, it has none.
func TestItemAfterFailedWrite(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 6, 23, 10, 0, 0, 0, time.UTC)
	timed := keyfirst.Must(keyfirst.NewEntity(shopTable, keyfirst.EntitySpec[Timed]{
		Type: "TIMED", Keys: []keyfirst.Binding{typedKey("TIMED").Fields("ID")}, Updated: "Updated",
		Clock: func() time.Time { now = now.Add(time.Second); return now },
	}))
	api := &failingWrite{}
	put := txn.Put(timed, Timed{ID: "t1"})
	replace := txn.Replace(timed, Timed{ID: "t2"})
	versioned := txn.Put(products, Product{ID: "p1", Name: "pen", Stock: 3, Version: 1})
	actions := []txn.Action{put, replace, versioned}
	write := func(fail bool) {
		t.Helper()
		api.fail = fail
		if err := txn.Write(ctx, api, actions); (err != nil) != fail {
			t.Fatalf("Write (failing %v): %v", fail, err)
		}
	}
	item := func(op *txn.Op[Timed]) time.Time {
		v, ok := op.Item()
		if !ok {
			return time.Time{}
		}
		return v.Updated
	}
	write(true)
	if !item(put).IsZero() || !item(replace).IsZero() {
		t.Errorf("after a failed first write: Item() at %v and %v, want none", item(put), item(replace))
	}
	write(false)
	p1, r1 := item(put), item(replace)
	if p1.IsZero() || r1.IsZero() {
		t.Fatalf("after a write: Item() at %v and %v", p1, r1)
	}
	for range 3 { // each failure builds the actions again, at a later time
		write(true)
		if p, r := item(put), item(replace); !p.Equal(p1) || !r.Equal(r1) {
			t.Errorf("written then failed: Item() at %v and %v, want %v and %v as written", p, r, p1, r1)
		}
		if p, ok := versioned.Item(); !ok || p.Version != 2 {
			t.Errorf("written then failed, versioned put: Item() %+v, %v; want version 2", p, ok)
		}
	}
	write(false)
	if p, r := item(put), item(replace); !p.After(p1) || !r.After(r1) {
		t.Errorf("written again: Item() at %v and %v, want later than %v and %v", p, r, p1, r1)
	}
}
