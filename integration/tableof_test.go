package integration_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst/integration"
)

// movies is a schema as TableOf sees one (keyfirst's *Table is another):
// a description that binds to a name.
type movies struct {
	name   string
	refuse error
}

func (m *movies) CreateTableInput() *dynamodb.CreateTableInput { return gsiTable() }

func (m *movies) Named(name string) (*movies, error) {
	if m.refuse != nil {
		return nil, m.refuse
	}
	return &movies{name: name}, nil
}

// TableOf creates a table of the schema's description under a name of the
// test's own and hands back the schema bound to that name.
func TestTableOf(t *testing.T) {
	t.Parallel()
	declared := &movies{name: "movies"}
	a, b := integration.TableOf(t, declared), integration.TableOf(t, declared)
	if a.name == b.name || a.name == "movies" || declared.name != "movies" {
		t.Fatalf("bindings %q and %q of %q", a.name, b.name, declared.name)
	}
	out, err := integration.Client(t).DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(a.name)})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Table; got.TableStatus != "ACTIVE" || len(got.GlobalSecondaryIndexes) != 1 {
		t.Fatalf("table %s: %s, %d GSIs", a.name, got.TableStatus, len(got.GlobalSecondaryIndexes))
	}
}

// fatalRecorder records the test failure a helper reports, and ends the
// goroutine as t.Fatalf does.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (f *fatalRecorder) Helper() {}

func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// A nil schema fails the test before any request; so does a binding the
// schema refuses, naming the table it created.
func TestTableOfRefusals(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		schema *movies
		want   string
	}{
		"nil schema":      {nil, "TableOf of a nil *integration_test.movies"},
		"binding refused": {&movies{refuse: errors.New("no such name")}, "no such name"},
	} {
		if c.schema != nil && testing.Short() {
			continue // the binding is refused after the table is created: needs DynamoDB Local
		}
		rec := &fatalRecorder{TB: t}
		done := make(chan struct{})
		go func() {
			defer close(done)
			integration.TableOf(rec, c.schema)
		}()
		<-done
		if !strings.Contains(rec.msg, c.want) {
			t.Errorf("%s: the test failed with %q, want %q", name, rec.msg, c.want)
		}
	}
}
