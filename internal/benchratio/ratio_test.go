package main

import (
	"math"
	"slices"
	"strings"
	"testing"
)

const sample = `goos: linux
BenchmarkMarshal/keyfirst-2         	  300000	      6000 ns/op	    1453 B/op	      28 allocs/op
BenchmarkMarshal/attributevalue-2   	  300000	      9000 ns/op	    1757 B/op	      33 allocs/op
BenchmarkMarshal/hand-2             	  300000	      3000 ns/op	    1197 B/op	      26 allocs/op
BenchmarkPutGet/Put/keyfirst        	     100	    500000 ns/op
BenchmarkPutGet/Put/hand            	     100	    400000 ns/op
BenchmarkAlone-16                   	      10	       100.5 ns/op	       0 B/op	       0 allocs/op
BenchmarkLog
    bench_test.go:12: a log line
PASS
`

func TestParse(t *testing.T) {
	got := parse(strings.NewReader(sample))
	want := []result{
		{"BenchmarkMarshal/keyfirst", 6000, 28}, {"BenchmarkMarshal/attributevalue", 9000, 33}, {"BenchmarkMarshal/hand", 3000, 26},
		{"BenchmarkPutGet/Put/keyfirst", 500000, -1}, {"BenchmarkPutGet/Put/hand", 400000, -1}, {"BenchmarkAlone", 100.5, 0},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("parsed\n%v\nwant\n%v", got, want)
	}
}

func TestPairOf(t *testing.T) {
	for name, want := range map[string]string{
		"BenchmarkMarshal/keyfirst": "BenchmarkMarshal/*", "BenchmarkMarshal/hand": "BenchmarkMarshal/*",
		"BenchmarkPutGet/Put/keyfirst": "BenchmarkPutGet/Put/*", "BenchmarkBatch/keyfirst/25": "BenchmarkBatch/*/25",
		"BenchmarkMarshal/attributevalue": "", "Benchmarkkeyfirst": "", "BenchmarkX/handy": "",
	} {
		pair, _, ok := pairOf(name)
		if pair != want || ok != (want != "") {
			t.Errorf("pairOf(%q) = %q, %v; want %q", name, pair, ok, want)
		}
	}
	if _, isMine, _ := pairOf("BenchmarkX/keyfirst"); !isMine {
		t.Error("BenchmarkX/keyfirst is not the keyfirst variant")
	}
	if _, isMine, _ := pairOf("BenchmarkX/hand"); isMine {
		t.Error("BenchmarkX/hand is the keyfirst variant")
	}
}

func TestMedian(t *testing.T) {
	for _, tt := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		in := slices.Clone(tt.in)
		if got := median(in); got != tt.want || !slices.Equal(in, tt.in) {
			t.Errorf("median(%v) = %v (input now %v), want %v", tt.in, got, in, tt.want)
		}
	}
}

// The ratio is the median of the per-round ratios, not the ratio of the
// medians: a round in which the machine is slow for both variants moves
// neither.
func TestRatiosPairedPerRound(t *testing.T) {
	round := func(mine, hand, mineAllocs, handAllocs float64) []result {
		return []result{{"BenchmarkX/keyfirst", mine, mineAllocs}, {"BenchmarkX/hand", hand, handAllocs}, {"BenchmarkY", 1, 1}}
	}
	rounds := [][]result{
		round(110, 100, 28, 26), // 1.1
		round(330, 300, 28, 26), // 1.1, a slow round
		round(120, 60, 28, 26),  // 2.0, an outlier
		round(100, 100, 28, 26), // 1.0
		round(240, 200, 28, 26), // 1.2
	}
	pairs, unpaired := ratios(rounds)
	if len(pairs) != 1 || !slices.Equal(unpaired, []string{"BenchmarkY"}) {
		t.Fatalf("pairs %+v, unpaired %v", pairs, unpaired)
	}
	p := pairs[0]
	// Ratios 1.0 1.1 1.1 1.2 2.0: the median is 1.1. The ratio of the
	// medians (120/100) would be 1.2.
	if p.Pair != "BenchmarkX/*" || p.Rounds != 5 || math.Abs(p.NsRatio-1.1) > 1e-9 ||
		math.Abs(p.AllocsRatio-28.0/26) > 1e-9 || p.MineNs != 120 || p.TwinNs != 100 || p.MineAll != 28 || p.TwinAll != 26 {
		t.Fatalf("%+v", p)
	}
}

// A round in which a variant did not run is left out; a pair whose twin
// never ran is unpaired; allocations not reported are no ratio; zero
// allocations on both sides are 1x.
func TestRatiosMissing(t *testing.T) {
	rounds := [][]result{
		{{"BenchmarkX/keyfirst", 200, 0}, {"BenchmarkX/hand", 100, 0}, {"BenchmarkZ/keyfirst", 5, -1}, {"BenchmarkW/keyfirst", 1, -1}, {"BenchmarkW/hand", 2, -1}},
		{{"BenchmarkX/keyfirst", 100, 0}},
		{{"BenchmarkX/keyfirst", 300, 0}, {"BenchmarkX/hand", 100, 0}},
	}
	pairs, unpaired := ratios(rounds)
	if len(pairs) != 2 || !slices.Equal(unpaired, []string{"BenchmarkZ/{keyfirst,hand}"}) {
		t.Fatalf("pairs %+v, unpaired %v", pairs, unpaired)
	}
	if x := pairs[0]; x.Pair != "BenchmarkX/*" || x.Rounds != 2 || x.NsRatio != 2.5 || x.AllocsRatio != 1 {
		t.Fatalf("%+v", x)
	}
	if w := pairs[1]; w.Pair != "BenchmarkW/*" || w.Rounds != 1 || w.NsRatio != 0.5 || w.AllocsRatio != -1 {
		t.Fatalf("%+v", w)
	}
}
