package query

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/attrname"
	"github.com/keyfirst/keyfirst/internal/avequal"
	"github.com/keyfirst/keyfirst/keys"
)

// DynamoDB's limits on key values, in bytes.
const (
	maxPartitionKeyBytes = keys.MaxKeyBytes
	maxSortKeyBytes      = keys.MaxSortKeyBytes
)

// plan is a checked query (or scan), ready to send: its request (the
// shape's template and the call's values), and what its cursors need.
type plan struct {
	table, index string
	// bound is the table bound, whose Observer sees the requests, and
	// entity the entity type read (empty for a collection).
	bound  *keyfirst.Table
	entity string
	// readIndex is what the plan knows of the index it reads: a query's
	// is its shape's, shared and never written.
	*readIndex
	// bind is the binding, hashed only when a cursor is opened or made
	// (see binding): a query read whole, or a page without cursor, hashes
	// nothing.
	bind  atomic.Pointer[lastBinding]
	start map[string]types.AttributeValue
	limit int      // 0: none
	opts  *options // never nil, shared (noOptions) and read only
	// shape and tmpl are the query's shape and its request template,
	// exprValues the call's ExpressionAttributeValues.
	shape            *indexShape
	tmpl             *template
	exprValues       map[string]types.AttributeValue
	desc, consistent bool
	// firstSent tells whether the first request (first) was made.
	firstSent bool
	// expired, for a query [Query.WithoutExpired], tells the items it
	// drops.
	expired func(item) bool
	// strs holds the string values of a keys.Cond's terms, which
	// exprValues points to.
	strs strValues
	// first is the input of the plan's first request (see queryInput): a
	// plan sends its requests one after the other, from one goroutine.
	first queryRequest
}

// readIndex is what a plan knows of the index it reads, the same for
// every read of one shape. A plan points to it, so that the plan made on
// every call stays small.
type readIndex struct {
	// keyAttrs is the key of an item in the index: the table's key
	// attributes, then the index's, each once. A cursor holds exactly
	// these.
	keyAttrs []keyfirst.Attribute
	// decoding is what each item's decoding needs to know of the index
	// (see reads.check).
	decoding decoding
	// partition is the index's partition key (the query's value of each
	// of its attributes is in exprValues: see partitionValue).
	partition []keyfirst.Attribute
}

// noOptions are the options of a call given none.
var noOptions options

// partitionValue is the query's value of the plan's partition key
// attribute i, checked: the request's first operands are the partition
// key's equalities, in order.
func (p *plan) partitionValue(i int) types.AttributeValue {
	return p.exprValues[p.tmpl.slots[i]]
}

// binding is what binds the plan's cursors (see binding), computed once.
// A Page's cursors may be asked for from several goroutines: two may both
// compute it, and store the same.
func (p *plan) binding() string {
	if b := p.bind.Load(); b != nil {
		return b.bind
	}
	var scratch [keyfirst.MaxKeyAttributes]term
	b := p.tmpl.binding(p.shape.bind, p.tmpl.sortTerms(p.exprValues, scratch[:0]), p.desc)
	p.bind.Store(b)
	return b.bind
}

// term is one comparison of a key condition.
type term struct {
	attr   string
	op     keys.Op
	lo, hi types.AttributeValue
}

// keyCondition is the term as an expression package key condition.
func (t term) keyCondition() expression.KeyConditionBuilder {
	k := attrname.Key(t.attr)
	switch t.op {
	case keys.OpLt:
		return k.LessThan(expression.Value(t.lo))
	case keys.OpLe:
		return k.LessThanEqual(expression.Value(t.lo))
	case keys.OpGt:
		return k.GreaterThan(expression.Value(t.lo))
	case keys.OpGe:
		return k.GreaterThanEqual(expression.Value(t.lo))
	case keys.OpBetween:
		return k.Between(expression.Value(t.lo), expression.Value(t.hi))
	case keys.OpBeginsWith:
		return k.BeginsWith(t.lo.(*types.AttributeValueMemberS).Value)
	}
	return k.Equal(expression.Value(t.lo))
}

// failer builds the errors of one query.
type failer struct{ table, index string }

