package keys

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error returned by this package matches one of them
// with [errors.Is]; errors about one segment are wrapped in a [*SegmentError]
// that names the segment and the offending value.
var (
	// ErrSeparator: an identifier, enum value, literal or prefix contains the
	// key's separator, so it could forge a segment boundary.
	ErrSeparator = errors.New("keys: value contains the separator")

	// ErrReserved: a value contains a byte at or below the separator's
	// successor (with '#': control characters, space, '!', '"' and '$'),
	// or DEL (0x7F), the other ASCII control character.
	// Such bytes would sort a longer value before a shorter one across the
	// separator, or collide with the bounds that range conditions use.
	ErrReserved = errors.New("keys: value contains a reserved character (control, space, or punctuation at or below the separator's successor)")

	// ErrEmpty: an empty value where a segment needs at least one character.
	ErrEmpty = errors.New("keys: empty value")

	// ErrTooLong: an identifier longer than its codec's maximum length.
	ErrTooLong = errors.New("keys: value too long")

	// ErrNotInEnum: a value, encoded or decoded, outside an enum's closed set.
	ErrNotInEnum = errors.New("keys: value not in the enum")

	// ErrOutOfRange: an integer that does not fit the segment's width or Go
	// type, or a time whose UTC year is outside 0000-9999.
	ErrOutOfRange = errors.New("keys: value out of range")

	// ErrMalformed: a string that is not a valid encoding (wrong width, wrong
	// number of segments, a literal that does not match, invalid UTF-8).
	ErrMalformed = errors.New("keys: malformed value")

	// ErrEmptyRange: a range condition that no key can satisfy (Between with
	// lo > hi, or a strict upper bound below the smallest value), which
	// DynamoDB cannot express.
	ErrEmptyRange = errors.New("keys: the range matches no key")

	// ErrNoCondition: a condition that would match every key of the
	// partition (begins_with with nothing to begin with): query without a
	// sort key condition instead.
	ErrNoCondition = errors.New("keys: the condition matches every key; omit it")

	// ErrNotNative: a [Cond] built from [Anchor] values compares whole
	// concatenated keys and has no multi-attribute form.
	ErrNotNative = errors.New("keys: the condition has no multi-attribute form")

	// ErrDefinition: a codec or key definition that cannot work (empty enum,
	// duplicate value, width outside 1..20, bad separator, zero Key value).
	ErrDefinition = errors.New("keys: invalid key definition")
)

// SegmentError reports what went wrong with one segment of a key.
// Match the cause with [errors.Is] (it unwraps to one of the package's
// sentinels) and read the facts from the fields with [errors.As].
type SegmentError struct {
	// Segment is the 1-based position of the typed segment in its key (the
	// type parameter A is segment 1), 0 for the key's literal prefix, and
	// 1 for a codec used on its own.
	Segment int
	// Kind names the segment's codec: "enum", "id", "time", "int", "uint",
	// "literal", "prefix" or "key" (the key as a whole).
	Kind string
	// Value is the offending value as text (the Go value formatted with %v
	// on encode, the segment string on decode).
	Value string
	// Err is the cause; it matches one of the package's sentinels.
	Err error
}

// maxShown bounds how much of a hostile value an error message repeats.
const maxShown = 64

// Error states the cause, then the segment, its kind and the value (when
// there is one; at most 64 bytes of it).
func (e *SegmentError) Error() string {
	if e.Value == "" {
		return fmt.Sprintf("%v: segment %d (%s)", e.Err, e.Segment, e.Kind)
	}
	v := e.Value
	if len(v) > maxShown {
		v = v[:maxShown] + "..."
	}
	return fmt.Sprintf("%v: segment %d (%s) %q", e.Err, e.Segment, e.Kind, v)
}

// Unwrap returns the cause.
func (e *SegmentError) Unwrap() error { return e.Err }

// segErr builds a *SegmentError for segment i.
func segErr(i int, kind, value string, err error) *SegmentError {
	return &SegmentError{Segment: i, Kind: kind, Value: value, Err: err}
}

// defErr wraps a definition problem so that it matches ErrDefinition and,
// when cause is not nil, cause too.
func defErr(cause error, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if cause != nil {
		return fmt.Errorf("%w: %s: %w", ErrDefinition, msg, cause)
	}
	return fmt.Errorf("%w: %s", ErrDefinition, msg)
}
