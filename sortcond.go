package keyfirst

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/keys"
)

// SortCond is a condition on a sort key stored as a value ([ID], [Str],
// [Time], [Num], [Bin]), built by the methods of its [Side]: the typed condition
// of a plain-field sort key (seed 002's begins_with(order_date, prefix) is
// orderDate.BeginsWith("2024-04")), read with query's SortValue. Its
// values are encoded by the side itself, as the writes encoded them (an
// [ID] side refuses "c#1", a [Num] side NaN), and it remembers the side it
// was built from: a query of another pattern's sort key refuses it before
// any request. A condition that cannot be built keeps its error ([Err]),
// which the query returns.
//
// The sort key of a keys definition ([Composite], [Native]) takes the
// definition's conditions (keys.Cond, query's Sort); a [Const] sort key is
// compared by the query itself; a tuple takes query.Attr on its first
// attribute. Their Side methods return a SortCond that keeps that error.
type SortCond struct {
	side   *side
	op     keys.Op
	lo, hi types.AttributeValue
	err    error
}

// Eq selects the items whose sort key equals v.
func (s Side[V]) Eq(v V) SortCond { return s.cond(keys.OpEq, v, v, false) }

// Lt selects the items whose sort key is below v.
func (s Side[V]) Lt(v V) SortCond { return s.cond(keys.OpLt, v, v, false) }

// Le selects the items whose sort key is at most v.
func (s Side[V]) Le(v V) SortCond { return s.cond(keys.OpLe, v, v, false) }

// Gt selects the items whose sort key is above v.
func (s Side[V]) Gt(v V) SortCond { return s.cond(keys.OpGt, v, v, false) }

// Ge selects the items whose sort key is at least v.
func (s Side[V]) Ge(v V) SortCond { return s.cond(keys.OpGe, v, v, false) }

// Between selects the items whose sort key is in [lo, hi], both included,
// compared as DynamoDB compares them (strings and bytes by their bytes,
// numbers by value); lo above hi selects nothing and is refused.
func (s Side[V]) Between(lo, hi V) SortCond { return s.cond(keys.OpBetween, lo, hi, true) }

// BeginsWith selects the items whose sort key starts with prefix: a date
// prefix ("2024-04") of a sort key of ISO dates stored as strings. It
// applies to string sides ([Str]; [ID] checks the prefix as an id, [Time]
// as the start of a time key: "2024-04", not "2024-4"); a [Num] or [Bin]
// side keeps an error (DynamoDB compares numbers
// by value, and a byte prefix is not what begins_with on B means to most
// readers: use Between). An empty prefix selects everything and is
// refused.
func (s Side[V]) BeginsWith(prefix string) SortCond {
	c := SortCond{side: s.s, op: keys.OpBeginsWith}
	if c.err = s.valueSort(); c.err != nil {
		return c
	}
	switch {
	case s.s.prefix == nil:
		c.err = fmt.Errorf("begins_with on %s, a %s attribute: DynamoDB applies it to strings; use Between", s.s.attrs[0].Name, s.s.attrs[0].Type)
	case prefix == "":
		c.err = errors.New("an empty prefix selects every item: omit the condition")
	case !utf8.ValidString(prefix):
		c.err = errors.New("a prefix that is not valid UTF-8: no key DynamoDB stores begins with it")
	default:
		if err := s.s.prefix(prefix); err != nil {
			c.err = fmt.Errorf("prefix %q: %w", prefix, err)
		}
	}
	if c.err != nil {
		return c
	}
	c.lo = &types.AttributeValueMemberS{Value: prefix}
	return c
}

// cond builds a comparison of values encoded by the side.
func (s Side[V]) cond(op keys.Op, lo, hi V, two bool) SortCond {
	c := SortCond{side: s.s, op: op}
	if c.err = s.valueSort(); c.err != nil {
		return c
	}
	if c.lo, c.err = s.one(lo, nil); c.err != nil {
		return c
	}
	if two {
		c.hi, c.err = s.one(hi, nil)
	}
	return c
}

// valueSort reports why s takes no typed value conditions, if it does not.
func (s Side[V]) valueSort() error {
	if err := s.s.valueSort(); err != nil || s.one != nil {
		return err
	}
	return fmt.Errorf("the side %s encodes no single value", s.s.desc)
}

// valueSort reports why the side takes no typed value conditions, if it
// does not: only a side of one attribute that stores a value as it is
// (ID, Str, Time, Num, Bin) takes them.
func (s *side) valueSort() error {
	switch {
	case s == nil:
		return errors.New("a zero Side")
	case s.err != nil:
		return fmt.Errorf("the side %s: %w", s.desc, s.err)
	case s.constant:
		return fmt.Errorf("the constant side %s: a query of its pattern compares it itself; drop the condition", s.desc)
	case len(s.attrs) == 0:
		return errors.New("NoSort: the pattern has no sort key to compare")
	case !s.def.IsZero():
		return fmt.Errorf("the side %s holds keys of %s: build the condition from that definition (query's Sort)", s.desc, s.def)
	case s.tuple || len(s.attrs) != 1 || len(s.segs) != 1:
		return fmt.Errorf("the side %s: a tuple's first attribute takes query.Attr conditions", s.desc)
	}
	return nil
}

// Err reports why the condition could not be built; nil when it can be
// used.
func (c SortCond) Err() error {
	if c.side == nil && c.err == nil {
		return errors.New("the zero SortCond: build it with a Side's Eq, Lt, Le, Gt, Ge, Between or BeginsWith")
	}
	return c.err
}

// Attr is the sort key attribute the condition compares.
func (c SortCond) Attr() string {
	if c.side == nil || len(c.side.attrs) == 0 {
		return ""
	}
	return c.side.attrs[0].Name
}

// Op is the comparison.
func (c SortCond) Op() keys.Op { return c.op }

// Values are the condition's operands as DynamoDB receives them: hi is set
// for Between only. The values are shared: do not change them.
func (c SortCond) Values() (lo, hi types.AttributeValue) { return c.lo, c.hi }

// BuiltFor reports whether c was built from the sort side of pattern id.
func (c SortCond) BuiltFor(id PatternID) bool {
	return c.side != nil && id.p != nil && id.p.sk == c.side
}

// String describes the condition.
func (c SortCond) String() string {
	if c.side == nil {
		return "zero SortCond"
	}
	return fmt.Sprintf("%s %s", c.Attr(), c.op)
}

// ValueSort reports whether the pattern's sort key is stored as a value
// ([ID], [Str], [Num], [Bin]) and so takes the typed conditions of its
// Side ([SortCond]) rather than raw ones.
func (id PatternID) ValueSort() bool { return id.p != nil && id.p.sk.valueSort() == nil }
