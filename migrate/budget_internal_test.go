package migrate

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestBudgetBucket: the bucket earns rate units a second up to one
// second's worth, a reservation it cannot pay waits, and a wait the
// context ends returns its reservation.
func TestBudgetBucket(t *testing.T) {
	t.Parallel()
	clock := time.Unix(0, 0)
	b := newBudget(10)
	b.now = func() time.Time { return clock }
	b.last = clock

	clock = clock.Add(10 * time.Second) // idle: capped at 10 units
	if err := b.take(context.Background(), 4); err != nil || b.tokens != 6 {
		t.Fatalf("take 4 of 10: %v, %v left", err, b.tokens)
	}
	b.adjust(3) // the write consumed 7
	if b.tokens != 3 {
		t.Fatalf("after the correction: %v", b.tokens)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.take(ctx, 50); !errors.Is(err, context.Canceled) || b.tokens != 3 {
		t.Fatalf("a cancelled wait: %v, %v left (the reservation must be returned)", err, b.tokens)
	}
	clock = clock.Add(500 * time.Millisecond)
	b.adjust(0)
	if b.tokens != 8 {
		t.Fatalf("after half a second: %v, want 8", b.tokens)
	}
}
