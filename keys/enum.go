package keys

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Enum returns a codec for a closed set of values of the caller's own
// string type (type Status string). A value outside the set is
// [ErrNotInEnum] on encode and on decode. Values encode as themselves, so
// keys stay readable, and ranges over an enum segment follow the byte order
// of the values (not the order in which they are listed here).
//
// An enum is the natural first segment of a key built for filtering (see
// the package documentation, "Enum first"). The values must be non-empty,
// distinct, valid UTF-8, and free of the separator and reserved characters;
// otherwise the codec reports [ErrDefinition].
func Enum[S ~string](values ...S) Codec[S] {
	c := enumCodec[S]{values: slices.Clone(values), low: utf8.RuneSelf}
	slices.Sort(c.values)
	for _, v := range c.values {
		for i := 0; i < len(v); i++ {
			c.low = min(c.low, v[i])
		}
		c.invalid = c.invalid || v == "" || !utf8.ValidString(string(v)) || strings.IndexByte(string(v), del) >= 0
	}
	switch {
	case len(values) == 0:
		c.err = defErr(ErrEmpty, "enum with no values")
	case len(slices.Compact(slices.Clone(c.values))) != len(c.values):
		c.err = defErr(nil, "enum with a duplicate value")
	}
	return c
}

// enumCodec holds its values sorted by bytes.
type enumCodec[S ~string] struct {
	values  []S
	low     byte // the smallest byte in any value, at most utf8.RuneSelf
	invalid bool // some value is empty, invalid UTF-8 or holds DEL
	err     error
}

// fits reports whether every value is valid with separator sep, so that
// encode and decode need not check the value's characters.
func (c enumCodec[S]) fits(sep byte) bool { return !c.invalid && c.low > sep+1 }

// Append implements [Codec].
func (c enumCodec[S]) Append(dst []byte, sep byte, v S) ([]byte, error) {
	return appendWith[S](c, dst, sep, v)
}

// Parse implements [Codec].
func (c enumCodec[S]) Parse(seg string, sep byte) (S, error) { return parseWith[S](c, seg, sep) }

func (c enumCodec[S]) kind() string { return "enum" }

func (c enumCodec[S]) check(sep byte) error {
	if c.err != nil {
		return c.err
	}
	for _, v := range c.values {
		if err := checkChars(string(v), sep); err != nil {
			return defErr(err, "enum value %q", string(v))
		}
	}
	return nil
}

// find returns the index of v in the sorted values (or where it would be).
func (c enumCodec[S]) find(v string) (int, bool) {
	if len(c.values) <= 8 { // a short scan beats a binary search
		for i, e := range c.values {
			if string(e) >= v {
				return i, string(e) == v
			}
		}
		return len(c.values), false
	}
	return slices.BinarySearchFunc(c.values, v, func(e S, t string) int {
		return strings.Compare(string(e), t)
	})
}

func (c enumCodec[S]) size(v S) int { return len(v) }

func (c enumCodec[S]) appendSeg(dst []byte, v S, sep byte) ([]byte, error) {
	if c.err != nil {
		return dst, c.err
	}
	if _, ok := c.find(string(v)); !ok {
		if v == "" {
			return dst, ErrEmpty
		}
		return dst, ErrNotInEnum
	}
	// A member can still be unusable with this separator (Append called
	// directly with another one); NewKey rejects such sets up front.
	if !c.fits(sep) {
		if err := checkChars(string(v), sep); err != nil {
			return dst, err
		}
	}
	return append(dst, v...), nil
}

func (c enumCodec[S]) decode(seg string, sep byte) (S, error) {
	if c.err != nil {
		return "", c.err
	}
	i, ok := c.find(seg)
	if !ok {
		if seg == "" {
			return "", ErrEmpty
		}
		return "", ErrNotInEnum
	}
	if !c.fits(sep) {
		if err := checkChars(seg, sep); err != nil {
			return "", err
		}
	}
	// Return the set's own string so the result does not pin the key.
	return c.values[i], nil
}

func (c enumCodec[S]) prev(v S, _ byte, _ int) (S, bool) {
	i, _ := c.find(string(v))
	if i == 0 {
		return "", false
	}
	return c.values[i-1], true
}
