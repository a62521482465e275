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
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// TestModifyConcurrentIncrements: 8 goroutines each make 25 increments of
// one item by read-modify-write, with the default options: every call
// succeeds and the end value counts them all, with and without a version
// attribute. Writers keep arriving, so no fixed number of attempts per
// call would do; Modify retries as long as another writer's success is
// the cause.
func TestModifyConcurrentIncrements(t *testing.T) {
	t.Parallel()
	const writers, increments = 8, 25
	// hammer runs the writers; modify makes one call through api and
	// reports its error. The attempts (reads) of each call are logged.
	hammer := func(t *testing.T, client *dynamodb.Client, modify func(api keyfirst.ModifyAPI) error) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		failures, attempts, most := 0, int64(0), int64(0)
		for range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range increments {
					api := &countingReads{Client: client}
					err := modify(api)
					mu.Lock()
					if err != nil {
						failures++
						t.Error(err)
					}
					attempts += api.reads.Load()
					most = max(most, api.reads.Load())
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		t.Logf("%d calls made %d attempts, at most %d for one call", writers*increments, attempts, most)
		if failures != 0 {
			t.Fatalf("%d of %d calls failed", failures, writers*increments)
		}
	}
	t.Run("versioned", func(t *testing.T) {
		t.Parallel()
		client, s := localShop(t)
		ctx := context.Background()
		k := mustKey(t, s.orders, mustPut(t, client, s.orders, order("c1", "o1", Open, day)))
		hammer(t, client, func(api keyfirst.ModifyAPI) error {
			_, err := s.orders.Modify(ctx, api, k, func(o *Order) { o.Total++ })
			return err
		})
		got, err := s.orders.Get(ctx, client, k, keyfirst.ConsistentRead())
		if err != nil {
			t.Fatal(err)
		}
		if want := writers * increments; got.Total != int64(100+want) || got.Version != int64(1+want) {
			t.Fatalf("total %d version %d, want %d and %d", got.Total, got.Version, 100+want, 1+want)
		}
	})
	t.Run("unversioned", func(t *testing.T) {
		t.Parallel()
		client, s := localShop(t)
		ctx := context.Background()
		k := mustKey(t, s.customers, mustPut(t, client, s.customers, Customer{ID: "c1"}))
		hammer(t, client, func(api keyfirst.ModifyAPI) error {
			_, err := s.customers.Modify(ctx, api, k, func(c *Customer) { c.Name += "x" })
			return err
		})
		got, err := s.customers.Get(ctx, client, k, keyfirst.ConsistentRead())
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Name) != writers*increments {
			t.Fatalf("%d increments stored, want %d: lost updates", len(got.Name), writers*increments)
		}
	})
}

// countingReads counts the reads of a client: the attempts of a Modify.
type countingReads struct {
	*dynamodb.Client
	reads atomic.Int64
}

func (c *countingReads) GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.reads.Add(1)
	return c.Client.GetItem(ctx, in, optFns...)
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
		if _, err := s.orders.Modify(ctx, client, k, func(o *Order) { o.Note += "!" }); err != nil {
			t.Error(err)
		}
	}
	calls := 0
	addTen := func(o *Order) { calls++; o.Total += 10 }

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

	_, err = s.orders.Modify(ctx, client, k, func(o *Order) { o.ID = "o2" })
	var kc *keyfirst.KeyChangedError
	if !errors.Is(err, keyfirst.ErrKeyChanged) || !errors.As(err, &kc) || kc.New != `("CUST#c1", "ORDER#o2")` {
		t.Fatalf("key change: %v", err)
	}
	errStop := errors.New("stop")
	if _, err := s.orders.ModifyE(ctx, client, k, func(o *Order) error { o.Note = "x"; return errStop }); err != errStop {
		t.Fatalf("fn error: %v", err)
	}
	if got, _ := s.orders.Get(ctx, client, k); got.Version != 1 || got.Note != "" {
		t.Fatalf("a refused modification was written: %+v", got)
	}
	missing := mustKey(t, s.orders, order("c1", "nope", Open, day))
	if _, err := s.orders.Modify(ctx, client, missing, func(*Order) {}); !errors.Is(err, keyfirst.ErrNotFound) {
		t.Fatalf("missing: %v", err)
	}
}

