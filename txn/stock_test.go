package txn_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/txn"
)

// ErrOutOfStock is the shop's own error: the product has no stock left.
var ErrOutOfStock = errors.New("shop: out of stock")

// buy is seed 004's invariant, "decrement the stock and create the order",
// as a read-modify-write transaction: the product is read, its stock
// checked and decremented, and written back with its version checked and
// incremented beside the order's creation; Run retries when another buyer
// came first.
func buy(ctx context.Context, s shop, productID, customer, orderID string, attempts *atomic.Int64) error {
	key, err := s.products.Key(Product{ID: productID})
	if err != nil {
		return err
	}
	return txn.Run(ctx, s.client, func(ctx context.Context, tx *txn.Tx) ([]txn.Action, error) {
		attempts.Add(1)
		read := txn.Read(s.products, key)
		if err := tx.Get(ctx, read); err != nil {
			return nil, err
		}
		p, err := read.Result()
		if err != nil {
			return nil, err
		}
		if p.Stock < 1 {
			return nil, fmt.Errorf("%w: %s", ErrOutOfStock, p.ID)
		}
		p.Stock--
		return []txn.Action{
			txn.Replace(s.products, p),
			txn.Create(s.orders, Order{Customer: customer, ID: orderID, Product: p.ID, Status: Open, Placed: "2026-06-23T10:00:00Z"}),
		}, nil
	})
}

// Seed 004: 8 goroutines make 150 purchases of a product with a stock of
// 100: exactly 100 orders exist, the stock is 0, nothing is oversold, and
// each of the 50 other purchases fails with ErrOutOfStock. Not parallel,
// so that goleak sees only its goroutines.
func TestStockAndOrderSeed004(t *testing.T) {
	s, ctx := localShop(t)
	var calls atomic.Int64
	bought, out := purchases(t, s, func(n int) error {
		return buy(ctx, s, "p1", "c1", fmt.Sprintf("o%03d", n), &calls)
	}, func(err error) bool { return errors.Is(err, ErrOutOfStock) })
	checkPurchases(t, s, bought, out)
	t.Logf("%d purchases by %d buyers: %d bought, %d out of stock, %d attempts (reads) in all", seedPurchases, seedBuyers, bought, out, calls.Load())
}

// Seed 004 with the purchase as one TransactWriteItems without a read
// (txn.Update beside txn.Create): the same outcome, each out-of-stock
// purchase the product action's typed condition failure, and no request
// but the purchases and the retries of their conflicts with each other.
func TestStockAndOrderSeed004Update(t *testing.T) {
	s, ctx := localShop(t)
	c := &counting{Client: s.client}
	bought, out := purchases(t, s, func(n int) error {
		return txn.Write(ctx, c, purchase(s, "p1", order("c1", fmt.Sprintf("o%03d", n), Open, "2026-06-23T10:00:00Z")))
	}, outOfStock)
	checkPurchases(t, s, bought, out)
	writes, reads := c.writes.Load(), c.gets.Load()+c.txGets.Load()
	t.Logf("%d purchases by %d buyers: %d bought, %d out of stock; %d TransactWriteItems (%d retries after conflicts), %d GetItem, %d TransactGetItems",
		seedPurchases, seedBuyers, bought, out, writes, writes-seedPurchases, c.gets.Load(), c.txGets.Load())
	if reads != 0 || c.updates.Load() != 0 || writes < seedPurchases {
		t.Fatalf("%d TransactWriteItems, %d reads, %d UpdateItem: want at least %d transactions and nothing else", writes, reads, c.updates.Load(), seedPurchases)
	}
}

// outOfStock reports whether err is the cancellation of a purchase
// because the product's stock was below 1: the failed condition of its
// update, action 0, alone.
func outOfStock(err error) bool {
	var canceled *txn.CanceledError
	var cond *keyfirst.ConditionError
	return errors.As(err, &canceled) && len(canceled.Failed) == 1 && canceled.Failed[0].Position == 0 &&
		errors.As(canceled.Failed[0].Err, &cond) && errors.Is(cond, keyfirst.ErrConditionFailed) && cond.Failed == "Stock >= 1"
}

// Seed 004's figures: a stock of 100, 150 purchases, 8 buyers.
const seedStock, seedPurchases, seedBuyers = 100, 150, 8

