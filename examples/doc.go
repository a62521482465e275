// Package examples holds runnable programs, one per access pattern, to copy
// from. Each runs against DynamoDB Local in a container (see
// [github.com/keyfirst/keyfirst/integration]); make example runs the
// flagship one.
package examples
