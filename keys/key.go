package keys

// Key1 is a composite key of one typed segment, usually after a literal
// prefix: REPO#keyfirst.
//
// Like [Key2], [Key3] and [Key4], it offers Encode (the key string, one
// allocation), Append (no allocation when dst has room), Decode (no
// allocation), Parts (the attribute values of a native multi-attribute
// key), Range and With methods (conditions, see [Range]), and At, Start
// and End ([Anchor] values). Keys are immutable values, safe for concurrent
// use; the zero value reports [ErrDefinition]: build keys with the NewKeyN
// functions.
type Key1[A any] struct {
	l layout
	a Codec[A]
	// fast appends the key of a value that needs no check beyond the
	// codec's quick one (see fastAppender); nil for a codec without one.
	// A pointer keeps Key1 comparable.
	fast *func(dst []byte, a A) ([]byte, bool)
}

// NewKey1 returns a key of one segment encoded by a. A definition that
// cannot work (a prefix that holds the separator, a separator outside
// '!'..'+', a codec that cannot be a segment) is kept as the key's error,
// as a keyfirst Side or Pattern keeps its own: [Key1.Err] reports it, and
// every use of the key returns it (wrapping [ErrDefinition]), so a
// declaration needs no Must:
//
//	var customerKey = keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUSTOMER"))
func NewKey1[A any](a Codec[A], opts ...func(*Options)) Key1[A] {
	l, err := newLayout(opts, a)
	if err != nil {
		return Key1[A]{l: layout{err: err}}
	}
	k := Key1[A]{l: l, a: a}
	if f, ok := a.(fastAppender[A]); ok {
		if fast := f.fastAppend(l.head, l.sep); fast != nil {
			k.fast = &fast
		}
	}
	return k
}

// Encode returns the key of a.
func (k Key1[A]) Encode(a A) (string, error) {
	if err := k.l.ready(); err != nil {
		return "", err
	}
	b, err := k.Append(make([]byte, 0, k.l.overhead()+k.a.size(a)), a)
	return bytesToString(b), err
}

// Append appends the key of a to dst; on error dst comes back unchanged.
func (k Key1[A]) Append(dst []byte, a A) ([]byte, error) {
	if k.fast != nil {
		if out, ok := (*k.fast)(dst, a); ok {
			return out, nil
		}
	}
	out, err := k.l.open(dst)
	out, err = appendAt(err, k.a, out, a, k.l.sep, 1)
	return k.l.finish(out, len(dst), err)
}

// Decode returns the value encoded in key s.
func (k Key1[A]) Decode(s string) (A, error) {
	var segs [1]string
	if err := k.l.split(s, segs[:]); err != nil {
		return *new(A), err
	}
	return decodeAt(k.a, segs[0], k.l.sep, 1)
}

// Parts returns the encoded segment as a one-element slice.
func (k Key1[A]) Parts(a A) ([]string, error) {
	if err := k.l.ready(); err != nil {
		return nil, err
	}
	pa, err := segmentAt(k.a, a, k.l.sep, 1)
	if err != nil {
		return nil, err
	}
	return []string{pa}, nil
}

// Range returns the [Range] over the segment.
func (k Key1[A]) Range() Range[A] { return rangeOver(&k.l, k.a, nil) }

// At returns the [Anchor] at the key of a.
func (k Key1[A]) At(a A) Anchor { return k.l.anchor(k.Encode(a)) }

// Start returns the [Anchor] below every key of this shape (its prefix);
// without a prefix it is [ErrNoCondition].
func (k Key1[A]) Start() Anchor { return k.l.start() }

// End returns the [Anchor] above every key of this shape; without a prefix
// it is [ErrNoCondition].
func (k Key1[A]) End() Anchor { return k.l.end() }

// Key2 is a composite key of two typed segments:
// CANCELLED#2019-07-01T00:00:00.000000. See [Key1] for what keys offer.
type Key2[A, B any] struct {
	l layout
	a Codec[A]
	b Codec[B]
}

// NewKey2 returns a key of two segments encoded by a and b; an invalid definition is kept as
// its error, as for [NewKey1].
func NewKey2[A, B any](a Codec[A], b Codec[B], opts ...func(*Options)) Key2[A, B] {
	l, err := newLayout(opts, a, b)
	if err != nil {
		return Key2[A, B]{l: layout{err: err}}
	}
	return Key2[A, B]{l: l, a: a, b: b}
}

