package keyfirst

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/avequal"
	"github.com/keyfirst/keyfirst/internal/codec"
	"github.com/keyfirst/keyfirst/internal/itemsize"
)

// partialWrite is a planned partial update: its expressions, the size of
// what it writes, and how to explain a failed condition.
type partialWrite struct {
	x       requestExpressions
	size    int
	explain func(stored map[string]types.AttributeValue) *ConditionError
}

// namedCond is one part of an update's condition, kept apart to say which
// failed: keyfirst's guards (an Add's limit, the version's), then the
// caller's conjuncts.
type namedCond struct {
	text     func() string // built when a failure is explained
	c        compiledCond
	version  bool  // the caller's expected version: Field(version).Eq(n)
	expected int64 // its n
}

// partialPlan accumulates the actions of an update as it is planned.
type partialPlan[T any] struct {
	e       *Entity[T]
	actions []xAction // the update expression's, in order
	conds   []namedCond
	size    int
	values  reflect.Value // a T holding the values the Sets and Removes store
	// known are the Go names of the fields whose value the update stores
	// (Set, Remove) or the key holds; changed those of every field the
	// update changes; left the indexes it takes the item out of.
	known, changed, left nameSet
	// names and acts are the first backing arrays of known and changed,
	// and of actions, allocated with the plan.
	names  [2][8]string
	acts   [8]xAction
	fields []codec.Field // the fields Set or Removed, written after the key analysis
}

// nameSet is a small set of names: an update names a few.
type nameSet []string

func (s nameSet) has(n string) bool { return slices.Contains(s, n) }

func (s *nameSet) add(n string) {
	if !s.has(n) {
		*s = append(*s, n)
	}
}

// planPartial checks u against T and the entity's keys and builds the
// UpdateItem of key, before any request.
func (e *Entity[T]) planPartial(key Key[T], u Update) (partialWrite, error) {
	if err := e.checkKey(key); err != nil {
		return partialWrite{}, err
	}
	if len(u.changes) == 0 {
		return partialWrite{}, e.updateError("", "", UpdateEmpty, "give at least one change: Set, Add, Remove, Append, AddToSet or DeleteFromSet", nil)
	}
	if e.updateRefused != nil {
		return partialWrite{}, e.updateRefused
	}
	p := &partialPlan[T]{e: e, values: reflect.New(reflect.TypeFor[T]()).Elem()}
	p.known, p.changed, p.actions = p.names[0][:0], p.names[1][:0], p.acts[:0]
	if e.fillKey != nil {
		// The fields the table's key holds are known from key.
		stored := []types.AttributeValue{key.pk.value()}
		if e.hasSK {
			stored = append(stored, key.sk.value())
		}
		if err := e.fillKey((*T)(p.values.Addr().UnsafePointer()), stored); err == nil {
			for _, inputs := range [2][]string{e.pk.inputs, e.sk.inputs} {
				for _, in := range inputs {
					p.known.add(in)
				}
			}
		}
	}
	for _, c := range u.changes {
		if err := p.change(c); err != nil {
			return partialWrite{}, err
		}
	}
	if f := e.life.field(e.life.updated); f != nil {
		// Every write sets the updated time, which an index key may read.
		uf, _ := e.codec.Field(f.attr)
		p.store(uf, reflect.ValueOf(e.life.now()))
	}
	if err := p.keys(); err != nil {
		return partialWrite{}, err
	}
	if err := p.storeFields(); err != nil {
		return partialWrite{}, err
	}
	adopt, err := e.adopts(key)
	if err != nil {
		return partialWrite{}, err
	}
	if adopt {
		// An adopted item gets its type, as by every whole write.
		p.act(actSet, e.table.typeAttr, &types.AttributeValueMemberS{Value: e.typeName})
	}
	if e.version != "" {
		p.act(actAdd, e.version, &types.AttributeValueMemberN{Value: "1"})
		limit := &types.AttributeValueMemberN{Value: strconv.FormatInt(e.versionMax, 10)}
		attr := e.version
		below := xCond{op: condLt, attr: attr, v: [2]types.AttributeValue{limit}}
		if adopt {
			// An adopted item without a version is at version 0.
			below = xCond{op: condOr, kids: []xCond{below, {op: condNotExists, attr: attr}}}
		}
		p.conds = append(p.conds, namedCond{text: func() string { return fmt.Sprintf("%s < %s (the version field's limit)", attr, limit.Value) }, c: compiledCond{
			x: below,
			eval: func(item map[string]types.AttributeValue) bool {
				return adopt && item[attr] == nil || avequal.Compare(item[attr], limit) < 0
			},
		}})
	}
	for _, part := range u.cond.conjuncts() {
		c, err := e.compileCond(part)
		if err != nil {
			return partialWrite{}, err
		}
		nc := namedCond{text: part.String, c: c}
		if n := part.n; n.op == condEq && e.version != "" && n.field == e.versionGoName() {
			if av, err := e.versionValue(n.values[0]); err == nil {
				nc.version, nc.expected = true, av
			}
		}
		p.conds = append(p.conds, nc)
	}
	var condBuf [8]xCond
	x := updateExpr{actions: p.actions, conds: append(condBuf[:0], e.ownCond(adopt))}
	for _, c := range p.conds {
		x.conds = append(x.conds, c.c.x)
	}
	rx, err := e.updateExpressions("Update", &x)
	if err != nil {
		return partialWrite{}, err
	}
	conds := p.conds
	return partialWrite{x: rx, size: p.size, explain: func(stored map[string]types.AttributeValue) *ConditionError {
		return e.explainUpdate(stored, conds, adopt)
	}}, nil
}

