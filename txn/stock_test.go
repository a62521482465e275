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
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent(),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"))
	const stock, purchases, buyers = 100, 150, 8
	if _, err := s.products.Put(ctx, s.client, Product{ID: "p1", Name: "lamp", Stock: stock}); err != nil {
		t.Fatal(err)
	}
	jobs := make(chan int)
	var (
		wg                 sync.WaitGroup
		bought, out, calls atomic.Int64
		mu                 sync.Mutex
		other              []error
	)
	for range buyers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range jobs {
				err := buy(ctx, s, "p1", "c1", fmt.Sprintf("o%03d", n), &calls)
				switch {
				case err == nil:
					bought.Add(1)
				case errors.Is(err, ErrOutOfStock):
					out.Add(1)
				default:
					mu.Lock()
					other = append(other, err)
					mu.Unlock()
				}
			}
		}()
	}
	for n := range purchases {
		jobs <- n
	}
	close(jobs)
	wg.Wait()
	if len(other) > 0 {
		t.Fatalf("%d purchases failed otherwise: %v", len(other), other)
	}
	p, err := s.products.Get(ctx, s.client, keyfirst.Must(s.products.Key(Product{ID: "p1"})))
	if err != nil {
		t.Fatal(err)
	}
	orderCount := len(s.partition(t, "", "PK", "CUST#c1"))
	if bought.Load() != stock || out.Load() != purchases-stock || p.Stock != 0 || orderCount != stock || p.Version != stock+1 {
		t.Fatalf("bought %d, out of stock %d, stock left %d (version %d), orders stored %d", bought.Load(), out.Load(), p.Stock, p.Version, orderCount)
	}
	t.Logf("%d purchases by %d buyers: %d bought, %d out of stock, %d attempts (reads) in all", purchases, buyers, bought.Load(), out.Load(), calls.Load())
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
