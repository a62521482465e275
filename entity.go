package keyfirst

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/codec"
)

// EntitySpec describes an entity type: a Go struct T stored in a table,
// and how every key attribute derives from it.
//
// T's exported fields are the item's attributes, named and encoded as the
// attributevalue package does (`dynamodbav` tags, omitempty, embedded
// structs, unexported ones included). [NewEntity] refuses a T that
// attributevalue would not encode field by field: a T that is a Marshaler
// or Unmarshaler, by its own method or one promoted from an embedded type
// (attributevalue would encode the whole item with it; name the embedded
// field instead), and the embedded unexported types attributevalue cannot
// handle (a pointer to an unexported struct, an unexported non-struct).
// The table's primary key attributes are derived, not fields of T, except
// a key attribute whose side stores a value as it is ([Str], [Num], [Bin])
// and is bound ([Pattern.Fields]) to the field of T stored under that very
// attribute name: that field is the key, stored once, and must always hold
// a valid key value (an omitempty field left empty is an empty key, refused).
// An index key attribute is either derived (by a binding of Keys)
// or an ordinary field of T: a native multi-attribute GSI over fields of T
// needs no derivation, and an item leaves such an index when one of its
// fields is omitted (omitempty, nil pointer with omitempty).
type EntitySpec[T any] struct {
	// Type is the entity-type name stored in the table's type attribute of
	// every item ("ORDER", "Customer", ...). Unique per table.
	Type string
	// Keys binds the entity's access patterns: the table's primary key
	// ([OnTable], exactly one) and each index the entity's items are in
	// ([OnIndex]), with the fields of T ([Pattern.Fields]) or the function
	// ([Func]) their values come from. It is the one way to derive key
	// attributes; keys that no typed side describes are a Func of a
	// pattern whose sides are raw ([Str], [Num], [Bin]). The attributes a
	// binding derives for an index are all-or-nothing: when it reports no
	// value, the item is not in the index and none of them is written.
	Keys []Binding
	// Version names an integer field of T used for optimistic locking: every
	// write checks the stored version and stores the next one. Empty: no
	// locking. The field has 32 bits or more (int32, uint32, int64, int,
	// ..., or a named type of one): a narrower one would run out after a
	// few thousand writes of an item. A write whose next version the field
	// could not read back is refused before any request ([ItemVersionMax]).
	Version string
	// Created names (in Go: "CreatedAt") a time.Time field of T that
	// keyfirst sets to the time of the item's first write and that no
	// later write changes, whatever the path: a put of such an entity is
	// an UpdateItem whose SET of the attribute is if_not_exists, so a Put
	// over a stored item keeps its created time (and, unlike PutItem, the
	// attributes keyfirst does not know: see [Entity.Put]). Batch puts of
	// it are refused ([ItemCreated]). Stored in [TimeKeyLayout], so that
	// it can be an index sort key.
	Created string
	// Updated names a time.Time field of T that every write path sets to
	// the time of the write (Put, Replace, Modify, Update, a batch put,
	// every transaction action that writes the item, and Refresh when it
	// changes the item). Stored in [TimeKeyLayout].
	Updated string
	// Expires names a time.Time field of T holding the item's expiry,
	// stored as DynamoDB's TTL requires: a Number of epoch seconds, under
	// the attribute the table declares as its TimeToLive
	// ([TableSpec.TimeToLive], which NewEntity requires). A zero time
	// stores no attribute (the item never expires); a time before 1970 is
	// refused before any request ([ItemExpires]). Reads return expired
	// items that DynamoDB has not deleted yet unless asked not to (see
	// "Expired items" in the package doc).
	Expires string
	// ExpiresAfter derives the expiry from another time.Time field of T
	// instead: the item expires After its Field (Created for "30 days
	// after creation", Updated for "30 days after the last write"). The
	// TimeToLive attribute is then derived, like a key, on every write
	// path; one entity declares Expires or ExpiresAfter, not both
	// ([EntityLifecycle]). See [ExpiresAfter].
	ExpiresAfter ExpiresAfter
	// ExpiresRequired refuses, before any request, an item without expiry
	// (a zero Expires field, or a zero ExpiresAfter.Field) ([ItemExpires]).
	ExpiresRequired bool
	// Clock gives the time of each write (Created, Updated); nil is
	// time.Now. Tests replace it to set the time rather than sleep. Its
	// times are stored in UTC.
	Clock func() time.Time
	// Adopt recognises the entity's items that have no entity-type
	// attribute (a table written by another program) by their table
	// primary key: pk and sk are its values (sk nil for a table without
	// a sort key). Reads then decode such items as this entity; an item
	// that the Adopt of two entities claims is an error with its key
	// ([*ClaimError], [ErrAmbiguousEntityType]), never a guess. Every write stores the
	// type attribute, and takes over an untyped item at a key Adopt
	// claims (a missing version is version 0; see the package doc,
	// Adopting an existing table); a migrate backfill stores the type on
	// every stored item, after which Adopt can be dropped. It must be a pure function
	// of the key, safe for concurrent use. Nil: untyped items are not
	// this entity's. See [Table.Classify].
	Adopt func(pk, sk types.AttributeValue) bool
	// Unique names (in Go: "Email") the field of T whose value no two
	// items of the entity share, kept by the marker items of package txn's
	// Unique: a string, number or binary field that is not a key, the
	// version or a lifecycle field (at most one). Every write path then
	// keeps the markers true: a write that would change or drop the value
	// outside txn.Unique's actions is refused before any request, or
	// guarded by the condition that the stored value is the one written
	// ([*UniqueValueError]; see "Unique values" in the package doc).
	Unique []string
}

