// Command benchratio runs the benchmarks of the module's packages in
// rounds and prints, for each pair of variants (sub-benchmarks keyfirst
// and hand of one benchmark), the median over the rounds of the paired
// ratios keyfirst/hand of ns/op and of allocs/op. It is `make bench`.
//
// Each package's test binary is built once; round r then runs every
// benchmark of every package once (-test.count 1), so that the two
// variants of a pair run next to each other in each round and a change of
// the machine's load touches both: on a shared machine the ratio of a
// round is steadier than either time.
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
	"strconv"
	"strings"
	"text/tabwriter"
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
	for r := range rounds {
		fmt.Fprintf(stderr, "round %d/%d\n", r+1, rounds)
		for i, b := range bins {
			cmd := exec.Command(b.bin, args...)
			cmd.Dir = b.dir
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				stderr.Write(out.Bytes())
				return fmt.Errorf("%s: %w", b.pkg, err)
			}
			byPkg[i] = append(byPkg[i], parse(&out))
		}
	}
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "package\tpair\tns/op keyfirst/hand\tallocs keyfirst/hand\tkeyfirst ns/op\thand ns/op\tkeyfirst allocs\thand allocs\trounds\t\n")
	var alone []string
	for i, b := range bins {
		pairs, unpaired := ratios(byPkg[i])
		for _, p := range pairs {
			fmt.Fprintf(w, "%s\t%s\t%.2fx\t%s\t%.0f\t%.0f\t%s\t%s\t%d\t\n", b.pkg, p.Pair, p.NsRatio, times(p.AllocsRatio),
				p.MineNs, p.TwinNs, count(p.MineAll), count(p.TwinAll), p.Rounds)
		}
		for _, u := range unpaired {
			alone = append(alone, b.pkg+" "+u)
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if len(alone) > 0 {
		fmt.Fprintf(stdout, "\nwithout a keyfirst/hand twin (not compared):\n  %s\n", strings.Join(alone, "\n  "))
	}
	return nil
}

func times(x float64) string {
	if x < 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", x)
}

func count(x float64) string {
	if x < 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f", x)
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