func (f failer) fail(attr string, p Problem, detail string, err error) error {
	return &Error{Table: f.table, Index: f.index, Attribute: attr, Problem: p, Detail: detail, Err: err}
}

// plan checks the query and builds its request. It returns the first
// problem found, before any request. What depends on the query's shape
// alone comes from its indexShape; a call checks and encodes its values.
func (q *Query[T]) plan(optFns []func(*keyfirst.Options)) (*plan, error) {
	src := q.source()
	if src == nil {
		return nil, &Error{Problem: ProblemSource, Detail: "start the query with query.On(entity, pattern, partition) or query.CollectionOn(table, pattern, partition), with a non-nil entity or table"}
	}
	t := src.table
	p := &plan{table: t.Name(), index: q.index, bound: t, entity: src.entityType(), opts: &noOptions}
	if len(src.opts)+len(optFns) > 0 { // resolve's Options escape to the heap
		o, err := resolve("Query", p.table, p.index, src.opts, optFns)
		if err != nil {
			return nil, err
		}
		p.opts = &o
	}
	if err := q.checkFrom(failer{table: p.table, index: p.index}); err != nil {
		return nil, err
	}
	sh, err := shapeOf(src, q.index)
	if err != nil {
		return nil, err
	}
	f := failer{table: p.table, index: p.index}
	ks := &sh.ks // the shape's, read only: a KeySchema passed by value is 15 words copied
	p.readIndex = &sh.readIndex
	// The terms live on the stack: the request keeps their values only.
	var scratch [2 * keyfirst.MaxKeyAttributes]term
	values := q.partition
	var value1 [1]Value
	if q.partition1 != nil {
		value1[0] = Value{av: q.partition1}
		values = value1[:]
	}
	terms, err := partitionTerms(f, ks.PartitionKey, values, scratch[:0])
	if err != nil {
		return nil, err
	}
	if terms, err = q.constTerm(f, ks, terms); err != nil {
		return nil, err
	}
	if q.sort.kind == sortValue {
		// Another side's condition is named as such, before its attribute
		// is compared with the index's.
		if err := q.checkValueCond(f); err != nil {
			return nil, err
		}
	}
	if terms, err = q.sort.terms(f, ks, terms, &p.strs); err != nil {
		return nil, err
	}
	if err := q.checkDefs(f, t); err != nil {
		return nil, err
	}
	sortTerms := terms[len(p.partition):]
	if q.consistent && !ks.ConsistentReadAllowed() {
		return nil, f.fail("", ProblemConsistentRead,
			"a GSI is eventually consistent only: drop ConsistentRead, or read the table or an LSI", nil)
	}
	if q.limitSet && q.limit <= 0 {
		return nil, f.fail("", ProblemLimit, fmt.Sprintf("Limit(%d): give a positive number of items, or no Limit", q.limit), nil)
	}
	p.limit = q.limit
	if q.dropExpired {
		if p.expired, err = src.expiredFunc(f, p.decoding, q.expiredAt); err != nil {
			return nil, err
		}
	}

	tp, err := sh.template(terms, len(sortTerms))
	if err != nil {
		// Unreachable with checked terms and names; kept as a typed error.
		return nil, f.fail("", ProblemSortKey, "the expression package refused the condition", err)
	}
	p.shape, p.tmpl, p.exprValues = sh, tp, tp.values(terms)
	p.desc, p.consistent = q.desc, q.consistent
	if q.after != "" {
		if p.start, err = p.resume(q.after); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// partitionTerms checks the partition key values against the index's
// partition key attributes attrs, and appends their terms to out.
func partitionTerms(f failer, attrs []keyfirst.Attribute, values []Value, out []term) ([]term, error) {
	if len(values) != len(attrs) {
		return nil, f.fail("", ProblemPartition,
			fmt.Sprintf("%d values for the partition key %s: every query needs a value for each attribute, in order",
				len(values), describe(attrs)), nil)
	}
	for i := range attrs {
		a, v := &attrs[i], &values[i]
		if err := checkValue(&f, a, *v, maxPartitionKeyBytes, ProblemPartition); err != nil {
			return nil, err
		}
		out = append(out, term{attr: a.Name, op: keys.OpEq, lo: v.av})
	}
	return out, nil
}

// checkValue checks one key value for attribute a: at once for a good
// string or bytes (keyValueOK), else check by check. f and a are pointers
// so that the arguments fit in registers.
func checkValue(f *failer, a *keyfirst.Attribute, v Value, limit int, p Problem) error {
	if v.err == nil && keyValueOK(v.av, a.Type, limit) {
		return nil
	}
	return checkValueEach(*f, *a, v, limit, p)
}

// checkValueEach checks one key value for attribute a, check by check,
// and returns the first problem found.
func checkValueEach(f failer, a keyfirst.Attribute, v Value, limit int, p Problem) error {
	switch {
	case v.err != nil:
		return f.fail(a.Name, p, "the value could not be built", v.err)
	case v.av == nil:
		return f.fail(a.Name, p, "the zero Value; build values with query.S, N or B", nil)
	case avType(v.av) != a.Type:
		return f.fail(a.Name, p, fmt.Sprintf("%s for an attribute of type %s", v, a.Type), nil)
	case avEmpty(v.av):
		return f.fail(a.Name, p, "an empty value: DynamoDB refuses empty key values", nil)
	case avLen(v.av) > limit:
		return f.fail(a.Name, p, fmt.Sprintf("%d bytes, a key value has at most %d", avLen(v.av), limit), nil)
	case avProblem(v.av) != "":
		return f.fail(a.Name, p, fmt.Sprintf("%s: %s", v, avProblem(v.av)), nil)
	}
	return nil
}

// terms checks the sort key condition against the index's sort key and
// appends its comparisons to out: none, one, or equalities then one
// comparison. The string values of a keys.Cond are made in strs.
func (s *sortSpec) terms(f failer, ks *keyfirst.KeySchema, out []term, strs *strValues) ([]term, error) {
	if s.kind == sortNone {
		return out, nil
	}
	if len(ks.SortKey) == 0 {
		return nil, f.fail("", ProblemSortKey, "the index has no sort key: drop the condition", nil)
	}
	switch s.kind {
	case sortAttr:
		return attrTerms(f, ks, *s.attr, out)
	case sortValue:
		if s.err != nil {
			return nil, f.fail(s.value.Attr(), ProblemSortKey, "the sort condition could not be built", s.err)
		}
		// A typed condition is checked against the index's sort key as a
		// raw one is: its values are encoded, the attribute is the side's.
		lo, hi := s.value.Values()
		return attrTerms(f, ks, AttrCond{attr: s.value.Attr(), op: s.value.Op(), lo: Value{av: lo}, hi: Value{av: hi}}, out)
	}
	if s.err != nil {
		return nil, f.fail("", ProblemSortKey, "the keys condition could not be built", s.err)
	}
	if s.cond.Op() == keys.OpNone {
		return nil, f.fail("", ProblemSortKey, "the zero keys.Cond; build conditions with a keys Range or Anchor", nil)
	}
	first := len(out)
	if len(ks.SortKey) == 1 {
		lo, hi := s.cond.Values()
		t := term{attr: ks.SortKey[0].Name, op: s.cond.Op(), lo: strs.s(lo)}
		if t.op == keys.OpBetween {
			t.hi = strs.s(hi)
		}
		out = append(out, t)
	} else {
		n, err := s.cond.Native()
		if err != nil {
			return nil, f.fail("", ProblemSortKey,
				fmt.Sprintf("the sort key %s has several attributes and this condition compares whole concatenated keys", describe(ks.SortKey)), err)
		}
		fixed := len(n.Equal)
		if n.Op != keys.OpNone {
			fixed++
		}
		if fixed > len(ks.SortKey) {
			return nil, f.fail("", ProblemPrefix,
				fmt.Sprintf("the condition %s covers %d segments, the sort key %s has %d attributes: build it from a key of the index's shape",
					n, fixed, describe(ks.SortKey), len(ks.SortKey)), nil)
		}
		for i, e := range n.Equal {
			out = append(out, term{attr: ks.SortKey[i].Name, op: keys.OpEq, lo: strs.s(e)})
		}
		if n.Op != keys.OpNone {
			t := term{attr: ks.SortKey[len(n.Equal)].Name, op: n.Op, lo: strs.s(n.Lo)}
			if n.Op == keys.OpBetween {
				t.hi = strs.s(n.Hi)
			}
			out = append(out, t)
		}
	}
	for i := range out[first:] {
		t, a := &out[first+i], &ks.SortKey[i]
		if a.Type != types.ScalarAttributeTypeS {
			return nil, f.fail(a.Name, ProblemSortKey,
				fmt.Sprintf("a keys.Cond compares strings and the attribute is of type %s: use SortAttr with typed values", a.Type), nil)
		}
		if err := checkValue(&f, a, Value{av: t.lo}, maxSortKeyBytes, ProblemSortKey); err != nil {
			return nil, err
		}
		if t.hi == nil {
			continue
		}
		if err := checkValue(&f, a, Value{av: t.hi}, maxSortKeyBytes, ProblemSortKey); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// attrTerms checks a raw attribute condition and appends its term to out.
func attrTerms(f failer, ks *keyfirst.KeySchema, c AttrCond, out []term) ([]term, error) {
	if c.op == keys.OpNone {
		return nil, f.fail("", ProblemSortKey, "the zero AttrCond; build it with query.Attr(name)", nil)
	}
	pos := slices.IndexFunc(ks.SortKey, func(a keyfirst.Attribute) bool { return a.Name == c.attr })
	switch {
	case pos < 0 && slices.ContainsFunc(ks.PartitionKey, func(a keyfirst.Attribute) bool { return a.Name == c.attr }):
		return nil, f.fail(c.attr, ProblemSortKey, "a partition key attribute: set it with Partition", nil)
	case pos < 0:
		return nil, f.fail(c.attr, ProblemSortKey, fmt.Sprintf("not an attribute of the sort key %s", describe(ks.SortKey)), nil)
	case pos > 0:
		return nil, f.fail(c.attr, ProblemNotLeading,
			fmt.Sprintf("attribute %d of the sort key %s: DynamoDB applies conditions left to right, so fix the attributes before it "+
				"with a keys.Cond (equality on the leading segments) or condition the first", pos+1, describe(ks.SortKey)), nil)
	}
	a := ks.SortKey[0]
	if c.op == keys.OpBeginsWith {
		if a.Type != types.ScalarAttributeTypeS {
			return nil, f.fail(a.Name, ProblemSortKey, fmt.Sprintf("begins_with applies to strings; the attribute is of type %s", a.Type), nil)
		}
		if avEmpty(c.lo.av) {
			return nil, f.fail(a.Name, ProblemPrefix, "an empty prefix selects every item: omit the condition", nil)
		}
	}
	t := term{attr: a.Name, op: c.op, lo: c.lo.av}
	if err := checkValue(&f, &a, c.lo, maxSortKeyBytes, ProblemSortKey); err != nil {
		return nil, err
	}
	if c.op == keys.OpBetween {
		if err := checkValue(&f, &a, c.hi, maxSortKeyBytes, ProblemSortKey); err != nil {
			return nil, err
		}
		if avequal.Compare(c.lo.av, c.hi.av) > 0 {
			return nil, f.fail(a.Name, ProblemSortKey,
				fmt.Sprintf("BETWEEN %s AND %s: the lower bound is above the upper one, which selects nothing", c.lo, c.hi), nil)
		}
		t.hi = c.hi.av
	}
	return append(out, t), nil
}

// keyAttributes is the key of an item in index ks: the table's key
// attributes, then the index's, each once.
func keyAttributes(t *keyfirst.Table, ks keyfirst.KeySchema) []keyfirst.Attribute {
	out := t.PrimaryKey().Attributes()
	for _, a := range ks.Attributes() {
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// indexNames lists the table's indexes, for messages.
func indexNames(t *keyfirst.Table) string {
	var names []string
	for _, ks := range t.Indexes() {
		names = append(names, fmt.Sprintf("%s (%s)", ks.IndexName, ks.Kind))
	}
	if len(names) == 0 {
		return "the table has no secondary index; use \"\" for the table"
	}
	return "the table's indexes are " + strings.Join(names, ", ") + `, and "" for the table`
}

// describe prints attributes as (a S, b N).
func describe(attrs []keyfirst.Attribute) string {
	parts := make([]string, len(attrs))
	for i, a := range attrs {
		parts[i] = a.Name + " " + string(a.Type)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
