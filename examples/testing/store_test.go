package main

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/keyfirst/keyfirst/examples/internal/demotest"
	"github.com/keyfirst/keyfirst/integration"
)

// TestMain runs the tests, then ends the DynamoDB Local container they
// shared: one per test binary, started by the first test that needs it.
func TestMain(m *testing.M) { integration.Main(m) }

// newStore returns a Store on a table of the test's own, created in the
// test binary's DynamoDB Local and deleted when the test ends: what makes
// t.Parallel safe.
func newStore(t *testing.T) *Store {
	t.Helper()
	table := integration.TableOf(t, Carts)
	store, err := NewStore(integration.Client(t), table)
	if err != nil {
		t.Fatal(err)
	}
	return store
}

// cart returns the cart's lines, failing t on an error.
func cart(t *testing.T, s *Store, id string) []Line {
	t.Helper()
	lines, err := s.Cart(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

func TestAddThenCart(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	for _, l := range []Line{{"c1", "tea", 2, 0}, {"c1", "cups", 6, 0}, {"c1", "tea", 1, 0}, {"c2", "tea", 5, 0}} {
		if err := s.Add(context.Background(), l.Cart, l.SKU, l.Qty); err != nil {
			t.Fatal(err)
		}
	}
	want := []Line{{"c1", "cups", 6, 1}, {"c1", "tea", 3, 2}}
	if got := cart(t, s, "c1"); !slices.Equal(got, want) {
		t.Errorf("c1's cart is %+v, want %+v", got, want)
	}
}

// Adds at the same time lose nothing: DynamoDB's conditional writes, which
// only a real DynamoDB (Local) can show.
func TestConcurrentAdds(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- s.Add(context.Background(), "c1", "tea", 1)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	want := []Line{{"c1", "tea", n, n}}
	if got := cart(t, s, "c1"); !slices.Equal(got, want) {
		t.Errorf("after %d concurrent adds the cart is %+v, want %+v", n, got, want)
	}
}

// A test's table is its own: another test's lines are not in it.
func TestEmptyCart(t *testing.T) {
	t.Parallel()
	if got := cart(t, newStore(t), "c1"); len(got) != 0 {
		t.Errorf("a new table's cart c1 holds %+v", got)
	}
}

// The program prints exactly this against DynamoDB Local.
func TestRun(t *testing.T) {
	t.Parallel()
	demotest.Check(t, run, want)
}

const want = `added 2 tea to c_42
added 6 cups to c_42
added 1 tea to c_42
added 5 tea to c_7
c_42's cart:
  cups  6 (version 1)
  tea   3 (version 2)
`
