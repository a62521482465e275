package integration_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/keyfirst/keyfirst/integration"
)

func TestMain(m *testing.M) { integration.Main(m) }

// gsiTable is a table with one GSI whose keys invert the table's (seed 004).
func gsiTable() *dynamodb.CreateTableInput {
	s := types.ScalarAttributeTypeS
	return &dynamodb.CreateTableInput{
		TableName: aws.String("movies"),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("Actor"), AttributeType: s},
			{AttributeName: aws.String("Movie"), AttributeType: s},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("Actor"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("Movie"), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName: aws.String("by-movie"),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String("Movie"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("Actor"), KeyType: types.KeyTypeRange},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
		BillingMode: types.BillingModePayPerRequest,
	}
}

// TestHarnessReachesDynamoDBLocal writes through the table and reads back
// through a GSI: only a real DynamoDB answers that.
func TestHarnessReachesDynamoDBLocal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	client := integration.Client(t)
	table := integration.CreateTable(t, gsiTable())

	casts := [][2]string{
		{"Tom Hanks", "Toy Story"}, {"Tim Allen", "Toy Story"},
		{"Tom Hanks", "Cast Away"}, {"Natalie Portman", "Black Swan"},
	}
	for _, c := range casts {
		_, err := client.PutItem(ctx, &dynamodb.PutItemInput{
			TableName: aws.String(table),
			Item: map[string]types.AttributeValue{
				"Actor": &types.AttributeValueMemberS{Value: c[0]},
				"Movie": &types.AttributeValueMemberS{Value: c[1]},
			},
		})
		if err != nil {
			t.Fatalf("put %v: %v", c, err)
		}
	}
	out, err := client.Query(ctx, &dynamodb.QueryInput{
		TableName:              aws.String(table),
		IndexName:              aws.String("by-movie"),
		KeyConditionExpression: aws.String("Movie = :m"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":m": &types.AttributeValueMemberS{Value: "Toy Story"},
		},
	})
	if err != nil {
		t.Fatalf("query the GSI: %v", err)
	}
	var actors []string
	for _, it := range out.Items {
		actors = append(actors, it["Actor"].(*types.AttributeValueMemberS).Value)
	}
	if got, want := strings.Join(actors, ","), "Tim Allen,Tom Hanks"; got != want {
		t.Fatalf("actors in Toy Story through the GSI = %q, want %q", got, want)
	}
}

// TestTablesAreIsolated: two tests asking for the same table get two tables,
// and a table is gone once its test has ended.
func TestTablesAreIsolated(t *testing.T) {
	t.Parallel()
	client := integration.Client(t)
	var first string
	t.Run("a", func(t *testing.T) { first = integration.CreateTable(t, gsiTable()) })
	t.Run("b", func(t *testing.T) {
		second := integration.CreateTable(t, gsiTable())
		if second == first {
			t.Fatalf("two tests got the same table %q", second)
		}
	})
	_, err := client.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(first)})
	var nf *types.ResourceNotFoundException
	if !errors.As(err, &nf) {
		t.Fatalf("table %s of an ended test: DescribeTable error = %v, want ResourceNotFoundException", first, err)
	}
}

// TestNoDockerFails runs this test binary again with no reachable Docker
// engine and no endpoint, and checks that an integration test fails (not
// skips) with a message that names the fix.
func TestNoDockerFails(t *testing.T) {
	if os.Getenv("KEYFIRST_CHILD") == "1" {
		integration.Client(t) // must fail the test
		return
	}
	if testing.Short() {
		t.Skip("re-runs the test binary; skipped by -short")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoDockerFails$", "-test.v")
	cmd.Env = append(filteredEnv("DYNAMODB_ENDPOINT", "DOCKER_HOST"),
		"KEYFIRST_CHILD=1", "DOCKER_HOST=unix:///nonexistent/docker.sock")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("child run: err = %v, want a failing exit; output:\n%s", err, out)
	}
	// What to do, written for a user of the harness: nothing that only
	// keyfirst's own checkout has (its Makefile, a path inside it).
	for _, want := range []string{"--- FAIL: TestNoDockerFails", "no Docker engine", "DYNAMODB_ENDPOINT=http://localhost:8000 go test",
		"docker run --rm -p 8000:8000 " + integration.DefaultImage, "docker version", "go test -short"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("child output lacks %q:\n%s", want, out)
		}
	}
	for _, not := range []string{"make ", " integration/localimage"} {
		if strings.Contains(string(out), not) {
			t.Errorf("child output says %q, which a user of the harness does not have:\n%s", not, out)
		}
	}
	if strings.Contains(string(out), "--- SKIP") {
		t.Errorf("child skipped instead of failing:\n%s", out)
	}
}

