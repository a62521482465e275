package keyfirst_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
)

// TestModifyConcurrentIncrements: N goroutines each add 1 by
// read-modify-write; the end value is N, with and without a version
// attribute. N attempts always suffice for N writers.
func TestModifyConcurrentIncrements(t *testing.T) {
	t.Parallel()
	const writers = 8
	t.Run("versioned", func(t *testing.T) {
		t.Parallel()
		client, s := localShop(t)
		ctx := context.Background()
		o, err := s.orders.Put(ctx, client, order("c1", "o1", Open, day))
		if err != nil {
			t.Fatal(err)
		}
		o.Total = 0
		k := mustKey(t, s.orders, o)
		var wg sync.WaitGroup
		errs := make(chan error, writers)
		for range writers {
			wg.Go(func() {
				_, err := s.orders.Modify(ctx, client, k, func(o *Order) error {
					o.Total++
					return nil
				}, keyfirst.WithMaxAttempts(writers), func(o *keyfirst.Options) { o.RetryBaseDelay = time.Millisecond })
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.orders.Get(ctx, client, k, keyfirst.ConsistentRead())
		if err != nil {
			t.Fatal(err)
		}
		if got.Total != 100+writers || got.Version != 1+writers {
			t.Fatalf("total %d version %d, want %d and %d", got.Total, got.Version, 100+writers, 1+writers)
		}
	})
	t.Run("unversioned", func(t *testing.T) {
		t.Parallel()
		client, s := localShop(t)
		ctx := context.Background()
		c := Customer{ID: "c1"}
		if _, err := s.customers.Put(ctx, client, c); err != nil {
			t.Fatal(err)
		}
		k := mustKey(t, s.customers, c)
		var wg sync.WaitGroup
		var failures atomic.Int32
		for range writers {
			wg.Go(func() {
				_, err := s.customers.Modify(ctx, client, k, func(c *Customer) error {
					c.Name += "x"
					return nil
				}, keyfirst.WithMaxAttempts(writers), func(o *keyfirst.Options) { o.RetryBaseDelay = time.Millisecond })
				if err != nil {
					t.Error(err)
					failures.Add(1)
				}
			})
		}
		wg.Wait()
		got, err := s.customers.Get(ctx, client, k, keyfirst.ConsistentRead())
		if err != nil || failures.Load() != 0 {
			t.Fatal(err)
		}
		if got.Name != strings.Repeat("x", writers) {
			t.Fatalf("name %q: lost updates", got.Name)
		}
	})
}

// interfering is a client that lets another writer change the item between
// Modify's read and its write, for the first n reads.
type interfering struct {
	*dynamodb.Client
	n           int
	other       func()
	reads       int
	afterUpdate func()
}

func (c *interfering) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	out, err := c.Client.UpdateItem(ctx, in, optFns...)
	if c.afterUpdate != nil {
		c.afterUpdate()
	}
	return out, err
}

func (c *interfering) GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	out, err := c.Client.GetItem(ctx, in, optFns...)
	c.reads++
	if c.reads <= c.n {
		c.other()
	}
	return out, err
}

func TestModifyRetriesAndGivesUp(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	ctx := context.Background()
	o, err := s.orders.Put(ctx, client, order("c1", "o1", Open, day))
	if err != nil {
		t.Fatal(err)
	}
	k := mustKey(t, s.orders, o)
	bump := func() {
		if _, err := s.orders.Modify(ctx, client, k, func(o *Order) error { o.Note += "!"; return nil }); err != nil {
			t.Error(err)
		}
	}
	calls := 0
	addTen := func(o *Order) error { calls++; o.Total += 10; return nil }

	// Two interfering writes, three attempts: the third succeeds, on the
	// fresh item.
	c := &interfering{Client: client, n: 2, other: bump}
	var cost keyfirst.Capacity
	got, err := s.orders.Modify(ctx, c, k, addTen, keyfirst.WithMaxAttempts(3), keyfirst.WithCapacity(&cost),
		func(o *keyfirst.Options) { o.RetryBaseDelay = time.Millisecond })
	if err != nil {
		t.Fatal(err)
	}
	// Three reads and the successful write are reported (a refused write's
	// error carries no capacity figures).
	if cost.Requests != 4 || cost.Read <= 0 || cost.Write <= 0 {
		t.Fatalf("capacity %+v", cost)
	}
	if calls != 3 || got.Total != 110 || got.Note != "!!" || got.Version != 4 {
		t.Fatalf("after retries: calls %d %+v", calls, got)
	}

	// One attempt against an interfering writer: a conflict, nothing lost.
	c = &interfering{Client: client, n: 1, other: bump}
	_, err = s.orders.Modify(ctx, c, k, addTen, keyfirst.WithMaxAttempts(1))
	var ce *keyfirst.ConditionError
	if !errors.Is(err, keyfirst.ErrVersionConflict) || !errors.As(err, &ce) || ce.Expected != 4 || ce.Actual != 5 {
		t.Fatalf("exhausted: %v", err)
	}
	stored, _ := s.orders.Get(ctx, client, k, keyfirst.ConsistentRead())
	if stored.Total != 110 || stored.Note != "!!!" {
		t.Fatalf("stored %+v", stored)
	}

	// Cancelled during the backoff.
	cctx, cancel := context.WithCancel(ctx)
	c = &interfering{Client: client, n: 1, other: bump, afterUpdate: cancel}
	start := time.Now()
	_, err = s.orders.Modify(cctx, c, k, addTen, func(o *keyfirst.Options) { o.RetryBaseDelay = time.Hour })
	if !errors.Is(err, context.Canceled) || !errors.Is(err, keyfirst.ErrVersionConflict) {
		t.Fatalf("cancelled: %v", err)
	}
	if time.Since(start) > time.Minute {
		t.Fatal("the backoff ignored the cancellation")
	}
	if c.reads != 1 {
		t.Fatalf("%d reads after the cancellation", c.reads)
	}
}

func TestModifyRefusals(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	ctx := context.Background()
	o, err := s.orders.Put(ctx, client, order("c1", "o1", Open, day))
	if err != nil {
		t.Fatal(err)
	}
	k := mustKey(t, s.orders, o)

	_, err = s.orders.Modify(ctx, client, k, func(o *Order) error { o.ID = "o2"; return nil })
	var kc *keyfirst.KeyChangedError
	if !errors.Is(err, keyfirst.ErrKeyChanged) || !errors.As(err, &kc) || kc.New != `("CUST#c1", "ORDER#o2")` {
		t.Fatalf("key change: %v", err)
	}
	errStop := errors.New("stop")
	if _, err := s.orders.Modify(ctx, client, k, func(o *Order) error { o.Note = "x"; return errStop }); err != errStop {
		t.Fatalf("fn error: %v", err)
	}
	if got, _ := s.orders.Get(ctx, client, k); got.Version != 1 || got.Note != "" {
		t.Fatalf("a refused modification was written: %+v", got)
	}
	missing := mustKey(t, s.orders, order("c1", "nope", Open, day))
	if _, err := s.orders.Modify(ctx, client, missing, func(*Order) error { return nil }); !errors.Is(err, keyfirst.ErrNotFound) {
		t.Fatalf("missing: %v", err)
	}
}
