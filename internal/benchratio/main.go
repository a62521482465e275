// Command benchratio runs the benchmarks of the module's packages in
// rounds and prints, for each keyfirst variant (a sub-benchmark keyfirst or
// keyfirst-<variant>) beside its hand-written twin (the sub-benchmark hand
// at the same place of the same benchmark), the median over the rounds of
// the paired ratios keyfirst/hand of ns/op, B/op, allocs/op and of the
// benchmark's own metrics (b.ReportMetric, such as live-B); then the
// references (any other sibling of a hand, such as raw-expression) against
// the same twin, apart. It is `make bench`.
//
// Each package's test binary is built once; round r then runs every
// benchmark of every package once (-test.count 1), so that the two
// variants of a pair run next to each other in each round and a change of
// the machine's load touches both: on a shared machine the ratio of a
// round is steadier than either time. Every other round runs the
// variants of each benchmark in the reverse order (internal/benchorder),
// so that each runs first, in a process the other has not warmed, as
// often as its twin.
//
//	go run ./internal/benchratio [-rounds 10] [-bench regexp] [-benchtime 1s] [packages]
//
// BENCH_ROUNDS sets the default of -rounds. The packages default to ./...;
// those without benchmarks are skipped.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/keyfirst/keyfirst/internal/benchorder"
)

func main() {
	rounds := flag.Int("rounds", envInt("BENCH_ROUNDS", 10), "rounds of -count 1 (BENCH_ROUNDS)")
	bench := flag.String("bench", ".", "the benchmarks to run (go test -bench)")
	benchtime := flag.String("benchtime", "", "go test -benchtime of each run (default go test's)")
	flag.Parse()
	pkgs := flag.Args()
	if len(pkgs) == 0 {
		pkgs = []string{"./..."}
	}
	if err := run(os.Stdout, os.Stderr, pkgs, *rounds, *bench, *benchtime); err != nil {
		fmt.Fprintln(os.Stderr, "benchratio:", err)
		os.Exit(1)
	}
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// testBinary is the test binary of one package and the directory its
// tests run in.
type testBinary struct{ pkg, dir, bin string }

func run(stdout, stderr io.Writer, pkgs []string, rounds int, bench, benchtime string) error {
	if rounds < 1 {
		return errors.New("-rounds must be at least 1")
	}
	tmp, err := os.MkdirTemp("", "benchratio")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bins, err := build(stderr, tmp, pkgs)
	if err != nil {
		return err
	}
	args := []string{"-test.run", "^$", "-test.bench", bench, "-test.count", "1", "-test.benchmem"}
	if benchtime != "" {
		args = append(args, "-test.benchtime", benchtime)
	}
	byPkg := make([][][]result, len(bins))
	var all []pkgComparisons
	for r := range rounds {
		fmt.Fprintf(stderr, "round %d/%d\n", r+1, rounds)
		for i, b := range bins {
			cmd := exec.Command(b.bin, args...)
			cmd.Dir = b.dir
			if r%2 == 1 { // every other round, each pair in the reverse order
				cmd.Env = append(os.Environ(), benchorder.Reverse+"=1")
			}
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				stderr.Write(out.Bytes())
				return fmt.Errorf("%s: %w", b.pkg, err)
			}
			byPkg[i] = append(byPkg[i], parse(&out))
		}
	}
	for i, b := range bins {
		keyfirst, refs, alone := ratios(byPkg[i])
		all = append(all, pkgComparisons{b.pkg, keyfirst, refs, alone})
	}
	return report(stdout, all)
}

// pkgComparisons are one package's comparisons.
type pkgComparisons struct {
	pkg        string
	keyfirst   []comparison
	references []comparison
	alone      []string
}

