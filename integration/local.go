package integration

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/docker/docker/client"
	"github.com/testcontainers/testcontainers-go"
	tcdynamodb "github.com/testcontainers/testcontainers-go/modules/dynamodb"
	"github.com/testcontainers/testcontainers-go/wait"
)

// Environment variables the harness reads.
const (
	// EnvEndpoint names a running DynamoDB (Local) endpoint, such as
	// http://localhost:8000. When set, no container is started.
	EnvEndpoint = "DYNAMODB_ENDPOINT"
	// EnvImage names the DynamoDB Local image to start; default [DefaultImage].
	EnvImage = "DYNAMODB_LOCAL_IMAGE"
)

// DefaultImage is the DynamoDB Local image started when [EnvImage] is unset.
// Machines without a registry build it with integration/localimage/build.sh.
const DefaultImage = "amazon/dynamodb-local:3.3.1"

// Region is the region of every client the harness hands out.
const Region = "us-east-1"

// containerLabel marks every container the harness starts, so that a test
// run killed before it could clean up can be found afterwards
// (docker ps -a --filter label=keyfirst.integration).
const containerLabel = "keyfirst.integration"

// ErrNoDynamoDB reports that neither a Docker engine nor [EnvEndpoint] is
// available, so DynamoDB Local cannot be reached.
var ErrNoDynamoDB = errors.New("integration: no DynamoDB Local: no Docker engine answers and " + EnvEndpoint + " is unset")

// Local is a running DynamoDB Local: a container the harness started, or an
// endpoint named by [EnvEndpoint]. Close it when done.
type Local struct {
	// Endpoint is the base URL, such as http://localhost:32768.
	Endpoint string
	// Client is a ready client for Endpoint: region [Region], dummy static
	// credentials.
	Client *dynamodb.Client

	container testcontainers.Container
}

// Start returns a running DynamoDB Local. With [EnvEndpoint] set it connects
// to that endpoint; otherwise it starts the image named by [EnvImage]
// (default [DefaultImage]) in a container, in memory, and waits until it
// listens. Whatever it started is terminated before Start returns an error.
func Start(ctx context.Context) (*Local, error) {
	if ep := os.Getenv(EnvEndpoint); ep != "" {
		return &Local{Endpoint: ep, Client: NewClient(ep)}, nil
	}
	if err := dockerAvailable(ctx); err != nil {
		return nil, fmt.Errorf("%w (%v)\n%s", ErrNoDynamoDB, err, fixHint)
	}
	image := os.Getenv(EnvImage)
	if image == "" {
		image = DefaultImage
	}
	ctr, err := tcdynamodb.Run(ctx, image,
		tcdynamodb.WithDisableTelemetry(),
		testcontainers.WithCmdArgs("-inMemory"),
		testcontainers.WithLabels(map[string]string{containerLabel: "true"}),
		// The port listens (docker-proxy) before the server inside answers:
		// wait for an HTTP answer, whatever its status.
		testcontainers.WithWaitStrategyAndDeadline(2*time.Minute,
			wait.ForHTTP("/").WithPort("8000/tcp").WithStatusCodeMatcher(func(int) bool { return true })),
	)
	if err != nil {
		// Run hands back the container it created together with the error.
		if ctr != nil {
			_ = testcontainers.TerminateContainer(ctr)
		}
		return nil, fmt.Errorf("integration: start DynamoDB Local from image %q: %w\n%s", image, err, imageHint)
	}
	hostPort, err := ctr.ConnectionString(ctx)
	if err != nil {
		_ = testcontainers.TerminateContainer(ctr)
		return nil, fmt.Errorf("integration: DynamoDB Local endpoint: %w", err)
	}
	ep := "http://" + hostPort
	return &Local{Endpoint: ep, Client: NewClient(ep), container: ctr}, nil
}

// Close terminates the container that Start started, if any. It is safe to
// call more than once.
func (l *Local) Close() error {
	if l == nil || l.container == nil {
		return nil
	}
	ctr := l.container
	l.container = nil
	if err := testcontainers.TerminateContainer(ctr); err != nil {
		return fmt.Errorf("integration: terminate DynamoDB Local: %w", err)
	}
	return nil
}

// NewClient returns a DynamoDB client for endpoint with region [Region] and
// dummy static credentials, as DynamoDB Local expects.
func NewClient(endpoint string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       Region,
		BaseEndpoint: aws.String(endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("local", "local", ""),
	})
}

const fixHint = `To run the integration tests, do one of:
  - run "make test": it installs and starts a Docker engine when it runs as root, builds the DynamoDB Local image, and sets TESTCONTAINERS_RYUK_DISABLED and TESTCONTAINERS_HOST_OVERRIDE;
  - start a Docker engine yourself (for example "dockerd &") and run integration/localimage/build.sh when no registry is reachable;
  - or point the tests at a running DynamoDB Local: ` + EnvEndpoint + `=http://localhost:8000.
"go test -short" skips the integration tests.`

const imageHint = `If the image is missing and no registry is reachable, build it: integration/localimage/build.sh (or "make image").
If the engine answers but the container never becomes reachable, set TESTCONTAINERS_HOST_OVERRIDE=localhost; without a reaper image set TESTCONTAINERS_RYUK_DISABLED=true ("make test" sets both).`

// dockerAvailable asks the Docker engine for its version, briefly. When
// DOCKER_HOST is set, that engine must answer (testcontainers would quietly
// fall back to another socket); otherwise testcontainers' own discovery is
// used, which panics when it finds no engine at all.
func dockerAvailable(ctx context.Context) (err error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if os.Getenv("DOCKER_HOST") != "" {
		cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
		if err != nil {
			return err
		}
		defer cli.Close()
		_, err = cli.Ping(ctx)
		return err
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	cli, err := testcontainers.NewDockerClientWithOpts(ctx)
	if err != nil {
		return err
	}
	_, err = cli.Ping(ctx)
	return err
}
