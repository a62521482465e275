package keys

import (
	"math/bits"
	"unsafe"

	"github.com/keyfirst/keyfirst/internal/digits"
)

// Signed is the set of signed integer types an [Int] codec encodes.
type Signed interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64
}

// Unsigned is the set of unsigned integer types a [Uint] codec encodes.
type Unsigned interface {
	~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// maxWidth is the widest integer segment: 20 digits hold every uint64 and,
// with the sign, every int64.
const maxWidth = 20

// pow10[n] is 10^n.
var pow10 = func() (p [maxWidth]uint64) {
	p[0] = 1
	for i := 1; i < maxWidth; i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// Uint returns a codec for unsigned integers as exactly width decimal
// digits, zero-padded: Uint[uint32](10) encodes 12345 as 0000012345.
// A value of width+1 digits or more is [ErrOutOfRange], never truncated.
// The width must be 1 to 20 ([ErrDefinition] otherwise). A number on its
// own belongs in a Number attribute; this codec is for numbers inside a
// composite string key.
func Uint[U Unsigned](width int) Codec[U] {
	return newIntCodec[U](width, false, ^uint64(0)>>(64-8*unsafe.Sizeof(U(0))), 0)
}

// Int returns a codec for signed integers in exactly width characters whose
// byte order is numeric order: -10 < -5 < -1 < 0 < 7.
//
// A value v >= 0 is width zero-padded digits, as [Uint] would write it
// (Int[int](4) encodes 7 as 0007). A value v < 0 is '-' followed by the
// width-1 digits of 10^(width-1) + v (the ten's complement), so -1 is -999,
// -5 is -995, -10 is -990 and -1000 is -000; '-' sorts below every digit,
// and the complement makes larger magnitudes sort first. The range is
// therefore -10^(width-1) to 10^width - 1, within the Go type's own range;
// anything else is [ErrOutOfRange]. The width must be 1 to 20.
func Int[I Signed](width int) Codec[I] {
	bits := 8 * unsafe.Sizeof(I(0))
	return newIntCodec[I](width, true, uint64(1)<<(bits-1)-1, uint64(1)<<(bits-1))
}

// newIntCodec returns the codec of width digits for an integer type whose
// largest value is typeMax and whose smallest is -typeNeg (0 for an
// unsigned type): the range is the type's, within what width digits hold.
func newIntCodec[I Signed | Unsigned](width int, signed bool, typeMax, typeNeg uint64) intCodec[I] {
	c := intCodec[I]{width: width, signed: signed}
	if width < 1 || width > maxWidth {
		c.err = defErr(ErrOutOfRange, "integer width %d is outside 1..%d", width, maxWidth)
		return c
	}
	c.hi = typeMax
	if width < maxWidth {
		c.hi = min(c.hi, pow10[width]-1)
	}
	if signed {
		c.neg = min(typeNeg, pow10[width-1])
	}
	return c
}

// intCodec encodes both signed and unsigned integers; values travel as
// uint64 (two's complement for negatives).
type intCodec[I Signed | Unsigned] struct {
	width  int
	signed bool
	hi     uint64 // largest encodable value
	neg    uint64 // largest encodable magnitude of a negative value
	err    error
}

// Append implements [Codec].
func (c intCodec[I]) Append(dst []byte, sep byte, v I) ([]byte, error) {
	return appendWith[I](c, dst, sep, v)
}

// Parse implements [Codec].
func (c intCodec[I]) Parse(seg string, sep byte) (I, error) { return parseWith[I](c, seg, sep) }

func (c intCodec[I]) kind() string {
	if c.signed {
		return "int"
	}
	return "uint"
}

func (c intCodec[I]) check(byte) error { return c.err }

func (c intCodec[I]) size(I) int { return c.width }

func (c intCodec[I]) appendSeg(dst []byte, v I, _ byte) ([]byte, error) {
	if c.err != nil {
		return dst, c.err
	}
	if v < 0 {
		mag := uint64(^v) + 1 // |v| without overflow at the type's minimum
		if mag > c.neg {
			return dst, ErrOutOfRange
		}
		dst = append(dst, '-')
		return digits.Append(dst, pow10[c.width-1]-mag, c.width-1), nil
	}
	if uint64(v) > c.hi {
		return dst, ErrOutOfRange
	}
	return digits.Append(dst, uint64(v), c.width), nil
}

func (c intCodec[I]) decode(s string, _ byte) (I, error) {
	if c.err != nil {
		return 0, c.err
	}
	if s == "" {
		return 0, ErrEmpty
	}
	if len(s) != c.width {
		return 0, ErrMalformed
	}
	if c.signed && s[0] == '-' {
		comp, ok := digits.Parse(s[1:])
		if !ok && c.width > 1 {
			return 0, ErrMalformed
		}
		mag := pow10[c.width-1] - comp
		if mag > c.neg {
			return 0, ErrOutOfRange
		}
		return I(-int64(mag-1) - 1), nil
	}
	v, ok, overflow := parseUint(s)
	if !ok {
		return 0, ErrMalformed
	}
	if overflow || v > c.hi {
		return 0, ErrOutOfRange
	}
	return I(v), nil
}

// parseUint parses ASCII digits. ok is false for anything else; overflow
// is true for a number above math.MaxUint64.
func parseUint(s string) (v uint64, ok, overflow bool) {
	for i := 0; i < len(s); i++ {
		d := s[i] - '0'
		if d > 9 {
			return 0, false, false
		}
		hi, lo := bits.Mul64(v, 10)
		lo, carry := bits.Add64(lo, uint64(d), 0)
		overflow = overflow || hi != 0 || carry != 0
		v = lo
	}
	return v, len(s) > 0, overflow
}

func (c intCodec[I]) prev(v I, _ byte, _ int) (I, bool) {
	if v < 0 && uint64(^v)+1 >= c.neg {
		return 0, false
	}
	if !c.signed && v == 0 {
		return 0, false
	}
	return v - 1, true
}
