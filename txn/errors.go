package txn

import (
	"errors"
	"fmt"
	"strings"

	"github.com/keyfirst/keyfirst/internal/errfmt"
)

// The sentinel errors of the package. Match them with [errors.Is]; the
// typed errors that wrap them carry the facts. The errors of one action
// wrap the root package's sentinels too: errors.Is(err,
// keyfirst.ErrVersionConflict) holds for a transaction cancelled because
// one of its items had another version.
var (
	// ErrEmpty: a transaction without actions. Nothing was sent.
	ErrEmpty = errors.New("txn: empty transaction")
	// ErrTooManyActions: more than [MaxActions] actions (items). Nothing
	// was sent.
	ErrTooManyActions = errors.New("txn: too many actions")
	// ErrTooLarge: the items of the transaction add up to more than
	// [MaxBytes]. Nothing was sent.
	ErrTooLarge = errors.New("txn: transaction too large")
	// ErrSameItem: two actions on one item, which DynamoDB refuses.
	// Nothing was sent.
	ErrSameItem = errors.New("txn: two actions on one item")
	// ErrCanceled: DynamoDB cancelled the transaction; nothing of it was
	// written. The [*CanceledError] says which actions failed and why.
	ErrCanceled = errors.New("txn: transaction cancelled")
	// ErrTransactionConflict: an item of the transaction was being
	// written by another transaction (reason TransactionConflict).
	ErrTransactionConflict = errors.New("txn: conflict with another transaction")
	// ErrThrottled: DynamoDB throttled an item of the transaction
	// (ThrottlingError, ProvisionedThroughputExceeded).
	ErrThrottled = errors.New("txn: throttled")
	// ErrItemCollectionTooLarge: an item collection of a table with a
	// local secondary index would exceed 10 GB
	// (ItemCollectionSizeLimitExceeded).
	ErrItemCollectionTooLarge = errors.New("txn: item collection size limit exceeded")
	// ErrValidation: DynamoDB found an action invalid (ValidationError).
	ErrValidation = errors.New("txn: action refused by DynamoDB")
	// ErrTokenReused: the client request token was used, within
	// DynamoDB's idempotency window (10 minutes), for another transaction
	// (IdempotentParameterMismatchException).
	ErrTokenReused = errors.New("txn: client request token reused for another transaction")
	// ErrNotUnique: a unique value ([Unique]) is already held by another
	// item.
	ErrNotUnique = errors.New("txn: value already taken")
	// ErrMarkerOwner: the marker item of a unique value belongs to another
	// item than the one the transaction changes or deletes: the stored
	// markers are not in step with the items (written without [Unique]).
	ErrMarkerOwner = errors.New("txn: unique marker of another item")
	// ErrGaveUp: [Run] made [keyfirst.WithMaxAttempts] attempts, each cancelled
	// by other writers.
	ErrGaveUp = errors.New("txn: attempts exhausted")
)

// LimitError reports a transaction refused before any request: empty,
// too many actions, too large, or two actions on one item. It wraps
// [ErrEmpty], [ErrTooManyActions], [ErrTooLarge] or [ErrSameItem].
type LimitError struct {
	Err error // the sentinel
	// Count is the number of items (TransactItems) or bytes found; Limit
	// the most allowed.
	Count, Limit int
	// First and Second are the positions of the two actions on one item
	// (ErrSameItem), and Item the item.
	First, Second int
	Item          string
}

// Error describes the failure with its facts.
func (e *LimitError) Error() string {
	switch {
	case errors.Is(e.Err, ErrSameItem):
		return fmt.Sprintf("%v: actions %d and %d are both on %s; DynamoDB refuses a transaction with two actions on one item: merge them", e.Err, e.First, e.Second, e.Item)
	case errors.Is(e.Err, ErrEmpty):
		return e.Err.Error()
	case errors.Is(e.Err, ErrTooLarge):
		return fmt.Sprintf("%v: %d bytes, DynamoDB allows %d; split the work", e.Err, e.Count, e.Limit)
	}
	return fmt.Sprintf("%v: %d, DynamoDB allows %d; split the work", e.Err, e.Count, e.Limit)
}

// Unwrap returns the sentinel.
func (e *LimitError) Unwrap() error { return e.Err }

