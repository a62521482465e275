package shard

import (
	"errors"
	"strconv"

	"github.com/keyfirst/keyfirst/internal/errfmt"
)

// The sentinel errors of the package. Match them with [errors.Is]; the typed
// errors that wrap them carry the facts and are matched with [errors.As].
var (
	// ErrInvalidSpec: [New] refused the declaration of a sharded index
	// (see [SpecError]), before anything was written.
	ErrInvalidSpec = errors.New("shard: invalid sharded index")
	// ErrNoShard: an item that belongs to the sharded index has no valid
	// shard (see [PickError]). A write fails with it before any request,
	// inside a [github.com/keyfirst/keyfirst.ItemError]
	// ([github.com/keyfirst/keyfirst.ItemDerive]).
	ErrNoShard = errors.New("shard: no shard for the item")
)

// SpecProblem says which requirement a [Spec] or its pattern breaks.
type SpecProblem uint8

// The problems of [SpecError].
const (
	SpecPattern SpecProblem = iota + 1 // the pattern carries an error, is the table's key, or its partition side is not one Str attribute
	SpecBase                           // Base is empty, holds '#', is not valid UTF-8 or makes too long a key
	SpecShards                         // Shards is below 1 or above MaxShards
	SpecChoice                         // both or neither of Field and Pick
	SpecField                          // Field is not an exported string-kind field of T reachable without a pointer
	SpecSort                           // not exactly one of SortField and Sort on an index with a sort key, or either without one
)

var specProblemText = map[SpecProblem]string{
	SpecPattern: "pattern not shardable",
	SpecBase:    "invalid base",
	SpecShards:  "shard count out of range",
	SpecChoice:  "both or neither of Field and Pick",
	SpecField:   "invalid hash field",
	SpecSort:    "sort key source does not fit the index",
}

// String describes the problem.
func (p SpecProblem) String() string { return errfmt.ProblemText(specProblemText, p) }

// SpecError reports a sharded index that [New] refused: which index,
// what is wrong and what to do instead. It wraps [ErrInvalidSpec] and, when
// there is one, the cause (the pattern's
// [github.com/keyfirst/keyfirst.PatternError]).
type SpecError struct {
	Index   string      // the pattern's index
	Field   string      // the hash field concerned, if any
	Problem SpecProblem // what is wrong
	Detail  string      // the facts, and what to do instead
	Err     error       // the cause, if any
}

func (e *SpecError) Error() string {
	return errfmt.Describe(ErrInvalidSpec, e.Problem.String(), errfmt.Detail(e.Detail, e.Err), "index", e.Index, "field", e.Field)
}

// Unwrap returns [ErrInvalidSpec] and the cause.
func (e *SpecError) Unwrap() []error { return errfmt.Causes(ErrInvalidSpec, e.Err) }

// PickProblem says why an item has no valid shard.
type PickProblem uint8

// The problems of [PickError].
const (
	PickEmptyField  PickProblem = iota + 1 // the hash field is empty: every item would land on one shard
	PickInvalidUTF8                        // the hash field is not valid UTF-8, so its hash is not defined
	PickOutOfRange                         // Spec.Pick returned a shard outside 0..Shards-1
)

var pickProblemText = map[PickProblem]string{
	PickEmptyField:  "empty hash field",
	PickInvalidUTF8: "hash field not valid UTF-8",
	PickOutOfRange:  "shard out of range",
}

// String describes the problem.
func (p PickProblem) String() string { return errfmt.ProblemText(pickProblemText, p) }

// PickError reports an item that belongs to a sharded index but has no
// valid shard. It wraps [ErrNoShard]. A write returns it inside a
// [github.com/keyfirst/keyfirst.ItemError] before any request.
type PickError struct {
	Index   string      // the pattern's index
	Field   string      // the hash field, "" for a Pick function
	Problem PickProblem // what is wrong
	Shard   int         // the shard Pick returned (PickOutOfRange)
	Shards  int         // the index's shard count
}

func (e *PickError) Error() string {
	detail := ""
	if e.Problem == PickOutOfRange {
		detail = "Pick returned " + strconv.Itoa(e.Shard) + ", the shards are 0.." + strconv.Itoa(e.Shards-1)
	}
	return errfmt.Describe(ErrNoShard, e.Problem.String(), detail, "index", e.Index, "field", e.Field)
}

// Unwrap returns [ErrNoShard].
func (e *PickError) Unwrap() error { return ErrNoShard }

// ErrInvalidRead: a read of a sharded index ([Reader]) was refused before
// any request (see [ReadError]).
var ErrInvalidRead = errors.New("shard: invalid read")

// ReadProblem says what is wrong with a [Reader].
type ReadProblem uint8

// The problems of [ReadError].
const (
	ReadSource      ReadProblem = iota + 1 // no index (shard.Query with nil)
	ReadClient                             // a nil client
	ReadLimit                              // Limit is not positive
	ReadConcurrency                        // Concurrency is not positive
	ReadQuery                              // the shard query is refused by the query package (condition, pattern, options)
	ReadCursor                             // the cursor is malformed, changed or another read's
	ReadBinding                            // the entity writes the index with another declaration (shard count) than the Index read or re-sharded
	ReadOption                             // an option the read does not take, or of an invalid value (a *keyfirst.OptionError)
)

var readProblemText = map[ReadProblem]string{
	ReadSource:      "no index",
	ReadClient:      "no client",
	ReadLimit:       "invalid limit",
	ReadConcurrency: "invalid concurrency",
	ReadQuery:       "invalid shard query",
	ReadCursor:      "invalid cursor",
	ReadBinding:     "entity of another binding",
	ReadOption:      "invalid option",
}

// String describes the problem.
func (p ReadProblem) String() string { return errfmt.ProblemText(readProblemText, p) }

// ReadError reports a read of a sharded index refused before any request.
// It wraps [ErrInvalidRead] and the cause: the query package's
// [*query.Error] for a shard query it refuses, or, for a cursor, one of
// its ErrCursor sentinels (inside a *query.Error when the query package
// refused the cursor's place or a shard's position; Detail says which).
type ReadError struct {
	Index   string
	Problem ReadProblem
	Detail  string
	Err     error
}

func (e *ReadError) Error() string {
	return errfmt.Describe(ErrInvalidRead, e.Problem.String(), errfmt.Detail(e.Detail, e.Err), "index", e.Index)
}

// Unwrap returns [ErrInvalidRead] and the cause.
func (e *ReadError) Unwrap() []error { return errfmt.Causes(ErrInvalidRead, e.Err) }

// ShardError reports a read of a sharded index that failed in one shard:
// the merge stopped, every shard query ended, and no partial merge is
// returned as complete. Err is the query package's error (a
// *query.RequestError wrapping the SDK's or the context's, or a
// *query.DecodeError). A cursor's position for a shard is checked before
// any request, as the rest of the cursor: a [*ReadError] ([ReadCursor]).
type ShardError struct {
	Shard     int
	Partition string
	Err       error
}

func (e *ShardError) Error() string {
	return "shard: shard " + strconv.Itoa(e.Shard) + " (" + e.Partition + "): " + e.Err.Error()
}

// Unwrap returns the shard's error.
func (e *ShardError) Unwrap() error { return e.Err }
