package keyfirst

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/attrname"
	"github.com/keyfirst/keyfirst/internal/avequal"
	"github.com/keyfirst/keyfirst/internal/itemsize"
)

// The conditions of the write paths, all built with the expression package.
// An attribute name is always one top-level attribute, whatever it
// contains: "a.b" and "odd[0]" are names, never document paths
// ([attrname.Name]).

func name(n string) expression.NameBuilder { return attrname.Name(n) }

// built is an expression whose names all come from name: its Names are
// the real attribute names. A built kept for many requests (a cached
// guard, [guardExpression]) carries its condition text and its names
// made once (cond, names), which those requests share and only read.
type built struct {
	expression.Expression
	cond  *string
	names map[string]string
}

// Names returns the ExpressionAttributeNames of the expression.
func (b built) Names() map[string]string {
	if b.names != nil {
		return b.names
	}
	return attrname.Names(b.Expression)
}

// Condition returns the ConditionExpression of the expression (nil:
// none).
func (b built) Condition() *string {
	if b.cond != nil {
		return b.cond
	}
	return b.Expression.Condition()
}

// shared is b with its condition text and names made once, for the
// requests that share it.
func (b built) shared() built {
	b.cond, b.names = b.Expression.Condition(), attrname.Names(b.Expression)
	return b
}

// build builds b, whose names all come from name, and checks its values
// ([checkValues]): no expression keyfirst sends, of any kind of write
// (and of any kind a later version adds), carries a value DynamoDB would
// refuse or change. The caller's own values are checked where they
// enter, so that their error names the option
// ([Entity.checkTransactOptions]); what build finds past that is of the
// entity's own making (an item image it compares), an [*ItemError]
// ([Entity.valueError]).
func (e *Entity[T]) build(b expression.Builder) (built, error) {
	x, err := b.Build()
	if err != nil {
		return built{Expression: x}, err
	}
	if bad := checkValues(x.Values()); bad != nil {
		return built{Expression: x}, e.valueError(bad)
	}
	return built{Expression: x}, nil
}

// checkValues is the value check of an expression: each of values (its
// ExpressionAttributeValues) goes through [itemsize.CheckExpressionValue],
// the check of the item values. It returns the first bad one in the
// order of the placeholders, or nil.
func checkValues(values map[string]types.AttributeValue) *itemsize.InvalidError {
	var first string
	var bad *itemsize.InvalidError
	for ph, av := range values {
		if err := itemsize.CheckExpressionValue(av); err != nil && (bad == nil || placeholderLess(ph, first)) {
			first, bad = ph, err.(*itemsize.InvalidError)
		}
	}
	return bad
}

// placeholderLess orders the expression package's placeholders (":0",
// ":1", ... ":10") by number.
func placeholderLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// checkCondition refuses a caller's condition with a value DynamoDB would
// refuse or change (checkValues), before it is joined to keyfirst's
// guard. A condition the expression package cannot build passes: the
// build of the action reports it.
func checkCondition(c expression.ConditionBuilder) error {
	if !c.IsSet() {
		return nil
	}
	x, err := expression.NewBuilder().WithCondition(c).Build()
	if err != nil {
		return nil
	}
	if bad := checkValues(x.Values()); bad != nil {
		return bad
	}
	return nil
}

// checkImage refuses an item image (a read item the write compares) with
// a value DynamoDB would refuse or change, which no stored item has.
func checkImage(item map[string]types.AttributeValue) error {
	for _, n := range sortedKeys(item) {
		if _, err := itemsize.Check(n, item[n]); err != nil {
			return err
		}
	}
	return nil
}

// checkTransactOptions refuses, before the action is built, options whose
// values DynamoDB would refuse or change: a value in o.Condition, a value
// of o.Read (an *OptionError naming the option); o.Condition is compiled
// as the partial update's ([Entity.compileCond]: a field T lacks, a value
// of the wrong type is its *UpdateError) and returned as an expression
// (unset: none).
func (e *Entity[T]) checkTransactOptions(op string, o *TransactOptions) (expression.ConditionBuilder, error) {
	var cond expression.ConditionBuilder
	if o.Condition.IsZero() && o.Read == nil {
		return cond, nil // nothing to check
	}
	if !o.Condition.IsZero() {
		c, err := e.compileCond(o.Condition)
		var bad *ItemError
		if errors.As(err, &bad) { // a value no field stores
			return cond, e.transactOption(op, "Condition", "a value DynamoDB would refuse or change: "+err.Error())
		} else if err != nil {
			return cond, err
		}
		cond = c.x.build(ownValue)
	}
	if err := checkCondition(cond); err != nil {
		return cond, e.transactOption(op, "Condition", "a value DynamoDB would refuse or change: "+err.Error())
	}
	if err := checkImage(o.Read); err != nil {
		return cond, e.transactOption(op, "Read", "not an item DynamoDB stores: "+err.Error())
	}
	return cond, nil
}

