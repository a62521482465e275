package migrate

import (
	"context"
	"sync"
	"time"

	"github.com/keyfirst/keyfirst/internal/backoff"
)

// budget is a token bucket of write capacity units, refilled at rate units
// per second up to one second's worth. A write reserves its estimated
// units before it is sent, waiting while the bucket is in debt, and the
// units DynamoDB reports consumed correct the reservation afterwards. It
// starts empty, so that over any run the units consumed stay within rate
// times the duration, plus the corrections of the writes in flight.
type budget struct {
	mu     sync.Mutex
	rate   float64 // units per second
	tokens float64 // may be negative: reserved ahead
	last   time.Time
	now    func() time.Time
}

func newBudget(rate float64) *budget {
	b := &budget{rate: rate, now: time.Now}
	b.last = b.now()
	return b
}

// refill adds the units earned since the last call; b.mu is held.
func (b *budget) refill() {
	now := b.now()
	b.tokens = min(b.tokens+now.Sub(b.last).Seconds()*b.rate, max(b.rate, 1))
	b.last = now
}

// take reserves n units and waits until the bucket has paid for them, or
// until ctx ends: then the reservation is returned and ctx's error too.
func (b *budget) take(ctx context.Context, n float64) error {
	b.mu.Lock()
	b.refill()
	b.tokens -= n
	wait := time.Duration(-b.tokens / b.rate * float64(time.Second))
	b.mu.Unlock()
	if err := backoff.Sleep(ctx, wait); err != nil {
		b.adjust(-n)
		return err
	}
	return nil
}

// adjust charges n more units (returns them when negative): the
// difference between what a write consumed and what it reserved.
func (b *budget) adjust(n float64) {
	b.mu.Lock()
	b.refill()
	b.tokens -= n
	b.mu.Unlock()
}
