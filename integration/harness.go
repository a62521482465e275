package integration

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// shared is the DynamoDB Local of one test binary, started by the first test
// that asks for it and closed by [Main] after the last test.
var shared struct {
	mu      sync.Mutex
	main    bool // Main is running the tests
	start   func(context.Context) (*Local, error)
	started bool
	local   *Local
	err     error
}

// Main runs the tests of a package that uses the harness and then terminates
// the DynamoDB Local container they shared. Call it from TestMain:
//
//	func TestMain(m *testing.M) { integration.Main(m) }
//
// It calls os.Exit with the tests' exit code.
func Main(m *testing.M) { MainWith(m, Start) }

// MainWith runs the tests as [Main] does, with the DynamoDB Local that
// start returns instead of the one [Start] starts: start is called by the
// first test that asks for one ([Shared], [Client], [TableOf], ...; never
// under go test -short), with that test's fixture deadline, and what it
// returned is closed ([Local.Close]) after the last test, or on SIGINT
// and SIGTERM. It is how a DynamoDB Local started otherwise is handed to
// the harness: [External] wraps one, and the module
// github.com/keyfirst/keyfirst/integration/tclocal starts one with
// testcontainers-go.
//
//	func TestMain(m *testing.M) {
//		integration.MainWith(m, func(ctx context.Context) (*integration.Local, error) {
//			return integration.External(os.Getenv("MY_DYNAMODB"), nil), nil
//		})
//	}
func MainWith(m *testing.M, start func(context.Context) (*Local, error)) {
	shared.mu.Lock()
	shared.main = true
	shared.start = start
	shared.mu.Unlock()

	// On SIGINT and SIGTERM, remove the container at once (it would end by
	// itself once the process has gone, see Start).
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sig:
			shared.mu.Lock()
			_ = shared.local.Close()
			os.Exit(128 + int(s.(syscall.Signal)))
		case <-done:
		}
	}()

	code := m.Run()
	signal.Stop(sig)
	close(done)

	shared.mu.Lock()
	err := shared.local.Close()
	shared.mu.Unlock()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// Client returns a client to the DynamoDB Local shared by the tests of this
// test binary: [Shared] for tests that only need the client.
func Client(t testing.TB) *dynamodb.Client {
	t.Helper()
	return Shared(t).Client
}

// Shared returns the DynamoDB Local shared by the tests of this test binary,
// starting it on first use (see [Start]). It skips the test under
// go test -short and fails it, with a message that says what to do, when no
// DynamoDB Local can be reached. The package's TestMain must call [Main], so
// that the container ends with the tests.
func Shared(t testing.TB) *Local {
	t.Helper()
	if testing.Short() {
		t.Skip("integration: needs DynamoDB Local; skipped by -short")
	}
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if !shared.main {
		t.Fatal("integration: the package's TestMain must call integration.Main(m), " +
			"which terminates the shared DynamoDB Local container after the tests")
	}
	if !shared.started {
		shared.started = true
		ctx, cancel := Context(t)
		shared.local, shared.err = shared.start(ctx)
		cancel()
		if shared.err == nil && shared.local == nil {
			shared.err = fmt.Errorf("integration: the start function given to MainWith returned no Local and no error")
		}
	}
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.local
}