// notExists: no item has the key.
func (e *Entity[T]) notExists() expression.ConditionBuilder {
	return name(e.pk.attr.Name).AttributeNotExists()
}

// isOwnType: an item exists and is of this entity type.
func (e *Entity[T]) isOwnType() expression.ConditionBuilder { return e.ownTypeCond().build(ownValue) }

func (e *Entity[T]) ownTypeCond() xCond {
	return xCond{op: condEq, attr: e.table.typeAttr, v: [2]types.AttributeValue{&types.AttributeValueMemberS{Value: e.typeName}}}
}

// isAdopted: an item exists and has no entity-type attribute, one that
// the entity adopts when the write's key is its ([Entity.adopts]).
func (e *Entity[T]) isAdopted() expression.ConditionBuilder { return e.adoptedCond().build(ownValue) }

func (e *Entity[T]) adoptedCond() xCond {
	return xCond{op: condAnd, kids: []xCond{{op: condExists, attr: e.pk.attr.Name}, {op: condNotExists, attr: e.table.typeAttr}}}
}

// isOwn: an item exists and is of this entity type, or, when the write
// adopts, has no type. Its conditions are xConds for the update's
// expressions ([updateExpr]).
func (e *Entity[T]) isOwn(adopt bool) expression.ConditionBuilder {
	return e.ownCond(adopt).build(ownValue)
}

func (e *Entity[T]) ownCond(adopt bool) xCond {
	if adopt {
		return xCond{op: condOr, kids: []xCond{e.ownTypeCond(), e.adoptedCond()}}
	}
	return e.ownTypeCond()
}

// absentOrOwnType: no item has the key, or the item that has it is of this
// entity type (or untyped, when the write adopts). It guards a Put that
// may create or replace, and an unversioned Delete.
func (e *Entity[T]) absentOrOwnType(adopt bool) expression.ConditionBuilder {
	return e.notExists().Or(e.isOwn(adopt))
}

// versionIs: the version attribute holds n.
func (e *Entity[T]) versionIs(n int64) expression.ConditionBuilder {
	return name(e.version).Equal(expression.Value(&types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}))
}

// adoptedAt: an untyped item exists at version n, a missing version
// being version 0 (an item that keyfirst never wrote).
func (e *Entity[T]) adoptedAt(n int64) expression.ConditionBuilder {
	v := e.versionIs(n)
	if n == 0 {
		v = v.Or(name(e.version).AttributeNotExists())
	}
	return e.isAdopted().And(v)
}

// hasVersion: an item of this type exists with version n (or, when the
// write adopts, an untyped one at version n).
func (e *Entity[T]) hasVersion(n int64, adopt bool) expression.ConditionBuilder {
	own := e.isOwnType().And(e.versionIs(n))
	if adopt {
		return own.Or(e.adoptedAt(n))
	}
	return own
}

// unchanged: every attribute this entity reads or writes is as in old,
// the image Modify read (equal where old has it, absent where it has not).
// It guards the read-modify-write of entities without a version attribute.
// The primary key needs no comparison, and attributes the entity does not
// know need none either: T is decoded from its own attributes only, and
// the update touches no others, so another writer's change to them is
// neither read nor overwritten.
func (e *Entity[T]) unchanged(old map[string]types.AttributeValue) expression.ConditionBuilder {
	var conds []expression.ConditionBuilder
	for _, n := range e.guarded {
		if v, ok := old[n]; ok {
			conds = append(conds, name(n).Equal(expression.Value(v)))
		} else {
			conds = append(conds, name(n).AttributeNotExists())
		}
	}
	if len(conds) == 1 {
		return conds[0]
	}
	return expression.And(conds[0], conds[1], conds[2:]...)
}