// Entity is an entity type of a table: it builds items from T with every
// derived attribute recomputed, decodes items into T, and performs the item
// operations. Build it with [NewEntity]; it is safe for concurrent use.
type Entity[T any] struct {
	table    *Table
	typeName string
	codec    *codec.Codec
	pk, sk   derivation[T]
	hasSK    bool
	// keyField marks the partition (0) and sort (1) key attributes that
	// are a field of T itself: the item stores the key's value once.
	keyField [2]bool
	groups   []indexGroup[T]
	nDerived int
	// extraAttrs counts the attributes every item has beside its fields
	// and its index keys: the entity type, the primary key attributes that
	// are not fields. It sizes an item's map (planWith). versionAt and keyAt
	// are the fields of the version and of the primary key attributes that
	// are fields (-1: none).
	extraAttrs, versionAt int
	keyAt                 [2]int
	version               string
	// versionMax is the largest version the version field holds;
	// versionUnsigned tells an unsigned field.
	versionMax      int64
	versionUnsigned bool
	// fieldNames are T's attributes; known adds the derived ones and the
	// type attribute: everything a write of this entity may set.
	fieldNames []string
	known      []string
	// guarded are the attributes Modify's condition compares.
	guarded []string
	// adopt is EntitySpec.Adopt: the untyped items a write may take over.
	adopt func(pk, sk types.AttributeValue) bool
	// patterns are the patterns the entity binds, decls the declarations
	// of its bindings (EntitySpec.Keys).
	patterns map[*pattern]bool
	decls    map[*declaration]bool
	// agree are the attributes that a second pattern computes another way
	// (see entityBuilder.derive): every write checks they agree.
	agree []derivation[T]
	// declaredReads: a binding's function declares the fields it reads
	// ([Binding.Reads]), which an update trusts and then verifies.
	declaredReads bool
	// fillKey stores in an item the fields its table key holds (nil when
	// a function computes the key): what an update knows of the item.
	fillKey func(v *T, key []types.AttributeValue) error
	// updateRefused is why every partial update of the entity is refused
	// (a key function that does not declare its inputs), or nil.
	updateRefused error
	// life: the lifecycle fields (Created, Updated, Expires).
	life lifecycle
	// unique: the unique fields (EntitySpec.Unique).
	unique []uniqueField
	// texts: the room for texts an item's arena starts with; values:
	// the values an item of a batch uses, by which its items share a
	// slab; slabOwn the values it has besides its fields'
	// ([Entity.slabValues]).
	texts   *textHint
	values  *valueHint
	slabOwn int
	// funcSpare counts the attributes that Func bindings compute and no
	// derivation keeps (an index key that is a field of T).
	funcSpare int
	// shapes are the compiled expressions of its updates, by shape.
	shapes *updateShapes
	// guards are the built guards that depend on the entity only.
	guards *guardSet
	// puts are the states of BatchPut calls (putStream), for reuse.
	puts *sync.Pool
}

