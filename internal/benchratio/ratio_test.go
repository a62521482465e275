package main

import (
	"math"
	"reflect"
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
BenchmarkBatch/keyfirst/25-2        	    1000	       700 ns/op	      1200 live-B	      90 B/op	       3 allocs/op
BenchmarkLog
    bench_test.go:12: a log line
PASS
`

func TestParse(t *testing.T) {
	got := parse(strings.NewReader(sample))
	m := func(ns, bytes, allocs float64) map[string]float64 {
		return map[string]float64{unitNs: ns, unitBytes: bytes, unitAllocs: allocs}
	}
	want := []result{
		{"BenchmarkMarshal/keyfirst", m(6000, 1453, 28)}, {"BenchmarkMarshal/attributevalue", m(9000, 1757, 33)},
		{"BenchmarkMarshal/hand", m(3000, 1197, 26)},
		{"BenchmarkPutGet/Put/keyfirst", map[string]float64{unitNs: 500000}}, {"BenchmarkPutGet/Put/hand", map[string]float64{unitNs: 400000}},
		{"BenchmarkAlone", m(100.5, 0, 0)},
		{"BenchmarkBatch/keyfirst/25", map[string]float64{unitNs: 700, unitBytes: 90, unitAllocs: 3, "live-B": 1200}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parsed\n%v\nwant\n%v", got, want)
	}
}

// Each keyfirst variant (keyfirst, keyfirst-<variant>) and each reference
// finds the hand twin at its own place of the path; a name of no twin is
// alone.
func TestTwins(t *testing.T) {
	names := []string{"BenchmarkMarshal/keyfirst", "BenchmarkMarshal/keyfirst-func", "BenchmarkMarshal/attributevalue", "BenchmarkMarshal/hand",
		"BenchmarkBatch/keyfirst/25", "BenchmarkBatch/hand/25", "BenchmarkBatch/keyfirst/100",
		"BenchmarkPutGet/Put/keyfirst", "BenchmarkPutGet/Put/hand", "Benchmarkkeyfirst", "BenchmarkX/handy", "BenchmarkX/keyfirstly"}
	round := make([]result, len(names))
	for i, n := range names {
		round[i] = result{n, map[string]float64{unitNs: 1}}
	}
	keyfirst, refs, alone := ratios([][]result{round})
	var gotK, gotR []string
	for _, c := range keyfirst {
		gotK = append(gotK, c.Name+" "+c.TwinName)
	}
	for _, c := range refs {
		gotR = append(gotR, c.Name+" "+c.TwinName)
	}
	wantK := []string{"BenchmarkMarshal/keyfirst BenchmarkMarshal/hand", "BenchmarkMarshal/keyfirst-func BenchmarkMarshal/hand",
		"BenchmarkBatch/keyfirst/25 BenchmarkBatch/hand/25", "BenchmarkPutGet/Put/keyfirst BenchmarkPutGet/Put/hand"}
	wantR := []string{"BenchmarkMarshal/attributevalue BenchmarkMarshal/hand"}
	wantAlone := []string{"BenchmarkBatch/keyfirst/100", "Benchmarkkeyfirst", "BenchmarkX/handy", "BenchmarkX/keyfirstly"}
	if !slices.Equal(gotK, wantK) || !slices.Equal(gotR, wantR) || !slices.Equal(alone, wantAlone) {
		t.Fatalf("keyfirst %q\nreferences %q\nalone %q", gotK, gotR, alone)
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
// neither. Every unit both report is compared, a benchmark's own too.
func TestRatiosPairedPerRound(t *testing.T) {
	round := func(mine, hand, mineAllocs, handAllocs float64) []result {
		return []result{
			{"BenchmarkX/keyfirst", map[string]float64{unitNs: mine, unitAllocs: mineAllocs, "live-B": 2 * mine}},
			{"BenchmarkX/hand", map[string]float64{unitNs: hand, unitAllocs: handAllocs, "live-B": hand}},
			{"BenchmarkY", map[string]float64{unitNs: 1}},
		}
	}
	rounds := [][]result{
		round(110, 100, 28, 26), // 1.1
		round(330, 300, 28, 26), // 1.1, a slow round
		round(120, 60, 28, 26),  // 2.0, an outlier
		round(100, 100, 28, 26), // 1.0
		round(240, 200, 28, 26), // 1.2
	}
	keyfirst, refs, alone := ratios(rounds)
	if len(keyfirst) != 1 || len(refs) != 0 || !slices.Equal(alone, []string{"BenchmarkY"}) {
		t.Fatalf("keyfirst %+v, references %+v, alone %v", keyfirst, refs, alone)
	}
	c := keyfirst[0]
	// Ratios 1.0 1.1 1.1 1.2 2.0: the median is 1.1. The ratio of the
	// medians (120/100) would be 1.2.
	if c.Name != "BenchmarkX/keyfirst" || c.Rounds != 5 || math.Abs(c.Ratio[unitNs]-1.1) > 1e-9 ||
		math.Abs(c.Ratio[unitAllocs]-28.0/26) > 1e-9 || math.Abs(c.Ratio["live-B"]-2.2) > 1e-9 ||
		c.Mine[unitNs] != 120 || c.Twin[unitNs] != 100 || c.Mine[unitAllocs] != 28 || c.Twin[unitAllocs] != 26 ||
		!slices.Equal(c.Units, []string{unitNs, unitAllocs, "live-B"}) {
		t.Fatalf("%+v", c)
	}
}

// A round in which a variant did not run is left out; a variant whose twin
// never ran beside it is alone; a unit one side does not report is no
// ratio; zero on both sides is 1x, zero on the twin's alone no ratio.
func TestRatiosMissing(t *testing.T) {
	ns := func(ns, allocs float64) map[string]float64 { return map[string]float64{unitNs: ns, unitAllocs: allocs} }
	rounds := [][]result{
		{{"BenchmarkX/keyfirst", ns(200, 0)}, {"BenchmarkX/hand", ns(100, 0)}, {"BenchmarkZ/keyfirst", ns(5, 1)},
			{"BenchmarkW/keyfirst", map[string]float64{unitNs: 1}}, {"BenchmarkW/hand", ns(2, 0)}},
		{{"BenchmarkX/keyfirst", ns(100, 0)}, {"BenchmarkZ/hand", ns(5, 1)}},
		{{"BenchmarkX/keyfirst", ns(300, 0)}, {"BenchmarkX/hand", ns(100, 0)}},
	}
	keyfirst, _, alone := ratios(rounds)
	if len(keyfirst) != 2 || !slices.Equal(alone, []string{"BenchmarkZ/keyfirst"}) {
		t.Fatalf("keyfirst %+v, alone %v", keyfirst, alone)
	}
	if x := keyfirst[0]; x.Name != "BenchmarkX/keyfirst" || x.Rounds != 2 || x.Ratio[unitNs] != 2.5 || x.Ratio[unitAllocs] != 1 {
		t.Fatalf("%+v", x)
	}
	if w := keyfirst[1]; w.Name != "BenchmarkW/keyfirst" || w.Rounds != 1 || w.Ratio[unitNs] != 0.5 || !slices.Equal(w.Units, []string{unitNs}) {
		t.Fatalf("%+v", w)
	}
}
