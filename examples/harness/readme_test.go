package harness_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keyfirst/keyfirst/integration"
)

// readmeSnippet returns the Go code of the README's harness section.
func readmeSnippet(t *testing.T) []byte {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := bytes.Cut(readme, []byte("<!-- harness:begin -->\n```go\n"))
	code, _, ok2 := bytes.Cut(rest, []byte("```\n<!-- harness:end -->"))
	if !ok || !ok2 {
		t.Fatal("README.md has no harness:begin/harness:end block of Go code")
	}
	return code
}

// The README prints exactly the test this package runs.
func TestREADMEIsThisTest(t *testing.T) {
	t.Parallel()
	mine, err := os.ReadFile("harness_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if got := readmeSnippet(t); !bytes.Equal(got, mine) {
		t.Fatalf("README.md's harness snippet differs from harness_test.go: copy one onto the other\n--- README\n%s", got)
	}
}

// The README's snippet, copied into a fresh module that requires keyfirst
// (this checkout, by a replace directive), passes go test against the
// DynamoDB Local of this test binary: what a user who copies it gets. The
// module also imports the stream package, and its go.sum holds nothing
// of aws-lambda-go, which only the module stream/lambdastream requires,
// nor of OpenTelemetry, which only the module observe/otelkf requires.
func TestREADMEInAFreshModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs another module's tests against DynamoDB Local")
	}
	t.Parallel()
	local := integration.Shared(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod := "module example.com/fresh\n\ngo 1.24\n\nrequire github.com/keyfirst/keyfirst v0.0.0\n\nreplace github.com/keyfirst/keyfirst => " + root + "\n"
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", []byte(gomod))
	write("shop_test.go", readmeSnippet(t))
	write("stream.go", []byte("// Package harness imports the core's stream package.\npackage harness\n\nimport _ \"github.com/keyfirst/keyfirst/stream\"\n"))
	ctx, cancel := integration.Context(t)
	defer cancel()
	for _, args := range [][]string{{"mod", "tidy"}, {"test", "-count=1", "-v", "./..."}} {
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "DYNAMODB_ENDPOINT="+local.Endpoint, "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s in a fresh module: %v\n%s", strings.Join(args, " "), err, out)
		}
		if args[0] == "test" && !strings.Contains(string(out), "--- PASS: TestOrders") {
			t.Fatalf("go test in a fresh module ran no TestOrders:\n%s", out)
		}
	}
	sum, err := os.ReadFile(filepath.Join(dir, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(sum, []byte("github.com/aws/aws-sdk-go-v2/service/dynamodbstreams ")) {
		t.Fatalf("the fresh module's go.sum lacks the stream package's dependency, so it does not import it:\n%s", sum)
	}
	for _, other := range []string{"aws-lambda-go", "go.opentelemetry.io"} {
		if bytes.Contains(sum, []byte(other)) {
			t.Fatalf("a module importing keyfirst's core packages has %s in its go.sum:\n%s", other, sum)
		}
	}
	// The harness's hint for a machine without a registry names the build
	// script in keyfirst's module by go list -m: there it is.
	cmd := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Dir}}", "github.com/keyfirst/keyfirst")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -m in a fresh module: %v", err)
	}
	if _, err := os.Stat(filepath.Join(strings.TrimSpace(string(out)), "integration", "localimage", "build.sh")); err != nil {
		t.Fatalf("the build script the harness names is not in keyfirst's module: %v", err)
	}
}
