package keyfirst_test

import (
	"errors"
	"testing"

	"github.com/keyfirst/keyfirst"
)

// An option a transactional action does not take is refused when the
// action is built, by the root package itself (txn makes most of these
// unrepresentable: txn.Create is the only create-only action).
func TestTransactOptionsRefused(t *testing.T) {
	t.Parallel()
	s := newShop(t, "shop")
	o := order("c1", "o1", "PENDING", day)
	cond := keyfirst.Field("Total").Exists()
	key := mustKey(t, s.orders, o)
	for name, build := range map[string]func() error{
		"Replace CreateOnly": func() error {
			_, _, err := s.orders.TransactReplace(o, keyfirst.TransactOptions{CreateOnly: true})
			return err
		},
		"Delete CreateOnly": func() error {
			_, err := s.orders.TransactDelete(o, keyfirst.TransactOptions{CreateOnly: true})
			return err
		},
		"Check CreateOnly": func() error {
			_, err := s.orders.TransactCheck(key, keyfirst.TransactOptions{CreateOnly: true, Condition: cond})
			return err
		},
		"Check without condition": func() error {
			_, err := s.orders.TransactCheck(key, keyfirst.TransactOptions{})
			return err
		},
	} {
		if err := build(); !errors.Is(err, keyfirst.ErrInvalidOption) {
			t.Errorf("%s: %v, want ErrInvalidOption", name, err)
		}
	}
	if _, _, err := s.orders.TransactPut(o, keyfirst.TransactOptions{CreateOnly: true}); err != nil {
		t.Errorf("Put CreateOnly: %v", err)
	}
}
