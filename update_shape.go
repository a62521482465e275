package keyfirst

import (
	"encoding/binary"
	"maps"
	"strconv"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/attrname"
)

// The expressions of a partial update, compiled once per shape.
//
// A plan records its update as an updateExpr: the actions (SET, ADD,
// REMOVE, DELETE of one attribute each) and the conditions joined by AND,
// each naming its attributes and holding its values. Its shape is all of
// that but the values: the kinds, the attribute names and the structure
// of the conditions. The text of the expressions the expression package
// builds from an updateExpr, and their ExpressionAttributeNames, depend
// on its shape only (a value is always a placeholder), so an entity keeps
// them per shape ([updateShapes]) and a later update of the same shape
// takes them from there: only its values, encoded and checked on every
// call, are put under the placeholders the shape's values had.
//
// A shape is compiled from a template: the updateExpr's values replaced
// by stand-ins that say which value each is, so that no value ever
// reaches the text the entity keeps, and the placeholder of each value is
// read off the stand-in it holds.

// actionKind is the kind of one action of an update expression.
type actionKind uint8

const (
	actSet    actionKind = iota + 1 // SET #a = :v
	actAppend                       // SET #a = list_append(if_not_exists(#a, :empty), :v)
	actAdd                          // ADD #a :v
	actDelete                       // DELETE #a :v
	actRemove                       // REMOVE #a
)

// xAction is one action of an update expression on attribute attr (v
// unused for a REMOVE).
type xAction struct {
	kind actionKind
	attr string
	v    types.AttributeValue
}

// xCond is a condition of an update as its plan records it: a
// comparison of attr (op condEq, condLt, condLe, condGt, condGe: v[0];
// condBetween: v[0] and v[1]; condBeginsWith: v[0], a string), a test of
// its existence (condExists, condNotExists), or kids joined by op
// (condAnd, condOr, condNot of one). Inequality is Not of Eq.
type xCond struct {
	op   condOp
	attr string
	v    [2]types.AttributeValue
	kids []xCond
}

// updateExpr is a partial update's expressions as its plan records them:
// actions, in order, and conds joined by AND from the left (((c0 AND c1)
// AND c2), as ConditionBuilder.And chains them).
type updateExpr struct {
	actions []xAction
	conds   []xCond
}

// valueOf is what the expression builder receives for each value of an
// updateExpr, in order: the value itself (ownValue), or its stand-in in a
// template.
type valueOf func(types.AttributeValue) types.AttributeValue

func ownValue(av types.AttributeValue) types.AttributeValue { return av }

// emptyList is the value an Append starts from when the item has no list.
func emptyList() types.AttributeValue {
	return &types.AttributeValueMemberL{Value: []types.AttributeValue{}}
}

// nValues is the number of values a node of kind op holds itself (its
// kids' not counted).
func (c *xCond) nValues() int {
	switch c.op {
	case condEq, condLt, condLe, condGt, condGe, condBeginsWith:
		return 1
	case condBetween:
		return 2
	}
	return 0
}

// builder is the expression package's builder of x, each value replaced
// by v of it, called in the order of [updateExpr.appendShape].
func (x *updateExpr) builder(v valueOf) expression.Builder {
	var ub expression.UpdateBuilder
	for _, a := range x.actions {
		n := name(a.attr)
		switch a.kind {
		case actSet:
			ub = ub.Set(n, expression.Value(v(a.v)))
		case actAppend:
			empty := expression.Value(v(emptyList()))
			ub = ub.Set(n, expression.ListAppend(expression.IfNotExists(n, empty), expression.Value(v(a.v))))
		case actAdd:
			ub = ub.Add(n, expression.Value(v(a.v)))
		case actDelete:
			ub = ub.Delete(n, expression.Value(v(a.v)))
		case actRemove:
			ub = ub.Remove(n)
		}
	}
	b := expression.NewBuilder()
	if len(x.actions) > 0 {
		b = b.WithUpdate(ub)
	}
	if len(x.conds) > 0 {
		cond := x.conds[0].build(v)
		for i := range x.conds[1:] {
			cond = cond.And(x.conds[i+1].build(v))
		}
		b = b.WithCondition(cond)
	}
	return b
}

