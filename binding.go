package keyfirst

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/codec"
	"github.com/keyfirst/keyfirst/keys"
)

// Binding says where an entity type's values for the keys of a [Pattern]
// come from: fields of T ([Pattern.Fields]), a function of T ([Func]), or
// a function for the partition key and fields for the sort key
// ([FuncPartition]), for every item or, with [If], only for the items
// that qualify (a sparse index). Give bindings to [EntitySpec.Keys]; [NewEntity] checks them
// against the table and T once, and every write recomputes the attributes
// from T, so that they can never go stale.
type Binding struct {
	p      *pattern
	fields []string
	// fn is a func(*T, *codec.Slab, []types.AttributeValue) (bool, error) (from Func,
	// or the partition side alone from FuncPartition); when is a
	// func(T) bool (from If).
	fn, when any
	t        reflect.Type // the T of fn and when, for messages
	nilFn    bool         // Func was given a nil function
	// decl identifies the call that declared the binding (Fields, FuncE,
	// If): its copies share it, every other declaration has its own
	// ([Entity.BindsWith]).
	decl *declaration
	// sortFields: fields bind the sort side alone, fn the partition side
	// (FuncPartition).
	sortFields bool
	// reads are the fields of T that fn reads, whenReads those that when
	// reads ([Binding.Reads]); the set flags tell a declaration of none
	// from no declaration.
	reads, whenReads       []string
	readsSet, whenReadsSet bool
}

// Reads declares the fields of T, named as in Go, that the function last
// applied to b reads: the predicate of an [If], else the function of a
// [Func], [FuncE] or [FuncPartition] (declare a function's before wrapping
// it in If: If(FuncE(p, f).Reads("ID"), pred).Reads("Status"); a shard
// index declares its own, shard.Spec.Reads). keyfirst sees the fields of
// a [Pattern.Fields] binding, but not inside a function, and a partial
// update ([Entity.Update]) must know what each key of the entity reads so
// that no update can leave one stale: without the declaration every
// update of the entity is refused ([UpdateUndeclared]). With it, an
// update that changes a field b reads must set the fields its membership
// reads (the predicate's), and, when the item is then in the index, every
// field its key reads; keyfirst recomputes b's attributes from them in
// the same write (seed 002's close_order, Set("Status", "CLOSED"),
// REMOVEs the open-orders key without knowing the order's id). The
// declaration is checked on every update: after the write, keyfirst
// derives the item's keys from the item as stored, and a key that
// differs (the function read a field not declared) is rewritten at once
// and reported ([UpdateUndeclaredRead]). Reads() with no field declares
// a function that reads none.
//
//	keyfirst.If(adminsOf.Fields("Org"), User.IsAdmin).Reads("Role")
func (b Binding) Reads(fields ...string) Binding {
	if b.when != nil {
		b.whenReads, b.whenReadsSet = slices.Clone(fields), true
	} else {
		b.reads, b.readsSet = slices.Clone(fields), true
	}
	return b
}

// declaration is the identity of a Binding's declaration; it has a size,
// so that every one has an address of its own.
type declaration struct{ _ byte }

// Fields binds the pattern to fields of T, named as in Go: one field per
// typed segment of the partition key then of the sort key, in order
// ("CustomerID" for a partition key Str("CustomerId"), then "Status",
// "Date" for a sort key Composite("OrderStatusDate", statusDate) over a
// keys.Key2[Status, time.Time]); a [Const] side has none (adminsOf.Fields("Org")
// for a partition key Composite("GSI1PK", orgKey) and a sort key
// Const("GSI1SK", "Admin")). Each field has the segment's type (or a
// type of the same basic kind: a named string type for a string segment)
// and is not behind an embedded pointer. A field may serve several
// segments and patterns.
//
// A [Str], [Num] or [Bin] side bound to a field stored under the side's own
// attribute name is that field, not a copy: of an index, the item is in
// the index when the field is present (an omitempty field left empty keeps
// it out); of the table ([OnTable]), the field is the key, stored once
// (a number in DynamoDB's canonical form), and a key value is checked as
// a derived one is (an empty or over-long value, invalid UTF-8, a number
// DynamoDB cannot store are an [*ItemError] before any request). Such a
// field of the table's key must encode as the key's attribute type (a
// number stored as a string, a custom marshaler are refused).
func (p Pattern[P, S]) Fields(fields ...string) Binding {
	return Binding{p: p.p, fields: slices.Clone(fields), decl: new(declaration)}
}

