package main

import (
	"bufio"
	"io"
	"slices"
	"strconv"
	"strings"
)

// The variants of a pair: a sub-benchmark named hand (the hand-written
// twin) and, at the same place of the same path, the keyfirst variants:
// keyfirst and any keyfirst-<variant> (BenchmarkBuild/keyfirst and
// BenchmarkBuild/keyfirst-on beside BenchmarkBuild/hand,
// BenchmarkBatchWrite/keyfirst/25 beside BenchmarkBatchWrite/hand/25).
// Any other sibling of a hand (BenchmarkBuild/raw-expression) is a
// reference: compared with hand too, and printed apart.
const (
	mine  = "keyfirst"
	twin  = "hand"
	slash = "/"
)

// The units go test prints for every benchmark run with -benchmem, in the
// order they are printed; a benchmark's own metrics (b.ReportMetric)
// follow them in the order of their names.
const (
	unitNs     = "ns/op"
	unitBytes  = "B/op"
	unitAllocs = "allocs/op"
)

// result is one benchmark's line of one round: each value by its unit.
type result struct {
	name    string // without the -GOMAXPROCS suffix
	metrics map[string]float64
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
		res := result{name: trimProcs(f[0]), metrics: map[string]float64{}}
		for i := 2; i+1 < len(f); i += 2 {
			if x, err := strconv.ParseFloat(f[i], 64); err == nil {
				res.metrics[f[i+1]] = x
			}
		}
		if _, ok := res.metrics[unitNs]; ok {
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

// isMine reports whether a path element names a keyfirst variant.
func isMine(elem string) bool {
	return elem == mine || strings.HasPrefix(elem, mine+"-")
}

// twinAt returns the path parts with element i replaced by hand, joined:
// BenchmarkX/keyfirst-on/25 gives BenchmarkX/hand/25 at i = 1.
func twinAt(parts []string, i int) string {
	p := slices.Clone(parts)
	p[i] = twin
	return strings.Join(p, slash)
}

// comparison is one variant against its hand twin over the rounds.
type comparison struct {
	Name      string // the variant's benchmark
	TwinName  string // its hand twin's
	Reference bool   // a variant of neither keyfirst nor hand
	Rounds    int    // rounds in which both ran
	// Units are the units both reported in every counted round, in the
	// order of unitOrder.
	Units []string
	// Ratio is, by unit, the median over the rounds of the variant's value
	// over the twin's (1 when both are 0, absent when the twin's alone is
	// 0); Mine and Twin are the medians of each side's values.
	Ratio, Mine, Twin map[string]float64
}

// ratios compares every variant with its hand twin within each round
// (rounds[r] are the results of round r) and returns one comparison per
// variant that ran beside its twin in at least one round, in the order the
// variants first ran, keyfirst variants before references. Alone lists
// the benchmarks of no twin, keyfirst variants whose twin never ran beside
// them first.
func ratios(rounds [][]result) (keyfirst, references []comparison, alone []string) {
	byName := make([]map[string]result, len(rounds))
	hands := map[string]bool{}
	var order []string
	seen := map[string]bool{}
	for r, round := range rounds {
		byName[r] = map[string]result{}
		for _, res := range round {
			byName[r][res.name] = res
			if !seen[res.name] {
				seen[res.name] = true
				order = append(order, res.name)
			}
			if slices.Contains(strings.Split(res.name, slash)[1:], twin) {
				hands[res.name] = true
			}
		}
	}
	var lonely, noTwin []string
	for _, name := range order {
		if hands[name] {
			continue
		}
		c, found := compare(name, hands, byName)
		switch {
		case !found && isMineName(name):
			noTwin = append(noTwin, name)
		case !found:
			lonely = append(lonely, name)
		case c.Rounds == 0:
			noTwin = append(noTwin, name)
		case c.Reference:
			references = append(references, c)
		default:
			keyfirst = append(keyfirst, c)
		}
	}
	return keyfirst, references, append(noTwin, lonely...)
}

// isMineName reports whether any element of a benchmark's path past the
// first names a keyfirst variant.
func isMineName(name string) bool {
	return slices.ContainsFunc(strings.Split(name, slash)[1:], isMine)
}

// compare finds name's hand twin (the nearest place from the end at which
// replacing an element with hand names a hand variant that ran) and
// compares the two in the rounds in which both ran once.
func compare(name string, hands map[string]bool, byName []map[string]result) (comparison, bool) {
	parts := strings.Split(name, slash)
	for i := len(parts) - 1; i > 0; i-- {
		t := twinAt(parts, i)
		if !hands[t] || (isMineName(name) && !isMine(parts[i])) {
			continue
		}
		c := comparison{Name: name, TwinName: t, Reference: !isMine(parts[i]),
			Ratio: map[string]float64{}, Mine: map[string]float64{}, Twin: map[string]float64{}}
		ratio, mineVals, twinVals := map[string][]float64{}, map[string][]float64{}, map[string][]float64{}
		for _, round := range byName {
			m, okM := round[name]
			h, okH := round[t]
			if !okM || !okH {
				continue // a variant missing in that round
			}
			c.Rounds++
			for unit, mv := range m.metrics {
				hv, ok := h.metrics[unit]
				if !ok {
					continue
				}
				mineVals[unit], twinVals[unit] = append(mineVals[unit], mv), append(twinVals[unit], hv)
				switch {
				case hv == 0 && mv == 0:
					ratio[unit] = append(ratio[unit], 1)
				case hv != 0:
					ratio[unit] = append(ratio[unit], mv/hv)
				}
			}
		}
		for unit, vs := range mineVals {
			if len(vs) != c.Rounds {
				continue // not reported in every round
			}
			c.Units = append(c.Units, unit)
			c.Mine[unit], c.Twin[unit] = median(vs), median(twinVals[unit])
			if len(ratio[unit]) > 0 {
				c.Ratio[unit] = median(ratio[unit])
			}
		}
		slices.SortFunc(c.Units, unitOrder)
		return c, true
	}
	return comparison{}, false
}

// unitOrder orders ns/op, B/op and allocs/op first, then a benchmark's
// own metrics by name.
func unitOrder(a, b string) int {
	rank := func(u string) int {
		switch u {
		case unitNs:
			return 0
		case unitBytes:
			return 1
		case unitAllocs:
			return 2
		}
		return 3
	}
	if ra, rb := rank(a), rank(b); ra != rb {
		return ra - rb
	}
	return strings.Compare(a, b)
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
