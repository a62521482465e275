package keyfirst

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strconv"
	"time"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/avequal"
	"github.com/keyfirst/keyfirst/internal/codec"
	"github.com/keyfirst/keyfirst/internal/itemsize"
)

// MaxItemSize is DynamoDB's item size limit, 400 KB.
const MaxItemSize = 400 * 1024

// MaxNesting is DynamoDB's limit on nesting, in levels, the item being the
// first: an attribute's value holds at most MaxNesting-1 lists and maps
// one inside the other, a condition's value MaxNesting (it is in no
// item); a set is no level. Deeper values are refused before any request
// ([ItemTooDeep] in an item).
const MaxNesting = itemsize.MaxNesting

// itemPlan is the one decision every write path shares: the complete item
// with every derived attribute recomputed from T, and the derived index
// attributes the item does not have (which an update REMOVEs and a put
// leaves out).
type itemPlan[T any] struct {
	item   map[string]types.AttributeValue
	remove []string
	key    Key[T]
	size   int // the item's size in bytes, as DynamoDB counts it
	room   int // the attributes its map was made for: len(item), exactly
}

// Item returns the complete item that [Entity.Put] would write for v: T's
// fields, the entity-type attribute, the primary key and, for each index
// the item belongs to, the derived index key attributes. The version
// attribute holds v's version as it is (Put writes the next one). Errors
// are [*ItemError] values.
//
// Lifecycle fields ([EntitySpec.Created], Updated, Expires) are as a write
// now stores them: Updated is the entity's clock's time, a zero Created
// too (Put keeps a stored one), Expires in epoch seconds.
func (e *Entity[T]) Item(v T) (map[string]types.AttributeValue, error) {
	p, err := e.plan(noEscape(&v), -1) // see noEscape
	runtime.KeepAlive(&v)
	return p.item, err
}

// plan is the plan of the item for *v, written now by the entity's clock:
// it sets the lifecycle times of *v ([Entity.stampTimes]). version >= 0
// replaces the version attribute's value; -1 keeps T's. The plan is
// returned, not filled through a pointer: see planWith. It is inlined: a
// plan is one call, planAt's.
func (e *Entity[T]) plan(v *T, version int64) (itemPlan[T], error) {
	return e.planAt(v, version, true)
}

// writeTime is the time of a write now, by the entity's clock; zero for an
// entity without a field that keeps its time (the clock is not read).
func (e *Entity[T]) writeTime() time.Time {
	if len(e.life.fields) > 0 {
		return e.life.now()
	}
	return time.Time{}
}

// planAt is plan, with the lifecycle times of a write now when stamp is
// set; without, it sets none (the plan of a refresh, which decides
// whether the item changes). Its arena is its own, on planAt's stack and
// zeroed only then: a batch's plans share theirs, and call planWith.
func (e *Entity[T]) planAt(v *T, version int64, stamp bool) (itemPlan[T], error) {
	var now time.Time
	if stamp {
		now = e.writeTime()
	}
	var own arena
	p, err := e.planWith(noEscape(&own), v, version, now) // see noEscape
	runtime.KeepAlive(&own)
	return p, err
}