// derivation is one derived attribute.
type derivation[T any] struct {
	attr  Attribute
	index string // "" for the primary key
	limit int    // maximum value size in bytes
	get   func(*T, *codec.Slab) (types.AttributeValue, bool, error)
	// from and pos: attribute pos of a Func binding, whose function gives
	// every attribute of its pattern at once; a write calls it once for
	// all of them (see funcResults).
	from *boundKey[T]
	pos  int
	// timeKey: a time.Time field of T used as an index key, stored in
	// TimeKeyLayout rather than in its attributevalue form.
	timeKey bool
	// keysText: a string the derivation gives is a text a keys.Key1 made,
	// valid UTF-8 (side.keysText).
	keysText bool
	// at is the field of an index key that is a field of T (the position
	// of its value in [codec.Codec.Encode]'s values).
	at int
	// inputs are the Go names of the fields of T the attribute's value
	// reads, whenInputs those its binding's If reads; computed: a
	// function gives it (and may keep the item out of the index); opaque:
	// a function reads fields it does not declare ([Binding.Reads]), so
	// any field may be one.
	inputs, whenInputs []string
	computed, opaque   bool
	// shared is the slot (from 1) of the text the attribute shares with
	// others of the item (see shareText), 0 for none; value then computes
	// it, when being its binding's If (nil without one).
	shared int
	value  func(*T, *codec.Slab) (types.AttributeValue, bool, error)
	when   func(*T) bool
}

// indexGroup is what the entity writes for one index: the attributes it
// derives (all-or-nothing) and the index key attributes that are fields of
// T (checked on every write).
type indexGroup[T any] struct {
	index   string
	derived []derivation[T]
	fields  []derivation[T] // get unused: attr and limit only
	// decides: a derivation of the index can keep an item out of it (If,
	// a Func), so its answer is the item's membership: an item
	// it puts in the index must have every key attribute that is a field.
	decides bool
	// decide are the inputs of the derived attributes that say whether
	// the item is in the index (an If's, a function's that can keep it
	// out), value every input of their values, touched both: computed
	// once for an update's key analysis (partialPlan.keys).
	decide, value, touched []string
	// out is the names of the derived attributes, the plan's removals of
	// an item out of the index; a plan appends to it only past its length.
	out []string
}

// placeFields finds the fields whose values a plan changes before it
// makes the item's map (versionAt, keyAt, each index key field's and
// lifecycle field's at) and counts extraAttrs.
func (e *Entity[T]) placeFields() {
	e.extraAttrs = 1 // the entity type
	// No field is named "": an entity without a version has versionAt -1.
	e.versionAt, e.keyAt = e.codec.Index(e.version), [2]int{-1, -1}
	if e.keyField[0] {
		e.keyAt[0] = e.codec.Index(e.pk.attr.Name)
	} else {
		e.extraAttrs++
	}
	if e.hasSK && e.keyField[1] {
		e.keyAt[1] = e.codec.Index(e.sk.attr.Name)
	} else if e.hasSK {
		e.extraAttrs++
	}
	for gi := range e.groups {
		for fi := range e.groups[gi].fields {
			d := &e.groups[gi].fields[fi]
			d.at = e.codec.Index(d.attr.Name)
		}
	}
	for i := range e.life.fields {
		f := &e.life.fields[i]
		f.at = e.codec.Index(f.attr)
	}
}

// registered is an entity as the table's registry knows it.
type registered struct {
	decode func(map[string]types.AttributeValue) (any, error)
	// scannable names the Scannable indexes the entity's items can be in.
	scannable []string
	// fields are T's attributes; known adds the derived ones and the type
	// attribute (sorted): every attribute an item of the entity can have.
	fields, known []string
	// patterns are the patterns the entity binds.
	patterns map[*pattern]bool
	// adopt is EntitySpec.Adopt.
	adopt func(pk, sk types.AttributeValue) bool
	// expires is the attribute of the entity's expiry, "" for none.
	expires string
}

