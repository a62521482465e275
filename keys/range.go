package keys

// Range builds conditions on one segment of a composite key, with the
// segments before it fixed to equal values: [Key3.Range] ranges over the
// first segment, [Key3.With1] over the second with the first fixed,
// [Key3.With2] over the third with the first two fixed.
//
// Every condition selects exactly the keys whose fixed segments are equal
// and whose ranged segment satisfies the comparison at the codec's
// precision, whatever follows that segment: Le(v) includes every longer key
// whose segment equals v, Lt(v) excludes them all, and the prefix for
// CANCELLED never matches CANCELLEDX. When something precedes the segment
// (a literal prefix or fixed segments) the concatenated condition is a
// BETWEEN within that prefix, since DynamoDB allows one condition per sort
// key.
//
// Range is a value; a failure to encode a fixed segment is kept and
// returned by every method.
type Range[V any] struct {
	c       Codec[V]
	sep     byte
	head    string   // literal prefix and fixed segments, each followed by sep; "" when nothing is fixed
	equal   []string // the fixed segments, for the native form; never mutated
	segment int
	last    bool
	def     DefID // the key definition the Range came from
	err     error
}

// encode encodes v as the ranged segment.
func (r Range[V]) encode(v V) (string, error) {
	if err := r.ready(); err != nil {
		return "", err
	}
	return segmentAt(r.c, v, r.sep, r.segment)
}

// ready returns the Range's construction error; the zero Range is unusable.
func (r Range[V]) ready() error {
	if r.err == nil && r.c == nil {
		return defErr(nil, "zero Range value: get ranges from a key's Range and With methods")
	}
	return r.err
}

// bounded reports whether something precedes the segment, so that the
// concatenated form needs both bounds.
func (r Range[V]) bounded() bool { return r.head != "" }

// ceil is the least string above every key whose segment is at most the
// segment encoded as e, and not above any key whose segment is greater:
// e followed by the separator's successor, which no segment contains.
func (r Range[V]) ceil(e string) string { return r.head + e + string(r.sep+1) }

// upper is the inclusive upper bound for keys whose segment is at most e.
func (r Range[V]) upper(e string) string {
	if r.last {
		return r.head + e
	}
	return r.ceil(e)
}

// end is the inclusive upper bound of every key that begins with head.
func (r Range[V]) end() string { return r.head[:len(r.head)-1] + string(r.sep+1) }

// room is the longest the ranged segment can be in a DynamoDB sort key.
func (r Range[V]) room() int {
	n := MaxSortKeyBytes - len(r.head)
	if !r.last {
		n -= 2 // a separator and at least one byte of the next segment follow
	}
	return n
}

// cond assembles a Cond from its two renderings.
func (r Range[V]) cond(op Op, lo, hi string, nop Op, nlo, nhi string) Cond {
	return Cond{op: op, lo: lo, hi: hi, native: NativeCond{Equal: r.equal, Op: nop, Lo: nlo, Hi: nhi}, def: r.def}
}

// Eq selects the keys whose segment equals v.
func (r Range[V]) Eq(v V) (Cond, error) {
	e, err := r.encode(v)
	if err != nil {
		return Cond{}, err
	}
	if r.last {
		return r.cond(OpEq, r.head+e, "", OpEq, e, ""), nil
	}
	return r.cond(OpBeginsWith, r.head+e+string(r.sep), "", OpEq, e, ""), nil
}

// Lt selects the keys whose segment is below v. When the range is bounded
// and nothing is below v ([Int] minimum, first enum value, year 0000), it
// is [ErrEmptyRange].
func (r Range[V]) Lt(v V) (Cond, error) {
	e, err := r.encode(v)
	if err != nil {
		return Cond{}, err
	}
	if !r.bounded() {
		return r.cond(OpLt, e, "", OpLt, e, ""), nil
	}
	p, ok := r.c.prev(v, r.sep, r.room())
	if !ok {
		return Cond{}, r.empty(v)
	}
	ep, err := r.encode(p)
	if err != nil {
		return Cond{}, err
	}
	return r.cond(OpBetween, r.head, r.upper(ep), OpLt, e, ""), nil
}

// Le selects the keys whose segment is at most v, including every longer
// key whose segment equals v.
func (r Range[V]) Le(v V) (Cond, error) {
	e, err := r.encode(v)
	if err != nil {
		return Cond{}, err
	}
	if !r.bounded() {
		return r.cond(OpLe, r.upper(e), "", OpLe, e, ""), nil
	}
	return r.cond(OpBetween, r.head, r.upper(e), OpLe, e, ""), nil
}

// Gt selects the keys whose segment is above v, excluding every longer key
// whose segment equals v.
func (r Range[V]) Gt(v V) (Cond, error) {
	e, err := r.encode(v)
	if err != nil {
		return Cond{}, err
	}
	if !r.bounded() {
		return r.cond(OpGt, r.upper(e), "", OpGt, e, ""), nil
	}
	return r.cond(OpBetween, r.ceil(e), r.end(), OpGt, e, ""), nil
}

