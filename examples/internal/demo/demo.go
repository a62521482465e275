// Package demo is what the example programs share, so that each of them
// holds its access pattern and little else: where DynamoDB runs, tables
// under names of their own, KEEP=1, and the keyfirst.Observer of their
// tables, which records the requests an example sends and what they cost,
// for it to print ([DB.Report]), and prints an item as stored
// ([DB.Stored]).
//
// An example is a [Run]: its main is demo.Main(run), and its test runs the
// same function against the test binary's DynamoDB Local (see
// [github.com/keyfirst/keyfirst/examples/internal/demotest]).
//
// # Where DynamoDB runs
//
// [Main] starts DynamoDB Local in a container with
// [github.com/keyfirst/keyfirst/integration.Start], or, with
// DYNAMODB_ENDPOINT set, uses that endpoint. The container ends with the
// program.
//
// # Tables
//
// [DB.Create] creates a table of a schema declared once, at package level,
// under its name and a suffix of the run (CustomerOrders-1f2e3d4c), so that
// runs against one endpoint do not collide; [DB.Close] deletes them. With
// KEEP=1 ([EnvKeep]) they are kept and their names printed, and a program
// that started its own DynamoDB Local keeps it running until Ctrl-C, so
// that the tables can be inspected with the AWS CLI.
package demo

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst/integration"
)

// EnvKeep is the environment variable that keeps an example's tables: KEEP=1.
const EnvKeep = "KEEP"

// Run is an example: it writes what it shows to w, and uses client, a
// client of a running DynamoDB (Local), for everything it does.
type Run func(ctx context.Context, w io.Writer, client *dynamodb.Client) error

// Main is the main function of an example: run against DynamoDB Local (see
// [WithLocal]), printing to standard output. It exits with status 1 when
// run fails.
func Main(run Run) {
	err := WithLocal(func(ctx context.Context, local *integration.Local) error {
		return run(ctx, os.Stdout, local.Client)
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// WithLocal calls body with a running DynamoDB Local: the endpoint named
// by DYNAMODB_ENDPOINT, or a container it starts and removes when done.
// Its context ends on SIGINT and SIGTERM. With KEEP=1 the context says so
// to [DB.Close], and a container started here keeps running after body
// returns, until SIGINT or SIGTERM.
func WithLocal(body func(ctx context.Context, local *integration.Local) error) (err error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	local, err := integration.Start(ctx)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := local.Close(); err == nil {
			err = cerr
		}
	}()
	keep := os.Getenv(EnvKeep) == "1"
	if keep {
		ctx = Keep(ctx)
	}
	if err := body(ctx, local); err != nil {
		return err
	}
	if keep && os.Getenv(integration.EnvEndpoint) == "" {
		fmt.Printf("KEEP=1: DynamoDB Local keeps running at %s until Ctrl-C\n", local.Endpoint)
		<-ctx.Done()
	}
	return nil
}

type keepKey struct{}

// Keep returns a context in which [DB.Close] keeps the tables: what KEEP=1
// does in [WithLocal].
func Keep(ctx context.Context) context.Context { return context.WithValue(ctx, keepKey{}, true) }

func keeps(ctx context.Context) bool { k, _ := ctx.Value(keepKey{}).(bool); return k }