// NewEntity validates spec against the table and T, registers the entity
// type on the table (so that [Table.Decode] can decode its items) and returns
// it. A description that cannot work is refused with an [*EntityError]: a
// primary key attribute without a binding, a binding of an unknown
// index or of a pattern whose attributes are not its index's, an
// attribute derived twice, a field of T named like a derived or reserved attribute
// (other than a table key attribute that is the field itself), a
// version attribute that is not an integer field of T, a second entity type
// whose items can be in an [Index] declared Scannable.
func NewEntity[T any](table *Table, spec EntitySpec[T]) (*Entity[T], error) {
	b := &entityBuilder[T]{spec: spec, table: table, goType: reflect.TypeFor[T](),
		derivedAt: map[string]string{}, byIndex: map[string][]derivation[T]{}, same: map[string]sameValue{}, sharable: map[string]bool{}, keyFields: map[string]bool{}}
	for _, step := range []func() error{b.basics, b.bindings, b.primaryKey, b.indexKeys, b.fields, b.indexGroups, b.versionField, b.lifecycleFields, b.uniqueFields} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	e := b.e
	e.slabOwn = e.slabValues()
	e.fieldNames = slices.Clone(e.codec.Names())
	e.placeFields()
	e.known = append(slices.Clone(e.fieldNames), table.typeAttr)
	for name := range b.derivedAt {
		if !b.keyFields[name] { // a field already
			e.known = append(e.known, name)
		}
	}
	sort.Strings(e.known)
	e.guarded = e.guardedAttributes()
	e.adopt = spec.Adopt
	e.updateRefused = e.updatable()
	e.patterns, e.decls = map[*pattern]bool{}, map[*declaration]bool{}
	for _, k := range b.bound {
		e.patterns[k.p] = true
	}
	for _, kb := range spec.Keys {
		e.decls[kb.decl] = true
	}
	r := registered{scannable: b.scannable, fields: e.fieldNames, known: e.known, patterns: e.patterns, adopt: spec.Adopt, expires: e.life.expires, decode: func(item map[string]types.AttributeValue) (any, error) {
		return e.decode(item)
	}}
	if err := table.register(spec.Type, r, func(index string, p EntityProblem, detail string) error {
		return b.fail(index, "", p, detail, nil)
	}); err != nil {
		return nil, err
	}
	return e, nil
}

// entityBuilder validates an EntitySpec step by step and builds the Entity.
type entityBuilder[T any] struct {
	spec      EntitySpec[T]
	table     *Table
	goType    reflect.Type
	e         *Entity[T]
	derivedAt map[string]string // derived attribute -> where, for messages
	byIndex   map[string][]derivation[T]
	scannable []string // the Scannable indexes the items can be in
	bound     []boundKey[T]
	// same identifies how each attribute derived by a binding is computed
	// (see boundKey.same).
	same map[string]sameValue
	// sharable marks the attributes derived from fields of every item
	// (Fields, no If): another such binding may store them too.
	sharable map[string]bool
	// keyFields are the table's key attributes that are fields of T
	// ([Pattern.Fields] of a Str, Num or Bin side on the field of that
	// attribute name).
	keyFields map[string]bool
	// textCount counts the derived values of each sameValue, textSlot
	// numbers those several attributes share (see shareText).
	textCount, textSlot map[sameValue]int
}

func (b *entityBuilder[T]) fail(index, attr string, p EntityProblem, detail string, err error) error {
	return &EntityError{Entity: b.spec.Type, GoType: b.goType.String(), Index: index, Attribute: attr, Problem: p, Detail: detail, Err: err}
}

// basics: a table, a type name, a struct T.
func (b *entityBuilder[T]) basics() error {
	if b.table == nil {
		return b.fail("", "", EntityNoTable, "NewEntity needs the *Table from NewTable", nil)
	}
	if b.spec.Type == "" {
		return b.fail("", "", EntityTypeName, "every entity needs a type name, stored in "+b.table.typeAttr, nil)
	}
	if !utf8.ValidString(b.spec.Type) {
		return b.fail("", "", EntityTypeName, "not valid UTF-8: the SDK would send each invalid byte as U+FFFD", nil)
	}
	c, err := codec.For(b.goType)
	if err != nil {
		return b.fail("", "", EntityGoType, "T must be a struct that the codec encodes field by field", err)
	}
	b.e = &Entity[T]{table: b.table, typeName: b.spec.Type, codec: c, version: b.spec.Version,
		texts: new(textHint), values: new(valueHint), shapes: &updateShapes{max: maxShapes}, guards: new(guardSet),
		puts: &sync.Pool{New: func() any { return new(putStream[T]) }}}
	return nil
}

