// Package demotest is the test of an example: it runs the example's
// [demo.Run] against the test binary's DynamoDB Local and compares what it
// printed with the exact text expected.
package demotest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/keyfirst/keyfirst/examples/internal/demo"
	"github.com/keyfirst/keyfirst/integration"
)

// Check runs run against the DynamoDB Local of the test binary (whose
// TestMain calls integration.Main) and fails t unless it succeeds and
// prints exactly want. Under go test -short it skips.
func Check(t *testing.T, run demo.Run, want string) {
	t.Helper()
	client := integration.Client(t)
	ctx, cancel := integration.Context(t)
	defer cancel()
	var out bytes.Buffer
	if err := run(ctx, &out, client); err != nil {
		t.Fatalf("run: %v\nit printed:\n%s", err, out.String())
	}
	got := out.String()
	if got == want {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(gl), len(wl)) {
		g, w := line(gl, i), line(wl, i)
		if g != w {
			t.Fatalf("line %d is\n\t%s\nwant\n\t%s\nthe example printed:\n%s", i+1, g, w, got)
		}
	}
}

func line(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(no line)"
}
