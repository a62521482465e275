package keys

// Key1 is a composite key of one typed segment, usually after a literal
// prefix: REPO#keyfirst.
type Key1[A any] struct {
	l layout
	a Codec[A]
}

// NewKey1 returns a key of one segment encoded by a.
func NewKey1[A any](a Codec[A], opts ...func(*Options)) (Key1[A], error) {
	l, err := newLayout(opts, a)
	if err != nil {
		return Key1[A]{}, err
	}
	return Key1[A]{l: l, a: a}, nil
}

func (k Key1[A]) pieces(a A) (ps [1]piece, err error) {
	if err = k.l.ready(); err != nil {
		return ps, err
	}
	if ps[0], err = encodeAt(k.a, a, k.l.sep, 1); err != nil {
		return ps, err
	}
	return ps, k.l.fits(ps[:])
}

// Encode returns the key of a.
func (k Key1[A]) Encode(a A) (string, error) {
	ps, err := k.pieces(a)
	if err != nil {
		return "", err
	}
	return k.l.encode(ps[:]), nil
}

// Append appends the key of a to dst.
func (k Key1[A]) Append(dst []byte, a A) ([]byte, error) {
	ps, err := k.pieces(a)
	if err != nil {
		return dst, err
	}
	return k.l.append(dst, ps[:]), nil
}

// Decode returns the value encoded in key s.
func (k Key1[A]) Decode(s string) (A, error) {
	var segs [1]string
	var a A
	if err := k.l.split(s, segs[:]); err != nil {
		return a, err
	}
	return decodeAt(k.a, segs[0], k.l.sep, 1)
}

// Parts returns the encoded segment as a one-element slice.
func (k Key1[A]) Parts(a A) ([]string, error) {
	ps, err := k.pieces(a)
	if err != nil {
		return nil, err
	}
	return k.l.parts(ps[:]), nil
}

// Range returns the [Range] over the segment.
func (k Key1[A]) Range() Range[A] { return rangeOver(&k.l, k.a, nil, nil) }

// At returns the [Anchor] at the key of a.
func (k Key1[A]) At(a A) Anchor {
	ps, err := k.pieces(a)
	return k.l.anchor(ps[:], err)
}

// Start returns the [Anchor] below every key of this shape (its prefix);
// without a prefix it is [ErrNoCondition].
func (k Key1[A]) Start() Anchor { return k.l.start() }

// End returns the [Anchor] above every key of this shape; without a prefix
// it is [ErrNoCondition].
func (k Key1[A]) End() Anchor { return k.l.end() }

// Key2 is a composite key of two typed segments: CANCELLED#2019-07-01T00:00:00.000000.
type Key2[A, B any] struct {
	l layout
	a Codec[A]
	b Codec[B]
}

// NewKey2 returns a key of two segments encoded by a and b.
func NewKey2[A, B any](a Codec[A], b Codec[B], opts ...func(*Options)) (Key2[A, B], error) {
	l, err := newLayout(opts, a, b)
	if err != nil {
		return Key2[A, B]{}, err
	}
	return Key2[A, B]{l: l, a: a, b: b}, nil
}

func (k Key2[A, B]) pieces(a A, b B) (ps [2]piece, err error) {
	if err = k.l.ready(); err != nil {
		return ps, err
	}
	if ps[0], err = encodeAt(k.a, a, k.l.sep, 1); err != nil {
		return ps, err
	}
	if ps[1], err = encodeAt(k.b, b, k.l.sep, 2); err != nil {
		return ps, err
	}
	return ps, k.l.fits(ps[:])
}

// Encode returns the key of (a, b).
func (k Key2[A, B]) Encode(a A, b B) (string, error) {
	ps, err := k.pieces(a, b)
	if err != nil {
		return "", err
	}
	return k.l.encode(ps[:]), nil
}

// Append appends the key of (a, b) to dst.
func (k Key2[A, B]) Append(dst []byte, a A, b B) ([]byte, error) {
	ps, err := k.pieces(a, b)
	if err != nil {
		return dst, err
	}
	return k.l.append(dst, ps[:]), nil
}

// Decode returns the values encoded in key s.
func (k Key2[A, B]) Decode(s string) (A, B, error) {
	var (
		segs [2]string
		a    A
		b    B
		err  error
	)
	if err = k.l.split(s, segs[:]); err != nil {
		return a, b, err
	}
	if a, err = decodeAt(k.a, segs[0], k.l.sep, 1); err != nil {
		return *new(A), b, err
	}
	if b, err = decodeAt(k.b, segs[1], k.l.sep, 2); err != nil {
		return *new(A), *new(B), err
	}
	return a, b, nil
}

// Parts returns the two encoded segments.
func (k Key2[A, B]) Parts(a A, b B) ([]string, error) {
	ps, err := k.pieces(a, b)
	if err != nil {
		return nil, err
	}
	return k.l.parts(ps[:]), nil
}

// Range returns the [Range] over the first segment.
func (k Key2[A, B]) Range() Range[A] { return rangeOver(&k.l, k.a, nil, nil) }

