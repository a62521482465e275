package main

import (
	"bufio"
	"io"
	"slices"
	"strconv"
	"strings"
)

// The variants of a pair: sub-benchmarks named keyfirst and hand, the same
// path otherwise (BenchmarkMarshal/keyfirst beside BenchmarkMarshal/hand,
// BenchmarkPutGet/Put/keyfirst beside BenchmarkPutGet/Put/hand).
const (
	mine  = "keyfirst"
	twin  = "hand"
	slash = "/"
)

// result is one benchmark's line of one round.
type result struct {
	name   string  // without the -GOMAXPROCS suffix
	ns     float64 // ns/op
	allocs float64 // allocs/op, -1 when not reported
}

// parse reads the result lines of go test -bench output.
func parse(r io.Reader) []result {
	var out []result
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		if _, err := strconv.Atoi(f[1]); err != nil {
			continue // a benchmark's own log line
		}
		res := result{name: trimProcs(f[0]), ns: -1, allocs: -1}
		for i := 2; i+1 < len(f); i += 2 {
			x, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "ns/op":
				res.ns = x
			case "allocs/op":
				res.allocs = x
			}
		}
		if res.ns >= 0 {
			out = append(out, res)
		}
	}
	return out
}

// trimProcs drops the -N that go test appends to a benchmark's name when
// GOMAXPROCS is not 1.
func trimProcs(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return name
	}
	if _, err := strconv.Atoi(name[i+1:]); err != nil {
		return name
	}
	return name[:i]
}

// pairOf returns the name of the pair a benchmark belongs to (its path with
// the variant element replaced by "*") and whether it is the keyfirst
// variant; ok is false for a benchmark of no pair.
func pairOf(name string) (pair string, isMine, ok bool) {
	parts := strings.Split(name, slash)
	for i := len(parts) - 1; i > 0; i-- {
		if parts[i] == mine || parts[i] == twin {
			isMine = parts[i] == mine
			parts[i] = "*"
			return strings.Join(parts, slash), isMine, true
		}
	}
	return "", false, false
}

// pairRatio is the comparison of one pair over the rounds.
type pairRatio struct {
	Pair             string
	Rounds           int     // rounds in which both variants ran
	NsRatio          float64 // median over the rounds of keyfirst ns/op / hand ns/op
	AllocsRatio      float64 // the same for allocs/op; -1 when not reported
	MineNs, TwinNs   float64 // the medians of each variant's ns/op
	MineAll, TwinAll float64 // the medians of each variant's allocs/op
}

// ratios pairs the variants within each round (rounds[r] are the results
// of round r) and returns, for every pair that ran in at least one round,
// the median of its paired ratios, in the order the pairs first ran.
// Unpaired lists the benchmarks of no pair, or whose twin never ran.
func ratios(rounds [][]result) (pairs []pairRatio, unpaired []string) {
	type sides struct{ mine, twin []result }
	var order []string
	byPair := map[string][]sides{}
	seenAlone := map[string]bool{}
	for r, round := range rounds {
		for _, res := range round {
			pair, isMine, ok := pairOf(res.name)
			if !ok {
				if !seenAlone[res.name] {
					seenAlone[res.name] = true
					unpaired = append(unpaired, res.name)
				}
				continue
			}
			ss, known := byPair[pair]
			if !known {
				order = append(order, pair)
			}
			for len(ss) < len(rounds) {
				ss = append(ss, sides{})
			}
			if isMine {
				ss[r].mine = append(ss[r].mine, res)
			} else {
				ss[r].twin = append(ss[r].twin, res)
			}
			byPair[pair] = ss
		}
	}
	for _, pair := range order {
		var ns, allocs, mNs, tNs, mAl, tAl []float64
		for _, s := range byPair[pair] {
			if len(s.mine) != 1 || len(s.twin) != 1 {
				continue // a variant missing (or run twice) in that round
			}
			m, t := s.mine[0], s.twin[0]
			mNs, tNs, mAl, tAl = append(mNs, m.ns), append(tNs, t.ns), append(mAl, m.allocs), append(tAl, t.allocs)
			if t.ns > 0 {
				ns = append(ns, m.ns/t.ns)
			}
			switch {
			case m.allocs < 0 || t.allocs < 0:
			case t.allocs == 0 && m.allocs == 0:
				allocs = append(allocs, 1)
			case t.allocs > 0:
				allocs = append(allocs, m.allocs/t.allocs)
			}
		}
		if len(ns) == 0 {
			unpaired = append(unpaired, strings.Replace(pair, "*", "{keyfirst,hand}", 1))
			continue
		}
		p := pairRatio{Pair: pair, Rounds: len(ns), NsRatio: median(ns), AllocsRatio: -1,
			MineNs: median(mNs), TwinNs: median(tNs), MineAll: median(mAl), TwinAll: median(tAl)}
		if len(allocs) > 0 {
			p.AllocsRatio = median(allocs)
		}
		pairs = append(pairs, p)
	}
	return pairs, unpaired
}

// median is the middle value of xs (the mean of the two middle ones for
// an even count); xs is not modified.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
