package txn_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/txn"
)

// uniqueRefusal checks that err is the *UniqueValueError of op on the
// field Long, naming the action use.
func uniqueRefusal(t *testing.T, what string, err error, op, use string) {
	t.Helper()
	var ue *keyfirst.UniqueValueError
	if !errors.Is(err, keyfirst.ErrUniqueValue) || !errors.As(err, &ue) || ue.Op != op || ue.Field != "Long" || ue.Attribute != "long" || ue.Use != use {
		t.Errorf("%s: %v, want the *UniqueValueError of %s on Long naming %s", what, err, op, use)
	}
}

// markersOf scans the badges' table: the markers stored (key -> owner)
// and those the stored badges' values need.
func markersOf(t *testing.T, client *dynamodb.Client, e *keyfirst.Entity[Badge]) (stored, want map[string]string) {
	t.Helper()
	out, err := client.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(e.Table().Name()), ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	stored, want = map[string]string{}, map[string]string{}
	for _, item := range out.Items {
		switch text(item[e.Table().TypeAttribute()]) {
		case txn.MarkerType:
			stored[text(item["PK"])] = text(item["owner"])
		case e.Type():
			b, err := e.Decode(item)
			if err != nil {
				t.Fatal(err)
			}
			if b.Long != "" {
				want["UNIQUE#BADGE#long#"+b.Long] = mustKey(t, e, b).String()
			}
		}
	}
	return stored, want
}

// Issue: a unique value that no write path can break. On an entity that
// declares Long unique, every write path outside txn.Unique either is
// refused before any request, with the *UniqueValueError naming the
// action to use, or is guarded by the condition that the stored value is
// the one written: a Replace (or Put over the item, or their transaction
// actions) that changes the value fails and stores nothing, one that
// keeps it succeeds. After all of them the markers are exactly the
// stored items' values.
func TestUniqueValueNoWritePathBreaks(t *testing.T) {
	t.Parallel()
	client, e, _ := localBadges(t, "Long")
	ctx := context.Background()
	longs := keyfirst.Must(txn.NewUnique(e, "Long"))
	create := longs.Create(Badge{ID: "b1", Long: "a"})
	mustWrite(t, ctx, client, create, longs.Create(Badge{ID: "b2", Long: "b"}))
	b1, _ := create.Item()
	// An item without the value holds none: a Put creates it.
	if _, err := e.Put(ctx, client, Badge{ID: "b3", Num: "3"}); err != nil {
		t.Fatalf("a Put of a new item without the value: %v", err)
	}
	changed := b1
	changed.Long = "z"
	key := mustKey(t, e, b1)
	none := noCalls{T: t}

	// Refused before any request.
	_, err := e.Put(ctx, none, Badge{ID: "new", Long: "n"}, keyfirst.CreateOnly())
	uniqueRefusal(t, "a create-only Put with the value", err, "Put", "txn.Unique.Create")
	uniqueRefusal(t, "Delete", e.Delete(ctx, none, b1), "Delete", "txn.Unique.Delete")
	uniqueRefusal(t, "a batch put", e.Table().BatchWrite(ctx, none, []keyfirst.WriteRequest{e.PutRequest(b1)}), "BatchWrite", "txn.Unique.Create or txn.Unique.Change")
	uniqueRefusal(t, "a typed batch put", e.BatchPut(ctx, none, slices.Values([]Badge{b1})), "BatchPut", "txn.Unique.Create or txn.Unique.Change")
	uniqueRefusal(t, "a batch delete", e.Table().BatchWrite(ctx, none, []keyfirst.WriteRequest{e.DeleteRequest(key)}), "BatchWrite", "txn.Unique.Delete")
	for name, u := range map[string]keyfirst.Update{
		"Set":                     keyfirst.Set("Long", "z"),
		"Remove":                  keyfirst.Remove("Long"),
		"Set, with another field": keyfirst.Set("Num", "4").Set("Long", "a"),
	} {
		_, err := e.Update(ctx, none, key, u)
		uniqueRefusal(t, "Update "+name, err, "Update", "txn.Unique.Change")
		uniqueRefusal(t, "txn.Update "+name, txn.Write(ctx, none, []txn.Action{txn.Update(e, key, u)}), "Update", "txn.Unique.Change")
	}
	for name, a := range map[string]txn.Action{
		"txn.Create": txn.Create(e, Badge{ID: "new", Long: "n"}),
		"txn.Delete": txn.Delete(e, b1),
	} {
		use := map[string]string{"txn.Create": "txn.Unique.Create", "txn.Delete": "txn.Unique.Delete"}[name]
		op := map[string]string{"txn.Create": "TransactPut", "txn.Delete": "TransactDelete"}[name]
		uniqueRefusal(t, name, txn.Write(ctx, none, []txn.Action{a}), op, use)
	}

	// Modify reads, and refuses a change of the value before writing.
	_, err = e.Modify(ctx, client, key, func(b *Badge) { b.Long = "z" })
	uniqueRefusal(t, "Modify", err, "Modify", "txn.Unique.Change")
	if _, err := e.Modify(ctx, client, key, func(b *Badge) { b.Num = "7" }); err != nil {
		t.Fatalf("a Modify that keeps the value: %v", err)
	}

	// Guarded: a change of the value fails with the stored value, and
	// stores nothing; a write that keeps it succeeds.
	guarded := func(what string, err error, op string) {
		t.Helper()
		var ce *keyfirst.ConditionError
		var ue *keyfirst.UniqueValueError
		if !errors.As(err, &ce) || !errors.As(err, &ue) || ue.Op != op || !ue.Found || text(ue.Stored) != "a" || ue.Use != "txn.Unique.Change" {
			t.Errorf("%s that changes the value: %v, want a *ConditionError with the *UniqueValueError of %s, stored value a", what, err, op)
		}
	}
	_, err = e.Replace(ctx, client, changed)
	guarded("Replace", err, "Replace")
	_, err = e.Put(ctx, client, changed)
	guarded("Put over the item", err, "Put")
	guarded("txn.Replace", txn.Write(ctx, client, []txn.Action{txn.Replace(e, changed)}), "Replace")
	guarded("txn.Put", txn.Write(ctx, client, []txn.Action{txn.Put(e, changed)}), "TransactPut")
	gone := changed
	gone.Long = ""
	_, err = e.Replace(ctx, client, gone)
	var ue *keyfirst.UniqueValueError
	if !errors.As(err, &ue) || ue.Op != "Replace" || !ue.Found {
		t.Errorf("a Replace that drops the value: %v, want the *UniqueValueError", err)
	}
	// A Put that may create fails on a new key: it does not create.
	_, err = e.Put(ctx, client, Badge{ID: "new", Long: "n"})
	uniqueRefusal(t, "a Put of a new key", err, "Put", "txn.Unique.Create")
	if got, err := e.Get(ctx, client, key); err != nil || got.Long != "a" || got.Num != "7" {
		t.Fatalf("after the refused writes b1 is %+v, %v", got, err)
	}
	kept := b1
	kept.Num = "8"
	if _, err := e.Replace(ctx, client, kept); err != nil {
		t.Fatalf("a Replace that keeps the value: %v", err)
	}
	kept.Num = "9"
	if _, err := e.Put(ctx, client, kept); err != nil {
		t.Fatalf("a Put over the item that keeps the value: %v", err)
	}
	kept.Num = "10"
	mustWrite(t, ctx, client, txn.Replace(e, kept))
	kept.Num = "11"
	mustWrite(t, ctx, client, txn.Put(e, kept))
	if _, err := e.Update(ctx, client, key, keyfirst.Set("Num", "12")); err != nil {
		t.Fatalf("an Update of another field: %v", err)
	}
	// The item without the value: a write that keeps none succeeds, one
	// that gives it one fails.
	b3 := Badge{ID: "b3", Num: "4"}
	if _, err := e.Replace(ctx, client, b3); err != nil {
		t.Fatalf("a Replace that keeps no value: %v", err)
	}
	b3.Long = "c"
	_, err = e.Replace(ctx, client, b3)
	if !errors.As(err, &ue) || ue.Stored != nil || !ue.Found {
		t.Errorf("a Replace that gives b3 a value: %v, want the *UniqueValueError with no stored value", err)
	}

	// txn.Unique's actions still write the value, with its marker.
	stored, _ := e.Get(ctx, client, key)
	moved := stored
	moved.Long = "z"
	mustWrite(t, ctx, client, longs.Change(stored, moved), longs.Delete(Badge{ID: "b2", Long: "b"}))

	gotMarkers, want := markersOf(t, client, e)
	if !maps.Equal(gotMarkers, want) || len(want) != 1 {
		t.Fatalf("markers %v, want those of the stored values %v", gotMarkers, want)
	}
}

