package sparse_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"go.uber.org/goleak"

	"github.com/keyfirst/keyfirst"
)

// Under load: 8 goroutines open and resolve 2,000 versioned tickets in
// random order, many of them on a few hot tickets at once. Writers that
// lose a race retry from a fresh read (Modify does it itself; the
// Get-then-Replace writers on ErrVersionConflict). At the end the index holds
// exactly the tickets whose stored state is open, oldest first, no ticket is
// lost and no update is lost (each ticket's version counts its writes).
// Then the same load is cancelled half-way: every goroutine stops, and the
// index still matches the table.
//
// Not parallel, so that goleak sees only its goroutines.
func TestOpenResolveUnderLoad(t *testing.T) {
	const (
		nTickets = 2000
		workers  = 8
		hot      = 16 // tickets that get many concurrent writes
	)
	ctx := context.Background()
	client, table, tickets := liveTickets(t, true)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent(),
		// The client's keep-alive connections, opened by the load.
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"))

	rng := rand.New(rand.NewPCG(1, 2))
	base := at(0, 0)
	var clock atomic.Int64 // unique opening times: the index order is strict
	nextOpening := func() time.Time { return base.Add(time.Duration(clock.Add(1)) * time.Millisecond) }

	keys := make([]keyfirst.Key[Ticket], nTickets)
	for i := range keys {
		k, err := tickets.Key(Ticket{ID: id(i)})
		if err != nil {
			t.Fatal(err)
		}
		keys[i] = k
	}
	writes := make([]atomic.Int64, nTickets) // successful writes per ticket

	// op is one write: ticket i goes to state s.
	type op struct {
		i int
		s Status
	}
	run := func(ctx context.Context, ops []op) []error {
		feed := make(chan op)
		errs := make([]error, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for o := range feed {
					var err error
					if o.i%2 == 0 {
						err = modifyStatus(ctx, client, tickets, keys[o.i], o.s, nextOpening)
					} else {
						err = updateStatus(ctx, client, tickets, keys[o.i], o.s, nextOpening)
					}
					if err != nil {
						errs[w] = err
						for range feed { // drain: the feeder stops when ctx ends
						}
						return
					}
					writes[o.i].Add(1)
				}
			}()
		}
	feeding:
		for _, o := range ops {
			select {
			case feed <- o:
			case <-ctx.Done():
				break feeding
			}
		}
		close(feed)
		wg.Wait()
		return errs
	}

	// Phase 1: create every ticket, open or resolved, in random order.
	order := rng.Perm(nTickets)
	var creates sync.WaitGroup
	createErrs := make([]error, workers)
	for w := range workers {
		creates.Add(1)
		go func() {
			defer creates.Done()
			for j := w; j < nTickets; j += workers {
				i := order[j]
				s := Open
				if rng2(i) {
					s = Resolved
				}
				tk := Ticket{ID: id(i), Customer: "c", Subject: "s", Status: s, OpenedAt: nextOpening()}
				if _, err := tickets.Put(ctx, client, tk, keyfirst.CreateOnly()); err != nil {
					createErrs[w] = err
					return
				}
				writes[i].Add(1)
			}
		}()
	}
	creates.Wait()
	if err := errors.Join(createErrs...); err != nil {
		t.Fatal(err)
	}

	// Phase 2: open and resolve in random order; a quarter of the writes on
	// a few hot tickets, so that writers collide.
	var ops []op
	for range 2 * nTickets {
		i := rng.IntN(nTickets)
		if rng.IntN(4) == 0 {
			i = rng.IntN(hot)
		}
		s := Open
		if rng.IntN(2) == 0 {
			s = Resolved
		}
		ops = append(ops, op{i, s})
	}
	if err := errors.Join(run(ctx, ops)...); err != nil {
		t.Fatal(err)
	}
	stored := checkIndexMatchesTable(t, ctx, client, table, tickets, keys)
	for i, tk := range stored {
		if tk.Version != writes[i].Load() {
			t.Errorf("ticket %s has version %d after %d writes: an update was lost", tk.ID, tk.Version, writes[i].Load())
		}
	}

	// Phase 3: the same load, cancelled after a moment. Every goroutine
	// returns (goleak checks it), with nothing or the context's error, and
	// the index still holds exactly the open tickets: each write is one
	// request, whole or not at all.
	cctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	for _, err := range run(cctx, append(ops, ops...)) {
		if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
			t.Errorf("a cancelled writer: %v", err)
		}
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the writers took %v to stop after the deadline", d)
	}
	if cctx.Err() == nil {
		t.Error("the load finished before the deadline: nothing was cancelled")
	}
	// A request the client abandoned at the deadline may still be running in
	// DynamoDB Local: compare once the table has stopped changing.
	waitQuiet(t, ctx, client, tickets, keys)
	checkIndexMatchesTable(t, ctx, client, table, tickets, keys)
}