// With1 returns the [Range] over the second segment, the first fixed to a.
func (k Key2[A, B]) With1(a A) Range[B] {
	ps, err := Key1[A]{l: k.l, a: k.a}.pieces(a)
	return rangeOver(&k.l, k.b, ps[:], err)
}

// At returns the [Anchor] at the key of (a, b).
func (k Key2[A, B]) At(a A, b B) Anchor {
	ps, err := k.pieces(a, b)
	return k.l.anchor(ps[:], err)
}

// Start returns the [Anchor] below every key of this shape (its prefix);
// without a prefix it is [ErrNoCondition].
func (k Key2[A, B]) Start() Anchor { return k.l.start() }

// End returns the [Anchor] above every key of this shape; without a prefix
// it is [ErrNoCondition].
func (k Key2[A, B]) End() Anchor { return k.l.end() }

// Key3 is a composite key of three typed segments:
// CANCELLED#2019-07-01T00:00:00.000000#0000012345.
type Key3[A, B, C any] struct {
	l layout
	a Codec[A]
	b Codec[B]
	c Codec[C]
}

// NewKey3 returns a key of three segments encoded by a, b and c.
func NewKey3[A, B, C any](a Codec[A], b Codec[B], c Codec[C], opts ...func(*Options)) (Key3[A, B, C], error) {
	l, err := newLayout(opts, a, b, c)
	if err != nil {
		return Key3[A, B, C]{}, err
	}
	return Key3[A, B, C]{l: l, a: a, b: b, c: c}, nil
}

func (k Key3[A, B, C]) pieces(a A, b B, c C) (ps [3]piece, err error) {
	if err = k.l.ready(); err != nil {
		return ps, err
	}
	if ps[0], err = encodeAt(k.a, a, k.l.sep, 1); err != nil {
		return ps, err
	}
	if ps[1], err = encodeAt(k.b, b, k.l.sep, 2); err != nil {
		return ps, err
	}
	if ps[2], err = encodeAt(k.c, c, k.l.sep, 3); err != nil {
		return ps, err
	}
	return ps, k.l.fits(ps[:])
}

// Encode returns the key of (a, b, c).
func (k Key3[A, B, C]) Encode(a A, b B, c C) (string, error) {
	ps, err := k.pieces(a, b, c)
	if err != nil {
		return "", err
	}
	return k.l.encode(ps[:]), nil
}

// Append appends the key of (a, b, c) to dst.
func (k Key3[A, B, C]) Append(dst []byte, a A, b B, c C) ([]byte, error) {
	ps, err := k.pieces(a, b, c)
	if err != nil {
		return dst, err
	}
	return k.l.append(dst, ps[:]), nil
}

// Decode returns the values encoded in key s.
func (k Key3[A, B, C]) Decode(s string) (A, B, C, error) {
	var (
		segs [3]string
		a    A
		b    B
		c    C
		err  error
	)
	if err = k.l.split(s, segs[:]); err != nil {
		return a, b, c, err
	}
	if a, err = decodeAt(k.a, segs[0], k.l.sep, 1); err != nil {
		return *new(A), b, c, err
	}
	if b, err = decodeAt(k.b, segs[1], k.l.sep, 2); err != nil {
		return *new(A), *new(B), c, err
	}
	if c, err = decodeAt(k.c, segs[2], k.l.sep, 3); err != nil {
		return *new(A), *new(B), *new(C), err
	}
	return a, b, c, nil
}

// Parts returns the three encoded segments.
func (k Key3[A, B, C]) Parts(a A, b B, c C) ([]string, error) {
	ps, err := k.pieces(a, b, c)
	if err != nil {
		return nil, err
	}
	return k.l.parts(ps[:]), nil
}

// Range returns the [Range] over the first segment.
func (k Key3[A, B, C]) Range() Range[A] { return rangeOver(&k.l, k.a, nil, nil) }

// With1 returns the [Range] over the second segment, the first fixed to a.
func (k Key3[A, B, C]) With1(a A) Range[B] {
	ps, err := Key1[A]{l: k.l, a: k.a}.pieces(a)
	return rangeOver(&k.l, k.b, ps[:], err)
}

// With2 returns the [Range] over the third segment, the first two fixed to
// (a, b).
func (k Key3[A, B, C]) With2(a A, b B) Range[C] {
	ps, err := Key2[A, B]{l: k.l, a: k.a, b: k.b}.pieces(a, b)
	return rangeOver(&k.l, k.c, ps[:], err)
}

// At returns the [Anchor] at the key of (a, b, c).
func (k Key3[A, B, C]) At(a A, b B, c C) Anchor {
	ps, err := k.pieces(a, b, c)
	return k.l.anchor(ps[:], err)
}

// Start returns the [Anchor] below every key of this shape (its prefix);
// without a prefix it is [ErrNoCondition].
func (k Key3[A, B, C]) Start() Anchor { return k.l.start() }

