package tclocal_test

import (
	"context"
	"os"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/integration/tclocal"
)

func TestMain(m *testing.M) { tclocal.Main(m) }

// Seed 004's MoviesAndActors.
type role struct {
	Actor string `dynamodbav:"Actor"`
	Movie string `dynamodbav:"Movie"`
	Role  string `dynamodbav:"Role"`
}

var (
	byActor = keyfirst.OnTable(keyfirst.Str("Actor"), keyfirst.Str("Movie"))
	byMovie = keyfirst.OnIndex("MovieActors", keyfirst.Str("Movie"), keyfirst.Str("Actor"))
	cast    = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "MoviesAndActors", Key: byActor, GSIs: []keyfirst.Index{byMovie.Index()}}))
	roles   = keyfirst.Must(keyfirst.NewEntity(cast, keyfirst.EntitySpec[role]{Type: "Role",
		Keys: []keyfirst.Binding{byActor.Fields("Actor", "Movie"), byMovie.Fields("Movie", "Actor")}}))
)

// The harness runs on the container that testcontainers-go started: a
// table of the test's own (TableOf), a table created with Table.Create and
// compared with CheckTable, and an item written and read back.
func TestHarnessOnTestcontainers(t *testing.T) {
	t.Parallel()
	local := integration.Shared(t)
	if ep := os.Getenv(integration.EnvEndpoint); ep != "" && local.Endpoint == ep {
		t.Fatalf("the harness used %s=%s, not the container", integration.EnvEndpoint, ep)
	}
	client := integration.Client(t)
	ctx, cancel := integration.Context(t)
	defer cancel()

	table := integration.TableOf(t, cast)
	woody := role{"Tom Hanks", "Toy Story", "Woody"}
	if _, err := keyfirst.Must(roles.In(table)).Put(ctx, client, woody); err != nil {
		t.Fatal(err)
	}
	if got, err := keyfirst.Must(roles.In(table)).Get(ctx, client, keyfirst.Must(roles.Key(woody))); err != nil || got != woody {
		t.Fatalf("got %+v, %v", got, err)
	}

	created := keyfirst.Must(cast.Named(integration.UniqueTableName(t)))
	t.Cleanup(func() {
		_, _ = client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(created.Name())})
	})
	if notes, err := created.Create(ctx, client); err != nil || len(notes) != 0 {
		t.Fatalf("Create: %v, %v", notes, err)
	}
	if notes := integration.CheckTable(t, created); len(notes) != 0 {
		t.Fatalf("notes %v", notes)
	}
	out, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(created.Name())})
	if err != nil || out.Table.TableStatus != types.TableStatusActive {
		t.Fatalf("%v, %v", out, err)
	}
}