// explainUpdate says why an update's condition failed on stored (adopt:
// the update adopts an untyped item).
func (e *Entity[T]) explainUpdate(stored map[string]types.AttributeValue, conds []namedCond, adopt bool) *ConditionError {
	g := guard{kind: guardOwn, adopt: adopt}
	ce := e.conditionError(stored, g)
	if !ce.Found {
		ce.Err = ErrNotFound
		return ce
	}
	if ce.FoundType != e.typeName && !e.adoptedItem(g, stored) {
		return ce
	}
	for _, c := range conds {
		if c.c.eval(stored) {
			continue
		}
		ce.Err, ce.Failed = ErrConditionFailed, c.text()
		if c.version {
			ce.Err, ce.Expected, ce.Failed = ErrVersionConflict, c.expected, ""
		}
		return ce
	}
	ce.Err = ErrConditionUnexplained
	return ce
}

// updatable refuses every update of an entity with a key computed by a
// function that does not declare the fields it reads.
func (e *Entity[T]) updatable() error {
	all := slices.Concat([]derivation[T]{e.pk, e.sk}, e.agree)
	for _, g := range e.groups {
		all = append(all, g.derived...)
	}
	for _, d := range all {
		if d.opaque {
			where := "the table's key"
			if d.index != "" {
				where = "the key of index " + d.index
			}
			return e.updateError(d.index, "", UpdateUndeclared, fmt.Sprintf("%s is computed by a function (Func, FuncPartition, If, a shard pick) "+
				"that does not say which fields it reads, so no partial update can be proven to keep it fresh: declare them with Binding.Reads "+
				"(shard.Spec.Reads), or write with Modify or Replace", where), nil)
		}
	}
	return nil
}