// End returns the [Anchor] above every key of this shape; without a prefix
// it is [ErrNoCondition].
func (k Key3[A, B, C]) End() Anchor { return k.l.end() }

// Key4 is a composite key of four typed segments.
type Key4[A, B, C, D any] struct {
	l layout
	a Codec[A]
	b Codec[B]
	c Codec[C]
	d Codec[D]
}

// NewKey4 returns a key of four segments encoded by a, b, c and d.
func NewKey4[A, B, C, D any](a Codec[A], b Codec[B], c Codec[C], d Codec[D], opts ...func(*Options)) (Key4[A, B, C, D], error) {
	l, err := newLayout(opts, a, b, c, d)
	if err != nil {
		return Key4[A, B, C, D]{}, err
	}
	return Key4[A, B, C, D]{l: l, a: a, b: b, c: c, d: d}, nil
}

func (k Key4[A, B, C, D]) pieces(a A, b B, c C, d D) (ps [4]piece, err error) {
	p3, err := Key3[A, B, C]{l: k.l, a: k.a, b: k.b, c: k.c}.pieces(a, b, c)
	copy(ps[:], p3[:])
	if err != nil {
		return ps, err
	}
	if ps[3], err = encodeAt(k.d, d, k.l.sep, 4); err != nil {
		return ps, err
	}
	return ps, k.l.fits(ps[:])
}

// Encode returns the key of (a, b, c, d).
func (k Key4[A, B, C, D]) Encode(a A, b B, c C, d D) (string, error) {
	ps, err := k.pieces(a, b, c, d)
	if err != nil {
		return "", err
	}
	return k.l.encode(ps[:]), nil
}

// Append appends the key of (a, b, c, d) to dst.
func (k Key4[A, B, C, D]) Append(dst []byte, a A, b B, c C, d D) ([]byte, error) {
	ps, err := k.pieces(a, b, c, d)
	if err != nil {
		return dst, err
	}
	return k.l.append(dst, ps[:]), nil
}

// Decode returns the values encoded in key s.
func (k Key4[A, B, C, D]) Decode(s string) (A, B, C, D, error) {
	var (
		segs [4]string
		a    A
		b    B
		c    C
		d    D
		err  error
	)
	if err = k.l.split(s, segs[:]); err != nil {
		return a, b, c, d, err
	}
	if a, err = decodeAt(k.a, segs[0], k.l.sep, 1); err != nil {
		return *new(A), b, c, d, err
	}
	if b, err = decodeAt(k.b, segs[1], k.l.sep, 2); err != nil {
		return *new(A), *new(B), c, d, err
	}
	if c, err = decodeAt(k.c, segs[2], k.l.sep, 3); err != nil {
		return *new(A), *new(B), *new(C), d, err
	}
	if d, err = decodeAt(k.d, segs[3], k.l.sep, 4); err != nil {
		return *new(A), *new(B), *new(C), *new(D), err
	}
	return a, b, c, d, nil
}

// Parts returns the four encoded segments.
func (k Key4[A, B, C, D]) Parts(a A, b B, c C, d D) ([]string, error) {
	ps, err := k.pieces(a, b, c, d)
	if err != nil {
		return nil, err
	}
	return k.l.parts(ps[:]), nil
}

// Range returns the [Range] over the first segment.
func (k Key4[A, B, C, D]) Range() Range[A] { return rangeOver(&k.l, k.a, nil, nil) }

// With1 returns the [Range] over the second segment, the first fixed to a.
func (k Key4[A, B, C, D]) With1(a A) Range[B] {
	ps, err := Key1[A]{l: k.l, a: k.a}.pieces(a)
	return rangeOver(&k.l, k.b, ps[:], err)
}

// With2 returns the [Range] over the third segment, the first two fixed to
// (a, b).
func (k Key4[A, B, C, D]) With2(a A, b B) Range[C] {
	ps, err := Key2[A, B]{l: k.l, a: k.a, b: k.b}.pieces(a, b)
	return rangeOver(&k.l, k.c, ps[:], err)
}

// With3 returns the [Range] over the fourth segment, the first three fixed
// to (a, b, c).
func (k Key4[A, B, C, D]) With3(a A, b B, c C) Range[D] {
	ps, err := Key3[A, B, C]{l: k.l, a: k.a, b: k.b, c: k.c}.pieces(a, b, c)
	return rangeOver(&k.l, k.d, ps[:], err)
}

// At returns the [Anchor] at the key of (a, b, c, d).
func (k Key4[A, B, C, D]) At(a A, b B, c C, d D) Anchor {
	ps, err := k.pieces(a, b, c, d)
	return k.l.anchor(ps[:], err)
}

// Start returns the [Anchor] below every key of this shape (its prefix);
// without a prefix it is [ErrNoCondition].
func (k Key4[A, B, C, D]) Start() Anchor { return k.l.start() }

// End returns the [Anchor] above every key of this shape; without a prefix
// it is [ErrNoCondition].
func (k Key4[A, B, C, D]) End() Anchor { return k.l.end() }