// filteredEnv is the environment without the named variables.
func filteredEnv(drop ...string) []string {
	var env []string
next:
	for _, kv := range os.Environ() {
		for _, d := range drop {
			if strings.HasPrefix(kv, d+"=") {
				continue next
			}
		}
		env = append(env, kv)
	}
	return env
}

// TestEndpointWinsOverDocker: with DYNAMODB_ENDPOINT set, Start starts no
// container and hands back a client for that endpoint.
func TestEndpointWinsOverDocker(t *testing.T) {
	t.Setenv(integration.EnvEndpoint, "http://127.0.0.1:1")
	l, err := integration.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.Endpoint != "http://127.0.0.1:1" {
		t.Fatalf("endpoint = %q", l.Endpoint)
	}
	_, err = l.Client.ListTables(context.Background(), &dynamodb.ListTablesInput{})
	if err == nil {
		t.Fatal("ListTables against a closed port succeeded: the client does not use the endpoint")
	}
}

// TestContainerEndsWithKilledProcess runs this test binary again, lets it
// start its DynamoDB Local, kills it with SIGKILL (no cleanup can run), and
// checks that its container goes away by itself, while no other container
// (another run's) is touched.
func TestContainerEndsWithKilledProcess(t *testing.T) {
	if os.Getenv("KEYFIRST_CHILD") == "kill" {
		integration.Client(t)
		fmt.Println("started")
		time.Sleep(time.Hour) // until killed
		return
	}
	if testing.Short() || os.Getenv(integration.EnvEndpoint) != "" {
		t.Skip("starts a container of its own; skipped by -short and with " + integration.EnvEndpoint)
	}
	run := integration.RunID() + "-killed-child"
	cmd := exec.Command(os.Args[0], "-test.run=^TestContainerEndsWithKilledProcess$", "-test.v", "-test.timeout=0")
	cmd.Env = append(filteredEnv(integration.EnvRunID), "KEYFIRST_CHILD=kill", integration.EnvRunID+"="+run)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	started := make(chan struct{})
	var out strings.Builder // read once the child is gone
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			out.WriteString(sc.Text() + "\n")
			if sc.Text() == "started" {
				close(started)
			}
		}
	}()
	ctx, cancel := integration.Context(t)
	defer cancel()
	select {
	case <-started:
	case <-copied:
		_ = cmd.Wait()
		t.Fatalf("the child ended before it started its DynamoDB Local:\n%s", out.String())
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		<-copied
		t.Fatalf("the child never started its DynamoDB Local:\n%s", out.String())
	}
	if ids := runContainers(t, run); ids == "" {
		t.Fatalf("no container labelled %s=%s while the child runs", integration.RunLabel, run)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	for {
		ids := runContainers(t, run)
		if ids == "" {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("container %s of a killed test binary is still there", ids)
		}
		time.Sleep(200 * time.Millisecond)
	}
	// This binary's own DynamoDB Local is another run's: still there.
	integration.Client(t)
	if runContainers(t, integration.RunID()) == "" {
		t.Errorf("the container of run %s went away too", integration.RunID())
	}
}

// runContainers lists the ids of the containers labelled with run.
func runContainers(t *testing.T, run string) string {
	t.Helper()
	out, err := exec.Command("docker", "ps", "-aq", "--filter", "label="+integration.RunLabel+"="+run).CombinedOutput()
	if err != nil {
		t.Fatalf("docker ps: %v: %s", err, out)
	}
	return strings.TrimSpace(string(out))
}
