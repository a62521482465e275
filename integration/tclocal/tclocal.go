// Package tclocal starts DynamoDB Local with testcontainers-go's DynamoDB
// module (github.com/testcontainers/testcontainers-go/modules/dynamodb)
// and hands it to keyfirst's harness, for the teams whose tests already
// run their containers with testcontainers-go. It is a module of its own,
// so that a program that imports keyfirst, or its harness, requires
// nothing of testcontainers-go.
//
// A package's TestMain hands its tests to [Main]; every call of the
// harness then uses the container (integration.Client, integration.TableOf,
// integration.CheckTable, keyfirst's Table.Create and Table.Check with
// that client), which is terminated after the last test:
//
//	func TestMain(m *testing.M) { tclocal.Main(m) }
//
//	func TestOrders(t *testing.T) {
//		table := integration.TableOf(t, Shop) // in the container
//		_ = table                             // the test's writes and reads
//	}
//
// The image is the harness's: integration.EnvImage (DYNAMODB_LOCAL_IMAGE)
// or integration.DefaultImage, started in memory. testcontainers-go reads
// its own settings from the environment (DOCKER_HOST,
// TESTCONTAINERS_RYUK_DISABLED, TESTCONTAINERS_HOST_OVERRIDE, ...); where
// its reaper image cannot be pulled, set TESTCONTAINERS_RYUK_DISABLED=true:
// [Main] terminates the container itself, also when the tests fail, and
// on SIGINT and SIGTERM.
package tclocal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/testcontainers/testcontainers-go"
	tcdynamodb "github.com/testcontainers/testcontainers-go/modules/dynamodb"
	"github.com/testcontainers/testcontainers-go/wait"

	"github.com/keyfirst/keyfirst/integration"
)

// TerminateTimeout bounds the termination of the container.
const TerminateTimeout = 2 * time.Minute

// Start starts DynamoDB Local in a container with testcontainers-go's
// DynamoDB module, in memory, and returns it as the harness's Local: its
// Client reaches it, its Close terminates the container. opts customise
// the container (testcontainers.WithEnv, WithLabels, ...) after the
// module's and this package's defaults. A container that started and
// then failed is terminated before Start returns the error.
func Start(ctx context.Context, opts ...testcontainers.ContainerCustomizer) (*integration.Local, error) {
	image := os.Getenv(integration.EnvImage)
	if image == "" {
		image = integration.DefaultImage
	}
	defaults := []testcontainers.ContainerCustomizer{
		testcontainers.WithCmdArgs("-inMemory"),
		tcdynamodb.WithDisableTelemetry(),
		// The port listens (through docker-proxy) before DynamoDB Local
		// answers: wait for an HTTP answer, of any status.
		testcontainers.WithAdditionalWaitStrategy(wait.ForHTTP("/").WithPort("8000/tcp").WithStatusCodeMatcher(func(int) bool { return true })),
		// The harness's labels: make test's clean-containers finds what a
		// killed run left behind.
		testcontainers.WithLabels(map[string]string{integration.ContainerLabel: "true", integration.RunLabel: integration.RunID()}),
	}
	ctr, err := tcdynamodb.Run(ctx, image, append(defaults, opts...)...)
	terminate := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), TerminateTimeout)
		defer cancel()
		return testcontainers.TerminateContainer(ctr, testcontainers.StopContext(ctx))
	}
	if err != nil {
		return nil, errors.Join(fmt.Errorf("tclocal: start DynamoDB Local from image %q: %w", image, err), terminate())
	}
	hostPort, err := ctr.ConnectionString(ctx)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("tclocal: the endpoint of DynamoDB Local: %w", err), terminate())
	}
	return integration.External("http://"+hostPort, terminate), nil
}

// Main runs the tests of a package with the harness
// (integration.MainWith) on a DynamoDB Local that [Start] starts, with
// opts, when the first test asks for one, and terminates it after the
// last test. It calls os.Exit with the tests' exit code.
func Main(m *testing.M, opts ...testcontainers.ContainerCustomizer) {
	integration.MainWith(m, func(ctx context.Context) (*integration.Local, error) { return Start(ctx, opts...) })
}
