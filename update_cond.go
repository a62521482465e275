package keyfirst

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/avequal"
	"github.com/keyfirst/keyfirst/internal/codec"
)

// Cond is a condition on the fields of a stored item, named as in Go, for
// a partial update ([Update.If]): the update is written only when the
// stored item meets it, and fails with a [*ConditionError] wrapping
// [ErrConditionFailed] that says which part failed when not. Build it
// with [Field] and combine with [And], [Or] and [Not]. The zero Cond is
// no condition.
//
// Its values are converted to the field's type and encoded as the field
// is stored (an index key of time.Time in [TimeKeyLayout], a named string
// type as a string), and checked as an item's values are, before any
// request. An order (Lt, Le, Gt, Ge, Between) is refused on a field whose
// stored form does not order as its values: a time.Time that is not an
// index key (RFC 3339 with a variable fraction), a number stored as a
// string.
type Cond struct{ n *condNode }

type condOp uint8

const (
	condEq condOp = iota + 1
	condNe
	condLt
	condLe
	condGt
	condGe
	condBetween
	condBeginsWith
	condExists
	condNotExists
	condAnd
	condOr
	condNot
)

var condSymbol = map[condOp]string{condEq: "=", condNe: "<>", condLt: "<", condLe: "<=", condGt: ">", condGe: ">="}

type condNode struct {
	op     condOp
	field  string
	values []any
	kids   []Cond
}

// IsZero reports whether c is no condition.
func (c Cond) IsZero() bool { return c.n == nil }

// String prints c as written: Stock >= 1, (Status = OPEN AND Total > 10).
func (c Cond) String() string {
	n := c.n
	switch {
	case n == nil:
		return ""
	case n.op == condAnd || n.op == condOr:
		parts := make([]string, len(n.kids))
		for i, k := range n.kids {
			parts[i] = k.String()
		}
		return "(" + strings.Join(parts, map[condOp]string{condAnd: " AND ", condOr: " OR "}[n.op]) + ")"
	case n.op == condNot:
		return "NOT " + n.kids[0].String()
	case n.op == condBetween:
		return fmt.Sprintf("%s BETWEEN %v AND %v", n.field, n.values[0], n.values[1])
	case n.op == condBeginsWith:
		return fmt.Sprintf("begins_with(%s, %v)", n.field, n.values[0])
	case n.op == condExists:
		return n.field + " exists"
	case n.op == condNotExists:
		return n.field + " does not exist"
	}
	return fmt.Sprintf("%s %s %v", n.field, condSymbol[n.op], n.values[0])
}

// FieldCond starts a condition on one field of T, named as in Go.
type FieldCond struct{ name string }

// Field names a field of T (its Go name, "Stock") for a condition.
func Field(name string) FieldCond { return FieldCond{name: name} }

func (f FieldCond) cond(op condOp, values ...any) Cond {
	return Cond{&condNode{op: op, field: f.name, values: values}}
}

// Eq holds when the field is stored with v's value. On an omitempty field,
// Eq of the zero value holds when the attribute is absent, as the field is
// stored.
func (f FieldCond) Eq(v any) Cond { return f.cond(condEq, v) }

// Ne holds when the field is not stored with v's value (absent included).
func (f FieldCond) Ne(v any) Cond { return f.cond(condNe, v) }

// Lt holds when the stored field is less than v.
func (f FieldCond) Lt(v any) Cond { return f.cond(condLt, v) }

// Le holds when the stored field is at most v.
func (f FieldCond) Le(v any) Cond { return f.cond(condLe, v) }

// Gt holds when the stored field is greater than v.
func (f FieldCond) Gt(v any) Cond { return f.cond(condGt, v) }

// Ge holds when the stored field is at least v: a stock that can cover an
// order is Field("Stock").Ge(n).
func (f FieldCond) Ge(v any) Cond { return f.cond(condGe, v) }

// Between holds when the stored field is within lo..hi, both included.
func (f FieldCond) Between(lo, hi any) Cond { return f.cond(condBetween, lo, hi) }

// BeginsWith holds when the stored field, a string, begins with prefix.
func (f FieldCond) BeginsWith(prefix string) Cond { return f.cond(condBeginsWith, prefix) }

// Exists holds when the item has the field's attribute.
func (f FieldCond) Exists() Cond { return f.cond(condExists) }

// NotExists holds when the item does not have the field's attribute.
func (f FieldCond) NotExists() Cond { return f.cond(condNotExists) }

// And holds when every one of conds holds; zero Conds are skipped.
func And(conds ...Cond) Cond { return join(condAnd, conds) }

// Or holds when one of conds holds; zero Conds are skipped.
func Or(conds ...Cond) Cond { return join(condOr, conds) }

// Not holds when c does not.
func Not(c Cond) Cond {
	if c.IsZero() {
		return c
	}
	return Cond{&condNode{op: condNot, kids: []Cond{c}}}
}

func join(op condOp, conds []Cond) Cond {
	var kids []Cond
	for _, c := range conds {
		if c.IsZero() {
			continue
		}
		if c.n.op == op {
			kids = append(kids, c.n.kids...)
			continue
		}
		kids = append(kids, c)
	}
	switch len(kids) {
	case 0:
		return Cond{}
	case 1:
		return kids[0]
	}
	return Cond{&condNode{op: op, kids: kids}}
}

// conjuncts are c's parts joined by AND at its top.
func (c Cond) conjuncts() []Cond {
	switch {
	case c.IsZero():
		return nil
	case c.n.op == condAnd:
		return c.n.kids
	}
	return []Cond{c}
}

// compiledCond is a Cond of an entity: its condition ([xCond], the
// expression's form), and how to evaluate it on a stored item, to say
// which part failed.
type compiledCond struct {
	x    xCond
	eval func(item map[string]types.AttributeValue) bool
}