// Func binds pattern p to a function of T that returns the partition and
// sort key values of an item, for keys that are computed rather than read
// from fields; ok=false keeps the item out of the index (a sparse index;
// the table's primary key must always have a value). The values are
// encoded by p's sides, as a query of p encodes its own. Every attribute
// of p is derived, so none can be a field of T: for a sort key that is
// one, use [FuncPartition].
func Func[T, P, S any](p Pattern[P, S], f func(T) (pk P, sk S, ok bool)) Binding {
	if f == nil {
		return FuncE[T](p, nil)
	}
	return FuncE(p, func(v T) (P, S, bool, error) {
		pk, sk, ok := f(v)
		return pk, sk, ok, nil
	})
}

// FuncE is [Func] for a function that can fail: an error it returns fails
// the write before any request, as an [*ItemError] ([ItemDerive]) that
// wraps it.
func FuncE[T, P, S any](p Pattern[P, S], f func(T) (pk P, sk S, ok bool, err error)) Binding {
	b := Binding{p: p.p, t: reflect.TypeFor[T](), nilFn: f == nil, decl: new(declaration)}
	if f == nil || p.p == nil {
		return b
	}
	npk := len(p.p.pk.attrs)
	b.fn = func(v *T, sl *codec.Slab, out []types.AttributeValue) (bool, error) {
		pv, sv, ok, err := f(*v)
		if !ok || err != nil {
			return ok, err
		}
		if err := p.pk.enc(pv, sl, out[:npk]); err != nil {
			return true, err
		}
		return true, p.sk.enc(sv, sl, out[npk:])
	}
	return b
}

// FuncPartition binds the partition side of pattern p to a function of T
// and its sort side to fields of T, named as in [Pattern.Fields] (one per
// typed segment of the sort key): an index whose partition key is
// computed (a shard, a bucket) and whose sort key is the item's own
// value. ok=false keeps the item out of the index. A [Str], [Num] or
// [Bin] sort side bound to the field stored under the side's attribute
// name is that field, as with Fields: the value is stored once, as the
// field, and no write ever REMOVEs it; the partition attribute alone
// decides membership (SET while the item qualifies, REMOVEd when it
// leaves). An item that qualifies while such a field is omitted
// (omitempty) is refused ([ItemMissingKey]): it could not be in the
// index. Seed 002's open orders, sharded on OPEN#<n> and sorted by their
// order_date field, are the shard package's FuncPartition.
func FuncPartition[T, P, S any](p Pattern[P, S], f func(T) (pk P, ok bool, err error), sortFields ...string) Binding {
	b := Binding{p: p.p, fields: slices.Clone(sortFields), t: reflect.TypeFor[T](), nilFn: f == nil, sortFields: true}
	if f == nil || p.p == nil {
		return b
	}
	npk := len(p.p.pk.attrs)
	b.fn = func(v *T, sl *codec.Slab, out []types.AttributeValue) (bool, error) {
		pv, ok, err := f(*v)
		if !ok || err != nil {
			return ok, err
		}
		return true, p.pk.enc(pv, sl, out[:npk])
	}
	return b
}

// If keeps the items for which when reports false out of the index of b: a
// sparse index whose membership is decided on every write (an item that
// stops qualifying has the index's attributes REMOVEd, a [Const] side's
// among them). T is the entity's
// type. The table's primary key cannot be conditional, and neither can an
// index whose key attributes are all the table's or fields of T.
func If[T any](b Binding, when func(T) bool) Binding {
	b.when, b.t, b.decl = when, reflect.TypeFor[T](), new(declaration)
	return b
}

// boundKey is a Binding compiled for T: the attributes of the pattern's
// index and how to compute them from a *T.
type boundKey[T any] struct {
	p     *pattern
	attrs []Attribute // partition key attributes, then sort key attributes
	get   func(v *T, sl *codec.Slab, out []types.AttributeValue) (ok bool, err error)
	// same identifies the value of each attribute (its encoding and its
	// fields), so that two patterns that store the same attribute the same
	// way (an inverted index, an LSI's partition key) share it; the zero
	// sameValue for a value computed by a function.
	same []sameValue
	// field marks the attributes that are a field of T itself.
	field []bool
	// attr computes each attribute alone (the side it belongs to, not the
	// other), so that a write computes each derived attribute once; nil
	// for a Func binding, and for the partition attributes of a
	// FuncPartition (which get computes).
	attr []func(v *T, sl *codec.Slab) (types.AttributeValue, bool, error)
	when bool
	// plain is attr without the binding's If, cond the If (nil without
	// one): what a derivation that shares its text with another of the
	// same value (derivation.shared) computes once it is in the index.
	plain []func(v *T, sl *codec.Slab) (types.AttributeValue, bool, error)
	cond  func(v *T) bool
	// inputs are the Go names of the fields each attribute's value reads
	// (its fields, and what the binding's function declares it reads),
	// whenInputs those the binding's If reads ([Binding.Reads]); computed
	// marks the attributes a function gives (which may also keep the item
	// out), opaque those whose function or If does not declare its
	// inputs, declared those whose do.
	inputs                     [][]string
	whenInputs                 []string
	computed, opaque, declared []bool
	// fill stores the fields a table key's stored attributes (partition
	// then sort) hold in an item: the inverse of get, for a binding of the
	// table's pattern to fields; nil for the others.
	fill func(v *T, key []types.AttributeValue) error
}