// guardedAttributes lists the attributes the condition of Modify
// compares: the version and the entity type for a versioned entity,
// otherwise every attribute the entity reads or writes except the primary
// key. NewEntity keeps it in guarded.
func (e *Entity[T]) guardedAttributes() []string {
	if e.version != "" {
		return []string{e.table.typeAttr, e.version}
	}
	out := make([]string, 0, len(e.known))
	for _, n := range e.known {
		if n != e.pk.attr.Name && (!e.hasSK || n != e.sk.attr.Name) {
			out = append(out, n)
		}
	}
	return out
}

// guardKind is the condition keyfirst puts on a write of one item.
type guardKind uint8

const (
	guardAbsentOrOwn guardKind = iota // a Put that may replace, an unversioned Delete, a condition check
	guardAbsent                       // a create
	guardOwn                          // an unversioned Replace: the item exists and is of this type
	guardVersion                      // a versioned write: an item of this type with the expected version
	guardUnchanged                    // Modify of an unversioned entity: every guarded attribute as read
)

// guard is the condition of one write, and what it expects.
type guard struct {
	kind     guardKind
	expected int64                           // guardVersion
	read     map[string]types.AttributeValue // guardUnchanged: the item as read
	// adopt: the entity adopts an untyped item with the write's key
	// ([Entity.adoptGuard]), which the guard then accepts as its own; for
	// guardAbsent (a versioned Put of version 0, never CreateOnly), one
	// without a version.
	adopt bool
	// unique are the unique values the stored item must hold, as the
	// write stores them ([Entity.uniqueKept]); op names the write for
	// their error; replaces: a Put that may not create an item (one with
	// a unique value).
	unique   []uniqueValue
	op       string
	replaces bool
}

// condition is g as a condition expression.
func (e *Entity[T]) condition(g guard) expression.ConditionBuilder {
	c := e.baseCondition(g)
	if len(g.unique) > 0 {
		c = c.And(uniqueCondition(g.unique))
	}
	return c
}

// baseCondition is g as a condition expression, without its unique
// values.
func (e *Entity[T]) baseCondition(g guard) expression.ConditionBuilder {
	switch g.kind {
	case guardAbsent:
		if g.adopt && e.version != "" {
			return e.notExists().Or(e.adoptedAt(0))
		}
		return e.notExists()
	case guardOwn:
		return e.isOwn(g.adopt)
	case guardVersion:
		return e.hasVersion(g.expected, g.adopt)
	case guardUnchanged:
		return e.unchanged(g.read)
	}
	return e.absentOrOwnType(g.adopt)
}

// adoptedItem reports whether stored, the item as DynamoDB returned it
// with a failed condition, is one g accepts as this entity's although
// untyped.
func (e *Entity[T]) adoptedItem(g guard, stored map[string]types.AttributeValue) bool {
	_, typed := e.table.storedType(stored)
	return g.adopt && len(stored) > 0 && !typed
}

// storedVersionIs reports whether stored holds version n: its version
// attribute, or none for 0 on an adopted item.
func (e *Entity[T]) storedVersionIs(g guard, stored map[string]types.AttributeValue, n int64) bool {
	v, ok := stored[e.version].(*types.AttributeValueMemberN)
	if ok {
		return v.Value == strconv.FormatInt(n, 10)
	}
	return n == 0 && e.adoptedItem(g, stored) && stored[e.version] == nil
}

// holds reports whether g holds on stored, the item as DynamoDB returned
// it with a failed condition (nil: no item).
func (e *Entity[T]) holds(g guard, stored map[string]types.AttributeValue) bool {
	_, differs := uniqueDiffers(g.unique, stored)
	return e.baseHolds(g, stored) && (len(stored) == 0 || !differs)
}

// baseHolds reports whether g, without its unique values, holds on
// stored.
func (e *Entity[T]) baseHolds(g guard, stored map[string]types.AttributeValue) bool {
	found := len(stored) > 0
	adopted := e.adoptedItem(g, stored)
	own := itemType(stored, e.table.typeAttr) == e.typeName || adopted
	switch g.kind {
	case guardAbsent:
		return !found || adopted && e.version != "" && e.storedVersionIs(g, stored, 0)
	case guardOwn:
		return found && own
	case guardVersion:
		return found && own && e.storedVersionIs(g, stored, g.expected)
	case guardUnchanged:
		return found && sameAttributes(e.guarded, g.read, stored)
	}
	return !found || own
}