// planWith is planAt in the arena ar: its own, or one that the plans of
// a batch's items share (BatchPut's). It returns the plan, which it
// builds in its own result: while the collector marks, every pointer
// stored through a pointer costs a write barrier (the compiler cannot
// tell the stack from the heap), and a plan stores a dozen; one stored
// in a variable of its own function costs none.
func (e *Entity[T]) planWith(ar *arena, v *T, version int64, now time.Time) (p itemPlan[T], err error) {
	if !now.IsZero() {
		e.stampTimes(v, now)
	}
	var fieldVals [fieldRoom]types.AttributeValue // see fieldRoom
	var derivedVals [derivedRoom]namedValue
	fields, derived := e.prepare(ar, v, fieldVals[:0]), derivedVals[:0]
	sl := &ar.sl
	fr := funcResults[T]{sl: sl, out: ar.out[:]}

	pk, size, err := e.derivePrimary(&e.pk, v, &fr)
	if err != nil {
		return p, err
	}
	p.key.pk, p.key.typ = partOf(pk), e.typeName
	var sk types.AttributeValue
	if e.hasSK {
		var n int
		if sk, n, err = e.derivePrimary(&e.sk, v, &fr); err != nil {
			return p, err
		}
		p.key.sk = partOf(sk)
		size += n
	}

	var in uint64 // the groups the item is in, by position (at most MaxGSIs+MaxLSIs)
	for gi := range e.groups {
		var ok bool
		var n int
		g := &e.groups[gi]
		if derived, ok, n, err = e.deriveGroup(g, v, &fr, derived); err != nil {
			return p, err
		}
		if !ok { // out of the index: its attributes removed
			if p.remove == nil {
				p.remove = g.out // clipped: an append copies it
			} else {
				p.remove = append(p.remove, g.out...)
			}
			continue
		}
		in |= 1 << gi
		size += n
	}

	var n int
	if e.codec.Direct() && len(fields) <= fieldRoom {
		// Each value is stored in planWith's own array, by index: a store
		// to a local array needs no write barrier, one through a slice
		// (encodeFields's) has one.
		base := unsafe.Pointer(v)
		for i := range fields {
			var av types.AttributeValue
			if av, n, err = e.codec.EncodeFieldDirect(i, base, sl); err != nil {
				return p, e.encodeError(err)
			}
			fieldVals[i] = av
			size += n
		}
	} else {
		if n, err = e.encodeFields(v, fields, sl); err != nil {
			return p, e.encodeError(err)
		}
		size += n
	}
	if len(e.life.fields) > 0 || e.life.after != nil {
		if derived, n, err = e.lifeValues(v, &p, fields, derived); err != nil {
			return p, err
		}
		size += n
	}
	if e.keyField[0] {
		size -= keyFieldOnce(fields, e.keyAt[0], e.pk.attr.Name, pk)
	}
	if e.keyField[1] {
		size -= keyFieldOnce(fields, e.keyAt[1], e.sk.attr.Name, sk)
	}
	if e.version != "" && version >= 0 {
		if old := fields[e.versionAt]; old != nil {
			size -= itemsize.Size(e.version, old)
		}
		versionAV := sl.Num(sl.Text(strconv.AppendInt(sl.Bytes(), version, 10)))
		fields[e.versionAt] = versionAV
		size += itemsize.Size(e.version, versionAV)
	}

	// Index keys that are fields of T: absent leaves the index (refused
	// when the index's derivations put the item in it), present must be
	// a valid key value.
	for gi := range e.groups {
		g := &e.groups[gi]
		for fi := range g.fields {
			d := &g.fields[fi]
			av := fields[d.at]
			if av == nil {
				if g.decides && in&(1<<gi) != 0 { // derived all or none
					return p, e.itemError(d, ItemMissingKey, "the item belongs to the index (its binding gives the other key attributes), "+
						"but the field of this key attribute is omitted: give it a value, or let the binding keep the item out", nil)
				}
				continue
			}
			if _, isNull := av.(*types.AttributeValueMemberNULL); isNull {
				return p, e.itemError(d, ItemKeyType, "the field is NULL; tag it omitempty so that an item without a value leaves the index", nil)
			}
			if d.timeKey {
				field := av
				if av, err = e.timeKeyOf(d, v, field, sl); err != nil {
					return p, err
				}
				size += itemsize.Size(d.attr.Name, av) - itemsize.Size(d.attr.Name, field)
			}
			if fields[d.at], _, err = e.checkKeyValue(d, av); err != nil {
				return p, err
			}
		}
	}

	// The item's map, made for exactly what it has (a sparse item out of
	// an index, or without an omitted field, takes a smaller one), each
	// attribute put once.
	p.room = e.extraAttrs + len(derived)
	for _, av := range fields {
		if av != nil {
			p.room++
		}
	}
	p.item = make(map[string]types.AttributeValue, p.room)
	if !e.keyField[0] {
		p.item[e.pk.attr.Name] = pk
	}
	if e.hasSK && !e.keyField[1] {
		p.item[e.sk.attr.Name] = sk
	}
	for _, d := range derived {
		p.item[d.name] = d.av
	}
	e.codec.Store(p.item, fields)
	typeAV := sl.Str(e.typeName)
	p.item[e.table.typeAttr] = typeAV
	size += len(e.table.typeAttr) + len(e.typeName) // a string's size

	if err := e.checkAgreement(v, p.item, sl); err != nil {
		return p, err
	}

	if size > MaxItemSize {
		return p, e.tooLarge(size)
	}
	p.size = size
	e.texts.saw(sl.Used()) // the text the next item's arena starts with
	if ar.shared > 0 {     // only a batch's items share a slab by the hint
		e.values.saw(sl.Values())
	}
	return p, nil
}