// Encode returns the key of (a, b).
func (k Key2[A, B]) Encode(a A, b B) (string, error) {
	if err := k.l.ready(); err != nil {
		return "", err
	}
	buf, err := k.Append(make([]byte, 0, k.l.overhead()+k.a.size(a)+k.b.size(b)), a, b)
	return bytesToString(buf), err
}

// Append appends the key of (a, b) to dst; on error dst comes back
// unchanged.
func (k Key2[A, B]) Append(dst []byte, a A, b B) ([]byte, error) {
	sep := k.l.sep
	out, err := k.l.open(dst)
	out, err = appendAt(err, k.a, out, a, sep, 1)
	out, err = appendAt(err, k.b, append(out, sep), b, sep, 2)
	return k.l.finish(out, len(dst), err)
}

// Decode returns the values encoded in key s.
func (k Key2[A, B]) Decode(s string) (A, B, error) {
	var segs [2]string
	if err := k.l.split(s, segs[:]); err != nil {
		return *new(A), *new(B), err
	}
	a, err := decodeAt(k.a, segs[0], k.l.sep, 1)
	if err != nil {
		return *new(A), *new(B), err
	}
	b, err := decodeAt(k.b, segs[1], k.l.sep, 2)
	if err != nil {
		return *new(A), *new(B), err
	}
	return a, b, nil
}

// Parts returns the two encoded segments.
func (k Key2[A, B]) Parts(a A, b B) ([]string, error) {
	pa, err := k.part1(a)
	if err != nil {
		return nil, err
	}
	pb, err := segmentAt(k.b, b, k.l.sep, 2)
	if err != nil {
		return nil, err
	}
	return []string{pa, pb}, nil
}

// part1 encodes the first segment alone.
func (k Key2[A, B]) part1(a A) (string, error) {
	if err := k.l.ready(); err != nil {
		return "", err
	}
	return segmentAt(k.a, a, k.l.sep, 1)
}

// Range returns the [Range] over the first segment.
func (k Key2[A, B]) Range() Range[A] { return rangeOver(&k.l, k.a, nil) }

// With1 returns the [Range] over the second segment, the first fixed to a.
func (k Key2[A, B]) With1(a A) Range[B] {
	pa, err := k.part1(a)
	return rangeOver(&k.l, k.b, err, pa)
}

// At returns the [Anchor] at the key of (a, b).
func (k Key2[A, B]) At(a A, b B) Anchor { return k.l.anchor(k.Encode(a, b)) }

// Start returns the [Anchor] below every key of this shape (its prefix);
// without a prefix it is [ErrNoCondition].
func (k Key2[A, B]) Start() Anchor { return k.l.start() }

// End returns the [Anchor] above every key of this shape; without a prefix
// it is [ErrNoCondition].
func (k Key2[A, B]) End() Anchor { return k.l.end() }

// Key3 is a composite key of three typed segments:
// CANCELLED#2019-07-01T00:00:00.000000#0000012345. See [Key1] for what
// keys offer.
type Key3[A, B, C any] struct {
	l layout
	a Codec[A]
	b Codec[B]
	c Codec[C]
}

// NewKey3 returns a key of three segments encoded by a, b and c; an invalid definition is kept as
// its error, as for [NewKey1].
func NewKey3[A, B, C any](a Codec[A], b Codec[B], c Codec[C], opts ...func(*Options)) Key3[A, B, C] {
	l, err := newLayout(opts, a, b, c)
	if err != nil {
		return Key3[A, B, C]{l: layout{err: err}}
	}
	return Key3[A, B, C]{l: l, a: a, b: b, c: c}
}

// Encode returns the key of (a, b, c).
func (k Key3[A, B, C]) Encode(a A, b B, c C) (string, error) {
	if err := k.l.ready(); err != nil {
		return "", err
	}
	buf, err := k.Append(make([]byte, 0, k.l.overhead()+k.a.size(a)+k.b.size(b)+k.c.size(c)), a, b, c)
	return bytesToString(buf), err
}

