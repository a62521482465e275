package backoff

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestDelayCeiling(t *testing.T) {
	var asked []int64
	top := func(n int64) int64 { asked = append(asked, n); return n - 1 }
	p := Policy{Base: 10 * time.Millisecond, Max: 100 * time.Millisecond, Rand: top}
	want := []time.Duration{10, 20, 40, 80, 100, 100}
	for i, w := range want {
		if got := p.Delay(i); got != w*time.Millisecond {
			t.Errorf("Delay(%d) = %v, want %v", i, got, w*time.Millisecond)
		}
	}
	// Huge attempts never overflow.
	if got := p.Delay(1000); got != 100*time.Millisecond {
		t.Errorf("Delay(1000) = %v", got)
	}
	// Full jitter: the lower end is zero.
	low := Policy{Base: time.Second, Rand: func(int64) int64 { return 0 }}
	if got := low.Delay(3); got != 0 {
		t.Errorf("lowest delay = %v, want 0", got)
	}
}

func TestDelayDefaultsAndRandomness(t *testing.T) {
	var p Policy
	for attempt := range 40 {
		d := p.Delay(attempt)
		ceiling := min(DefaultMax, DefaultBase<<min(attempt, 30))
		if d < 0 || d > ceiling {
			t.Fatalf("Delay(%d) = %v outside [0, %v]", attempt, d, ceiling)
		}
	}
	seen := map[time.Duration]bool{}
	for range 50 {
		seen[p.Delay(10)] = true
	}
	if len(seen) < 10 {
		t.Fatalf("only %d distinct delays in 50 draws: no jitter", len(seen))
	}
}

func TestSleep(t *testing.T) {
	t.Run("elapses", func(t *testing.T) {
		if err := Sleep(context.Background(), time.Millisecond); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("zero", func(t *testing.T) {
		if err := Sleep(context.Background(), 0); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("cancelled before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := Sleep(ctx, 0); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("cancelled during", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		go func() { time.Sleep(5 * time.Millisecond); cancel() }()
		start := time.Now()
		if err := Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
		if time.Since(start) > time.Minute {
			t.Fatal("Sleep ignored the cancellation")
		}
	})
}
