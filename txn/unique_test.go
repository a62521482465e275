package txn_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/txn"
)

// Unique email: creates, changes and deletes keep the markers in step; a
// taken email is ErrNotUnique naming the field and the holder; of two
// concurrent creates of one email exactly one wins.
func TestUniqueEmail(t *testing.T) {
	t.Parallel()
	s, ctx := localShop(t)
	emails, err := txn.NewUnique(s.users, "Email")
	if err != nil {
		t.Fatal(err)
	}
	marker := func(email string) string {
		item := s.raw(t, "UNIQUE#USER#email#"+email, "UNIQUE#USER#email#"+email)
		if item == nil {
			return ""
		}
		return text(item["owner"])
	}
	create := emails.Create(User{ID: "u1", Email: "ann@example.com", Name: "Ann"})
	mustWrite(t, ctx, s.client, create)
	u1, _ := create.Item()
	if u1.Version != 1 || marker("ann@example.com") != `("USER#u1", "USER")` {
		t.Fatalf("created %+v, marker owner %q", u1, marker("ann@example.com"))
	}

	// A second user with the same email.
	err = txn.Write(ctx, s.client, []txn.Action{emails.Create(User{ID: "u2", Email: "ann@example.com", Name: "Bob"})})
	var ue *txn.UniqueError
	if !errors.Is(err, txn.ErrNotUnique) || !errors.As(err, &ue) || ue.Field != "Email" || ue.Attribute != "email" || ue.Value != "ann@example.com" || ue.Owner != `("USER#u1", "USER")` {
		t.Fatalf("%v, want ErrNotUnique naming email and u1", err)
	}
	if s.raw(t, "USER#u2", "USER") != nil {
		t.Fatal("the refused user was written")
	}
	t.Logf("duplicate: %v", err)

	// Change u1's email: the old marker goes, the new one comes.
	changed := u1
	changed.Email = "ann@example.org"
	change := emails.Change(u1, changed)
	mustWrite(t, ctx, s.client, change)
	u1, _ = change.Item()
	if marker("ann@example.com") != "" || marker("ann@example.org") != `("USER#u1", "USER")` || u1.Version != 2 {
		t.Fatalf("after the change: old marker %q, new %q, %+v", marker("ann@example.com"), marker("ann@example.org"), u1)
	}
	// A change from a stale before (its email is not the stored one).
	stale := u1
	stale.Email = "ann@example.com"
	if err := txn.Write(ctx, s.client, []txn.Action{emails.Change(stale, u1)}); !errors.Is(err, keyfirst.ErrConditionFailed) {
		t.Fatalf("change from a stale email: %v, want ErrConditionFailed", err)
	}
	// The freed email can be taken; a change that keeps the email touches
	// no marker.
	mustWrite(t, ctx, s.client, emails.Create(User{ID: "u2", Email: "ann@example.com", Name: "Bob"}))
	renamed := u1
	renamed.Name = "Anne"
	rename := emails.Change(u1, renamed)
	mustWrite(t, ctx, s.client, rename)
	u1, _ = rename.Item()
	// Taking another's email by a change is refused.
	taken := u1
	taken.Email = "ann@example.com"
	if err := txn.Write(ctx, s.client, []txn.Action{emails.Change(u1, taken)}); !errors.Is(err, txn.ErrNotUnique) {
		t.Fatalf("change to a taken email: %v", err)
	}
	// Delete u1: its marker goes.
	mustWrite(t, ctx, s.client, emails.Delete(u1))
	if marker("ann@example.org") != "" || s.raw(t, "USER#u1", "USER") != nil {
		t.Fatal("the deleted user or its marker is still stored")
	}

	// Two concurrent creates of one email: exactly one wins.
	for round := range 5 {
		email := string(rune('a'+round)) + "@example.net"
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = txn.Write(ctx, s.client, []txn.Action{emails.Create(User{ID: email + string(rune('0'+i)), Email: email, Name: "racer"})})
			}()
		}
		wg.Wait()
		wins := 0
		for _, err := range errs {
			switch {
			case err == nil:
				wins++
			case !errors.Is(err, txn.ErrNotUnique):
				t.Fatalf("round %d: %v, want ErrNotUnique for the loser", round, err)
			}
		}
		if wins != 1 {
			t.Fatalf("round %d: %d creates won: %v", round, wins, errs)
		}
		owner := marker(email)
		if owner != `("USER#`+email+`0", "USER")` && owner != `("USER#`+email+`1", "USER")` {
			t.Fatalf("round %d: marker owner %q", round, owner)
		}
	}
}