// sameValue identifies how a binding computes an attribute: two bindings
// with equal sameValues store the same value in it. The zero sameValue is
// a value computed by a function, never the same as another.
type sameValue struct {
	def     keys.DefID // the keys definition, zero for a value as it is
	native  bool       // a segment of def, not its whole key
	typ     types.ScalarAttributeType
	pos, of int    // the attribute's position in its side, and the side's width
	fields  string // the fields bound to the side
	konst   string // the value of a [Const] side
	// keysText: the value is a text a keys.Key1 made (side.keysText).
	keysText bool
}

// compile checks b against the table and T and returns what writes need.
func compile[T any](b Binding, t *Table, c *codec.Codec, fail func(index, attr string, p EntityProblem, detail string, err error) error) (boundKey[T], error) {
	p := b.p
	if p == nil {
		return boundKey[T]{}, fail("", "", EntityPattern, "a Binding of the zero Pattern: build patterns with OnTable or OnIndex", nil)
	}
	if p.err != nil {
		return boundKey[T]{}, fail(p.index, "", EntityPattern, "", p.err)
	}
	ks, ok := t.index(p.index)
	if !ok {
		return boundKey[T]{}, fail(p.index, "", EntityUnknownIndex, fmt.Sprintf("pattern %s: the table's indexes are %v", p, t.indexNames()), nil)
	}
	if !slices.Equal(ks.PartitionKey, p.pk.attrs) || !slices.Equal(ks.SortKey, p.sk.attrs) {
		return boundKey[T]{}, fail(p.index, "", EntityPattern, fmt.Sprintf("pattern %s has the key attributes %s / %s, the %s has %s / %s",
			p, describeAttrs(p.pk.attrs), describeAttrs(p.sk.attrs), ks.Kind, describeAttrs(ks.PartitionKey), describeAttrs(ks.SortKey)), nil)
	}
	k := boundKey[T]{p: p, attrs: ks.Attributes(), when: b.when != nil}
	k.same = make([]sameValue, len(k.attrs))
	k.field = make([]bool, len(k.attrs))
	var err error
	switch {
	case b.fn != nil:
		fn, ok := b.fn.(func(*T, *codec.Slab, []types.AttributeValue) (bool, error))
		if !ok {
			return k, fail(p.index, "", EntityBinding, fmt.Sprintf("%s of %s bound to an entity of %s", b.funcName(), b.t, reflect.TypeFor[T]()), nil)
		}
		k.get = fn
		if b.sortFields {
			err = k.bindFields(b.fields, fn, c, fail)
		}
	case b.nilFn:
		return k, fail(p.index, "", EntityBinding, b.funcName()+" with a nil function", nil)
	default:
		err = k.bindFields(b.fields, nil, c, fail)
	}
	if err != nil {
		return k, err
	}
	if b.when != nil {
		err = k.condition(b.when, t, fail)
	}
	if err == nil {
		err = k.inputsOf(b, fail)
	}
	return k, err
}