// A versioned entity's writes are guarded the same way: a Put of version
// 0 with the value creates, refused; a Put or Replace of the stored
// version that changes the value fails on the stored value.
func TestUniqueValueVersionedPaths(t *testing.T) {
	t.Parallel()
	s, ctx := localShop(t)
	emails := keyfirst.Must(txn.NewUnique(s.users, "Email"))
	create := emails.Create(User{ID: "u1", Email: "ann@example.com", Name: "Ann"})
	mustWrite(t, ctx, s.client, create)
	u1, _ := create.Item()
	var ue *keyfirst.UniqueValueError
	if _, err := s.users.Put(ctx, noCalls{T: t}, User{ID: "u2", Email: "bob@example.com"}); !errors.As(err, &ue) || ue.Field != "Email" || ue.Use != "txn.Unique.Create" {
		t.Fatalf("a Put of version 0 with an email: %v, want the *UniqueValueError naming txn.Unique.Create", err)
	}
	changed := u1
	changed.Email = "ann@example.org"
	_, errPut := s.users.Put(ctx, s.client, changed)
	_, errReplace := s.users.Replace(ctx, s.client, changed)
	for name, err := range map[string]error{"Put": errPut, "Replace": errReplace} {
		if !errors.As(err, &ue) || !ue.Found || text(ue.Stored) != "ann@example.com" || errors.Is(err, keyfirst.ErrVersionConflict) {
			t.Errorf("%s of the stored version with another email: %v, want the *UniqueValueError with the stored email", name, err)
		}
	}
	renamed := u1
	renamed.Name = "Anne"
	if got, err := s.users.Put(ctx, s.client, renamed); err != nil || got.Version != 2 {
		t.Fatalf("a Put that keeps the email: %+v, %v", got, err)
	}
}
