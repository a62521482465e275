package keyfirst_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/shard"
	"github.com/keyfirst/keyfirst/txn"
)

func TestOptionsAreCheckedBeforeAnyRequest(t *testing.T) {
	s := newShop(t, "")
	ctx := context.Background()
	client := noCalls{T: t}
	o := order("c1", "o1", Open, day)
	k := mustKey(t, s.orders, o)
	c := Customer{ID: "c1"}
	ck := mustKey(t, s.customers, c)
	noop := func(*Order) {}
	retry := func(o *keyfirst.Options) { o.RetryBaseDelay = time.Millisecond }
	tests := []struct {
		name   string
		call   func() error
		option string
	}{
		{"ConsistentRead on Put", func() error { _, err := s.orders.Put(ctx, client, o, keyfirst.ConsistentRead()); return err }, "ConsistentRead"},
		{"ConsistentRead on Replace", func() error { _, err := s.orders.Replace(ctx, client, o, keyfirst.ConsistentRead()); return err }, "ConsistentRead"},
		{"ConsistentRead on Modify", func() error {
			_, err := s.orders.Modify(ctx, client, k, noop, keyfirst.ConsistentRead())
			return err
		}, "ConsistentRead"},
		{"CreateOnly on Get", func() error { _, err := s.orders.Get(ctx, client, k, keyfirst.CreateOnly()); return err }, "CreateOnly"},
		{"CreateOnly on Delete", func() error { return s.customers.Delete(ctx, client, c, keyfirst.CreateOnly()) }, "CreateOnly"},
		{"CreateOnly on BatchWrite", func() error {
			return s.table.BatchWrite(ctx, client, []keyfirst.WriteRequest{s.customers.PutRequest(c)}, keyfirst.CreateOnly())
		}, "CreateOnly"},
		{"MaxAttempts on Put", func() error { _, err := s.orders.Put(ctx, client, o, keyfirst.WithMaxAttempts(3)); return err }, "MaxAttempts/RetryBaseDelay/RetryMaxDelay"},
		{"retry delay on Get", func() error { _, err := s.orders.Get(ctx, client, k, retry); return err }, "MaxAttempts/RetryBaseDelay/RetryMaxDelay"},
		{"negative MaxAttempts", func() error {
			_, err := s.orders.Modify(ctx, client, k, noop, keyfirst.WithMaxAttempts(-1))
			return err
		}, "MaxAttempts"},
		{"negative delay", func() error {
			_, err := s.customers.BatchGet(ctx, client, []keyfirst.Key[Customer]{ck}, func(o *keyfirst.Options) { o.RetryMaxDelay = -1 })
			return err
		}, "RetryBaseDelay/RetryMaxDelay"},
		{"CursorKey on Get", func() error {
			_, err := s.orders.Get(ctx, client, k, keyfirst.WithCursorKey([]byte("0123456789abcdef")))
			return err
		}, "CursorKey"},
		{"a cursor on Put", func() error { _, err := s.orders.Put(ctx, client, o, keyfirst.WithNext(new(query.Cursor))); return err }, "WithNext"},
		{"a transaction's token on Delete", func() error { return s.customers.Delete(ctx, client, c, txn.Token("t")) }, "Token"},
		{"a shard read's cost on BatchGet", func() error {
			_, err := s.customers.BatchGet(ctx, client, []keyfirst.Key[Customer]{ck}, shard.WithCost(new(shard.Cost)))
			return err
		}, "WithCost"},
		{"CreateOnly with a version", func() error {
			v := o
			v.Version = 3
			_, err := s.orders.Put(ctx, client, v, keyfirst.CreateOnly())
			return err
		}, "CreateOnly"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			var oe *keyfirst.OptionError
			if !errors.As(err, &oe) || !errors.Is(err, keyfirst.ErrInvalidOption) || oe.Option != tt.option {
				t.Fatalf("err = %v, want an *OptionError for %s", err, tt.option)
			}
		})
	}
}

func TestZeroKeyIsRefused(t *testing.T) {
	s := newShop(t, "")
	ctx := context.Background()
	var zero keyfirst.Key[Order]
	calls := map[string]func() error{
		"Get": func() error { _, err := s.orders.Get(ctx, noCalls{T: t}, zero); return err },
		"Modify": func() error {
			_, err := s.orders.Modify(ctx, noCalls{T: t}, zero, func(*Order) {})
			return err
		},
		"BatchGet": func() error { _, err := s.orders.BatchGet(ctx, noCalls{T: t}, []keyfirst.Key[Order]{zero}); return err },
		"DeleteRequest": func() error {
			return s.table.BatchWrite(ctx, noCalls{T: t}, []keyfirst.WriteRequest{s.customers.DeleteRequest(keyfirst.Key[Customer]{})})
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			var ie *keyfirst.ItemError
			if err := call(); !errors.As(err, &ie) || ie.Problem != keyfirst.ItemMissingKey {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestNilOptionFunctionsAreIgnored(t *testing.T) {
	s := newShop(t, "")
	// A nil option is skipped, the call is refused for its bad item,
	// not for the option.
	_, err := s.orders.Put(context.Background(), noCalls{T: t}, Order{}, nil)
	if !errors.Is(err, keyfirst.ErrInvalidItem) {
		t.Fatalf("err = %v", err)
	}
}