// bindings: each Binding of spec.Keys fits the table and T.
func (b *entityBuilder[T]) bindings() error {
	for _, kb := range b.spec.Keys {
		k, err := compile[T](kb, b.table, b.e.codec, b.fail)
		if err != nil {
			return err
		}
		b.bound = append(b.bound, k)
	}
	return nil
}

// primaryKey: the table's key attributes are derived, exactly, by a
// binding of the table's pattern.
func (b *entityBuilder[T]) primaryKey() error {
	e := b.e
	for i := range b.bound {
		k := &b.bound[i]
		if k.p.index != "" {
			continue
		}
		e.fillKey = k.fill
		if err := b.derive(k, func(i int, d derivation[T]) {
			e.keyField[i] = k.field[i]
			if i == 0 {
				e.pk = d
			} else {
				e.sk, e.hasSK = d, true
			}
		}); err != nil {
			return err
		}
	}
	if e.pk.attr.Name == "" { // no binding of the table's key
		return b.fail("", b.table.primary.PartitionKey[0].Name, EntityMissingKey, "bind an OnTable pattern in EntitySpec.Keys", nil)
	}
	return nil
}

// derive turns the attributes of binding k into derivations, passed to
// add with their position in the pattern. An index key attribute that is
// a field of T is left to the field checks; a table key attribute that is
// one is derived from it (the key is the field, stored once); one that
// another binding already derives the same way (an inverted index, an
// LSI's partition key) is shared; one derived otherwise is refused.
func (b *entityBuilder[T]) derive(k *boundKey[T], add func(i int, d derivation[T])) error {
	where := "a key of index " + k.p.index
	if k.p.index == "" {
		where = "the table's key"
	}
	funcs := len(k.attrs) // the attributes of a Func no derivation keeps
	for i, a := range k.attrs {
		if k.field[i] {
			if k.p.index != "" {
				continue
			}
			b.keyFields[a.Name] = true
		}
		fromFields := k.same[i] != (sameValue{}) && !k.when
		if prev, dup := b.derivedAt[a.Name]; dup {
			switch {
			case fromFields && b.sharable[a.Name] && b.same[a.Name] == k.same[i]:
				continue
			case fromFields && b.sharable[a.Name]:
				// Computed another way from fields of every item: each
				// write checks that the two agree.
				b.e.agree = append(b.e.agree, derivation[T]{attr: a, index: k.p.index, limit: b.table.limit(a.Name), get: k.attr[i], inputs: k.inputs[i]})
				continue
			}
			return b.fail(k.p.index, a.Name, EntityDerivedTwice, "already derived as "+prev+
				"; two patterns can store one attribute only when both are bound to fields of T with Fields and neither is conditional (If)", nil)
		}
		b.derivedAt[a.Name] = where
		b.same[a.Name] = k.same[i]
		b.sharable[a.Name] = fromFields
		d := derivation[T]{attr: a, index: k.p.index, limit: b.table.limit(a.Name), inputs: k.inputs[i], whenInputs: k.whenInputs, computed: k.computed[i], opaque: k.opaque[i],
			keysText: k.same[i].keysText}
		b.e.declaredReads = b.e.declaredReads || k.declared[i]
		if k.attr != nil && k.attr[i] != nil {
			d.get = k.attr[i] // bound to fields: each attribute alone
			b.shareText(k, i, &d)
		} else {
			d.from, d.pos = k, i // a Func: all at once (funcResults)
			funcs--
		}
		add(i, d)
	}
	if funcs < len(k.attrs) {
		// The function gives every attribute of the pattern, in the
		// item's slab, those no derivation keeps included.
		b.e.funcSpare += funcs
	}
	return nil
}

// indexKeys: the attributes the bindings of secondary indexes derive, in
// the order of EntitySpec.Keys; no attribute is derived twice.
func (b *entityBuilder[T]) indexKeys() error {
	for i := range b.bound {
		k := &b.bound[i]
		if k.p.index == "" {
			continue
		}
		if err := b.derive(k, func(_ int, d derivation[T]) {
			b.byIndex[d.index] = append(b.byIndex[d.index], d)
			b.e.nDerived++
		}); err != nil {
			return err
		}
	}
	return nil
}

