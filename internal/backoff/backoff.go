// Package backoff computes retry delays (exponential backoff with full
// jitter, as in the AWS Architecture Blog's "Exponential Backoff And
// Jitter") and sleeps them unless the context ends first.
package backoff

import (
	"context"
	"math/rand/v2"
	"time"
)

// Policy is a backoff policy. The zero value uses the defaults.
type Policy struct {
	// Base is the cap of the first delay (default 25ms).
	Base time.Duration
	// Max caps every delay (default 2s).
	Max time.Duration
	// Rand returns a uniform value in [0, n); nil uses math/rand/v2.
	Rand func(n int64) int64
}

// Defaults of the zero Policy.
const (
	DefaultBase = 25 * time.Millisecond
	DefaultMax  = 2 * time.Second
)

// Delay returns the delay before retry number attempt (0 for the first
// retry): a uniformly random duration in [0, min(Max, Base*2^attempt)].
func (p Policy) Delay(attempt int) time.Duration {
	base, maxDelay := p.Base, p.Max
	if base <= 0 {
		base = DefaultBase
	}
	if maxDelay <= 0 {
		maxDelay = DefaultMax
	}
	ceiling := maxDelay
	if attempt < 62 && base <= maxDelay>>min(attempt, 62) {
		ceiling = base << attempt
	}
	r := p.Rand
	if r == nil {
		r = rand.Int64N
	}
	return time.Duration(r(int64(ceiling) + 1))
}

// Sleep waits for d or until ctx ends, whichever comes first, and returns
// ctx.Err() in the second case.
func Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
