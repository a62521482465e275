package keys

import (
	"fmt"
	"unicode/utf8"
	"unsafe"
)

// Codec encodes values of type V into one key segment and decodes them back.
// Every codec in this package is order-preserving (x < y exactly when the
// encoding of x sorts before the encoding of y by bytes, the order DynamoDB
// uses for string keys), injective, and never emits the separator or a
// reserved character, so a segment cannot forge a boundary of the next.
//
// The interface is sealed: the guarantees above are proved by this
// package's fuzz tests for its own codecs only. Build codecs with [Enum],
// [ID], [Time], [Int], [Uint] and [Literal]; combine them with [NewKey1] ..
// [NewKey4]. A codec whose definition is invalid (an empty enum, a width out
// of range) reports [ErrDefinition] from every method and from the key
// constructors.
type Codec[V any] interface {
	// Append appends the encoding of v to dst for a key whose separator is
	// sep (validity depends on it: a value may not contain sep) and returns
	// the extended slice. It allocates only when dst must grow.
	Append(dst []byte, sep byte, v V) ([]byte, error)
	// Parse decodes one segment (without separators) of a key whose
	// separator is sep. It accepts exactly the strings that Append
	// produces.
	Parse(seg string, sep byte) (V, error)

	// kind names the codec in errors.
	kind() string
	// check reports a definition error, or an incompatibility with sep.
	check(sep byte) error
	// size is the length of v's encoding (exact when v is valid), so that
	// a key can make its single allocation up front.
	size(v V) int
	// appendSeg is Append returning a bare cause (no *SegmentError).
	appendSeg(dst []byte, v V, sep byte) ([]byte, error)
	// decode is Parse returning a bare cause (no *SegmentError).
	decode(seg string, sep byte) (V, error)
	// prev returns the greatest value whose encoding, for separator sep,
	// sorts below v's and is at most room bytes long, or false when there
	// is none. v has been encoded successfully before.
	prev(v V, sep byte, room int) (V, bool)
}

// fastAppender is a codec with a quick path for a key of one segment
// (fastAppend): the key's whole append, given its head (prefix and
// separator, or "") and separator, for the values that need nothing the
// codec's general append does; nil when it has none.
type fastAppender[V any] interface {
	fastAppend(head string, sep byte) func(dst []byte, v V) ([]byte, bool)
}

// DefaultSeparator is the separator of keys built without WithSeparator.
const DefaultSeparator byte = '#'

// validSeparator reports whether sep can separate segments: a printable
// ASCII byte from '!' to '+'. A separator must sort below every character a
// segment may contain (digits, letters, '-', ':', '.'), and so must its
// successor, which range bounds use; these eleven bytes are the ones that do.
func validSeparator(sep byte) bool { return sep >= '!' && sep <= '+' }

// del is the ASCII control character above the printable ones.
const del = 0x7F

// checkChars validates a free-form segment value (identifier, enum value,
// literal) for separator sep: not empty, valid UTF-8, no ASCII control
// character, and every byte above sep+1. The last rule makes
// concatenation order-preserving: a shorter value followed by the
// separator sorts before any longer value that extends it.
func checkChars(s string, sep byte) error {
	if s == "" {
		return ErrEmpty
	}
	if plainText(s, sep) {
		return nil
	}
	return checkEachChar(s, sep)
}

// checkEachChar is checkChars of a text that is not empty, each byte
// looked at on its own.
func checkEachChar(s string, sep byte) error {
	ascii := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == sep:
			return ErrSeparator
		case c <= sep+1 || c == del:
			return ErrReserved
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	if !ascii && !utf8.ValidString(s) {
		return ErrMalformed
	}
	return nil
}

// appendWith implements Codec.Append for every codec.
func appendWith[V any](c Codec[V], dst []byte, sep byte, v V) ([]byte, error) {
	return appendAt(nil, c, dst, v, sep, 1)
}

// parseWith implements Codec.Parse for every codec.
func parseWith[V any](c Codec[V], seg string, sep byte) (V, error) {
	return decodeAt(c, seg, sep, 1)
}

// appendAt appends segment i to dst, wrapping a failure in a
// *SegmentError; on failure dst comes back with its length unchanged.
// A key's segments are appended in a chain, each call given the error of
// the one before: after a failure (prev != nil) it returns dst and prev
// (the key's Append then discards everything after the original dst).
func appendAt[V any](prev error, c Codec[V], dst []byte, v V, sep byte, i int) ([]byte, error) {
	if prev != nil {
		return dst, prev
	}
	out, err := c.appendSeg(dst, v, sep)
	if err != nil {
		return dst, segErr(i, c.kind(), fmtValue(v), err)
	}
	return out, nil
}

// segmentAt returns segment i as a string of its own.
func segmentAt[V any](c Codec[V], v V, sep byte, i int) (string, error) {
	b, err := appendAt(nil, c, make([]byte, 0, c.size(v)), v, sep, i)
	if err != nil {
		return "", err
	}
	return bytesToString(b), nil
}

// bytesToString returns b as a string without copying it. b must never be
// written again: it is only used on buffers made for the result (as
// strings.Builder does).
func bytesToString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// decodeAt decodes segment i, wrapping a failure in a *SegmentError.
func decodeAt[V any](c Codec[V], seg string, sep byte, i int) (V, error) {
	v, err := c.decode(seg, sep)
	if err != nil {
		return v, segErr(i, c.kind(), seg, err)
	}
	return v, nil
}

// Must returns v, or panics if err is not nil. It is meant for values
// known to be valid, in tests and fixtures (a definition needs none: it
// keeps its error, see [NewKey1]):
//
//	want := keys.Must(orderSK.Encode(Cancelled, jul1))
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// fmtValue formats a value for an error message.
func fmtValue(v any) string { return fmt.Sprint(v) }