// fields: no field of T is named like a derived or reserved attribute,
// except a table key attribute that is the field itself.
func (b *entityBuilder[T]) fields() error {
	for _, f := range b.e.codec.Fields() {
		if where, ok := b.derivedAt[f.Name]; ok && !b.keyFields[f.Name] {
			return b.fail("", f.Name, EntityFieldCollision,
				fmt.Sprintf("field %s is %s, which is derived; rename the field or tag it dynamodbav:\"-\"%s", f.GoName, where, keyFieldHint(where)), nil)
		}
		if f.Name == b.table.typeAttr {
			return b.fail("", f.Name, EntityFieldCollision,
				fmt.Sprintf("field %s uses the entity-type attribute; rename it", f.GoName), nil)
		}
	}
	return nil
}

// keyFieldHint is how a field named like a key attribute that is
// derived, where, can be the key itself.
func keyFieldHint(where string) string {
	if where != "the table's key" {
		return ", or let the field be the index's key attribute: bind the Str, Num or Bin side of the index's pattern to it " +
			"(Fields, or FuncPartition beside a computed partition key), or derive only the index's other key attributes"
	}
	return ", or make it the key: bind a Str, Num or Bin side of the table's pattern to it, of the field's attribute type"
}

// indexGroups: for every index the entity can appear in, the attributes it
// derives and the key attributes that are fields of T (of a string, number
// or binary type matching the key). An index of which every key attribute
// is derived or a field can hold the entity's items: the Scannable ones
// are noted for register.
func (b *entityBuilder[T]) indexGroups() error {
	c := b.e.codec
	for i := range b.table.indexes {
		ks := &b.table.indexes[i]
		g := indexGroup[T]{index: ks.IndexName, derived: b.byIndex[ks.IndexName]}
		for _, d := range g.derived {
			g.out = append(g.out, d.attr.Name)
			g.decides = g.decides || !b.sharable[d.attr.Name]
			g.decide = append(g.decide, d.whenInputs...)
			if d.computed {
				g.decide = append(g.decide, d.inputs...)
			}
			g.value = append(g.value, d.inputs...)
		}
		g.touched = slices.Concat(g.decide, g.value)
		g.out = slices.Clip(g.out)
		var missing []string
		for _, a := range ks.Attributes() {
			if _, derived := b.derivedAt[a.Name]; derived {
				continue
			}
			f, isField := c.Field(a.Name)
			if !isField {
				missing = append(missing, a.Name)
				continue
			}
			if k := fieldAttrKind(f.Kind); k != "" && k != a.Type {
				return b.fail(ks.IndexName, a.Name, EntityFieldType,
					fmt.Sprintf("field %s encodes as %s, the index key is %s", f.GoName, k, a.Type), nil)
			}
			if f.Kind != codec.AVUnknown && fieldAttrKind(f.Kind) == "" {
				return b.fail(ks.IndexName, a.Name, EntityFieldType,
					fmt.Sprintf("field %s is not a string, number or binary, the index key is %s", f.GoName, a.Type), nil)
			}
			timeKey, err := b.orderedField(ks, a, f)
			if err != nil {
				return err
			}
			g.fields = append(g.fields, derivation[T]{attr: a, index: ks.IndexName, limit: b.table.limit(a.Name), timeKey: timeKey})
		}
		if len(g.derived) > 0 && len(missing) > 0 {
			return b.fail(ks.IndexName, missing[0], EntityMissingKey,
				fmt.Sprintf("attributes %v are neither derived nor fields of T: the item could never be in the index", missing), nil)
		}
		if len(g.derived) > 0 || len(g.fields) > 0 {
			b.e.groups = append(b.e.groups, g)
		}
		if ks.Scannable && len(missing) == 0 {
			b.scannable = append(b.scannable, ks.IndexName)
		}
	}
	return nil
}