// build is c's condition builder, each value replaced by v of it.
func (c xCond) build(v valueOf) expression.ConditionBuilder {
	switch c.op {
	case condAnd, condOr:
		kids := make([]expression.ConditionBuilder, len(c.kids))
		for i := range c.kids {
			kids[i] = c.kids[i].build(v)
		}
		if c.op == condAnd {
			return expression.And(kids[0], kids[1], kids[2:]...)
		}
		return expression.Or(kids[0], kids[1], kids[2:]...)
	case condNot:
		return expression.Not(c.kids[0].build(v))
	}
	nb := name(c.attr)
	switch c.op {
	case condExists:
		return nb.AttributeExists()
	case condNotExists:
		return nb.AttributeNotExists()
	case condBetween:
		lo := expression.Value(v(c.v[0]))
		return nb.Between(lo, expression.Value(v(c.v[1])))
	case condBeginsWith:
		// The builder takes the prefix as a string and makes its value.
		return nb.BeginsWith(v(c.v[0]).(*types.AttributeValueMemberS).Value)
	}
	v0 := expression.Value(v(c.v[0]))
	switch c.op {
	case condEq:
		return nb.Equal(v0)
	case condLt:
		return nb.LessThan(v0)
	case condLe:
		return nb.LessThanEqual(v0)
	case condGt:
		return nb.GreaterThan(v0)
	}
	return nb.GreaterThanEqual(v0)
}

// appendShape appends x's shape to key (its kinds, attribute names and
// structure, each name with its length, each group with its size: two
// shapes have the same key only when they are the same) and its values
// to vals, in the order [updateExpr.builder] passes them.
func (x *updateExpr) appendShape(key []byte, vals []types.AttributeValue) ([]byte, []types.AttributeValue) {
	key = binary.AppendUvarint(key, uint64(len(x.actions)))
	for _, a := range x.actions {
		key = appendName(append(key, byte(a.kind)), a.attr)
		switch a.kind {
		case actAppend:
			vals = append(vals, emptyList(), a.v)
		case actRemove:
		default:
			vals = append(vals, a.v)
		}
	}
	key = binary.AppendUvarint(key, uint64(len(x.conds)))
	for i := range x.conds {
		key, vals = x.conds[i].appendShape(key, vals)
	}
	return key, vals
}

func (c *xCond) appendShape(key []byte, vals []types.AttributeValue) ([]byte, []types.AttributeValue) {
	key = append(key, byte(c.op))
	switch c.op {
	case condAnd, condOr, condNot:
		key = binary.AppendUvarint(key, uint64(len(c.kids)))
		for i := range c.kids {
			key, vals = c.kids[i].appendShape(key, vals)
		}
		return key, vals
	}
	return appendName(key, c.attr), append(vals, c.v[:c.nValues()]...)
}

func appendName(key []byte, n string) []byte {
	return append(binary.AppendUvarint(key, uint64(len(n))), n...)
}

// maxShapes is the number of shapes an entity keeps: past it, an update
// of a new shape is built for itself, as every update was before.
const maxShapes = 256

// updateShapes are the compiled shapes of an entity's updates, by key
// ([updateExpr.appendShape]), at most max of them; safe for concurrent
// use. With max 0 it keeps none: every update is built for itself.
type updateShapes struct {
	max    int
	mu     sync.RWMutex
	shapes map[string]*compiledShape
}

// compiledShape is the expressions of one shape: their text (nil: none),
// their ExpressionAttributeNames, and the placeholder of each value.
type compiledShape struct {
	update, cond *string
	names        map[string]string
	slots        []string
}

// get is the shape of key, or nil; room reports whether s can keep
// another.
func (s *updateShapes) get(key []byte) (c *compiledShape, room bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.shapes[string(key)], len(s.shapes) < s.max
}

// put keeps c as key's shape, unless s is full or has one.
func (s *updateShapes) put(key []byte, c *compiledShape) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shapes == nil {
		s.shapes = map[string]*compiledShape{}
	}
	if _, ok := s.shapes[string(key)]; !ok && len(s.shapes) < s.max {
		s.shapes[string(key)] = c
	}
}

// len is the number of shapes kept.
func (s *updateShapes) len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.shapes)
}

// requestExpressions are the expressions of one request.
type requestExpressions struct {
	update, cond *string
	names        map[string]string
	values       map[string]types.AttributeValue
}