// compileCond checks c against T and builds it; op names the call.
func (e *Entity[T]) compileCond(c Cond) (compiledCond, error) {
	n := c.n
	switch n.op {
	case condAnd, condOr:
		kids := make([]compiledCond, len(n.kids))
		xs := make([]xCond, len(n.kids))
		for i, k := range n.kids {
			var err error
			if kids[i], err = e.compileCond(k); err != nil {
				return compiledCond{}, err
			}
			xs[i] = kids[i].x
		}
		and := n.op == condAnd
		return compiledCond{x: xCond{op: n.op, kids: xs}, eval: func(item map[string]types.AttributeValue) bool {
			for _, k := range kids {
				if k.eval(item) != and {
					return !and
				}
			}
			return and
		}}, nil
	case condNot:
		k, err := e.compileCond(n.kids[0])
		if err != nil {
			return k, err
		}
		return compiledCond{x: xCond{op: condNot, kids: []xCond{k.x}}, eval: func(item map[string]types.AttributeValue) bool { return !k.eval(item) }}, nil
	}
	f, err := e.updateField(n.field, "condition")
	if err != nil {
		return compiledCond{}, err
	}
	attr := f.Name
	switch n.op {
	case condExists:
		return compiledCond{x: xCond{op: condExists, attr: attr}, eval: func(item map[string]types.AttributeValue) bool { return item[attr] != nil }}, nil
	case condNotExists:
		return compiledCond{x: xCond{op: condNotExists, attr: attr}, eval: func(item map[string]types.AttributeValue) bool { return item[attr] == nil }}, nil
	}
	vals := make([]types.AttributeValue, len(n.values))
	for i, v := range n.values {
		av, present, err := e.encodeValue(f, v, "condition")
		if err != nil {
			return compiledCond{}, err
		}
		if !present && n.op != condEq && n.op != condNe {
			return compiledCond{}, e.updateError("", f.GoName, UpdateCondition,
				fmt.Sprintf("%s: %v is not stored (omitempty): test Exists or NotExists", Cond{n}, v), nil)
		}
		vals[i] = av
	}
	if n.op == condEq || n.op == condNe {
		x := xCond{op: condNotExists, attr: attr}
		if vals[0] != nil {
			x = xCond{op: condEq, attr: attr, v: [2]types.AttributeValue{vals[0]}}
		}
		eval := func(item map[string]types.AttributeValue) bool {
			if vals[0] == nil {
				return item[attr] == nil
			}
			return item[attr] != nil && avequal.Equal(item[attr], vals[0])
		}
		if n.op == condNe {
			return compiledCond{x: xCond{op: condNot, kids: []xCond{x}}, eval: func(item map[string]types.AttributeValue) bool { return !eval(item) }}, nil
		}
		return compiledCond{x: x, eval: eval}, nil
	}
	if err := e.ordered(f, Cond{n}); err != nil {
		return compiledCond{}, err
	}
	cmp := func(item map[string]types.AttributeValue, i int) (int, bool) {
		have := item[attr]
		if have == nil || avTypeName(have) != avTypeName(vals[i]) {
			return 0, false
		}
		return avequal.Compare(have, vals[i]), true
	}
	x := xCond{op: n.op, attr: attr, v: [2]types.AttributeValue{vals[0]}}
	switch n.op {
	case condBetween:
		x.v[1] = vals[1]
		return compiledCond{x: x, eval: func(item map[string]types.AttributeValue) bool {
			lo, ok1 := cmp(item, 0)
			hi, ok2 := cmp(item, 1)
			return ok1 && ok2 && lo >= 0 && hi <= 0
		}}, nil
	case condBeginsWith:
		prefix, ok := vals[0].(*types.AttributeValueMemberS)
		if !ok {
			return compiledCond{}, e.updateError("", f.GoName, UpdateCondition, fmt.Sprintf("%s: the field is not stored as a string", Cond{n}), nil)
		}
		return compiledCond{x: x, eval: func(item map[string]types.AttributeValue) bool {
			s, ok := item[attr].(*types.AttributeValueMemberS)
			return ok && strings.HasPrefix(s.Value, prefix.Value)
		}}, nil
	}
	op := n.op
	return compiledCond{x: x, eval: func(item map[string]types.AttributeValue) bool {
		c, ok := cmp(item, 0)
		return ok && orderHolds(op, c)
	}}, nil
}

// orderHolds reports whether c, the comparison of a stored value with a
// condition's (avequal.Compare), meets the order op.
func orderHolds(op condOp, c int) bool {
	switch op {
	case condLt:
		return c < 0
	case condLe:
		return c <= 0
	case condGt:
		return c > 0
	}
	return c >= 0
}

// ordered refuses an order on field f whose stored form does not order
// as its values.
func (e *Entity[T]) ordered(f codec.Field, c Cond) error {
	t := f.Type
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	why := ""
	switch {
	case t == reflect.TypeFor[time.Time]() && e.timeKeyField(f.Name) == nil:
		why = "a time.Time is stored in RFC 3339 with a variable fraction, which does not order as the times; make it an index key (stored in TimeKeyLayout) or compare another field"
	case f.Kind == codec.AVString && t.Kind() != reflect.String && t != reflect.TypeFor[time.Time]():
		why = "the field is stored as a decimal string, which orders by bytes (\"10\" < \"9\")"
	case f.Kind != codec.AVString && f.Kind != codec.AVNumber && f.Kind != codec.AVBinary && t != reflect.TypeFor[time.Time]():
		why = "only strings, numbers and binaries have an order"
	}
	if why != "" {
		return e.updateError("", f.GoName, UpdateCondition, fmt.Sprintf("%s: %s", c, why), nil)
	}
	return nil
}