// orderedField checks a field of T that is a key attribute of index ks:
// DynamoDB must order a sort key attribute as Go orders the field's values,
// and one value must have one encoding. Strings, numbers stored as numbers
// and []byte do; a time.Time is stored in [TimeKeyLayout] (timeKey); a
// number stored as a string ("10" sorts before "9") is refused as a sort
// key, and so is, for a string or binary key, a type whose encoding
// keyfirst cannot see (a custom marshaler, an interface); such a field of
// a number key is checked at each write to be a number, which DynamoDB
// orders by value.
func (b *entityBuilder[T]) orderedField(ks *KeySchema, a Attribute, f codec.Field) (timeKey bool, err error) {
	t := f.Type
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[time.Time]() && f.Kind == codec.AVString {
		return true, nil
	}
	if !slices.Contains(ks.SortKey, a) {
		return false, nil
	}
	switch {
	case f.Kind == codec.AVUnknown && a.Type != types.ScalarAttributeTypeN:
		return false, b.fail(ks.IndexName, a.Name, EntityFieldOrder, fmt.Sprintf(
			"field %s (%s) encodes through a custom marshaler or by its dynamic value, so keyfirst cannot know that DynamoDB orders it as its values; "+
				"derive the attribute with a Composite side of a keys codec (keys.Enum, keys.Int, keys.Time...)", f.GoName, f.Type), nil)
	case f.Kind == codec.AVString && t.Kind() != reflect.String:
		return false, b.fail(ks.IndexName, a.Name, EntityFieldOrder, fmt.Sprintf(
			"field %s (%s) is stored as a decimal string, which DynamoDB orders by bytes (\"10\" < \"9\", \"-1\" < \"-2\"); "+
				"store it as a number (drop the string option, make the key N) or derive the attribute with keys.Int or keys.Uint", f.GoName, f.Type), nil)
	}
	return false, nil
}

// versionField: the version attribute is an integer field of T of 32 bits
// or more (minVersionBits), not a key.
func (b *entityBuilder[T]) versionField() error {
	v := b.spec.Version
	if v == "" {
		return nil
	}
	f, ok := b.e.codec.Field(v)
	switch {
	case !ok:
		return b.fail("", v, EntityVersion, "no field of T has that attribute name", nil)
	case !f.Integer():
		return b.fail("", v, EntityVersion, fmt.Sprintf("field %s is %s; use an integer type encoded as a number", f.GoName, f.Type), nil)
	case !f.Fixed:
		return b.fail("", v, EntityVersion, fmt.Sprintf("field %s is inside an embedded pointer; move it to T or to an embedded struct", f.GoName), nil)
	case f.Type.Bits() < minVersionBits:
		limit, _ := versionLimit(f.Type)
		return b.fail("", v, EntityVersion, fmt.Sprintf("field %s is %s, which runs out after %d writes of an item; use int64 (the stored numbers stay valid)",
			f.GoName, f.Type, limit), nil)
	case b.table.isKeyAttribute(v):
		return b.fail("", v, EntityVersion, "a key attribute cannot be a version: each write would move the item", nil)
	}
	b.e.versionMax, b.e.versionUnsigned = versionLimit(f.Type)
	return nil
}

// Table returns the entity's table.
func (e *Entity[T]) Table() *Table { return e.table }

// In returns the entity bound to table t, a binding of its table's
// description ([Table.Named]): every operation of the result, and every
// query of it, reads and writes t. e is unchanged, and the two can be used
// at the same time. A table of another description is refused with an
// [*EntityError] ([EntityOtherTable]).
//
//	orders, err := shop.Orders.In(table)
func (e *Entity[T]) In(t *Table) (*Entity[T], error) {
	if !e.table.SameSchema(t) {
		name := "nil"
		if t != nil {
			name = fmt.Sprintf("%q", t.name)
		}
		return nil, &EntityError{Entity: e.typeName, GoType: reflect.TypeFor[T]().String(), Problem: EntityOtherTable,
			Detail: fmt.Sprintf("table %s is not a binding of the description of %q: bind that one with Named", name, e.table.name)}
	}
	c := *e
	c.table = t
	return &c, nil
}

// Type returns the entity-type name.
func (e *Entity[T]) Type() string { return e.typeName }

// VersionAttribute returns the name of the version attribute, or "" when the
// entity has none.
func (e *Entity[T]) VersionAttribute() string { return e.version }

// Attributes returns the names of T's own attributes (its fields), in
// declaration order.
func (e *Entity[T]) Attributes() []string { return slices.Clone(e.fieldNames) }

func fieldAttrKind(k codec.AVKind) types.ScalarAttributeType {
	switch k {
	case codec.AVString:
		return types.ScalarAttributeTypeS
	case codec.AVNumber:
		return types.ScalarAttributeTypeN
	case codec.AVBinary:
		return types.ScalarAttributeTypeB
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