// tooLarge is the error of an item of size bytes, over [MaxItemSize].
// It is never inlined: every plan checks the size, and fails seldom.
//
//go:noinline
func (e *Entity[T]) tooLarge(size int) error {
	return &ItemError{Entity: e.typeName, Problem: ItemTooLarge,
		Detail: fmt.Sprintf("%d bytes, the limit is %d; move large values elsewhere (S3) and store a reference", size, MaxItemSize)}
}

// keyFieldOnce stores key, the checked value of a table key attribute
// that is a field of T (a number in canonical form), in fields at at,
// where the field's own encoding was, and returns the size of that
// encoding, which the item then does not have: the key is stored and
// counted once.
func keyFieldOnce(fields []types.AttributeValue, at int, name string, key types.AttributeValue) int {
	size := 0
	if field := fields[at]; field != nil {
		size = itemsize.Size(name, field)
	}
	fields[at] = key
	return size
}

// checkAgreement computes the attributes that two patterns store and
// refuses an item for which the second computes another value than the
// first.
func (e *Entity[T]) checkAgreement(v *T, item map[string]types.AttributeValue, sl *codec.Slab) error {
	for i := range e.agree {
		d := &e.agree[i]
		av, _, err := d.get(v, sl)
		if err != nil {
			return e.itemError(d, ItemDerive, "", err)
		}
		if av, _, err = e.checkKeyValue(d, av); err != nil {
			return err
		}
		if have := item[d.attr.Name]; !avequal.Equal(have, av) {
			return e.itemError(d, ItemKeyConflict, fmt.Sprintf("the patterns that store it compute %s and %s for this item: bind them so that they agree", partOf(have).text(), partOf(av).text()), nil)
		}
	}
	return nil
}

// deriveGroup runs the derivations of one index: all of them present puts
// the item in the index (in; their values appended to derived, which it
// returns), any of them absent keeps it out (its plan removes every
// derived attribute of the index, indexGroup.out).
func (e *Entity[T]) deriveGroup(g *indexGroup[T], v *T, fr *funcResults[T], derived []namedValue) (_ []namedValue, in bool, size int, err error) {
	in = true
	var vals [MaxKeyAttributes * 2]types.AttributeValue
	var sizes [MaxKeyAttributes * 2]int
	for i := range g.derived {
		d := &g.derived[i]
		av, ok, err := fr.get(d, v)
		if err != nil {
			return derived, false, 0, e.itemError(d, ItemDerive, "", err)
		}
		if !ok {
			in = false
			continue
		}
		if vals[i], sizes[i], err = e.checkKeyValue(d, av); err != nil {
			return derived, false, 0, err
		}
	}
	if !in {
		return derived, false, 0, nil
	}
	for i := range g.derived {
		d := &g.derived[i]
		derived = append(derived, namedValue{name: d.attr.Name, av: vals[i]})
		size += sizes[i]
	}
	return derived, true, size, nil
}

// funcResults holds, for one write, the result of the last Func binding
// called: its function gives every attribute of its pattern at once, and
// is called once for all of them (the derivations of one binding are
// consecutive), so that a function that is costly, or that gives another
// answer each time, yields one consistent key. The values come from sl
// (nil: allocated one by one), out from the plan's arena (nil: made on
// first use).
type funcResults[T any] struct {
	from *boundKey[T]
	sl   *codec.Slab
	out  []types.AttributeValue
	ok   bool
	err  error
	// shared: the texts several derived attributes store.
	shared sharedTexts
}

// get derives d from v, through the last Func result when d is of a Func
// binding.
func (fr *funcResults[T]) get(d *derivation[T], v *T) (types.AttributeValue, bool, error) {
	if d.shared > 0 {
		return fr.sharedText(d, v)
	}
	if d.from == nil {
		return d.get(v, fr.sl)
	}
	if fr.from != d.from {
		if fr.out == nil {
			fr.out = make([]types.AttributeValue, 2*MaxKeyAttributes)
		}
		fr.from = d.from
		fr.ok, fr.err = d.from.get(v, fr.sl, fr.out[:len(d.from.attrs)])
	}
	return fr.out[d.pos], fr.ok, fr.err
}

// derivePrimary runs a primary key derivation, which must give a value.
func (e *Entity[T]) derivePrimary(d *derivation[T], v *T, fr *funcResults[T]) (types.AttributeValue, int, error) {
	av, ok, err := fr.get(d, v)
	if err != nil {
		return nil, 0, e.itemError(d, ItemDerive, "", err)
	}
	if !ok {
		return nil, 0, e.itemError(d, ItemMissingKey, "a primary key derivation must always give a value", nil)
	}
	return e.checkKeyValue(d, av)
}

