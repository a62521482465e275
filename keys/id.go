package keys

import (
	"strings"
	"unicode/utf8"
)

// MaxKeyBytes is DynamoDB's limit on a partition key value (2048 bytes), the
// default maximum length of an [ID]. A sort key value is limited to
// [MaxSortKeyBytes].
const MaxKeyBytes = 2048

// MaxSortKeyBytes is DynamoDB's limit on a sort key value (1024 bytes).
// Range conditions never produce a bound longer than this.
const MaxSortKeyBytes = 1024

// IDOptions configures an [ID] codec.
type IDOptions struct {
	// MaxLen is the maximum length of an identifier in bytes; longer values
	// are [ErrTooLong]. Zero means [MaxKeyBytes].
	MaxLen int
}

// MaxLen returns an option that limits an [ID] to n bytes.
func MaxLen(n int) func(*IDOptions) {
	return func(o *IDOptions) { o.MaxLen = n }
}

// ID returns a codec for identifiers of the caller's string type. An
// identifier encodes as itself: no escaping, so keys stay readable and
// byte order is the identifiers' own order. The codec refuses what would
// make the key ambiguous or misordered instead of escaping it: the empty
// string ([ErrEmpty]), the separator ([ErrSeparator]), ASCII control
// characters (below space, and DEL), space and the punctuation that sorts
// at or below the separator's successor ([ErrReserved]; with '#': '!',
// '"', '#', '$'),
// invalid UTF-8 ([ErrMalformed]) and values longer than [IDOptions.MaxLen]
// ([ErrTooLong]). Letters, digits, '-', '_', '.', ':', '@', '/' and any
// non-ASCII character are fine.
func ID[S ~string](opts ...func(*IDOptions)) Codec[S] {
	var o IDOptions
	for _, f := range opts {
		f(&o)
	}
	c := idCodec[S]{max: o.MaxLen}
	switch {
	case o.MaxLen < 0:
		c.err = defErr(ErrOutOfRange, "ID MaxLen %d is negative", o.MaxLen)
	case o.MaxLen == 0:
		c.max = MaxKeyBytes
	}
	return c
}

type idCodec[S ~string] struct {
	max int
	err error
}

// Append implements [Codec].
func (c idCodec[S]) Append(dst []byte, sep byte, v S) ([]byte, error) {
	return appendWith[S](c, dst, sep, v)
}

// Parse implements [Codec].
func (c idCodec[S]) Parse(seg string, sep byte) (S, error) { return parseWith[S](c, seg, sep) }

func (c idCodec[S]) kind() string { return "id" }

func (c idCodec[S]) check(byte) error { return c.err }

func (c idCodec[S]) valid(s string, sep byte) error {
	if c.err != nil {
		return c.err
	}
	if len(s) > c.max {
		return ErrTooLong
	}
	return checkChars(s, sep)
}

func (c idCodec[S]) size(v S) int { return len(v) }

func (c idCodec[S]) appendSeg(dst []byte, v S, sep byte) ([]byte, error) {
	if err := c.valid(string(v), sep); err != nil {
		return dst, err
	}
	return append(dst, v...), nil
}

// fastAppend is the append of a key of one identifier after head: the
// ASCII identifiers that checkChars accepts at once (plainText) and that
// fit the codec's and the key's limits; false leaves any other to the
// general path, which accepts it (multi-byte UTF-8) or says why not.
func (c idCodec[S]) fastAppend(head string, sep byte) func(dst []byte, v S) ([]byte, bool) {
	if c.err != nil {
		return nil
	}
	most := min(c.max, MaxKeyBytes-len(head))
	return func(dst []byte, v S) ([]byte, bool) {
		if len(v) > most || !plainText(string(v), sep) {
			return dst, false
		}
		return append(append(dst, head...), v...), true
	}
}

func (c idCodec[S]) decode(seg string, sep byte) (S, error) {
	if err := c.valid(seg, sep); err != nil {
		return "", err
	}
	return S(seg), nil
}

func (c idCodec[S]) prev(v S, sep byte, room int) (S, bool) {
	s, ok := greatestBelow(string(v), sep, min(room, c.max))
	return S(s), ok
}

// greatestBelow returns the greatest non-empty string t with len(t) <= m
// bytes, t < s by bytes, made of valid UTF-8 and no byte at or below sep+1:
// a valid identifier, and at least as great as every identifier below s of
// at most m bytes. Identifiers have no successor-free predecessor in general ("b"
// is preceded by "a\U0010FFFF\U0010FFFF..."), which is why the length
// bound is needed: DynamoDB's own key size limits provide it.
//
// The greatest t diverges from s as late as possible: at the last rune
// boundary i <= m with i < len(s), either with a smaller rune followed by
// the greatest filler that fits, or, when no smaller rune fits, by ending
// there (t = s[:i]).
func greatestBelow(s string, sep byte, m int) (string, bool) {
	// Walk rune starts from the right.
	for i := len(s); i > 0; {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
		if i > m {
			continue
		}
		r, _ := utf8.DecodeRuneInString(s[i:])
		if p, ok := prevRune(r, rune(sep)+2, m-i); ok {
			var b strings.Builder
			b.Grow(m)
			b.WriteString(s[:i])
			b.WriteRune(p)
			fill(&b, m-i-utf8.RuneLen(p))
			return b.String(), true
		}
		if i > 0 {
			return s[:i], true
		}
		return "", false
	}
	return "", false
}

// prevRune returns the greatest rune below r that encodes in at most avail
// bytes and is not below lowest.
func prevRune(r, lowest rune, avail int) (rune, bool) {
	p := r - 1
	switch {
	case avail >= 4:
	case avail == 3:
		p = min(p, 0xFFFF)
	case avail == 2:
		p = min(p, 0x7FF)
	case avail == 1:
		p = min(p, del-1)
	default:
		return 0, false
	}
	if p >= 0xD800 && p <= 0xDFFF { // surrogates are not valid UTF-8
		p = 0xD7FF
	}
	if p == del { // a control character
		p--
	}
	if p < lowest {
		return 0, false
	}
	return p, true
}

// fill writes the greatest valid identifier of at most n bytes.
func fill(b *strings.Builder, n int) {
	for ; n >= 4; n -= 4 {
		b.WriteRune(utf8.MaxRune)
	}
	switch n {
	case 3:
		b.WriteRune(0xFFFF)
	case 2:
		b.WriteRune(0x7FF)
	case 1:
		b.WriteByte(del - 1)
	}
}