// change checks one change and adds its action, except a Set's or a
// Remove's, which [partialPlan.storeFields] writes once the key analysis
// has seen the values.
func (p *partialPlan[T]) change(c change) error {
	e := p.e
	f, err := e.updateField(c.field, changeName[c.kind])
	if err != nil {
		return err
	}
	switch {
	case p.changed.has(f.GoName):
		return e.updateError("", f.GoName, UpdateFieldTwice, "one change per field in an update", nil)
	case f.Name == e.version:
		return e.updateError("", f.GoName, UpdateVersionField, "every update increments the version itself; to expect a version, add the condition Field(\""+f.GoName+"\").Eq(n)", nil)
	case e.isUnique(f.GoName):
		return e.uniqueError("Update", uniqueField{goName: f.GoName, attr: f.Name}, "txn.Unique.Change",
			"an update of the field would change or drop its value without moving its marker")
	case f.Name == e.life.created || f.Name == e.life.updated:
		return e.updateError("", f.GoName, UpdateLifecycleField, "keyfirst sets the created time at the item's first write and the updated time at every write; "+
			"no update changes them", nil)
	}
	switch c.kind {
	case changeSet, changeRemove:
		x := reflect.Zero(f.Type)
		if c.kind == changeSet {
			var ok bool
			if x, ok = convertValue(c.value, f.Type); !ok {
				return e.wrongType(f, c.value, "Set")
			}
		}
		p.store(f, x)
		return nil
	}
	p.changed.add(f.GoName)
	if c.kind == changeAdd {
		return p.add(f, c.value)
	}
	av, present, err := e.encodeValue(f, c.value, changeName[c.kind])
	if err != nil {
		return err
	}
	if !present {
		return e.updateError("", f.GoName, UpdateEmptyValue, changeName[c.kind]+" of no element", nil)
	}
	p.size += itemsize.Size(f.Name, av)
	switch c.kind {
	case changeAppend:
		l, ok := av.(*types.AttributeValueMemberL)
		if !ok {
			return e.updateError("", f.GoName, UpdateNotList, fmt.Sprintf("field %s (%s) is stored as %s", f.GoName, f.Type, avTypeName(av)), nil)
		}
		if len(l.Value) == 0 {
			return e.updateError("", f.GoName, UpdateEmptyValue, "Append of no element", nil)
		}
		p.act(actAppend, f.Name, av)
	default:
		switch av.(type) {
		case *types.AttributeValueMemberSS, *types.AttributeValueMemberNS, *types.AttributeValueMemberBS:
		default:
			return e.updateError("", f.GoName, UpdateNotSet, fmt.Sprintf("field %s (%s) is stored as %s; tag a set field `dynamodbav:\",stringset\"` (numberset, binaryset)",
				f.GoName, f.Type, avTypeName(av)), nil)
		}
		if c.kind == changeAddToSet {
			p.act(actAdd, f.Name, av)
		} else {
			p.act(actDelete, f.Name, av)
		}
	}
	return nil
}

// act adds an action of kind k on attribute attr, of value v, to the
// update expression.
func (p *partialPlan[T]) act(k actionKind, attr string, v types.AttributeValue) {
	p.actions = append(p.actions, xAction{kind: k, attr: attr, v: v})
}

// store plans the Set of field f to x (its zero value for a Remove),
// written by storeFields.
func (p *partialPlan[T]) store(f codec.Field, x reflect.Value) {
	p.e.codec.SetField(p.values, f.Name, x)
	p.changed.add(f.GoName)
	p.known.add(f.GoName)
	p.fields = append(p.fields, f)
}

// add plans an Add of n to field f: DynamoDB's ADD, and for an integer
// field the condition that the result fits it.
func (p *partialPlan[T]) add(f codec.Field, n any) error {
	e := p.e
	t := f.Type
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	integer := t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64
	if f.Kind != codec.AVNumber || !integer && t.Kind() != reflect.Float32 && t.Kind() != reflect.Float64 {
		return e.updateError("", f.GoName, UpdateNotNumber, fmt.Sprintf("Add to field %s (%s), which is not stored as a number", f.GoName, f.Type), nil)
	}
	text, delta, ok := numberOf(n, integer)
	if !ok {
		what := "a number"
		if integer {
			what = "an integer"
		}
		return e.updateError("", f.GoName, UpdateValueType, fmt.Sprintf("Add of %v (%T) to field %s (%s): give %s", n, n, f.GoName, f.Type, what), nil)
	}
	av := &types.AttributeValueMemberN{Value: text}
	if err := itemsize.CheckExpressionValue(av); err != nil {
		return e.valueError(err.(*itemsize.InvalidError))
	}
	p.size += itemsize.Size(f.Name, av)
	p.act(actAdd, f.Name, av)
	if !integer || delta.Sign() == 0 {
		return nil
	}
	up := delta.Sign() > 0
	sym := "<="
	if !up {
		sym = ">="
	}
	limit, ok := addLimit(t, delta)
	if !ok {
		return e.updateError("", f.GoName, UpdateValueType, fmt.Sprintf("Add of %s to field %s (%s) overflows it whatever its value", text, f.GoName, f.Type), nil)
	}
	lim := &types.AttributeValueMemberN{Value: limit}
	attr := f.Name
	cmp := xCond{op: condLe, attr: attr, v: [2]types.AttributeValue{lim}}
	if !up {
		cmp.op = condGe
	}
	goName := f.GoName
	describe := func() string {
		return fmt.Sprintf("%s %s %s (so that the Add fits its %s field)", goName, sym, lim.Value, t)
	}
	p.conds = append(p.conds, namedCond{text: describe, c: compiledCond{
		x: xCond{op: condOr, kids: []xCond{{op: condNotExists, attr: attr}, cmp}},
		eval: func(item map[string]types.AttributeValue) bool {
			have := item[attr]
			if have == nil {
				return true
			}
			c := avequal.Compare(have, lim)
			return up && c <= 0 || !up && c >= 0
		},
	}})
	return nil
}