// Append appends the key of (a, b, c) to dst; on error dst comes back
// unchanged.
func (k Key3[A, B, C]) Append(dst []byte, a A, b B, c C) ([]byte, error) {
	sep := k.l.sep
	out, err := k.l.open(dst)
	out, err = appendAt(err, k.a, out, a, sep, 1)
	out, err = appendAt(err, k.b, append(out, sep), b, sep, 2)
	out, err = appendAt(err, k.c, append(out, sep), c, sep, 3)
	return k.l.finish(out, len(dst), err)
}

// Decode returns the values encoded in key s.
func (k Key3[A, B, C]) Decode(s string) (A, B, C, error) {
	var segs [3]string
	if err := k.l.split(s, segs[:]); err != nil {
		return *new(A), *new(B), *new(C), err
	}
	a, err := decodeAt(k.a, segs[0], k.l.sep, 1)
	if err != nil {
		return *new(A), *new(B), *new(C), err
	}
	b, err := decodeAt(k.b, segs[1], k.l.sep, 2)
	if err != nil {
		return *new(A), *new(B), *new(C), err
	}
	c, err := decodeAt(k.c, segs[2], k.l.sep, 3)
	if err != nil {
		return *new(A), *new(B), *new(C), err
	}
	return a, b, c, nil
}

// Parts returns the three encoded segments.
func (k Key3[A, B, C]) Parts(a A, b B, c C) ([]string, error) {
	pa, pb, err := k.parts2(a, b)
	if err != nil {
		return nil, err
	}
	pc, err := segmentAt(k.c, c, k.l.sep, 3)
	if err != nil {
		return nil, err
	}
	return []string{pa, pb, pc}, nil
}

// parts2 encodes the first two segments alone.
func (k Key3[A, B, C]) parts2(a A, b B) (string, string, error) {
	pa, err := Key2[A, B]{l: k.l, a: k.a, b: k.b}.part1(a)
	if err != nil {
		return "", "", err
	}
	pb, err := segmentAt(k.b, b, k.l.sep, 2)
	return pa, pb, err
}

// Range returns the [Range] over the first segment.
func (k Key3[A, B, C]) Range() Range[A] { return rangeOver(&k.l, k.a, nil) }

// With1 returns the [Range] over the second segment, the first fixed to a.
func (k Key3[A, B, C]) With1(a A) Range[B] {
	pa, err := Key2[A, B]{l: k.l, a: k.a, b: k.b}.part1(a)
	return rangeOver(&k.l, k.b, err, pa)
}

// With2 returns the [Range] over the third segment, the first two fixed to
// (a, b).
func (k Key3[A, B, C]) With2(a A, b B) Range[C] {
	pa, pb, err := k.parts2(a, b)
	return rangeOver(&k.l, k.c, err, pa, pb)
}

// At returns the [Anchor] at the key of (a, b, c).
func (k Key3[A, B, C]) At(a A, b B, c C) Anchor { return k.l.anchor(k.Encode(a, b, c)) }

// Start returns the [Anchor] below every key of this shape (its prefix);
// without a prefix it is [ErrNoCondition].
func (k Key3[A, B, C]) Start() Anchor { return k.l.start() }

// End returns the [Anchor] above every key of this shape; without a prefix
// it is [ErrNoCondition].
func (k Key3[A, B, C]) End() Anchor { return k.l.end() }

// Key4 is a composite key of four typed segments. See [Key1] for what keys
// offer.
type Key4[A, B, C, D any] struct {
	l layout
	a Codec[A]
	b Codec[B]
	c Codec[C]
	d Codec[D]
}

// NewKey4 returns a key of four segments encoded by a, b, c and d; an invalid definition is kept as
// its error, as for [NewKey1].
func NewKey4[A, B, C, D any](a Codec[A], b Codec[B], c Codec[C], d Codec[D], opts ...func(*Options)) Key4[A, B, C, D] {
	l, err := newLayout(opts, a, b, c, d)
	if err != nil {
		return Key4[A, B, C, D]{l: layout{err: err}}
	}
	return Key4[A, B, C, D]{l: l, a: a, b: b, c: c, d: d}
}

// key3 is the key of the first three segments, sharing k's layout.
func (k Key4[A, B, C, D]) key3() Key3[A, B, C] { return Key3[A, B, C]{l: k.l, a: k.a, b: k.b, c: k.c} }