// conditionFailed turns DynamoDB's ConditionalCheckFailedException into a
// [*ConditionError], using the stored item DynamoDB returns with it
// (ReturnValuesOnConditionCheckFailure=ALL_OLD). Other errors pass through.
func (e *Entity[T]) conditionFailed(err error, g guard) error {
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		return err
	}
	return e.conditionError(ccf.Item, g)
}

// conditionError says why g failed, from stored, the item as DynamoDB
// returned it with the failure (nil: no item).
func (e *Entity[T]) conditionError(stored map[string]types.AttributeValue, g guard) *ConditionError {
	ce := &ConditionError{Versioned: e.version != "", Expected: g.expected}
	if len(stored) > 0 {
		ce.Found, ce.Item = true, stored
		ce.FoundType = itemType(stored, e.table.typeAttr)
		if e.version != "" {
			if n, ok := stored[e.version].(*types.AttributeValueMemberN); ok {
				ce.Actual, _ = strconv.ParseInt(n.Value, 10, 64)
			}
		}
	}
	adopted := e.adoptedItem(g, stored)
	switch {
	case g.kind == guardAbsent && !adopted:
		ce.Err = ErrAlreadyExists
	case ce.Found && ce.FoundType != e.typeName && !adopted:
		ce.Err = ErrWrongEntityType
	case e.version == "" && !ce.Found:
		ce.Err = ErrNotFound
	default:
		// A versioned item with another version or gone, or an item
		// without version that changed since it was read.
		ce.Err = ErrVersionConflict
	}
	if len(g.unique) == 0 {
		return ce
	}
	if g.replaces && !ce.Found {
		u := g.unique[0].field
		ce.Err = e.uniqueError(g.op, u, "txn.Unique.Create", "no item has the key, and a Put creates no item of an entity with a unique value")
	} else if v, differs := uniqueDiffers(g.unique, stored); ce.Found && differs && e.baseHolds(g, stored) {
		ue := e.uniqueError(g.op, v.field, "txn.Unique.Change", fmt.Sprintf("the stored value is %s, the write's %s", avText(stored[v.field.attr]), avText(v.av)))
		ue.Found, ue.Stored = true, stored[v.field.attr]
		ce.Err = ue
	}
	return ce
}

// sendWrite sends one write of Put, Replace or Delete (send), counts the
// write capacity its response reports (consumed) and returns a failed
// request as an [*OpError] whose cause, for a failed condition, says which
// ([Entity.conditionFailed]).
func sendWrite[T, Out any](ctx context.Context, e *Entity[T], o Options, op string, key Key[T], g guard, in any,
	send func(context.Context) (*Out, error), consumed func(*Out) *types.ConsumedCapacity) error {
	out, err := SendExplained(ctx, e.table, Request{Call: op, Entity: e.typeName, Seq: o.attempt, Input: in}, send,
		func(_ *Out, err error) error {
			if err != nil {
				return e.opError(op, key, e.conditionFailed(err, g))
			}
			return nil
		})
	if out != nil {
		o.Capacity.addOne(true, consumed(out))
	}
	return err
}

