package migrate

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// fakeBudget is a budget of rate units a second on a clock the test sets.
func fakeBudget(rate float64) (*budget, *time.Time) {
	clock := new(time.Time)
	*clock = time.Unix(0, 0)
	b := newBudget(rate)
	b.now = func() time.Time { return *clock }
	b.last = *clock
	return b, clock
}

// TestBudgetBucket: the bucket earns rate units a second up to a tenth
// of a second's worth, a reservation waits until the bucket has paid for
// it, a write is charged what it consumed beyond its reservation and is
// not refunded what it consumed less, and a wait the context ends returns
// its error.
func TestBudgetBucket(t *testing.T) {
	t.Parallel()
	b, clock := fakeBudget(100)
	if b.capacity != 10 {
		t.Fatalf("capacity %v, want 10 (100 ms of 100 units/s)", b.capacity)
	}
	*clock = clock.Add(10 * time.Second) // idle: capped at 10 units
	if wait := b.reserve(4); wait != 0 || b.tokens != 6 {
		t.Fatalf("reserve 4 of 10: wait %v, %v left", wait, b.tokens)
	}
	b.charge(3) // the write consumed 7
	b.charge(-2)
	if b.tokens != 3 {
		t.Fatalf("after a charge of 3 and a write that consumed 2 less: %v, want 3", b.tokens)
	}
	if wait := b.reserve(8); wait != 50*time.Millisecond || b.tokens != -5 {
		t.Fatalf("reserve 8 of 3: wait %v, %v left; want 50ms, -5", wait, b.tokens)
	}
	*clock = clock.Add(time.Second)
	if wait := b.reserve(0); wait != 0 || b.tokens != 10 {
		t.Fatalf("after a second: %v, want the capacity 10", b.tokens)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.take(ctx, 50); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled wait: %v", err)
	}
}

// TestBudgetWaitsWithinDuration: at the smallest budget, a debt of ten
// million units (a thousand segments' writes of 10,000 units) is a wait
// a Duration holds, and a wait beyond any Duration is the longest one,
// never a negative one (which sent every write at once).
func TestBudgetWaitsWithinDuration(t *testing.T) {
	t.Parallel()
	b, _ := fakeBudget(MinWCU)
	if wait := b.reserve(1e7); wait != 1e7*time.Second {
		t.Fatalf("a debt of 1e7 units at %v unit/s: wait %v", float64(MinWCU), wait)
	}
	for _, s := range []float64{1e10, 1e300, math.Inf(1)} {
		if d := durationOf(s); d != math.MaxInt64 {
			t.Errorf("durationOf(%v) = %v, want the longest Duration", s, d)
		}
	}
	for _, s := range []float64{0, -1, math.NaN(), math.Inf(-1)} {
		if d := durationOf(s); d != 0 {
			t.Errorf("durationOf(%v) = %v, want 0", s, d)
		}
	}
	if d := durationOf(1.5); d != 1500*time.Millisecond {
		t.Errorf("durationOf(1.5) = %v", d)
	}
}

// TestBudgetBound checks the budget's bound on a fake clock, over random
// runs: 1 to 16 segments, each reserving a write's units (1 to 8, now and
// then more than the bucket holds), waiting as the budget says, sending
// the write, receiving its answer after a random latency, charging what
// it consumed beyond the estimate, and pausing (a Scan page, items up to
// date) between writes, sometimes for seconds, so that the bucket fills.
// In every window of T seconds, the writes released in it consume at most
// rate*T + max(capacity, the largest write), plus, when the estimates are
// off, the excess of one write per segment.
func TestBudgetBound(t *testing.T) {
	t.Parallel()
	rates := []float64{MinWCU, 3, 40, 150, 5000}
	windows := []time.Duration{time.Millisecond, 10 * time.Millisecond, 100 * time.Millisecond, time.Second, 2 * time.Second, 10 * time.Second}
	for seed := range uint64(100) {
		r := rand.New(rand.NewPCG(seed, 6))
		rate, segments, exact := rates[seed%5], 1+r.IntN(16), seed%2 == 0
		writes, largest, maxExcess := simulate(r, rate, segments, exact)
		burst := max(rate*BurstWindow.Seconds(), largest)
		if !exact {
			burst += float64(segments) * maxExcess
		}
		last := writes[len(writes)-1].at
		for _, d := range append(windows, last.Sub(writes[0].at)+time.Nanosecond) {
			peak := 0.0
			for i, w := range writes {
				sum := 0.0
				for _, v := range writes[i:] {
					if v.at.Sub(w.at) > d {
						break
					}
					sum += v.consumed
				}
				peak = max(peak, sum)
			}
			if limit := rate*d.Seconds() + burst; peak > limit*(1+1e-9)+1e-6 {
				t.Errorf("seed %d (rate %v, %d segments, exact estimates %v): %.3f units in %v, the bound is %.3f",
					seed, rate, segments, exact, peak, d, limit)
			}
		}
	}
}

// simWrite is a write of the simulation: when the budget released it and
// what it consumed.
type simWrite struct {
	at       time.Time
	consumed float64
}

// simulate runs segments on a budget of rate units a second for 400
// writes in all, and returns them in the order released, with the largest
// reservation and the largest excess of a write over its reservation.
func simulate(r *rand.Rand, rate float64, segments int, exact bool) ([]simWrite, float64, float64) {
	b, clock := fakeBudget(rate)
	type segment struct {
		next     time.Time // when its next step happens
		step     int       // 0: reserve, 1: released, 2: answered
		reserved float64
		consumed float64
	}
	segs := make([]segment, segments)
	for i := range segs {
		segs[i].next = clock.Add(time.Duration(r.Int64N(int64(time.Second))))
	}
	var out []simWrite
	largest, maxExcess := 0.0, 0.0
	for len(out) < 400 {
		i := 0
		for j := range segs {
			if segs[j].next.Before(segs[i].next) {
				i = j
			}
		}
		s := &segs[i]
		*clock = s.next
		switch s.step {
		case 0:
			s.reserved = float64(1 + r.IntN(8))
			if r.IntN(20) == 0 {
				s.reserved = math.Ceil(rate*BurstWindow.Seconds()) * float64(1+r.IntN(3)) // more than the bucket holds
			}
			largest = max(largest, s.reserved)
			s.consumed = s.reserved
			if !exact {
				s.consumed = max(0, s.reserved+float64(r.IntN(7)-3)) // 3 off either way; a conflict consumes less
				maxExcess = max(maxExcess, s.consumed-s.reserved)
			}
			s.next, s.step = clock.Add(b.reserve(s.reserved)), 1
		case 1:
			out = append(out, simWrite{at: *clock, consumed: s.consumed})
			s.next, s.step = clock.Add(time.Duration(r.Int64N(int64(200*time.Millisecond)))), 2
		case 2:
			b.charge(s.consumed - s.reserved)
			pause := time.Duration(0)
			if r.IntN(4) == 0 {
				pause = time.Duration(r.Int64N(int64(3 * time.Second)))
			}
			s.next, s.step = clock.Add(pause), 0
		}
	}
	slices.SortStableFunc(out, func(a, b simWrite) int { return a.at.Compare(b.at) })
	return out, largest, maxExcess
}