// Ge selects the keys whose segment is at least v.
func (r Range[V]) Ge(v V) (Cond, error) {
	e, err := r.encode(v)
	if err != nil {
		return Cond{}, err
	}
	if !r.bounded() {
		return r.cond(OpGe, e, "", OpGe, e, ""), nil
	}
	return r.cond(OpBetween, r.head+e, r.end(), OpGe, e, ""), nil
}

// Between selects the keys whose segment is from lo through hi, both
// inclusive. lo above hi is [ErrEmptyRange]. With a [Time] segment, hi
// includes every key of that instant at the codec's precision and nothing
// later. At [Day] precision that is the whole day: Between(jul1, sep30)
// includes all of 30 September. At a finer precision hi is an instant, so
// Between(jul1, sep30), with sep30 at midnight, ends at 30 September
// 00:00:00 and leaves out the rest of that day. For a calendar window
// ("1 July through 30 September") there, use [Range.HalfOpen] with the
// first day after it:
// HalfOpen(jul1, sep30.AddDate(0, 0, 1)). AddDate counts days in the
// location of sep30, so the window ends at the end of the caller's day.
func (r Range[V]) Between(lo, hi V) (Cond, error) {
	el, err := r.encode(lo)
	if err != nil {
		return Cond{}, err
	}
	eh, err := r.encode(hi)
	if err != nil {
		return Cond{}, err
	}
	if el > eh {
		return Cond{}, r.empty(lo)
	}
	return r.cond(OpBetween, r.head+el, r.upper(eh), OpBetween, el, eh), nil
}

// HalfOpen selects the keys whose segment is at least lo and below hi, the
// natural form of a calendar window: HalfOpen(July 1, October 1) selects
// July, August and September whole, at any precision, and renders as a
// BETWEEN whose upper bound is the last instant before hi at the codec's
// precision (2019-09-30T23:59:59.999999 at [Micro]). An empty window is
// [ErrEmptyRange].
func (r Range[V]) HalfOpen(lo, hi V) (Cond, error) {
	if err := r.ready(); err != nil {
		return Cond{}, err
	}
	// Every text of the condition comes from one buffer: head+lo, then
	// head+pred(hi) (and the separator's successor), then pred(hi) for the
	// native form; lo and pred(hi) are the strings within.
	b := make([]byte, 0, 2*len(r.head)+3*r.c.size(lo)+1)
	b = append(b, r.head...)
	b, err := appendAt(nil, r.c, b, lo, r.sep, r.segment)
	if err != nil {
		return Cond{}, err
	}
	loEnd := len(b)
	// hi must encode; its bytes, beyond b's length, are written over.
	if _, err := appendAt(nil, r.c, b, hi, r.sep, r.segment); err != nil {
		return Cond{}, err
	}
	// The two renderings may need different predecessors of hi: an
	// identifier's depends on the room left in the key.
	pc, okc := r.c.prev(hi, r.sep, r.room())
	pn, okn := r.c.prev(hi, r.sep, MaxSortKeyBytes)
	if !okc || !okn {
		return Cond{}, r.empty(hi)
	}
	hiStart := len(b)
	b = append(b, r.head...)
	ecStart := len(b)
	if b, err = appendAt(nil, r.c, b, pc, r.sep, r.segment); err != nil {
		return Cond{}, err
	}
	ecEnd := len(b)
	if !r.last {
		b = append(b, r.sep+1) // upper: every key whose segment is pc, whatever follows
	}
	hiEnd := len(b)
	if b, err = appendAt(nil, r.c, b, pn, r.sep, r.segment); err != nil {
		return Cond{}, err
	}
	s := bytesToString(b)
	el, ec, en := s[len(r.head):loEnd], s[ecStart:ecEnd], s[hiEnd:]
	if el > ec || el > en {
		return Cond{}, r.empty(lo)
	}
	return r.cond(OpBetween, s[:loEnd], s[hiStart:hiEnd], OpBetween, el, en), nil
}

// BeginsWith selects every key whose fixed segments (and literal prefix)
// are the Range's: begins_with on the prefix up to and including its last
// separator, so the prefix for CANCELLED never matches CANCELLEDX. In
// native form it is equality on the fixed attributes alone. With nothing
// fixed and no literal prefix it would match every key: [ErrNoCondition].
func (r Range[V]) BeginsWith() (Cond, error) {
	if err := r.ready(); err != nil {
		return Cond{}, err
	}
	if !r.bounded() {
		return Cond{}, ErrNoCondition
	}
	return r.cond(OpBeginsWith, r.head, "", OpNone, "", ""), nil
}

// empty is the error for a range that selects nothing.
func (r Range[V]) empty(v V) error {
	return segErr(r.segment, r.c.kind(), fmtValue(v), ErrEmptyRange)
}