// purchases stores the product p1 with a stock of seedStock and makes
// seedPurchases purchases (buy(n), n from 0) from seedBuyers goroutines;
// it counts those that succeeded and those that isOut says are out of
// stock, and fails t on any other error or a goroutine left behind.
func purchases(t *testing.T, s shop, buy func(n int) error, isOut func(error) bool) (bought, out int64) {
	t.Helper()
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent(),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"))
	if _, err := s.products.Put(context.Background(), s.client, Product{ID: "p1", Name: "lamp", Stock: seedStock}); err != nil {
		t.Fatal(err)
	}
	jobs := make(chan int)
	var (
		wg       sync.WaitGroup
		nb, nout atomic.Int64
		mu       sync.Mutex
		other    []error
	)
	for range seedBuyers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range jobs {
				err := buy(n)
				switch {
				case err == nil:
					nb.Add(1)
				case isOut(err):
					nout.Add(1)
				default:
					mu.Lock()
					other = append(other, err)
					mu.Unlock()
				}
			}
		}()
	}
	for n := range seedPurchases {
		jobs <- n
	}
	close(jobs)
	wg.Wait()
	if len(other) > 0 {
		t.Fatalf("%d purchases failed otherwise: %v", len(other), other)
	}
	return nb.Load(), nout.Load()
}

// checkPurchases checks seed 004's invariant after the purchases: exactly
// seedStock bought and orders stored, the others out of stock, the stock
// 0, the version incremented once per purchase.
func checkPurchases(t *testing.T, s shop, bought, out int64) {
	t.Helper()
	p, err := s.products.Get(context.Background(), s.client, keyfirst.Must(s.products.Key(Product{ID: "p1"})))
	if err != nil {
		t.Fatal(err)
	}
	orderCount := len(s.partition(t, "", "PK", "CUST#c1"))
	if bought != seedStock || out != seedPurchases-seedStock || p.Stock != 0 || orderCount != seedStock || p.Version != seedStock+1 {
		t.Fatalf("bought %d, out of stock %d, stock left %d (version %d), orders stored %d", bought, out, p.Stock, p.Version, orderCount)
	}
}

// Run on an entity without a version: the item read is guarded by every
// attribute the entity reads or writes, so another writer's change
// between the read and the write cancels the attempt (a version conflict)
// and the next attempt works on the fresh item: no update is lost. A
// version conflict on an item Run did not read ends it at once.
func TestRunGuardsWhatItRead(t *testing.T) {
	t.Parallel()
	s, ctx := localShop(t)
	o := order("c1", "o1", Open, "2026-06-23T10:00:00Z")
	if _, err := s.orders.Put(ctx, s.client, o); err != nil {
		t.Fatal(err)
	}
	key := mustKey(t, s.orders, o)
	attempts := 0
	err := txn.Run(ctx, s.client, func(ctx context.Context, tx *txn.Tx) ([]txn.Action, error) {
		attempts++
		r := txn.Read(s.orders, key)
		if err := tx.Get(ctx, r); err != nil {
			return nil, err
		}
		v, err := r.Result()
		if err != nil {
			return nil, err
		}
		if attempts == 1 { // another writer comes first
			other := v
			other.Product = "p9"
			if _, err := s.orders.Replace(ctx, s.client, other); err != nil {
				return nil, err
			}
		}
		v.Note += "noted"
		return []txn.Action{txn.Replace(s.orders, v)}, nil
	})
	if err != nil || attempts != 2 {
		t.Fatalf("%v after %d attempts, want success after 2", err, attempts)
	}
	got, err := s.orders.Get(ctx, s.client, key)
	if err != nil || got.Product != "p9" || got.Note != "noted" {
		t.Fatalf("%+v %v: an update was lost", got, err)
	}

	p, err := s.products.Put(ctx, s.client, Product{ID: "p1", Name: "lamp", Stock: 1})
	if err != nil {
		t.Fatal(err)
	}
	stale := p
	stale.Version = 7
	attempts = 0
	err = txn.Run(ctx, s.client, func(context.Context, *txn.Tx) ([]txn.Action, error) {
		attempts++
		return []txn.Action{txn.Replace(s.products, stale)}, nil
	})
	if !errors.Is(err, keyfirst.ErrVersionConflict) || errors.Is(err, txn.ErrGaveUp) || attempts != 1 {
		t.Fatalf("%v after %d attempts, want a version conflict after 1", err, attempts)
	}
}
