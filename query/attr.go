package query

import (
	"github.com/keyfirst/keyfirst/keys"
)

// Attr names a sort key attribute for a raw condition, for a sort key that
// is not a keys composite: a Number attribute, or a plain string such as a
// movie title. It offers the seven verbs a key condition allows and
// nothing else:
//
//	q.SortAttr(query.Attr("Year").Between(query.N(1990), query.N(1999)))
//
// For a composite sort key built with the keys package, use [Query.Sort]
// with a [keys.Cond]: it knows the key's segments. A raw condition on
// such a key, in an entity's query through its pattern ([On]), is refused
// before any request ([ProblemForeignCondition]): its value is not
// checked against the segments, so a misspelt BeginsWith("CANCELED#")
// would find nothing. (The ids that begin with "t" are
// Range().HalfOpen("t", "u") of a keys.ID segment.) A collection
// ([CollectionOn]) takes raw conditions as given: its index may hold
// values that no pattern describes.
type Attr string

// AttrCond is a raw condition on one sort key attribute, built by the
// methods of [Attr]. It is immutable.
type AttrCond struct {
	attr   string
	op     keys.Op
	lo, hi Value
}

// Eq selects the items whose attribute equals v.
func (a Attr) Eq(v Value) AttrCond { return AttrCond{attr: string(a), op: keys.OpEq, lo: v} }

// Lt selects the items whose attribute is below v.
func (a Attr) Lt(v Value) AttrCond { return AttrCond{attr: string(a), op: keys.OpLt, lo: v} }

// Le selects the items whose attribute is at most v.
func (a Attr) Le(v Value) AttrCond { return AttrCond{attr: string(a), op: keys.OpLe, lo: v} }

// Gt selects the items whose attribute is above v.
func (a Attr) Gt(v Value) AttrCond { return AttrCond{attr: string(a), op: keys.OpGt, lo: v} }

// Ge selects the items whose attribute is at least v.
func (a Attr) Ge(v Value) AttrCond { return AttrCond{attr: string(a), op: keys.OpGe, lo: v} }

// Between selects the items whose attribute is from lo through hi, both
// inclusive. lo above hi is refused before any request.
func (a Attr) Between(lo, hi Value) AttrCond {
	return AttrCond{attr: string(a), op: keys.OpBetween, lo: lo, hi: hi}
}

// BeginsWith selects the items whose string attribute begins with prefix
// (begins_with applies to strings; DynamoDB has none on numbers). An empty
// prefix would select everything: it is refused; omit the condition.
func (a Attr) BeginsWith(prefix string) AttrCond {
	return AttrCond{attr: string(a), op: keys.OpBeginsWith, lo: S(prefix)}
}

// Attr returns the attribute's name.
func (c AttrCond) Attr() string { return c.attr }

// Op returns the operator.
func (c AttrCond) Op() keys.Op { return c.op }
