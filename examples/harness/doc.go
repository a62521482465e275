// Package harness is the README's test of a schema declared once, at
// package level, against a table of the test's own in DynamoDB Local:
// harness_test.go is the README's snippet as printed, and readme_test.go
// keeps the two the same and runs the snippet in a fresh module of its own,
// as a user who copies it would.
package harness