// TestModifyGivesUpTruthfully: without a version, the error after the last
// attempt says that the item changed since it was read, and how many
// attempts were made; nothing of the modification is written.
func TestModifyGivesUpTruthfully(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	ctx := context.Background()
	k := mustKey(t, s.customers, mustPut(t, client, s.customers, Customer{ID: "c1", Name: "Ana"}))
	rename := func() {
		if _, err := s.customers.Modify(ctx, client, k, func(c *Customer) { c.Name += "!" }); err != nil {
			t.Error(err)
		}
	}
	api := &interfering{Client: client, n: 2, other: rename}
	_, err := s.customers.Modify(ctx, api, k, func(c *Customer) { c.Admin = true },
		keyfirst.WithMaxAttempts(2), func(o *keyfirst.Options) { o.RetryBaseDelay = time.Millisecond })
	var ce *keyfirst.ConditionError
	if !errors.Is(err, keyfirst.ErrVersionConflict) || !strings.Contains(err.Error(), "the stored item changed since it was read") ||
		!strings.Contains(err.Error(), "2 attempts") || strings.Contains(err.Error(), "version 0") ||
		!errors.As(err, &ce) || ce.Attempts != 2 || ce.Versioned || avText(ce.Item["name"]) != "Ana!!" {
		t.Fatalf("gave up with: %v", err)
	}
	if got, _ := s.customers.Get(ctx, client, k, keyfirst.ConsistentRead()); got.Admin || got.Name != "Ana!!" {
		t.Fatalf("stored %+v", got)
	}
}

// tampering corrupts, in every UpdateItem, the expression value that holds
// the entity type: the condition then fails on an item nobody changed, as
// it would with a bug in keyfirst's guard.
type tampering struct {
	*dynamodb.Client
	typ     string
	reads   int
	updates int
}

func (c *tampering) GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.reads++
	return c.Client.GetItem(ctx, in, optFns...)
}

func (c *tampering) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	c.updates++
	for alias, v := range in.ExpressionAttributeValues {
		if s, ok := v.(*types.AttributeValueMemberS); ok && s.Value == c.typ {
			in.ExpressionAttributeValues[alias] = &types.AttributeValueMemberS{Value: c.typ + "?"}
		}
	}
	return c.Client.UpdateItem(ctx, in, optFns...)
}

// TestModifyStopsWhenNothingChanged: a condition that fails although the
// stored item is the one read is no contention: Modify stops at once with
// an error that says so instead of retrying to exhaustion.
func TestModifyStopsWhenNothingChanged(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	ctx := context.Background()
	o := mustPut(t, client, s.orders, order("c1", "o1", Open, day))
	c := mustPut(t, client, s.customers, Customer{ID: "c1", Name: "Ana"})
	fast := func(o *keyfirst.Options) { o.RetryBaseDelay = time.Millisecond }
	for _, tc := range []struct {
		typ    string
		modify func(api keyfirst.ModifyAPI) error
	}{
		{"ORDER", func(api keyfirst.ModifyAPI) error {
			_, err := s.orders.Modify(ctx, api, mustKey(t, s.orders, o), func(o *Order) { o.Note = "x" }, fast)
			return err
		}},
		{"CUSTOMER", func(api keyfirst.ModifyAPI) error {
			_, err := s.customers.Modify(ctx, api, mustKey(t, s.customers, c), func(c *Customer) { c.Admin = true }, fast)
			return err
		}},
	} {
		api := &tampering{Client: client, typ: tc.typ}
		err := tc.modify(api)
		var ce *keyfirst.ConditionError
		if !errors.Is(err, keyfirst.ErrConditionUnexplained) || errors.Is(err, keyfirst.ErrVersionConflict) ||
			!errors.As(err, &ce) || ce.Attempts != 1 || !strings.Contains(err.Error(), "no other writer caused it") ||
			api.reads != 1 || api.updates != 1 {
			t.Fatalf("%s: %d reads, %d updates: %v", tc.typ, api.reads, api.updates, err)
		}
	}
}

// TestModifyNilFunction: a nil change function is refused before any
// request (it used to panic after the read), by Modify and ModifyE.
func TestModifyNilFunction(t *testing.T) {
	ctx := context.Background()
	s := newShop(t, "shop")
	key := mustKey(t, s.orders, order("c_1", "o_1", Open, day))
	var oe *keyfirst.OptionError
	if _, err := s.orders.Modify(ctx, noCalls{T: t}, key, nil); !errors.As(err, &oe) {
		t.Errorf("Modify(nil) = %v, want *OptionError", err)
	}
	if _, err := s.orders.ModifyE(ctx, noCalls{T: t}, key, nil); !errors.As(err, &oe) {
		t.Errorf("ModifyE(nil) = %v, want *OptionError", err)
	}
}
