// Package query will build reads that can only compile to a key condition:
// partition key equality and one sort-key condition (=, <, <=, >, >=,
// BETWEEN, begins_with) from typed values, with exact limits across pages,
// resumable tamper-evident cursors bound to their query, and iteration as
// iter.Seq2. It has no method that adds a FilterExpression and no Scan of a
// table; only an index the schema declares scannable can be scanned.
package query