// checkKeyValue refuses what DynamoDB refuses or would change as a key
// value: the wrong type, an empty string or binary, an over-long value, a
// string that is not valid UTF-8 (the SDK would send another one), an
// invalid number. It returns the value to use: a number in DynamoDB's
// canonical form ("-0" is "0", "1.50e2" is "150"), the form DynamoDB stores
// and returns, so that keys compare as DynamoDB compares them, and the
// size of the attribute holding it, as [itemsize.Size] counts it.
func (e *Entity[T]) checkKeyValue(d *derivation[T], av types.AttributeValue) (types.AttributeValue, int, error) {
	size := 0
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		if d.attr.Type == types.ScalarAttributeTypeS && (d.keysText || itemsize.ValidString(x.Value)) {
			size = len(x.Value)
		}
	case *types.AttributeValueMemberN:
		if d.attr.Type != types.ScalarAttributeTypeN {
			break
		}
		av, err := e.canonicalNumber(d, x)
		if err != nil {
			return nil, 0, err
		}
		return av, itemsize.Size(d.attr.Name, av), nil
	case *types.AttributeValueMemberB:
		if d.attr.Type == types.ScalarAttributeTypeB {
			size = len(x.Value)
		}
	}
	if size == 0 || size > d.limit {
		return nil, 0, e.keyValueError(d, av)
	}
	return av, len(d.attr.Name) + size, nil // a string's or a binary's size
}

// keyValueError is the error of av, a value of the key attribute d
// derives that checkKeyValue refuses. It is never inlined: a write's hot
// path, which checks every key it writes, calls it only to fail.
//
//go:noinline
func (e *Entity[T]) keyValueError(d *derivation[T], av types.AttributeValue) error {
	size := 0
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		if d.attr.Type != types.ScalarAttributeTypeS {
			break
		}
		if x.Value == "" {
			return e.itemError(d, ItemEmptyKey, "an empty string is never a key value: DynamoDB refuses it; report no value (ok=false) to leave an index", nil)
		}
		if !d.keysText && !itemsize.ValidString(x.Value) {
			return e.itemError(d, ItemBadString, fmt.Sprintf("%q: the SDK would send each invalid byte as U+FFFD, another key", x.Value), nil)
		}
		size = len(x.Value)
	case *types.AttributeValueMemberB:
		if d.attr.Type != types.ScalarAttributeTypeB {
			break
		}
		if len(x.Value) == 0 {
			return e.itemError(d, ItemEmptyKey, "an empty binary is never a key value", nil)
		}
		size = len(x.Value)
	}
	if size == 0 {
		return e.itemError(d, ItemKeyType, fmt.Sprintf("got %s, the attribute is %s", avTypeName(av), d.attr.Type), nil)
	}
	return e.itemError(d, ItemKeyTooLong, fmt.Sprintf("%d bytes, the limit is %d", size, d.limit), nil)
}

// canonicalNumber checks a number key value and returns it in canonical
// form (x itself when it already is).
func (e *Entity[T]) canonicalNumber(d *derivation[T], x *types.AttributeValueMemberN) (types.AttributeValue, error) {
	n, err := itemsize.ParseNumber(x.Value)
	if err != nil {
		return nil, e.itemError(d, ItemBadNumber, "", err)
	}
	if c := n.Canonical(); c != x.Value {
		return &types.AttributeValueMemberN{Value: c}, nil
	}
	return x, nil
}

// itemError is the error of an item whose attribute d derives is refused.
// It is never inlined: a write's hot path calls it only to fail, and its
// body at each call site made that path's code larger.
//
//go:noinline
func (e *Entity[T]) itemError(d *derivation[T], p ItemProblem, detail string, err error) *ItemError {
	return &ItemError{Entity: e.typeName, Index: d.index, Attribute: d.attr.Name, Problem: p, Detail: detail, Err: err}
}

// encodeFields encodes T's fields into vals (by field, [codec.Codec.Encode])
// and returns their size. A T whose fields the codec handles directly is
// read in place; any other is copied for reflection.
func (e *Entity[T]) encodeFields(v *T, vals []types.AttributeValue, sl *codec.Slab) (int, error) {
	if e.codec.Direct() {
		return e.codec.EncodeDirect(unsafe.Pointer(v), vals, sl)
	}
	cp := new(T)
	*cp = *v
	return e.codec.Encode(reflect.ValueOf(cp).Elem(), vals)
}

