// Package keyfirst is typed single-table DynamoDB data access in which every
// access pattern compiles to a key condition: never a FilterExpression, never
// a Scan of the table.
//
// # Architecture
//
// The module is a few packages in layers; imports point one way only, from
// the top of this list towards its bottom:
//
//	examples      runnable programs, one per access pattern
//	integration   DynamoDB Local in a container, for tests (ours and yours)
//	txn, shard    typed transactions; write-sharded GSIs and fan-out reads
//	query, sparse key-condition-only reads; sparse index membership rules
//	keyfirst      schema, entities, derived keys, item operations, batches
//	keys          pure codecs: composite sort keys whose byte order is the
//	              values' order (no SDK, no network)
//
// [github.com/keyfirst/keyfirst/keys] encodes typed values into key segments
// (enums first, ISO-8601 UTC times, zero-padded integers) and builds the
// bounds of key conditions from typed values. The root package describes a
// table once in Go, the entity types that live in it and how every key and
// index attribute derives from an item, and performs the item operations, so
// that no write can leave a derived attribute stale.
// [github.com/keyfirst/keyfirst/query] reads item collections with key
// conditions only, exact limits and resumable cursors.
// [github.com/keyfirst/keyfirst/sparse] decides at write time whether an
// item belongs to a sparse index. [github.com/keyfirst/keyfirst/shard] and
// [github.com/keyfirst/keyfirst/txn] build on those.
// [github.com/keyfirst/keyfirst/integration] imports only the AWS SDK and
// testcontainers-go; nothing in the library imports it.
package keyfirst
