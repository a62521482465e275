package keys

import (
	"fmt"
	"unicode/utf8"
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
	// encode is Append without a destination: the encoding is returned by
	// value so that the key can size its single allocation first.
	encode(v V, sep byte) (piece, error)
	// decode is Parse returning a bare cause (no *SegmentError).
	decode(seg string, sep byte) (V, error)
	// prev returns the greatest value whose encoding, for separator sep,
	// sorts below v's and is at most room bytes long, or false when there
	// is none. v has been encoded successfully before.
	prev(v V, sep byte, room int) (V, bool)
}

// maxFixed is the longest fixed-width encoding: a nanosecond time with its
// "Z" (30 bytes).
const maxFixed = 30

// piece is one encoded segment: either a string (enum values, identifiers,
// literals are their own encoding) or up to maxFixed bytes built in place.
type piece struct {
	s   string
	n   uint8
	buf [maxFixed]byte
}

// size is the length of the encoding.
func (p *piece) size() int { return len(p.s) + int(p.n) }

// appendTo appends the encoding to dst.
func (p *piece) appendTo(dst []byte) []byte {
	if p.n == 0 {
		return append(dst, p.s...)
	}
	return append(dst, p.buf[:p.n]...)
}

// String returns the encoding as a string (allocating for fixed pieces).
func (p *piece) String() string {
	if p.n == 0 {
		return p.s
	}
	return string(p.buf[:p.n])
}

// DefaultSeparator is the separator of keys built without WithSeparator.
const DefaultSeparator byte = '#'

// validSeparator reports whether sep can separate segments: a printable
// ASCII byte from '!' to '+'. A separator must sort below every character a
// segment may contain (digits, letters, '-', ':', '.'), and so must its
// successor, which range bounds use; these eleven bytes are the ones that do.
func validSeparator(sep byte) bool { return sep >= '!' && sep <= '+' }

// checkChars validates a free-form segment value (identifier, enum value,
// literal) for separator sep: not empty, valid UTF-8, and every byte above
// sep+1. The last rule makes concatenation order-preserving: a shorter
// value followed by the separator sorts before any longer value that
// extends it.
func checkChars(s string, sep byte) error {
	if s == "" {
		return ErrEmpty
	}
	ascii := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == sep:
			return ErrSeparator
		case c <= sep+1:
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
	p, err := encodeAt(c, v, sep, 1)
	if err != nil {
		return dst, err
	}
	return p.appendTo(dst), nil
}

// parseWith implements Codec.Parse for every codec.
func parseWith[V any](c Codec[V], seg string, sep byte) (V, error) {
	return decodeAt(c, seg, sep, 1)
}

// encodeAt encodes segment i, wrapping a failure in a *SegmentError.
func encodeAt[V any](c Codec[V], v V, sep byte, i int) (piece, error) {
	p, err := c.encode(v, sep)
	if err != nil {
		return p, segErr(i, c.kind(), fmtValue(v), err)
	}
	return p, nil
}

// decodeAt decodes segment i, wrapping a failure in a *SegmentError.
func decodeAt[V any](c Codec[V], seg string, sep byte, i int) (V, error) {
	v, err := c.decode(seg, sep)
	if err != nil {
		return v, segErr(i, c.kind(), seg, err)
	}
	return v, nil
}

// Must returns v, or panics if err is not nil. It is meant for
// package-level definitions whose validity is fixed at compile time:
//
//	var orderSK = keys.Must(keys.NewKey2(status, keys.Time(keys.Micro)))
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// fmtValue formats a value for an error message.
func fmtValue(v any) string { return fmt.Sprint(v) }