// encodeError is the *ItemError of a field that could not be encoded: a
// value DynamoDB would refuse or change is [ItemBadNumber],
// [ItemBadString], [ItemBadSet] or [ItemTooDeep] on its attribute
// ([Entity.valueError]), anything else [ItemEncode].
func (e *Entity[T]) encodeError(err error) *ItemError {
	var bad *itemsize.InvalidError
	if !errors.As(err, &bad) {
		return &ItemError{Entity: e.typeName, Problem: ItemEncode, Err: err}
	}
	return e.valueError(bad)
}

// valueError is the *ItemError of a value DynamoDB would refuse or
// change, found by the value check ([itemsize.Check]).
func (e *Entity[T]) valueError(bad *itemsize.InvalidError) *ItemError {
	ie := &ItemError{Entity: e.typeName, Attribute: bad.Attribute, Problem: ItemBadString, Detail: bad.Error()}
	switch bad.Reason {
	case itemsize.BadNumber:
		ie.Problem = ItemBadNumber
	case itemsize.BadSet:
		ie.Problem = ItemBadSet
	case itemsize.TooDeep:
		ie.Problem = ItemTooDeep
	}
	for _, g := range e.groups {
		for _, d := range g.fields {
			if d.attr.Name == bad.Attribute {
				ie.Index = g.index // the field is a key of that index
			}
		}
	}
	return ie
}

// decode decodes a stored item of this entity type into T.
func (e *Entity[T]) decode(item map[string]types.AttributeValue) (T, error) {
	var out T
	err := e.DecodeTo(item, &out)
	return out, err
}

// Decode decodes an item of this entity type into T. An item of another
// entity type, or without the entity-type attribute and not claimed by
// this entity's [EntitySpec.Adopt] alone, is an [*EntityTypeError]
// wrapping [ErrWrongEntityType] (a [*ClaimError] on a table where an
// entity adopts untyped items); an attribute that does not fit its field is an [*ItemError] with [ItemDecode].
func (e *Entity[T]) Decode(item map[string]types.AttributeValue) (T, error) {
	return e.decode(item)
}

// errNilDestination is the Err of a DecodeTo into nil.
var errNilDestination = errors.New("nil destination")

// DecodeTo decodes an item of this entity type into *dst, as [Entity.Decode]
// does, without copying T: into a slice's element, or a T reused from one
// item to the next. Every field of *dst is written (one the item lacks
// becomes its zero value), and on an error *dst is the zero T. A nil dst
// is an [*ItemError] with [ItemDecode].
func (e *Entity[T]) DecodeTo(item map[string]types.AttributeValue, dst *T) error {
	if dst == nil {
		return &ItemError{Entity: e.typeName, Problem: ItemDecode, Err: errNilDestination}
	}
	var zero T
	*dst = zero
	if got := itemType(item, e.table.typeAttr); got != e.typeName {
		if err := e.adopted(item, got); err != nil {
			return err
		}
	}
	if e.codec.Direct() && e.codec.DecodeDirect(item, unsafe.Pointer(dst)) {
		return nil
	}
	*dst = zero // DecodeDirect may have written part of it
	p := new(T)
	if err := e.codec.Decode(item, reflect.ValueOf(p).Elem()); err != nil {
		return &ItemError{Entity: e.typeName, Problem: ItemDecode, Err: err}
	}
	*dst = *p
	return nil
}

// versionOf reads the version field of v (0 without a version attribute).
func (e *Entity[T]) versionOf(v *T) int64 {
	if e.version == "" {
		return 0
	}
	return e.codec.IntAt(unsafe.Pointer(v), e.version)
}

// setVersion stores n in the version field of v.
func (e *Entity[T]) setVersion(v *T, n int64) {
	if e.version != "" {
		e.codec.SetIntAt(unsafe.Pointer(v), e.version, n)
	}
}

func avTypeName(av types.AttributeValue) string {
	switch av.(type) {
	case *types.AttributeValueMemberS:
		return "S"
	case *types.AttributeValueMemberN:
		return "N"
	case *types.AttributeValueMemberB:
		return "B"
	case *types.AttributeValueMemberBOOL:
		return "BOOL"
	case *types.AttributeValueMemberNULL:
		return "NULL"
	case *types.AttributeValueMemberL:
		return "L"
	case *types.AttributeValueMemberM:
		return "M"
	case *types.AttributeValueMemberSS:
		return "SS"
	case *types.AttributeValueMemberNS:
		return "NS"
	case *types.AttributeValueMemberBS:
		return "BS"
	case nil:
		return "nothing"
	}
	return fmt.Sprintf("%T", av)
}