// keys is the key analysis: no derived attribute may go stale. A change
// of a field the table's key reads is refused; a change of a field an
// index's derived attributes read recomputes them all from the values the
// update stores, or is refused when it does not store every field they
// read.
func (p *partialPlan[T]) keys() error {
	e := p.e
	for _, d := range []derivation[T]{e.pk, e.sk} {
		if f := p.touches(d.inputs); f != "" {
			return e.updateError("", f, UpdateKeyField, fmt.Sprintf("the table's key attribute %s reads field %s: an update cannot move an item; Put the new item and Delete the old", d.attr.Name, f), nil)
		}
	}
	for _, d := range e.agree {
		if f := p.touches(d.inputs); f != "" {
			return e.updateError(d.index, f, UpdateStaleKey, fmt.Sprintf("attribute %s, which two patterns compute, reads field %s: write the item with Modify or Replace", d.attr.Name, f), nil)
		}
	}
	v := (*T)(p.values.Addr().UnsafePointer())
	for gi := range e.groups {
		g := &e.groups[gi]
		// decide: the inputs that say whether the item is in the index
		// (an If's, a function's that can keep it out); value: every
		// input of the index's attributes (computed at NewEntity).
		decide, value := g.decide, g.value
		hit := p.touches(g.touched)
		if hit == "" {
			continue
		}
		stale := func(inputs []string) error {
			return e.updateError(g.index, hit, UpdateStaleKey, fmt.Sprintf("the update changes %s, which the key of index %s reads; "+
				"set every field that key reads (%v) so that keyfirst recomputes it in the same write, or write the item with Modify", hit, g.index, uniq(inputs)), nil)
		}
		if !p.knows(decide) {
			return stale(decide)
		}
		var fr funcResults[T]
		derived, in, _, err := e.deriveGroup(g, v, &fr, nil)
		if err != nil {
			if !p.knows(value) {
				return stale(value)
			}
			return err
		}
		if !in {
			p.left.add(g.index)
			for _, a := range g.out {
				p.act(actRemove, a, nil)
			}
			continue
		}
		if !p.knows(value) {
			return stale(value)
		}
		for _, d := range g.fields {
			if f, ok := e.codec.Field(d.attr.Name); ok && !p.known.has(f.GoName) {
				return e.updateError(g.index, hit, UpdateStaleKey, fmt.Sprintf("the update may put the item in index %s, whose key attribute %s is field %s: set it too",
					g.index, d.attr.Name, f.GoName), nil)
			}
		}
		for _, d := range derived {
			p.size += itemsize.Size(d.name, d.av)
			p.act(actSet, d.name, d.av)
		}
	}
	return nil
}

// knows reports whether the update stores the value of every one of
// inputs (a Set or a Remove of each).
func (p *partialPlan[T]) knows(inputs []string) bool {
	for _, in := range inputs {
		if !p.known.has(in) {
			return false
		}
	}
	return true
}

// storeFields writes the fields Set or Removed: SET of their encoding,
// REMOVE where the item would not have them. A field that is an index's
// key attribute is checked as a key value (a time.Time in TimeKeyLayout);
// one the item would lose while a binding may keep it in the index is
// refused.
func (p *partialPlan[T]) storeFields() error {
	e := p.e
	slices.SortFunc(p.fields, func(a, b codec.Field) int { return strings.Compare(a.Name, b.Name) })
	for _, f := range p.fields {
		attr := f.Name
		av, present, err := e.codec.EncodeField(p.values, attr)
		if err != nil {
			return e.encodeError(err)
		}
		if lf := e.life.field(attr); lf != nil {
			if av, err = e.lifeValue(lf, *lf.timeAt(p.values.Addr().UnsafePointer())); err != nil {
				return err
			}
			present = av != nil
		}
		if a := e.life.after; a != nil && f.GoName == a.source.goName {
			if err := p.storeExpiry(); err != nil { // the derived expiry follows its field
				return err
			}
		}
		for _, g := range e.groups {
			for _, d := range g.fields {
				switch {
				case d.attr.Name != attr:
				case present:
					if d.timeKey {
						if av, err = e.timeKeyValue(&d, av); err != nil {
							return err
						}
					}
					if av, _, err = e.checkKeyValue(&d, av); err != nil {
						return err
					}
				case g.decides && !p.left.has(g.index):
					return e.updateError(g.index, f.GoName, UpdateStaleKey, fmt.Sprintf("the item may be in index %s, whose key attribute %s the update would remove: "+
						"write the item with Modify, or take it out of the index in the same update", g.index, attr), nil)
				}
			}
		}
		if present {
			p.size += itemsize.Size(attr, av)
			p.act(actSet, attr, av)
		} else {
			p.act(actRemove, attr, nil)
		}
	}
	return nil
}

