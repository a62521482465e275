package benchorder

import (
	"slices"
	"testing"
)

// TestOrder: the sub-benchmarks run in the order they were added, or
// reversed under BENCH_REVERSE; each runs once.
func TestOrder(t *testing.T) {
	for _, c := range []struct {
		reverse string
		want    []string
	}{{"", []string{"keyfirst", "hand", "reference"}}, {"1", []string{"reference", "hand", "keyfirst"}}} {
		t.Setenv(Reverse, c.reverse)
		var ran []string
		testing.Benchmark(func(b *testing.B) {
			ran = ran[:0] // the benchmark function runs again as b.N grows
			r := New(b)
			defer r.Done()
			for _, name := range []string{"keyfirst", "hand", "reference"} {
				r.Run(name, func(b *testing.B) {
					ran = append(ran, name)
					for b.Loop() {
					}
				})
			}
		})
		if !slices.Equal(ran, c.want) {
			t.Errorf("%s=%q: ran %v, want %v", Reverse, c.reverse, ran, c.want)
		}
	}
}