// Encode returns the key of (a, b, c, d).
func (k Key4[A, B, C, D]) Encode(a A, b B, c C, d D) (string, error) {
	if err := k.l.ready(); err != nil {
		return "", err
	}
	buf, err := k.Append(make([]byte, 0, k.l.overhead()+k.a.size(a)+k.b.size(b)+k.c.size(c)+k.d.size(d)), a, b, c, d)
	return bytesToString(buf), err
}

// Append appends the key of (a, b, c, d) to dst; on error dst comes back
// unchanged.
func (k Key4[A, B, C, D]) Append(dst []byte, a A, b B, c C, d D) ([]byte, error) {
	sep := k.l.sep
	out, err := k.l.open(dst)
	out, err = appendAt(err, k.a, out, a, sep, 1)
	out, err = appendAt(err, k.b, append(out, sep), b, sep, 2)
	out, err = appendAt(err, k.c, append(out, sep), c, sep, 3)
	out, err = appendAt(err, k.d, append(out, sep), d, sep, 4)
	return k.l.finish(out, len(dst), err)
}

// Decode returns the values encoded in key s.
func (k Key4[A, B, C, D]) Decode(s string) (A, B, C, D, error) {
	var segs [4]string
	if err := k.l.split(s, segs[:]); err != nil {
		return *new(A), *new(B), *new(C), *new(D), err
	}
	a, err := decodeAt(k.a, segs[0], k.l.sep, 1)
	if err != nil {
		return *new(A), *new(B), *new(C), *new(D), err
	}
	b, err := decodeAt(k.b, segs[1], k.l.sep, 2)
	if err != nil {
		return *new(A), *new(B), *new(C), *new(D), err
	}
	c, err := decodeAt(k.c, segs[2], k.l.sep, 3)
	if err != nil {
		return *new(A), *new(B), *new(C), *new(D), err
	}
	d, err := decodeAt(k.d, segs[3], k.l.sep, 4)
	if err != nil {
		return *new(A), *new(B), *new(C), *new(D), err
	}
	return a, b, c, d, nil
}

// Parts returns the four encoded segments.
func (k Key4[A, B, C, D]) Parts(a A, b B, c C, d D) ([]string, error) {
	pa, pb, pc, err := k.parts3(a, b, c)
	if err != nil {
		return nil, err
	}
	pd, err := segmentAt(k.d, d, k.l.sep, 4)
	if err != nil {
		return nil, err
	}
	return []string{pa, pb, pc, pd}, nil
}

// parts3 encodes the first three segments alone.
func (k Key4[A, B, C, D]) parts3(a A, b B, c C) (string, string, string, error) {
	pa, pb, err := k.key3().parts2(a, b)
	if err != nil {
		return "", "", "", err
	}
	pc, err := segmentAt(k.c, c, k.l.sep, 3)
	return pa, pb, pc, err
}

// Range returns the [Range] over the first segment.
func (k Key4[A, B, C, D]) Range() Range[A] { return rangeOver(&k.l, k.a, nil) }

// With1 returns the [Range] over the second segment, the first fixed to a.
func (k Key4[A, B, C, D]) With1(a A) Range[B] {
	pa, err := Key2[A, B]{l: k.l, a: k.a, b: k.b}.part1(a)
	return rangeOver(&k.l, k.b, err, pa)
}

// With2 returns the [Range] over the third segment, the first two fixed to
// (a, b).
func (k Key4[A, B, C, D]) With2(a A, b B) Range[C] {
	pa, pb, err := k.key3().parts2(a, b)
	return rangeOver(&k.l, k.c, err, pa, pb)
}

// With3 returns the [Range] over the fourth segment, the first three fixed
// to (a, b, c).
func (k Key4[A, B, C, D]) With3(a A, b B, c C) Range[D] {
	pa, pb, pc, err := k.parts3(a, b, c)
	return rangeOver(&k.l, k.d, err, pa, pb, pc)
}

// At returns the [Anchor] at the key of (a, b, c, d).
func (k Key4[A, B, C, D]) At(a A, b B, c C, d D) Anchor { return k.l.anchor(k.Encode(a, b, c, d)) }

// Start returns the [Anchor] below every key of this shape (its prefix);
// without a prefix it is [ErrNoCondition].
func (k Key4[A, B, C, D]) Start() Anchor { return k.l.start() }

// End returns the [Anchor] above every key of this shape; without a prefix
// it is [ErrNoCondition].
func (k Key4[A, B, C, D]) End() Anchor { return k.l.end() }
