// Package benchorder runs the variants of a benchmark (keyfirst and its
// hand-written twin, as sub-benchmarks) in the order they are declared,
// or in the reverse order when BENCH_REVERSE is set, which `make bench`
// (internal/benchratio) does in every other round: a variant measured
// right after another one runs in a process the other has warmed (its
// heap grown, the collector paced), and the first of a pair measured up
// to 0.07 slower in ratio for it, so over the rounds each variant runs
// first as often as its twin. A benchmark makes a Runner of its b
// (New), defers its Done, and adds each variant with Run where it would
// have called b.Run.
package benchorder

import (
	"os"
	"slices"
	"testing"
)

// Reverse is the environment variable that reverses the order.
const Reverse = "BENCH_REVERSE"

// Runner collects the sub-benchmarks of one benchmark and runs them at
// Done.
type Runner struct {
	b    *testing.B
	subs []sub
}

type sub struct {
	name string
	f    func(*testing.B)
}

// New returns the Runner of b's sub-benchmarks.
func New(b *testing.B) *Runner { return &Runner{b: b} }

// Run adds the sub-benchmark name, run by f, as testing.B.Run would run
// it.
func (r *Runner) Run(name string, f func(*testing.B)) { r.subs = append(r.subs, sub{name, f}) }

// Done runs the sub-benchmarks added, in their order, or reversed when
// BENCH_REVERSE is set; none once the benchmark has failed.
func (r *Runner) Done() {
	subs := r.subs
	if os.Getenv(Reverse) != "" {
		subs = slices.Clone(subs)
		slices.Reverse(subs)
	}
	for _, s := range subs {
		if r.b.Failed() {
			return
		}
		r.b.Run(s.name, s.f)
	}
}
