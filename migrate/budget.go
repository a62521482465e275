package migrate

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/keyfirst/keyfirst/internal/backoff"
)

// The range of [Backfill.WCU], in write capacity units per second. The
// smallest write DynamoDB bills is one unit, and the smallest provisioned
// table has one unit a second; the largest budget is 25 times the default
// write quota of a table (40,000 units a second), beyond which the budget
// bounds nothing.
const (
	MinWCU = 1
	MaxWCU = 1_000_000
)

// BurstWindow is the budget's allowance for the writes' pauses: the
// bucket saves at most this long of its rate while no write waits (see
// [Backfill.WCU]).
const BurstWindow = 100 * time.Millisecond

// budget is a token bucket of write capacity units, refilled at rate units
// per second up to capacity (BurstWindow of the rate). A write reserves
// its estimated units before it is sent and waits until the bucket has
// paid for them: the reservation may leave the bucket in debt, and the
// wait is the debt over the rate. A write that consumed more than it
// reserved is charged the difference afterwards; one that consumed less
// is not refunded, nor is a reservation whose wait the context ends (no
// write is sent after that). The bucket starts empty.
//
// The bound (TestBudgetBound checks it on a fake clock): the units
// reserved by the writes released in any interval of T seconds are at
// most rate*T + max(capacity, the largest reservation). The level L only
// rises with time (capped) and falls by reservations and charges. Take
// the reservations released in [a, b]; let x be the instant the first of
// them reserved and m the last one to reserve, at r. Every one of them
// reserved in [x, r], so their units are at most L(x) - L(r) + rate*(r-x),
// where L(x) is the level just before the first reservation and L(r) just
// after m's. m waits -L(r)/rate and is released by b, so -L(r) <=
// rate*(b-r). If the first did not wait, x >= a and L(x) <= capacity; if
// it waited until its release at g >= a, L(x) = n - rate*(g-x) for its n
// units. Either way the sum is at most max(capacity, n) + rate*(b-a).
// What the writes consume beyond their reservations adds the excess of
// the writes still in flight at r, one per segment at most.
type budget struct {
	mu       sync.Mutex
	rate     float64 // units per second
	capacity float64 // the most the bucket holds
	tokens   float64 // may be negative: reserved ahead
	last     time.Time
	now      func() time.Time
}

func newBudget(rate float64) *budget {
	b := &budget{rate: rate, capacity: rate * BurstWindow.Seconds(), now: time.Now}
	b.last = b.now()
	return b
}

// refill adds the units earned since the last call; b.mu is held.
func (b *budget) refill() {
	now := b.now()
	b.tokens = min(b.tokens+now.Sub(b.last).Seconds()*b.rate, b.capacity)
	b.last = now
}

// reserve takes n units from the bucket and returns how long the caller
// waits before its write: until the bucket has paid for them.
func (b *budget) reserve(n float64) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill()
	b.tokens -= n
	return durationOf(-b.tokens / b.rate)
}

// take reserves n units and waits until the bucket has paid for them, or
// until ctx ends: then ctx's error is returned.
func (b *budget) take(ctx context.Context, n float64) error {
	return backoff.Sleep(ctx, b.reserve(n))
}

// charge takes n more units when n is positive: what a write consumed
// beyond its reservation. Less is not given back (see budget).
func (b *budget) charge(n float64) {
	if !(n > 0) {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill()
	b.tokens -= n
}

// durationOf converts seconds to a Duration: 0 for none or fewer, and the
// longest Duration for more than it holds (a plain conversion overflows
// and comes out negative: no wait at all).
func durationOf(seconds float64) time.Duration {
	switch ns := seconds * float64(time.Second); {
	case !(ns > 0):
		return 0
	case ns >= math.MaxInt64:
		return math.MaxInt64
	default:
		return time.Duration(ns)
	}
}
