package query

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/envelope"
	"github.com/keyfirst/keyfirst/internal/errfmt"
)

// Sentinel errors. A query refused before any request matches
// [ErrInvalidQuery] and is a [*Error] that says which rule it broke
// ([Error.Problem]) and where; a refused cursor matches one of the
// ErrCursor sentinels as well. A failed request is a [*RequestError].
var (
	// ErrInvalidQuery: the query cannot be sent as built. Nothing was sent.
	ErrInvalidQuery = errors.New("query: invalid query")

	// ErrReused: a single-use iterator ([Query.All], [Scan.All]) was
	// ranged over a second time.
	ErrReused = errors.New("query: iterator already used; call All again for a new one")

	// ErrCursorMismatch: the cursor belongs to another query (table, index,
	// sort key condition or direction).
	ErrCursorMismatch = envelope.ErrMismatch
	// ErrCursorTampered: the cursor's HMAC does not verify with the
	// configured key, or the query has a key and the cursor is unsigned.
	ErrCursorTampered = envelope.ErrTampered
	// ErrCursorMalformed: the cursor cannot be decoded.
	ErrCursorMalformed = envelope.ErrMalformed
	// ErrCursorPartition: the cursor's resume key lies outside what the
	// query reads: in another partition, outside the sort key condition,
	// or not a key of the query's index (an attribute missing, extra, of
	// the wrong type, or of a value no key holds).
	ErrCursorPartition = errors.New("query: cursor resumes outside the query's partition or sort key condition")
)

// Problem says which rule a query breaks.
type Problem uint8

// The problems of [Error].
const (
	ProblemIndex            Problem = iota + 1 // the index is not the table's (Err is a *keyfirst.SchemaError): a pattern of another table
	ProblemPartition                           // the partition key values are missing, too few or many, mistyped, empty or failed to encode
	ProblemSortKey                             // the sort key condition does not fit the sort key (no sort key, wrong type, no native form, not built, a condition on a constant sort key)
	ProblemNotLeading                          // a condition on an attribute of a multi-attribute sort key that is not its first
	ProblemPrefix                              // a prefix that is not a prefix of the key's segments (longer than the key, or empty)
	ProblemConsistentRead                      // a consistent read on a global secondary index
	ProblemLimit                               // a limit of 0 or less
	ProblemProjection                          // a projected attribute that is empty or not in the index
	ProblemCursor                              // the cursor is refused (Err says why: one of the ErrCursor sentinels)
	ProblemNotScannable                        // a Scan of the table or of an index not declared Scannable
	ProblemSegments                            // a number of scan segments outside 1..MaxSegments
	ProblemOption                              // an option with an invalid value (a short CursorKey)
	ProblemClient                              // a nil client
	ProblemSource                              // a query not started from On, CollectionOn or ScanOn, or from a nil entity or table
	ProblemPattern                             // a pattern the entity or table does not bind, or that carries an error
	ProblemForeignCondition                    // a sort key condition built from another key definition or Side than the pattern's sort key, or a raw one (SortAttr) where a typed condition exists
	ProblemExpired                             // WithoutExpired on a read that is not of one entity with an expiry (EntitySpec.Expires)
)

var problemText = [...]string{
	ProblemIndex:            "unknown index",
	ProblemPartition:        "partition key",
	ProblemSortKey:          "sort key condition",
	ProblemNotLeading:       "condition on a non-leading attribute of a multi-attribute sort key",
	ProblemPrefix:           "prefix is not a prefix of the key's segments",
	ProblemConsistentRead:   "consistent read on a global secondary index",
	ProblemLimit:            "limit",
	ProblemProjection:       "projection",
	ProblemCursor:           "cursor",
	ProblemNotScannable:     "scan of a non-scannable index",
	ProblemSegments:         "scan segments",
	ProblemOption:           "option",
	ProblemClient:           "client",
	ProblemSource:           "no entity or table",
	ProblemPattern:          "access pattern",
	ProblemForeignCondition: "sort key condition not built from the pattern's sort key",
	ProblemExpired:          "expiry unknown to the read",
}

