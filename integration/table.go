package integration

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// tableSeq makes table names unique within a test binary; the process id and
// start time make them unique across binaries sharing one endpoint.
var (
	tableSeq    atomic.Uint64
	tableRunTag = fmt.Sprintf("%x%x", time.Now().UnixNano()&0xffffff, uint32(os.Getpid()))
)

// notTableChar matches what a DynamoDB table name cannot contain.
var notTableChar = regexp.MustCompile(`[^a-zA-Z0-9_.-]+`)

// TableWaitTimeout bounds how long [CreateTable] waits for ACTIVE, and the
// deletion of the table when the test ends: generous, for loaded machines.
// The test's own deadline bounds them too (see [Context]).
const TableWaitTimeout = 5 * time.Minute

// Context returns a context for a test's fixture work (starting DynamoDB
// Local, creating tables, loading data), which is not what the test
// measures: it ends with the test and shortly before the test binary's
// deadline (go test -timeout, 10 minutes by default), never earlier. So a
// loaded machine fails a fixture only where the test would have timed out
// anyway, and then with the request's error rather than the binary's
// timeout panic. Without a deadline (-timeout 0, benchmarks) it ends with
// the test. Call cancel when done.
func Context(t testing.TB) (context.Context, context.CancelFunc) {
	ctx := t.Context()
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if deadline, ok := d.Deadline(); ok {
			margin := min(time.Until(deadline)/10, 30*time.Second)
			return context.WithDeadline(ctx, deadline.Add(-margin))
		}
	}
	return context.WithCancel(ctx)
}

// CreateTable creates the table described by in under a name unique to the
// test (in.TableName is only a hint and is replaced; in is not modified),
// waits until it is ACTIVE, deletes it when the test ends, and returns its
// name. Each test on its own table can run with t.Parallel(). Bind a
// keyfirst schema declared once to it with Table.Named (and its entities
// with Entity.In):
//
//	table := keyfirst.Must(Shop.Named(integration.CreateTable(t, Shop.CreateTableInput())))
//	orders := keyfirst.Must(Orders.In(table))
//
// [TableOf] is that first line.
func CreateTable(t testing.TB, in *dynamodb.CreateTableInput) string {
	t.Helper()
	client := Client(t)
	name := UniqueTableName(t)
	input := *in
	input.TableName = aws.String(name)

	ctx, cancel := Context(t)
	defer cancel()
	if _, err := client.CreateTable(ctx, &input); err != nil {
		t.Fatalf("integration: create table %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), TableWaitTimeout)
		defer cancel()
		if _, err := client.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil {
			t.Errorf("integration: delete table %s: %v", name, err)
		}
	})
	waiter := dynamodb.NewTableExistsWaiter(client, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay = 50 * time.Millisecond
		o.MaxDelay = time.Second
	})
	if err := waiter.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, TableWaitTimeout); err != nil {
		t.Fatalf("integration: table %s never became ACTIVE: %v", name, err)
	}
	return name
}

// Schema is a table's description that can be bound to a table name, as
// keyfirst's *Table is (Table.CreateTableInput, Table.Named): what
// [TableOf] needs, without this package importing keyfirst.
type Schema[S any] interface {
	CreateTableInput() *dynamodb.CreateTableInput
	Named(name string) (S, error)
}

// TableOf creates a table of schema's description for the test alone, as
// [CreateTable] does, and returns the schema bound to it: one line for a
// schema declared once, at package level.
//
//	table := integration.TableOf(t, Shop)      // a *keyfirst.Table of its own
//	orders := keyfirst.Must(Orders.In(table)) // entities bound to it
//
// A nil schema, or a binding the schema refuses, fails the test.
func TableOf[S Schema[S]](t testing.TB, schema S) S {
	t.Helper()
	if v := reflect.ValueOf(schema); !v.IsValid() || (v.Kind() == reflect.Pointer && v.IsNil()) {
		t.Fatalf("integration: TableOf of a nil %T", schema)
	}
	name := CreateTable(t, schema.CreateTableInput())
	bound, err := schema.Named(name)
	if err != nil {
		t.Fatalf("integration: bind the schema to table %s: %v", name, err)
	}
	return bound
}

// Checker is a table's description bound to its table that compares
// itself with the live table, as keyfirst's *Table does (Table.Check):
// what [CheckTable] needs, without this package importing keyfirst. C is
// the client interface its Check takes, R what it returns besides the
// error (keyfirst's notes).
type Checker[C, R any] interface {
	Check(ctx context.Context, client C) (R, error)
}

// CheckTable compares schema, bound to its table, with that table in the
// DynamoDB Local of the test binary, and fails the test when the table
// differs in a way that breaks the schema's reads or writes (the error of
// schema's Check lists every difference); it returns the rest (keyfirst's
// notes). It is for a table that the test did not create from the schema:
// one created by a script, a migration tool or an infrastructure
// template, so that a test proves that what production creates is what
// the code expects.
//
//	table := keyfirst.Must(Shop.Named(name)) // a table the script created
//	notes := integration.CheckTable(t, table)
//
// A schema whose Check takes a client that *dynamodb.Client does not
// satisfy fails the test.
func CheckTable[S Checker[C, R], C, R any](t testing.TB, schema S) R {
	t.Helper()
	// Refused before DynamoDB Local is needed (or, under -short, skipped).
	want, have := reflect.TypeFor[C](), reflect.TypeFor[*dynamodb.Client]()
	if want != have && (want.Kind() != reflect.Interface || !have.Implements(want)) {
		t.Fatalf("integration: CheckTable: the Check of %T takes a %v, which %v does not satisfy", schema, want, have)
	}
	client := any(Client(t)).(C)
	ctx, cancel := Context(t)
	defer cancel()
	notes, err := schema.Check(ctx, client)
	if err != nil {
		t.Fatalf("integration: CheckTable: %v", err)
	}
	return notes
}

// UniqueTableName returns a valid table name derived from the test's name
// that no other call in any test binary returns.
func UniqueTableName(t testing.TB) string {
	base := notTableChar.ReplaceAllString(t.Name(), "_")
	if len(base) > 180 {
		base = base[:180]
	}
	return fmt.Sprintf("%s-%s-%d", base, tableRunTag, tableSeq.Add(1))
}