// inputsOf records the fields each attribute of b reads: the fields bound
// to it, and for an attribute computed or made conditional by a function,
// the fields the function declares ([Binding.Reads]), or none known
// (opaque).
func (k *boundKey[T]) inputsOf(b Binding, fail func(index, attr string, p EntityProblem, detail string, err error) error) error {
	if b.readsSet && b.fn == nil {
		return fail(k.p.index, "", EntityBinding, "Reads on a binding without a function: the inputs of Fields are its fields", nil)
	}
	for _, f := range slices.Concat(b.reads, b.whenReads) {
		if _, _, err := fieldOffset(reflect.TypeFor[T](), f); err != nil {
			return fail(k.p.index, "", EntityBinding, "Reads: "+err.Error(), nil)
		}
	}
	npk := len(k.p.pk.attrs)
	k.inputs = make([][]string, len(k.attrs))
	k.whenInputs = b.whenReads
	k.computed = make([]bool, len(k.attrs))
	k.opaque = make([]bool, len(k.attrs))
	k.declared = make([]bool, len(k.attrs))
	for i := range k.attrs {
		if f := k.same[i].fields; f != "" {
			k.inputs[i] = strings.Split(f, ",")
		}
		k.computed[i] = b.fn != nil && (!b.sortFields || i < npk)
		if k.computed[i] {
			k.inputs[i] = append(k.inputs[i], b.reads...)
		}
		k.opaque[i] = k.computed[i] && !b.readsSet || b.when != nil && !b.whenReadsSet
		k.declared[i] = k.computed[i] && b.readsSet || b.when != nil && b.whenReadsSet
	}
	return nil
}

// funcName is the name of the function that built the Func binding b.
func (b Binding) funcName() string {
	if b.sortFields {
		return "FuncPartition"
	}
	return "Func"
}

// bindFields binds the pattern's segments to fields of T: those of both
// sides, or, given partition (the function of a FuncPartition, which
// computes the partition side), those of the sort side.
func (k *boundKey[T]) bindFields(fields []string, partition func(*T, *codec.Slab, []types.AttributeValue) (bool, error), c *codec.Codec, fail func(index, attr string, p EntityProblem, detail string, err error) error) error {
	p := k.p
	sides := [2]*side{p.pk, p.sk}
	first := 0 // the first side bound to fields
	want := len(p.pk.segs) + len(p.sk.segs)
	if partition != nil {
		first, want = 1, len(p.sk.segs)
	}
	if len(fields) != want {
		if first == 1 {
			return fail(p.index, "", EntityBinding, fmt.Sprintf("%d sort key fields for pattern %s, whose sort key has %d typed segments: name one field of T per segment",
				len(fields), p, want), nil)
		}
		return fail(p.index, "", EntityBinding, fmt.Sprintf("%d fields for pattern %s, which has %d typed segments: name one field of T per segment, partition key first",
			len(fields), p, want), nil)
	}
	var offs [2][]uintptr
	i := 0
	for si, s := range sides {
		if si < first {
			continue
		}
		for _, seg := range s.segs {
			off, ft, err := fieldOffset(reflect.TypeFor[T](), fields[i])
			if err != nil {
				return fail(p.index, "", EntityBinding, err.Error(), nil)
			}
			if !fieldFits(ft, seg) {
				return fail(p.index, "", EntityBinding, fmt.Sprintf("field %s is %s, segment %d of %s is %s", fields[i], ft, len(offs[si])+1, s.desc, seg), nil)
			}
			offs[si] = append(offs[si], off)
			i++
		}
	}
	at := len(p.pk.attrs) * first
	for si, s := range sides[first:] {
		si += first
		names := fields[:len(s.segs)]
		if si == 1 {
			names = fields[len(fields)-len(s.segs):]
		}
		for ai, a := range s.attrs {
			pv := s.per[ai]
			var from []string
			for _, seg := range pv.segs {
				from = append(from, names[seg])
			}
			k.same[at+ai] = sameValue{def: pv.def, native: pv.native, typ: a.Type, pos: pv.pos, of: pv.of, fields: strings.Join(from, ","), konst: s.konst,
				keysText: s.keysText}
			if f, ok := c.Field(a.Name); ok && !s.constant && pv.def.IsZero() && f.GoName == from[0] && (p.index != "" || fieldAttrKind(f.Kind) == a.Type) {
				// The field itself: of an index, an ordinary field; of the
				// table, the key, stored once (and encoded as the key is).
				k.field[at+ai] = true
			}
		}
		at += len(s.attrs)
	}
	npk := len(p.pk.attrs)
	k.get = func(v *T, sl *codec.Slab, out []types.AttributeValue) (bool, error) {
		base := unsafe.Pointer(v)
		if err := p.fromFields[0](base, offs[0], sl, out[:npk]); err != nil {
			return true, err
		}
		return true, p.fromFields[1](base, offs[1], sl, out[npk:])
	}
	if to := p.toFields; p.index == "" && partition == nil && to[0] != nil && to[1] != nil {
		k.fill = func(v *T, key []types.AttributeValue) error {
			base := unsafe.Pointer(v)
			if err := to[0](base, offs[0], key[:npk]); err != nil {
				return err
			}
			return to[1](base, offs[1], key[npk:])
		}
	}
	if partition != nil {
		k.get = func(v *T, sl *codec.Slab, out []types.AttributeValue) (bool, error) {
			if ok, err := partition(v, sl, out[:npk]); !ok || err != nil {
				return ok, err
			}
			return true, p.fromFields[1](unsafe.Pointer(v), offs[1], sl, out[npk:])
		}
	}
	k.attr = make([]func(*T, *codec.Slab) (types.AttributeValue, bool, error), 0, len(k.attrs))
	for si, s := range sides {
		for ai := range s.attrs {
			var attr func(*T, *codec.Slab) (types.AttributeValue, bool, error)
			if si >= first {
				attr = sideAttribute[T](p, si, ai, offs[si])
			}
			k.attr = append(k.attr, attr)
		}
	}
	return nil
}