// updateExpression sets every attribute of the planned item except the
// primary key, and removes every derived index attribute the item no longer
// has and every field of T it leaves out: after the update the stored item
// is the planned item (plus attributes keyfirst does not know).
//
// Under a guard that compares every attribute the entity knows to the
// image it read (g.read: the unversioned read-modify-writes, Modify,
// Refresh and a transaction's write after its read), the write succeeds
// only on that image, so the update sends what differs from it and
// nothing else: the SETs of the attributes whose value changes, the
// REMOVEs of those the image has and the plan has not (seed 002's
// close_order: SET status REMOVE open_status_shard). The stored item
// after it is the same. The created time ([EntitySpec.Created]) keeps
// the stored one ([Entity.setValue]).
// A versioned guard compares the version alone:
// the whole item is written, so that a writer that changed an attribute
// without the version cannot leave a derived key stale.
func (e *Entity[T]) updateExpression(p itemPlan[T], g guard, cond expression.ConditionBuilder) (built, error) {
	diff := g.kind == guardUnchanged && e.version == ""
	var ub expression.UpdateBuilder
	changes := 0
	for _, n := range sortedKeys(p.item) {
		if n == e.pk.attr.Name || e.hasSK && n == e.sk.attr.Name || diff && avequal.Equal(g.read[n], p.item[n]) {
			continue
		}
		ub = ub.Set(name(n), e.setValue(n, p.item[n], g.read))
		changes++
	}
	remove := append([]string(nil), p.remove...)
	for _, n := range e.fieldNames {
		if _, ok := p.item[n]; !ok {
			remove = append(remove, n)
		}
	}
	sort.Strings(remove)
	for _, n := range remove {
		if _, stored := g.read[n]; diff && !stored {
			continue
		}
		ub = ub.Remove(name(n))
		changes++
	}
	if changes == 0 {
		// Nothing changes: an update needs an action, and the entity type,
		// which the guard compares, is one that changes nothing.
		ub = ub.Set(name(e.table.typeAttr), expression.Value(p.item[e.table.typeAttr]))
	}
	return e.build(expression.NewBuilder().WithUpdate(ub).WithCondition(cond))
}

// setValue is the value an update SETs attribute n to, av in the plan:
// av, except for the created time, which keeps the stored one. The item
// read (read, nil for none) holds it: av when it is the same instant
// (the stored form becomes TimeKeyLayout), the stored one otherwise;
// with no image, if_not_exists(n, av).
func (e *Entity[T]) setValue(n string, av types.AttributeValue, read map[string]types.AttributeValue) expression.OperandBuilder {
	if n == e.life.expires && e.life.fromCreated() {
		return e.keptExpiry(av, read) // derived from the created time, kept with it
	}
	if n != e.life.created {
		return expression.Value(av)
	}
	stored, ok := read[n]
	switch {
	case !ok:
		return expression.IfNotExists(name(n), expression.Value(av))
	case sameInstant(stored, av):
		return expression.Value(av)
	}
	return expression.Value(stored)
}

// sameInstant reports whether a and b are strings of RFC 3339 times of
// one instant.
func sameInstant(a, b types.AttributeValue) bool {
	sa, okA := a.(*types.AttributeValueMemberS)
	sb, okB := b.(*types.AttributeValueMemberS)
	if !okA || !okB {
		return false
	}
	ta, errA := time.Parse(time.RFC3339Nano, sa.Value)
	tb, errB := time.Parse(time.RFC3339Nano, sb.Value)
	return errA == nil && errB == nil && ta.Equal(tb)
}

// guardWith is g's condition, and extra too when it is set.
func (e *Entity[T]) guardWith(g guard, extra expression.ConditionBuilder) expression.ConditionBuilder {
	c := e.condition(g)
	if extra.IsSet() {
		return c.And(extra)
	}
	return c
}

// guardSet holds the built conditions of the guards that depend on the
// entity only (a create; a put that may replace and an unversioned delete:
// absent or of this type; each adopting or not), built at the first write
// that needs one rather than at every write. Copies of an entity
// ([Entity.In]) share it: the guards depend on the entity type, its key
// and version attributes and the table's type attribute, which the
// bindings of one description share. The maps and the condition text of
// a built guard are shared by every request that carries them, which
// only reads them.
type guardSet struct {
	built [2][2]atomic.Pointer[built] // [g.kind == guardAbsent][g.adopt]
}

// guardExpression builds g's condition, and extra too when it is set.
func (e *Entity[T]) guardExpression(g guard, extra expression.ConditionBuilder) (built, error) {
	if extra.IsSet() || len(g.unique) > 0 || g.kind != guardAbsent && g.kind != guardAbsentOrOwn || e.guards == nil {
		return e.build(expression.NewBuilder().WithCondition(e.guardWith(g, extra)))
	}
	slot := &e.guards.built[b2i(g.kind == guardAbsent)][b2i(g.adopt)]
	if x := slot.Load(); x != nil {
		return *x, nil
	}
	x, err := e.build(expression.NewBuilder().WithCondition(e.condition(g)))
	if err == nil {
		x = x.shared()
		slot.Store(&x)
	}
	return x, err
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
