package keys

import "strings"

// Options configures a composite key ([NewKey1] .. [NewKey4]). The zero
// value is valid: separator '#', no literal prefix.
type Options struct {
	// Separator goes between segments. Zero means [DefaultSeparator] ('#').
	// It must be one of ! " # $ % & ' ( ) * + : these sort below every
	// character a segment may hold, which is what makes concatenation
	// preserve the order of the values ([ErrDefinition] otherwise).
	Separator byte
	// Prefix is a literal first segment, an entity-type marker such as
	// ORDER, EVT, ISSUE or REPO. Empty means none. It follows the rules of
	// an [ID].
	Prefix string
}

// WithPrefix returns an option that starts every key with the literal
// segment p: NewKey1(keys.ID[string](), keys.WithPrefix("REPO")) encodes
// "keyfirst" as REPO#keyfirst.
func WithPrefix(p string) func(*Options) {
	return func(o *Options) { o.Prefix = p }
}

// WithSeparator returns an option that separates segments with sep instead
// of '#'.
func WithSeparator(sep byte) func(*Options) {
	return func(o *Options) { o.Separator = sep }
}

// definer is what a key needs to validate its codecs, whatever their type.
type definer interface {
	check(sep byte) error
	kind() string
}

// layout is the untyped part of a composite key: separator, prefix and the
// number of typed segments. A zero layout (n == 0) is a zero Key value.
type layout struct {
	sep    byte
	prefix string
	head   string // prefix + sep, or "" without a prefix
	n      int
	id     DefID // the definition's identity, shared by copies
	// err is why the definition could not be built (NewKeyN kept it):
	// every use of the key returns it.
	err error
}

var errZeroKey = defErr(nil, "zero Key value: build keys with NewKey1 .. NewKey4")

// newLayout applies opts and validates them and the codecs.
func newLayout(opts []func(*Options), codecs ...definer) (layout, error) {
	var o Options
	for _, f := range opts {
		f(&o)
	}
	if o.Separator == 0 {
		o.Separator = DefaultSeparator
	}
	l := layout{sep: o.Separator, prefix: o.Prefix, n: len(codecs)}
	if !validSeparator(l.sep) {
		return layout{}, defErr(nil, "separator %q is not one of ! \" # $ %% & ' ( ) * +", l.sep)
	}
	if o.Prefix != "" {
		if err := checkChars(o.Prefix, l.sep); err != nil {
			return layout{}, segErr(0, "prefix", o.Prefix, defErr(err, "prefix %q", o.Prefix))
		}
		l.head = o.Prefix + string(l.sep)
	}
	for i, c := range codecs {
		if c == nil {
			return layout{}, segErr(i+1, "key", "", defErr(nil, "nil codec"))
		}
		if err := c.check(l.sep); err != nil {
			return layout{}, segErr(i+1, c.kind(), "", err)
		}
	}
	l.id = newDefID(l.sep, l.prefix, codecs)
	return l, nil
}

// overhead is the length of a key's prefix and separators.
func (l *layout) overhead() int { return len(l.head) + l.n - 1 }

// open starts a key in dst: appends the prefix, or reports a zero Key.
func (l *layout) open(dst []byte) ([]byte, error) {
	if err := l.ready(); err != nil {
		return dst, err
	}
	return append(dst, l.head...), nil
}

// finish checks the key appended to dst from index start and returns out,
// or dst's original length and the error.
func (l *layout) finish(out []byte, start int, err error) ([]byte, error) {
	if err == nil && len(out)-start > MaxKeyBytes {
		err = segErr(l.n, "key", string(out[start:]), ErrTooLong)
	}
	if err != nil {
		return out[:start], err
	}
	return out, nil
}

// split cuts s into exactly len(segs) segments after the prefix, without
// allocating (segs share s's memory).
func (l *layout) split(s string, segs []string) error {
	if err := l.ready(); err != nil {
		return err
	}
	rest := s
	if l.head != "" {
		if !strings.HasPrefix(s, l.head) {
			return segErr(0, "prefix", s, ErrMalformed)
		}
		rest = s[len(l.head):]
	}
	last := len(segs) - 1
	for i := range last {
		j := strings.IndexByte(rest, l.sep)
		if j < 0 {
			return segErr(i+2, "key", s, ErrMalformed) // segment i+2 is missing
		}
		segs[i], rest = rest[:j], rest[j+1:]
	}
	if strings.IndexByte(rest, l.sep) >= 0 {
		return segErr(len(segs)+1, "key", s, ErrMalformed) // one segment too many
	}
	segs[last] = rest
	return nil
}

// ready reports whether the key was built by a constructor.
func (l *layout) ready() error {
	switch {
	case l.err != nil:
		return l.err
	case l.n == 0:
		return errZeroKey
	}
	return nil
}

// rangeOver returns the Range over segment len(fixed)+1 with the segments
// before it fixed to the encodings fixed (err: the error encoding them).
func rangeOver[V any](l *layout, c Codec[V], err error, fixed ...string) Range[V] {
	if err == nil {
		err = l.ready()
	}
	if err != nil {
		return Range[V]{err: err}
	}
	head := l.head
	if len(fixed) > 0 {
		var b strings.Builder // one allocation for the whole head
		n := len(head)
		for _, f := range fixed {
			n += len(f) + 1
		}
		b.Grow(n)
		b.WriteString(head)
		for _, f := range fixed {
			b.WriteString(f)
			b.WriteByte(l.sep)
		}
		head = b.String()
	}
	return Range[V]{
		c:       c,
		sep:     l.sep,
		head:    head,
		equal:   fixed,
		segment: len(fixed) + 1,
		last:    len(fixed)+1 == l.n,
		def:     l.id,
	}
}

// anchor returns the Anchor at key (err: the error encoding it).
func (l *layout) anchor(key string, err error) Anchor {
	if err != nil {
		return Anchor{err: err}
	}
	return Anchor{key: key, def: l.id}
}

// start is the Anchor below every key of this shape: its prefix.
func (l *layout) start() Anchor {
	if err := l.ready(); err != nil {
		return Anchor{err: err}
	}
	if l.head == "" {
		return Anchor{err: ErrNoCondition}
	}
	return l.anchor(l.head, nil)
}

// end is the Anchor above every key of this shape: the prefix followed by
// the separator's successor.
func (l *layout) end() Anchor {
	if err := l.ready(); err != nil {
		return Anchor{err: err}
	}
	if l.head == "" {
		return Anchor{err: ErrNoCondition}
	}
	return l.anchor(l.prefix+string(l.sep+1), nil)
}