// updateExpressions is a request's expressions for x: its texts and
// names those of x's shape, compiled once ([Entity.compileShape]), its
// values x's own, checked as every write's ([checkValues]), and the
// whole refused when DynamoDB would refuse it
// ([Entity.checkExpressionTexts]). The request gets its own copy of the
// texts and of the names, so that nothing that changes a request changes
// the shape. A new shape when the entity keeps as many as it can is
// built for itself ([Entity.buildExpressions]).
func (e *Entity[T]) updateExpressions(op string, x *updateExpr) (requestExpressions, error) {
	var keyBuf [256]byte
	var valBuf [16]types.AttributeValue
	key, vals := x.appendShape(keyBuf[:0], valBuf[:0])
	c, room := e.shapes.get(key)
	if c == nil && !room {
		return e.buildExpressions(op, x)
	}
	miss := c == nil
	if miss {
		var err error
		if c, err = e.compileShape(x, len(vals)); err != nil {
			return requestExpressions{}, err
		}
	}
	values := make(map[string]types.AttributeValue, len(vals))
	for i, ph := range c.slots {
		values[ph] = vals[i]
	}
	if bad := checkValues(values); bad != nil {
		return requestExpressions{}, e.valueError(bad)
	}
	if err := e.checkExpressionTexts(op, c.update, c.cond); err != nil {
		return requestExpressions{}, err
	}
	if miss {
		e.shapes.put(key, c)
	}
	r := requestExpressions{names: maps.Clone(c.names), values: values}
	if c.update != nil {
		r.update = aws.String(*c.update)
	}
	if c.cond != nil {
		r.cond = aws.String(*c.cond)
	}
	return r, nil
}

// buildExpressions is a request's expressions for x built for it alone,
// with its values, checked as by [Entity.updateExpressions].
func (e *Entity[T]) buildExpressions(op string, x *updateExpr) (requestExpressions, error) {
	b, err := x.builder(ownValue).Build()
	if err != nil {
		return requestExpressions{}, e.refusedExpression(err)
	}
	if bad := checkValues(b.Values()); bad != nil {
		return requestExpressions{}, e.valueError(bad)
	}
	if err := e.checkExpressionTexts(op, b.Update(), b.Condition()); err != nil {
		return requestExpressions{}, err
	}
	return requestExpressions{update: b.Update(), cond: b.Condition(), names: attrname.Names(b), values: b.Values()}, nil
}

// refusedExpression is the [*ItemError] of an update whose expressions
// the expression package refuses (err), or whose template's placeholders
// are not one per value (err nil: a builder that changed how it makes
// them); keyfirst never builds such an update.
func (e *Entity[T]) refusedExpression(err error) error {
	detail := "the expression package refused the update's expressions"
	if err == nil {
		detail = "the update's values did not get one placeholder each from the expression package"
	}
	return &ItemError{Entity: e.typeName, Problem: ItemExpression, Detail: detail, Err: err}
}

// compileShape builds the expressions of x's shape from its template:
// value i (of n, in the order of [updateExpr.appendShape]) replaced by a
// string holding i, so that the placeholder the builder gave it says
// which value it stands for. No value of x reaches the template.
func (e *Entity[T]) compileShape(x *updateExpr, n int) (*compiledShape, error) {
	next := 0
	stand := func(types.AttributeValue) types.AttributeValue {
		av := &types.AttributeValueMemberS{Value: strconv.Itoa(next)}
		next++
		return av
	}
	built, err := x.builder(stand).Build()
	if err != nil {
		return nil, e.refusedExpression(err)
	}
	slots, ok := placeholders(built.Values(), n)
	if !ok || next != n {
		return nil, e.refusedExpression(nil)
	}
	return &compiledShape{update: built.Update(), cond: built.Condition(), names: attrname.Names(built), slots: slots}, nil
}

// placeholders are the placeholders of values, a template's values (each
// a string holding its value's number), by value number: false unless
// there is exactly one for each of the n values.
func placeholders(values map[string]types.AttributeValue, n int) ([]string, bool) {
	if len(values) != n {
		return nil, false
	}
	slots := make([]string, n)
	for ph, av := range values {
		s, ok := av.(*types.AttributeValueMemberS)
		if !ok {
			return nil, false
		}
		i, err := strconv.Atoi(s.Value)
		if err != nil || i < 0 || i >= n || slots[i] != "" {
			return nil, false
		}
		slots[i] = ph
	}
	return slots, true
}
