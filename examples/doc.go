// Package examples holds runnable programs, one per pattern of the seeds,
// to copy from: orders (the flagship, make example), repos, users,
// tickets, openorders, audit, movies and testing (how to test your own
// code with [github.com/keyfirst/keyfirst/integration]). Each is a main package of
// its own folder whose logic is a function run(ctx, w, client), which its
// test runs against DynamoDB Local, comparing what it prints with the
// exact text expected.
//
// What they share is in internal/demo: DynamoDB Local in a container or
// DYNAMODB_ENDPOINT, tables under names of their own, KEEP=1, and a client
// that records the requests sent and prints them with their cost.
// internal/runall runs every program against one DynamoDB Local (make
// examples); a new folder with a main package is run with no other change.
package examples
