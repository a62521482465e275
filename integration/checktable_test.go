package integration_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
)

// A keyfirst schema of the movies table of gsiTable (seed 004).
func moviesSchema(t *testing.T) *keyfirst.Table {
	t.Helper()
	return keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "movies",
		Key:  keyfirst.OnTable(keyfirst.Str("Actor"), keyfirst.Str("Movie")),
		GSIs: []keyfirst.Index{keyfirst.OnIndex("by-movie", keyfirst.Str("Movie"), keyfirst.Str("Actor")).Index()}}))
}

// CheckTable passes on a table that serves the schema, returning the
// notes, and fails the test, with the differences, on one that does not.
func TestCheckTable(t *testing.T) {
	t.Parallel()
	schema := moviesSchema(t)
	in := gsiTable()
	in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}
	streamed := keyfirst.Must(schema.Named(integration.CreateTable(t, in)))
	if notes := integration.CheckTable(t, streamed); len(notes) != 1 || notes[0].Kind != keyfirst.DiffStream {
		t.Fatalf("notes %v", notes)
	}

	in = gsiTable()
	in.GlobalSecondaryIndexes = nil
	in.AttributeDefinitions = in.AttributeDefinitions[:2]
	bare := keyfirst.Must(schema.Named(integration.CreateTable(t, in)))
	rec := &fatalRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		integration.CheckTable(rec, bare)
	}()
	<-done
	if !strings.Contains(rec.msg, "index missing") || !strings.Contains(rec.msg, "by-movie") {
		t.Fatalf("the test failed with %q", rec.msg)
	}
}

// otherChecker's Check takes a client that *dynamodb.Client is not.
type otherChecker struct{}

type describer interface{ Describe() }

func (otherChecker) Check(context.Context, describer) (int, error) { return 0, nil }

func TestCheckTableOtherClient(t *testing.T) {
	t.Parallel()
	rec := &fatalRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		integration.CheckTable(rec, otherChecker{})
	}()
	<-done
	if !strings.Contains(rec.msg, "integration_test.describer") {
		t.Fatalf("the test failed with %q", rec.msg)
	}
}

// External wraps a DynamoDB Local started elsewhere: its client reaches
// the endpoint, and Close calls stop once.
func TestExternal(t *testing.T) {
	t.Parallel()
	shared := integration.Shared(t)
	stops := 0
	l := integration.External(shared.Endpoint, func() error { stops++; return nil })
	if _, err := l.Client.ListTables(context.Background(), &dynamodb.ListTablesInput{Limit: aws.Int32(1)}); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil || stops != 1 {
		t.Fatalf("%v; stop called %d times", err, stops)
	}
}