// touches returns the first of inputs that the update changes, or "".
func (p *partialPlan[T]) touches(inputs []string) string {
	for _, in := range inputs {
		if p.changed.has(in) {
			return in
		}
	}
	return ""
}

func uniq(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

// updateField finds the field of T that Go calls goName, for what (a
// change or a condition).
func (e *Entity[T]) updateField(goName, what string) (codec.Field, error) {
	f, ok := e.codec.FieldByGoName(goName)
	if ok {
		return f, nil
	}
	detail := fmt.Sprintf("%s of %q: %s has no stored field of that Go name (fields are named as in Go: %v)", what, goName, reflect.TypeFor[T](), e.goNames())
	if goName == e.table.typeAttr {
		detail = fmt.Sprintf("%s of %q: the entity-type attribute is keyfirst's, never a field", what, goName)
	}
	return codec.Field{}, e.updateError("", goName, UpdateUnknownField, detail, nil)
}

// goNames lists the Go names of T's stored fields.
func (e *Entity[T]) goNames() []string {
	var out []string
	for _, f := range e.codec.Fields() {
		out = append(out, f.GoName)
	}
	return out
}

// versionGoName is the Go name of the version field.
func (e *Entity[T]) versionGoName() string {
	f, _ := e.codec.Field(e.version)
	return f.GoName
}

// versionValue is v as a version number.
func (e *Entity[T]) versionValue(v any) (int64, error) {
	text, _, ok := numberOf(v, true)
	if !ok {
		return 0, fmt.Errorf("not an integer")
	}
	return strconv.ParseInt(text, 10, 64)
}

// encodeValue converts v to field f's type and encodes it as the field is
// stored (a time.Time index key in TimeKeyLayout), checked; present is
// false when the item would not have the attribute (omitempty).
func (e *Entity[T]) encodeValue(f codec.Field, v any, what string) (types.AttributeValue, bool, error) {
	x, ok := convertValue(v, f.Type)
	if !ok {
		return nil, false, e.wrongType(f, v, what)
	}
	av, present, err := e.codec.EncodeValue(f.Name, x)
	if err != nil {
		return nil, false, e.encodeError(err)
	}
	if d := e.timeKeyField(f.Name); present && d != nil {
		if av, err = e.timeKeyValue(d, av); err != nil {
			return nil, false, err
		}
	}
	return av, present, nil
}

func (e *Entity[T]) wrongType(f codec.Field, v any, what string) error {
	return e.updateError("", f.GoName, UpdateValueType, fmt.Sprintf("%s of %v (%T) to field %s of type %s", what, v, v, f.GoName, f.Type), nil)
}

// timeKeyField is the index key derivation of the time.Time field stored
// under attr, or nil.
func (e *Entity[T]) timeKeyField(attr string) *derivation[T] {
	for _, g := range e.groups {
		for i, d := range g.fields {
			if d.attr.Name == attr && d.timeKey {
				return &g.fields[i]
			}
		}
	}
	return nil
}

// convertValue converts v to type t when it is of t, or converts to it
// exactly: a number of another numeric type whose value t holds (1 to an
// int64, not -1 to a uint, not 1.5 to an int), a string, slice or map of
// another type with the same underlying type, a value of t's element for
// a pointer field, nil for a pointer, slice, map or interface.
func convertValue(v any, t reflect.Type) (reflect.Value, bool) {
	if v == nil {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
			return reflect.Zero(t), true
		}
		return reflect.Value{}, false
	}
	rv := reflect.ValueOf(v)
	if rv.Type().AssignableTo(t) {
		x := reflect.New(t).Elem()
		x.Set(rv)
		return x, true
	}
	if t.Kind() == reflect.Pointer {
		if x, ok := convertValue(v, t.Elem()); ok {
			ptr := reflect.New(t.Elem())
			ptr.Elem().Set(x)
			return ptr, true
		}
		return reflect.Value{}, false
	}
	k, tk := rv.Kind(), t.Kind()
	switch {
	case isNumberKind(k) && isNumberKind(tk):
		if isFloatKind(tk) {
			return rv.Convert(t), true
		}
		if !isFloatKind(k) {
			// Integer to integer: exact when the value survives the round
			// trip with its sign.
			x := rv.Convert(t)
			signed, tSigned := k <= reflect.Int64, tk <= reflect.Int64
			if x.Convert(rv.Type()).Equal(rv) && (!signed || tSigned || rv.Int() >= 0) && (signed || !tSigned || x.Int() >= 0) {
				return x, true
			}
			return reflect.Value{}, false
		}
		text, _, ok := numberOf(v, true)
		if !ok {
			return reflect.Value{}, false
		}
		n, ok := new(big.Int).SetString(text, 10)
		lo, hi := intRange(t)
		if !ok || n.Cmp(lo) < 0 || n.Cmp(hi) > 0 {
			return reflect.Value{}, false
		}
		x := reflect.New(t).Elem()
		if tk >= reflect.Uint {
			x.SetUint(n.Uint64())
		} else {
			x.SetInt(n.Int64())
		}
		return x, true
	case k == tk && (k == reflect.String || k == reflect.Bool || k == reflect.Slice || k == reflect.Map) && rv.Type().ConvertibleTo(t):
		return rv.Convert(t), true
	}
	return reflect.Value{}, false
}