// ActionError reports one action of a transaction that could not be built
// (before any request) or that DynamoDB named in its cancellation
// reasons. Err says why: a [*keyfirst.ItemError] or
// [*keyfirst.OptionError] when building failed; a
// [*keyfirst.ConditionError] (wrapping [keyfirst.ErrVersionConflict],
// [keyfirst.ErrAlreadyExists], [keyfirst.ErrNotFound],
// [keyfirst.ErrWrongEntityType] or [keyfirst.ErrConditionFailed]) or a
// [*UniqueError] when a condition failed; [ErrTransactionConflict],
// [ErrThrottled], [ErrItemCollectionTooLarge] or [ErrValidation]
// otherwise.
type ActionError struct {
	Position int    // the action's position among those given to Write
	Part     string // which item of the action: "" for the item itself, "unique email" for a marker
	Table    string // the item's table (the name its entity is bound to)
	Entity   string // the entity-type name
	Key      string // the item's key, as keyfirst.Key.String prints it
	Reason   string // DynamoDB's cancellation reason code; "" before any request
	Message  string // DynamoDB's message, if any
	Err      error
}

// Error describes the failure with its facts.
func (e *ActionError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "txn: action %d", e.Position)
	if e.Part != "" {
		fmt.Fprintf(&b, " (%s)", e.Part)
	}
	if e.Entity != "" {
		fmt.Fprintf(&b, " %s", e.Entity)
	}
	if e.Key != "" {
		fmt.Fprintf(&b, " %s", e.Key)
	}
	if e.Table != "" {
		fmt.Fprintf(&b, " in %s", e.Table)
	}
	if e.Reason != "" {
		fmt.Fprintf(&b, " [%s]", e.Reason)
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	return b.String()
}

// Unwrap returns the cause.
func (e *ActionError) Unwrap() error { return e.Err }

// named is an action or read that names what it acts on in its
// [*ActionError]: entity type, table and, when known, key.
type named interface {
	where() (entity, table, key string)
}

// actionError is the [*ActionError] of action or read i: its position,
// what it acts on (when a names it), DynamoDB's reason (if any), and err.
func actionError(i int, a any, reason string, err error) *ActionError {
	ae := &ActionError{Position: i, Reason: reason, Err: err}
	if n, ok := a.(named); ok {
		ae.Entity, ae.Table, ae.Key = n.where()
	}
	return ae
}

// CanceledError reports a transaction that DynamoDB cancelled: nothing of
// it was written. Failed holds, in order, every action DynamoDB gave a
// reason for. It wraps [ErrCanceled] and each of them, so errors.Is and
// errors.As see their causes.
type CanceledError struct {
	Failed   []*ActionError
	Attempts int // the attempts made (Write retries conflicts and throttling)
}

// Error describes the failure with its facts.
func (e *CanceledError) Error() string {
	parts := make([]string, len(e.Failed))
	for i, f := range e.Failed {
		parts[i] = f.Error()
	}
	s := fmt.Sprintf("%v: %s", ErrCanceled, strings.Join(parts, "; "))
	if e.Attempts > 1 {
		s += fmt.Sprintf(" (%d attempts)", e.Attempts)
	}
	return s
}

// Unwrap returns [ErrCanceled] and the failed actions.
func (e *CanceledError) Unwrap() []error {
	out := []error{ErrCanceled}
	for _, f := range e.Failed {
		out = append(out, f)
	}
	return out
}

// TokenError reports a client request token that DynamoDB had seen with
// another transaction. It wraps [ErrTokenReused] and the SDK's error.
type TokenError struct {
	Token string
	Err   error // the SDK's IdempotentParameterMismatchException
}

// Error describes the failure with its facts.
func (e *TokenError) Error() string {
	return fmt.Sprintf("%v: token %q; use a new token for a transaction with other content (or ContentToken)", ErrTokenReused, e.Token)
}

// Unwrap returns [ErrTokenReused] and the SDK's error.
func (e *TokenError) Unwrap() []error { return errfmt.Causes(ErrTokenReused, e.Err) }

// UniqueError reports a unique value ([Unique]) that another item holds,
// or whose marker belongs to another item. It wraps [ErrNotUnique] or
// [ErrMarkerOwner].
type UniqueError struct {
	Err       error  // the sentinel
	Entity    string // the entity-type name
	Field     string // the unique field, its Go name
	Attribute string // its attribute name, which the marker key holds
	Value     string // the value
	Owner     string // the key of the item that holds it, when DynamoDB returned the marker
}

// Error describes the failure with its facts.
func (e *UniqueError) Error() string {
	s := fmt.Sprintf("%v: %s %s %q", e.Err, e.Entity, e.Field, e.Value)
	if e.Owner != "" {
		s += " is held by " + e.Owner
	}
	return s
}

// Unwrap returns the sentinel.
func (e *UniqueError) Unwrap() error { return e.Err }
