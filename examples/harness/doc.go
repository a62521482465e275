// Package harness is the README's test of a schema declared once, at
// package level, against a table of the test's own in DynamoDB Local:
// harness_test.go is the README's snippet as printed, and readme_test.go
// keeps the two the same and runs the snippet in a fresh module of its own,
// as a user who copies it would. snippets_test.go does the same for every
// Go snippet of the README and of the package docs: each compiles (go vet)
// in a fresh module, fragments beside a prelude of what their doc
// presupposes (testdata/snippets), and the shard package's example runs
// on DynamoDB Local.
package harness