func isNumberKind(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Float64 && k != reflect.Uintptr
}

func isFloatKind(k reflect.Kind) bool { return k == reflect.Float32 || k == reflect.Float64 }

// numberOf is v, a Go number, in decimal, and as an integer when integer
// is set (false when v is not a number, or not an integer then).
func numberOf(v any, integer bool) (string, *big.Int, bool) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return "", nil, false
	}
	switch k := rv.Kind(); {
	case k >= reflect.Int && k <= reflect.Int64:
		return strconv.FormatInt(rv.Int(), 10), big.NewInt(rv.Int()), true
	case k >= reflect.Uint && k <= reflect.Uint64 && k != reflect.Uintptr:
		n := new(big.Int).SetUint64(rv.Uint())
		return n.String(), n, true
	case isFloatKind(k):
		x := rv.Float()
		if !integer {
			return strconv.FormatFloat(x, 'g', -1, 64), nil, true
		}
		if math.IsNaN(x) || math.IsInf(x, 0) || x != math.Trunc(x) {
			return "", nil, false
		}
		n, _ := big.NewFloat(x).Int(nil)
		return n.String(), n, true
	}
	return "", nil, false
}

// addLimit is the bound a stored value of integer type t must not pass
// for an Add of delta to stay within t (at most max-delta, at least
// min-delta), in decimal; false when no value can take the Add. Deltas
// of int64 use int64 arithmetic, others big integers.
func addLimit(t reflect.Type, delta *big.Int) (string, bool) {
	bits := uint(t.Bits())
	if d := delta.Int64(); delta.IsInt64() && d != math.MinInt64 {
		if t.Kind() >= reflect.Uint {
			hi := uint64(math.MaxUint64) >> (64 - bits)
			if d > 0 {
				return strconv.FormatUint(hi-uint64(d), 10), uint64(d) <= hi
			}
			return strconv.FormatUint(uint64(-d), 10), uint64(-d) <= hi
		}
		hi := int64(math.MaxInt64) >> (64 - bits)
		lo := -hi - 1
		if d > 0 {
			return strconv.FormatInt(hi-d, 10), hi-d >= lo
		}
		return strconv.FormatInt(lo-d, 10), lo-d <= hi
	}
	lo, hi := intRange(t)
	limit := new(big.Int).Sub(hi, delta)
	if delta.Sign() < 0 {
		limit.Sub(lo, delta)
	}
	return limit.String(), limit.Cmp(lo) >= 0 && limit.Cmp(hi) <= 0
}

// intRange is the range of integer type t.
func intRange(t reflect.Type) (lo, hi *big.Int) {
	bits := uint(t.Bits())
	one := big.NewInt(1)
	if t.Kind() >= reflect.Uint {
		return new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(one, bits), one)
	}
	hi = new(big.Int).Sub(new(big.Int).Lsh(one, bits-1), one)
	return new(big.Int).Neg(new(big.Int).Lsh(one, bits-1)), hi
}