// waitQuiet returns once two consistent reads of every ticket, 200 ms
// apart, are the same: no write is in flight any more.
func waitQuiet(t *testing.T, ctx context.Context, client *dynamodb.Client, tickets *keyfirst.Entity[Ticket], keys []keyfirst.Key[Ticket]) {
	t.Helper()
	var last []Ticket
	for range 50 {
		stored, err := tickets.BatchGet(ctx, client, keys, keyfirst.ConsistentRead())
		if err != nil {
			t.Fatal(err)
		}
		if last != nil && slices.Equal(stored, last) {
			return
		}
		last = stored
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatal("the table kept changing 10 s after every writer returned")
}

// rng2 is the initial state of ticket i: a fixed pseudo-random coin.
func rng2(i int) bool { return (i*2654435761)>>7&1 == 1 }

// modifyStatus sets a ticket's status with Modify (which reads again and
// retries when another writer came first). Reopening takes a new opening
// time.
func modifyStatus(ctx context.Context, client *dynamodb.Client, tickets *keyfirst.Entity[Ticket], k keyfirst.Key[Ticket], s Status, opening func() time.Time) error {
	_, err := tickets.Modify(ctx, client, k, func(tk *Ticket) {
		setStatus(tk, s, opening)

	}, keyfirst.WithMaxAttempts(50))
	return err
}

// updateStatus does the same with Get and Replace, retrying from a fresh read
// on ErrVersionConflict.
func updateStatus(ctx context.Context, client *dynamodb.Client, tickets *keyfirst.Entity[Ticket], k keyfirst.Key[Ticket], s Status, opening func() time.Time) error {
	for {
		tk, err := tickets.Get(ctx, client, k, keyfirst.ConsistentRead())
		if err != nil {
			return err
		}
		setStatus(&tk, s, opening)
		_, err = tickets.Replace(ctx, client, tk)
		if !errors.Is(err, keyfirst.ErrVersionConflict) {
			return err
		}
	}
}

func setStatus(tk *Ticket, s Status, opening func() time.Time) {
	if s == Open && !tk.IsOpen() {
		tk.OpenedAt = opening()
	}
	tk.Status = s
	tk.Subject = "subject " + string(s)
}

// checkIndexMatchesTable reads every ticket from the table (consistently)
// and checks that open-tickets-index holds exactly the open ones, oldest
// first. It returns the stored tickets, in the order of keys.
func checkIndexMatchesTable(t *testing.T, ctx context.Context, client *dynamodb.Client, table *keyfirst.Table, tickets *keyfirst.Entity[Ticket], keys []keyfirst.Key[Ticket]) []Ticket {
	t.Helper()
	stored, err := tickets.BatchGet(ctx, client, keys, keyfirst.ConsistentRead())
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != len(keys) {
		t.Fatalf("%d tickets stored, want %d: tickets were lost", len(stored), len(keys))
	}
	want := openTicketsInTable(stored)
	got := openTicketsInIndex(t, client, table.Name())
	if !slices.Equal(got, want) {
		t.Errorf("the index holds %d entries, the table %d open tickets; first difference at %d",
			len(got), len(want), firstDifference(got, want))
	}
	if len(want) == 0 || len(want) == len(keys) {
		t.Errorf("%d of %d tickets open: the load did not mix states", len(want), len(keys))
	}
	return stored
}

func firstDifference(a, b []openIndex) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