// report prints the keyfirst variants against their twins, then a
// benchmark's own metrics (b.ReportMetric), then the references, then
// what had no twin.
func report(out io.Writer, all []pkgComparisons) error {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "package\tbenchmark\tns/op x hand\tB/op x hand\tallocs x hand\tns/op\thand ns/op\tB/op\thand B/op\tallocs\thand allocs\trounds\t\n"
	table := func(title string, pick func(pkgComparisons) []comparison) {
		if !slices.ContainsFunc(all, func(p pkgComparisons) bool { return len(pick(p)) > 0 }) {
			return
		}
		fmt.Fprintf(w, "%s\n%s", title, head)
		for _, p := range all {
			for _, c := range pick(p) {
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t\n", p.pkg, c.Name,
					ratioOf(c, unitNs), ratioOf(c, unitBytes), ratioOf(c, unitAllocs),
					valueOf(c.Mine, unitNs), valueOf(c.Twin, unitNs), valueOf(c.Mine, unitBytes), valueOf(c.Twin, unitBytes),
					valueOf(c.Mine, unitAllocs), valueOf(c.Twin, unitAllocs), c.Rounds)
			}
		}
		fmt.Fprintln(w)
	}
	table("keyfirst against the hand-written twin (median of the per-round ratios):", func(p pkgComparisons) []comparison { return p.keyfirst })
	own := "metrics of the benchmarks' own:\npackage\tbenchmark\tunit\tx hand\tvalue\thand value\t\n"
	for _, p := range all {
		for _, c := range append(slices.Clone(p.keyfirst), p.references...) {
			for _, u := range c.Units {
				if u != unitNs && u != unitBytes && u != unitAllocs {
					fmt.Fprintf(w, "%s%s\t%s\t%s\t%s\t%s\t%s\t\n", own, p.pkg, c.Name, u, ratioOf(c, u), valueOf(c.Mine, u), valueOf(c.Twin, u))
					own = ""
				}
			}
		}
	}
	if own == "" {
		fmt.Fprintln(w)
	}
	table("references (neither keyfirst nor hand) against the same twin:", func(p pkgComparisons) []comparison { return p.references })
	if err := w.Flush(); err != nil {
		return err
	}
	var alone []string
	for _, p := range all {
		for _, a := range p.alone {
			alone = append(alone, p.pkg+" "+a)
		}
	}
	if len(alone) > 0 {
		fmt.Fprintf(out, "without a hand twin beside them (not compared):\n  %s\n", strings.Join(alone, "\n  "))
	}
	return nil
}

// ratioOf is c's ratio in unit u, or "-".
func ratioOf(c comparison, u string) string {
	x, ok := c.Ratio[u]
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.2fx", x)
}

// valueOf is m's value in unit u, or "-".
func valueOf(m map[string]float64, u string) string {
	x, ok := m[u]
	if !ok {
		return "-"
	}
	if x >= 100 || x == float64(int64(x)) {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.3g", x)
}

// build compiles the test binary of each package that has benchmarks.
func build(stderr io.Writer, tmp string, pkgs []string) ([]testBinary, error) {
	list, err := exec.Command("go", append([]string{"list", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{len .TestGoFiles}}{{len .XTestGoFiles}}"}, pkgs...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	var bins []testBinary
	for i, line := range strings.Split(strings.TrimSpace(string(list)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 || f[2] == "00" {
			continue // no test files
		}
		b := testBinary{pkg: f[0], dir: f[1], bin: filepath.Join(tmp, fmt.Sprintf("%d.test", i))}
		fmt.Fprintf(stderr, "build %s\n", b.pkg)
		if out, err := exec.Command("go", "test", "-c", "-o", b.bin, b.pkg).CombinedOutput(); err != nil {
			stderr.Write(out)
			return nil, fmt.Errorf("go test -c %s: %w", b.pkg, err)
		}
		names, err := exec.Command(b.bin, "-test.list", "^Benchmark").Output()
		if err != nil {
			return nil, fmt.Errorf("%s -test.list: %w", b.pkg, err)
		}
		if bytes.HasPrefix(names, []byte("Benchmark")) {
			bins = append(bins, b)
		}
	}
	return bins, nil
}