// String describes the problem.
func (p Problem) String() string {
	if int(p) < len(problemText) && problemText[p] != "" {
		return problemText[p]
	}
	return fmt.Sprintf("Problem(%d)", uint8(p))
}

// Error reports a query that cannot be sent as built: which rule it breaks
// and where. It is returned before any request. It wraps [ErrInvalidQuery]
// and, when there is one, the cause: a keys error (so errors.Is(err,
// keys.ErrNotNative) holds), a *keyfirst.SchemaError, or an ErrCursor
// sentinel.
type Error struct {
	Table     string  // the table name
	Index     string  // the index name; empty for the table
	Attribute string  // the attribute concerned, if any
	Problem   Problem // the rule broken
	Detail    string  // what was found and what to do instead
	Err       error   // the cause, if any
}

// Error describes the problem, where it is, and the cause.
func (e *Error) Error() string {
	return errfmt.Describe(ErrInvalidQuery, e.Problem.String(), errfmt.Detail(e.Detail, e.Err),
		"table", e.Table, "index", e.Index, "attribute", e.Attribute)
}

// Unwrap returns [ErrInvalidQuery] and the cause.
func (e *Error) Unwrap() []error { return errfmt.Causes(ErrInvalidQuery, e.Err) }

// RequestError reports a Query or Scan request that failed: which table and
// index, which request of the call (1 for the first), and the SDK's error
// (or the context's).
type RequestError struct {
	Op      string // "Query" or "Scan"
	Table   string // the table name
	Index   string // the index name; empty for the table
	Segment int    // the scan segment; 0 for a query
	Request int    // the request's number in its call or segment, from 1
	Err     error  // the cause
}

// Error describes the failed request and its cause.
func (e *RequestError) Error() string {
	where := fmt.Sprintf("table %q", e.Table)
	if e.Index != "" {
		where += fmt.Sprintf(", index %q", e.Index)
	}
	if e.Op == "Scan" {
		where += fmt.Sprintf(", segment %d", e.Segment)
	}
	return fmt.Sprintf("query: %s request %d on %s: %v", e.Op, e.Request, where, e.Err)
}

// Unwrap returns the cause.
func (e *RequestError) Unwrap() error { return e.Err }

// DecodeError reports an item that a request returned and that could not
// be decoded: in an entity read ([On], [ScanOn]), an item of another
// entity type; in any read, an attribute that does not fit its field. It
// wraps the keyfirst package's error (a *keyfirst.EntityTypeError, so
// errors.Is(err, keyfirst.ErrWrongEntityType) holds, or a
// *keyfirst.ItemError).
//
// The read stops before the item: the page's Next (and the cursor stored
// by [keyfirst.WithNext]) resumes at it, so that a retry after a fix reads it. Skip
// resumes after it: pass it to [Query.After] to read past the item.
type DecodeError struct {
	Op    string // "Query" or "Scan"
	Table string // the table name
	Index string // the index name; empty for the table
	// Key is the item's key in the index read (the table's and the
	// index's key attributes).
	Key map[string]types.AttributeValue
	// Skip resumes the query after the item; empty for a Scan, which has
	// no cursors.
	Skip Cursor
	Err  error // the cause
}

// Error describes the item and the cause.
func (e *DecodeError) Error() string {
	names := slices.Sorted(maps.Keys(e.Key))
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + "=" + avString(e.Key[n])
	}
	where := fmt.Sprintf("table %q", e.Table)
	if e.Index != "" {
		where += fmt.Sprintf(", index %q", e.Index)
	}
	return fmt.Sprintf("query: %s on %s: the item at %s cannot be decoded: %v", e.Op, where, strings.Join(parts, ", "), e.Err)
}

// Unwrap returns the cause.
func (e *DecodeError) Unwrap() error { return e.Err }
