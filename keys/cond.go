package keys

import (
	"fmt"
	"slices"
	"strings"
)

// Op is a sort key comparison, one of the seven that a DynamoDB key
// condition allows.
type Op uint8

// The sort key operators. OpNone appears only in a [NativeCond] whose
// condition is equality on leading attributes alone.
const (
	OpNone       Op = iota // no condition on the next attribute
	OpEq                   // =
	OpLt                   // <
	OpLe                   // <=
	OpGt                   // >
	OpGe                   // >=
	OpBetween              // BETWEEN lo AND hi (both inclusive)
	OpBeginsWith           // begins_with
)

// String returns the operator as DynamoDB writes it.
func (o Op) String() string {
	switch o {
	case OpNone:
		return "none"
	case OpEq:
		return "="
	case OpLt:
		return "<"
	case OpLe:
		return "<="
	case OpGt:
		return ">"
	case OpGe:
		return ">="
	case OpBetween:
		return "BETWEEN"
	case OpBeginsWith:
		return "begins_with"
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// match applies o to the operand(s) by bytes, as DynamoDB compares strings.
func (o Op) match(v, lo, hi string) bool {
	switch o {
	case OpNone:
		return true
	case OpEq:
		return v == lo
	case OpLt:
		return v < lo
	case OpLe:
		return v <= lo
	case OpGt:
		return v > lo
	case OpGe:
		return v >= lo
	case OpBetween:
		return lo <= v && v <= hi
	case OpBeginsWith:
		return strings.HasPrefix(v, lo)
	}
	return false
}

// Cond is one sort key condition, built from typed values by a [Range] or
// an [Anchor]. It renders two ways:
//
//   - for a sort key stored as one concatenated string attribute: [Cond.Op]
//     and the operand(s) from [Cond.Values];
//   - for a native multi-attribute sort key (one attribute per typed
//     segment, in order): [Cond.Native].
//
// Both select the same typed values. A Cond is immutable and remembers
// the key definition(s) it was built from ([Cond.Defs]). The zero Cond
// has [OpNone]: it is no condition, and the query package refuses it.
type Cond struct {
	op       Op
	lo, hi   string
	native   NativeCond
	noNative bool
	// def is the definition the Cond was built from (zero for the zero
	// Cond); def2 the second one of a Between of anchors of two keys, zero
	// otherwise and never equal to def.
	def, def2 DefID
}

// Defs returns the definitions the condition was built from: one, or two
// for [Between] of anchors of two keys; none for the zero Cond.
func (c Cond) Defs() []DefID {
	switch {
	case c.def.IsZero():
		return nil
	case c.def2.IsZero():
		return []DefID{c.def}
	}
	return []DefID{c.def, c.def2}
}

// BuiltFrom reports whether c was built from key definitions and every one
// of them is among defs. It is false for the zero Cond.
func (c Cond) BuiltFrom(defs ...DefID) bool {
	return !c.def.IsZero() && slices.Contains(defs, c.def) && (c.def2.IsZero() || slices.Contains(defs, c.def2))
}

// Op returns the operator for the concatenated sort key.
func (c Cond) Op() Op { return c.op }

// Values returns the operand(s) for the concatenated sort key: lo for every
// operator, and hi too for [OpBetween] ("" otherwise).
func (c Cond) Values() (lo, hi string) { return c.lo, c.hi }

// Native returns the condition for a native multi-attribute sort key whose
// attributes hold the key's typed segments (the values of Parts, no literal
// prefix). It is [ErrNotNative] for a Cond built from [Anchor] values.
func (c Cond) Native() (NativeCond, error) {
	if c.noNative {
		return NativeCond{}, ErrNotNative
	}
	n := c.native
	n.Equal = slices.Clone(n.Equal)
	return n, nil
}

// Match reports whether the concatenated sort key value key satisfies the
// condition, comparing bytes as DynamoDB does. It is what the condition
// means, for tests and for in-memory fakes.
func (c Cond) Match(key string) bool { return c.op.match(key, c.lo, c.hi) }

// String renders the concatenated condition, as in
// BETWEEN "CANCELLED#2019-07-01T00:00:00.000000" AND "CANCELLED#2019-09-30T23:59:59.999999".
func (c Cond) String() string {
	switch c.op {
	case OpBetween:
		return fmt.Sprintf("BETWEEN %q AND %q", c.lo, c.hi)
	case OpBeginsWith:
		return fmt.Sprintf("begins_with %q", c.lo)
	}
	return fmt.Sprintf("%s %q", c.op, c.lo)
}

// NativeCond is a sort key condition on a native multi-attribute key: the
// first len(Equal) attributes equal Equal, in order, and attribute
// len(Equal) satisfies Op with Lo (and Hi for [OpBetween]). Op is
// [OpNone] when the condition is the equalities alone (a prefix of whole
// segments), in which case Equal may even be empty: no sort key condition
// at all. Op is never [OpBeginsWith]: a prefix of whole segments is
// equality on those attributes.
type NativeCond struct {
	Equal  []string
	Op     Op
	Lo, Hi string
}

// Match reports whether the attribute values parts (one per segment)
// satisfy the condition.
func (n NativeCond) Match(parts []string) bool {
	if len(parts) < len(n.Equal) || (n.Op != OpNone && len(parts) == len(n.Equal)) {
		return false
	}
	for i, e := range n.Equal {
		if parts[i] != e {
			return false
		}
	}
	if n.Op == OpNone {
		return true
	}
	return n.Op.match(parts[len(n.Equal)], n.Lo, n.Hi)
}

// String renders the condition as attribute positions and operators, as in
// [1] = "CANCELLED" AND [2] BETWEEN "2019-07-01T00:00:00.000000" AND "2019-09-30T23:59:59.999999".
func (n NativeCond) String() string {
	var b strings.Builder
	for i, e := range n.Equal {
		if i > 0 {
			b.WriteString(" AND ")
		}
		fmt.Fprintf(&b, "[%d] = %q", i+1, e)
	}
	if n.Op == OpNone {
		if len(n.Equal) == 0 {
			return "(no condition)"
		}
		return b.String()
	}
	if len(n.Equal) > 0 {
		b.WriteString(" AND ")
	}
	fmt.Fprintf(&b, "[%d] ", len(n.Equal)+1)
	b.WriteString(Cond{op: n.Op, lo: n.Lo, hi: n.Hi}.String())
	return b.String()
}
