// Command runall runs every example program of examples/ against one
// DynamoDB Local, the flagship (orders) first: make examples. It starts
// DynamoDB Local as an example does (or uses DYNAMODB_ENDPOINT), builds
// the programs, and runs each with DYNAMODB_ENDPOINT set to it. A program
// added under examples/ is run with no change here. With KEEP=1 every
// program keeps its tables, and DynamoDB Local runs until Ctrl-C.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/keyfirst/keyfirst/examples/internal/demo"
	"github.com/keyfirst/keyfirst/integration"
)

// flagship runs first.
const flagship = "orders"

func main() {
	if err := demo.WithLocal(runAll); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func runAll(ctx context.Context, local *integration.Local) error {
	out, err := exec.CommandContext(ctx, "go", "list", "-f", "{{.Name}} {{.ImportPath}}", "github.com/keyfirst/keyfirst/examples/...").Output()
	if err != nil {
		return fmt.Errorf("go list: %w", err)
	}
	var pkgs []string
	for line := range strings.Lines(string(out)) {
		name, pkg, _ := strings.Cut(strings.TrimSpace(line), " ")
		if name == "main" && !strings.Contains(pkg, "/internal/") {
			pkgs = append(pkgs, pkg)
		}
	}
	slices.SortStableFunc(pkgs, func(a, b string) int { return boolInt(path.Base(b) == flagship) - boolInt(path.Base(a) == flagship) })

	bin, err := os.MkdirTemp("", "keyfirst-examples-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(bin)
	build := exec.CommandContext(ctx, "go", append([]string{"build", "-o", bin + string(filepath.Separator)}, pkgs...)...)
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build: %w", err)
	}

	var failed []error
	for _, pkg := range pkgs {
		name := path.Base(pkg)
		fmt.Printf("=== examples/%s\n", name)
		cmd := exec.CommandContext(ctx, filepath.Join(bin, name))
		cmd.Env = append(os.Environ(), integration.EnvEndpoint+"="+local.Endpoint)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			failed = append(failed, fmt.Errorf("examples/%s: %w", name, err))
		}
		fmt.Println()
	}
	if len(failed) > 0 {
		return errors.Join(failed...)
	}
	fmt.Printf("ran %d examples against DynamoDB Local at %s\n", len(pkgs), local.Endpoint)
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