// sideAttribute computes attribute ai of side si of pattern p from the
// fields at offs: a side of one attribute without a buffer, a side of
// several (a native key) whole, picking the one.
func sideAttribute[T any](p *pattern, si, ai int, offs []uintptr) func(v *T, sl *codec.Slab) (types.AttributeValue, bool, error) {
	if one := p.fromField1[si]; one != nil {
		return func(v *T, sl *codec.Slab) (types.AttributeValue, bool, error) {
			av, err := one(unsafe.Pointer(v), offs, sl)
			return av, true, err
		}
	}
	from := p.fromFields[si]
	return func(v *T, sl *codec.Slab) (types.AttributeValue, bool, error) {
		var out [MaxKeyAttributes]types.AttributeValue
		err := from(unsafe.Pointer(v), offs, sl, out[:])
		return out[ai], true, err
	}
}

// condition makes the binding conditional on when.
func (k *boundKey[T]) condition(when any, t *Table, fail func(index, attr string, p EntityProblem, detail string, err error) error) error {
	p := k.p
	w, ok := when.(func(T) bool)
	switch {
	case !ok:
		return fail(p.index, "", EntityBinding, fmt.Sprintf("If with a %T bound to an entity of %s", when, reflect.TypeFor[T]()), nil)
	case w == nil:
		return fail(p.index, "", EntityBinding, "If with a nil function", nil)
	case p.index == "":
		return fail("", "", EntityBinding, "If on the table's primary key: every item has one", nil)
	}
	removable := false
	for i, a := range k.attrs {
		if !k.field[i] && !t.primary.has(a.Name) {
			removable = true
		}
	}
	if !removable {
		return fail(p.index, "", EntityBinding, "If on an index whose key attributes are all the table's or fields of T: nothing could be removed to keep an item out", nil)
	}
	get := k.get
	k.plain = slices.Clone(k.attr)
	k.cond = func(v *T) bool { return w(*v) }
	k.get = func(v *T, sl *codec.Slab, out []types.AttributeValue) (bool, error) {
		if !w(*v) {
			return false, nil
		}
		return get(v, sl, out)
	}
	for i, attr := range k.attr {
		if attr == nil {
			continue // computed by get
		}
		k.attr[i] = func(v *T, sl *codec.Slab) (types.AttributeValue, bool, error) {
			if !w(*v) {
				return nil, false, nil
			}
			return attr(v, sl)
		}
	}
	return nil
}

// fieldOffset finds the Go field called name in struct type t (promoted
// fields of embedded structs included) and returns its offset from the
// start of a t and its type. A field behind an embedded pointer has no
// fixed offset and is refused.
func fieldOffset(t reflect.Type, name string) (uintptr, reflect.Type, error) {
	f, ok := t.FieldByName(name)
	if !ok || !f.IsExported() {
		return 0, nil, fmt.Errorf("%s has no exported field %s", t, name)
	}
	var off uintptr
	cur := t
	for _, i := range f.Index[:len(f.Index)-1] {
		sf := cur.Field(i)
		if sf.Type.Kind() != reflect.Struct {
			return 0, nil, fmt.Errorf("field %s of %s is behind the embedded pointer %s: move it to T or embed the struct by value", name, t, sf.Name)
		}
		off += sf.Offset
		cur = sf.Type
	}
	return off + f.Offset, f.Type, nil
}

// describeAttrs prints attributes as (a S, b N).
func describeAttrs(attrs []Attribute) string {
	parts := make([]string, len(attrs))
	for i, a := range attrs {
		parts[i] = a.Name + " " + string(a.Type)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
