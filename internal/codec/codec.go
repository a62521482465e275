// Package codec converts Go structs to and from DynamoDB attribute maps with
// the rules of the attributevalue package (the `dynamodbav` tag, its options,
// embedded structs), doing the reflection once per type.
//
// The common field types (strings, booleans, numbers, []byte, time.Time,
// []string and pointers to scalars) are encoded and decoded directly; every
// other field, and every case the direct path does not recognise (a
// custom Marshaler, a set tag on a number slice, a decode error), goes
// through attributevalue itself, so the result is the same as
// attributevalue.MarshalMap and attributevalue.UnmarshalMap on a pointer to
// the struct. One deliberate difference: decoding matches attribute names
// exactly (attributevalue falls back to a case-insensitive match), so an
// attribute "pk" never lands in a field named "PK".
//
// Embedded structs are flattened as attributevalue flattens them,
// unexported ones included (their exported fields are promoted). For
// ErrUnsupported instead, because attributevalue would not encode them
// field by field or cannot encode them at all: a struct that is a
// Marshaler or an Unmarshaler, by its own method or one promoted from an
// embedded type (attributevalue encodes the whole item with that method,
// dropping the other fields); an embedded pointer to an unexported struct
// with fields and an embedded unexported non-struct type (attributevalue
// panics on them); two fields for one attribute at the same depth
// (attributevalue drops both).
//
// Encode also checks what it encodes, with the one value check of
// everything keyfirst sends ([itemsize.Check]): a number DynamoDB refuses,
// a string that is not valid UTF-8, an invalid set, lists and maps nested
// beyond DynamoDB's levels, anywhere in a field, is an
// [itemsize.InvalidError]. Where a field's kind decides what Check would
// find (a string needs only its UTF-8 checked, an integer is always a
// number DynamoDB takes, a time's text is ASCII), the size is computed
// from the kind, to the byte Check's (size.go); the rest, and every
// value refused, go through Check.
//
// The common kinds are read and written at the field's address (unsafe
// loads and stores at offsets computed once from reflect). For a struct
// made only of them, at fixed offsets (Direct), EncodeDirect and
// DecodeDirect convert it in place, so the caller's value need not be
// copied to the heap for reflection, and EncodeDirect takes the item's
// string, number and boolean values from one slab (two arrays per item
// rather than an allocation per value): that is what puts the codec at or
// below hand-written code's allocations. The tests hold both paths to
// attributevalue's results, and go test -race checks the pointer
// arithmetic (checkptr).
package codec

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"sync"
	"time"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ErrUnsupported reports a struct type the codec cannot represent.
var ErrUnsupported = errors.New("codec: unsupported struct")

// AVKind is the attribute type a field always encodes to, when it is fixed
// by the field's Go type.
type AVKind uint8

// The attribute types a field can be known to encode to.
const (
	// AVUnknown: the type depends on the value or on a custom marshaler.
	AVUnknown AVKind = iota
	AVString
	AVNumber
	AVBinary
	AVBool
	AVList
	AVStringSet
)

// Field describes one attribute of a struct type.
type Field struct {
	// Name is the attribute name.
	Name string
	// GoName is the Go field name (the last one of an embedded path).
	GoName string
	// Type is the field's Go type.
	Type reflect.Type
	// Kind is the attribute type the field encodes to when it is not
	// omitted or NULL.
	Kind AVKind
	// OmitEmpty reports the omitempty option.
	OmitEmpty bool
	// Nullable reports whether the field can encode to NULL (a nil pointer,
	// slice or map without omitempty).
	Nullable bool
	// Fixed reports a field at a fixed offset from the start of the struct
	// (not behind an embedded pointer): IntAt and SetIntAt can reach it.
	Fixed bool
}

// Integer reports whether the field is a plain signed or unsigned integer
// encoded as a Number (a candidate for a version attribute).
func (f Field) Integer() bool {
	if f.Kind != AVNumber {
		return false
	}
	switch f.Type.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// Codec encodes and decodes one struct type. It is safe for concurrent use.
type Codec struct {
	typ    reflect.Type
	fields []field
	byName map[string]int
	// byGoName: see FieldByGoName.
	byGoName map[string]int
	names    []string
	direct   bool // every field fast and fixed: EncodeDirect and DecodeDirect apply
	// nS and nN are the string and number values an item can need
	// (slabKinds): the size of EncodeDirect's slab.
	nS, nN int
	// lists are the fields that are lists of strings, whose elements a
	// slab holds.
	lists []int
}

type kind uint8

const (
	kSlow kind = iota
	kString
	kBool
	kInt
	kUint
	kFloat
	kBytes
	kTime
	kStrings
)

type field struct {
	Field
	index    []int // path from the root struct
	viaPtr   bool  // the path crosses an embedded pointer
	tag      tag
	kind     kind
	ptr      bool         // a pointer to a scalar of kind
	bits     int          // float size
	size     uintptr      // size of the scalar (the pointed-to one for ptr)
	elem     reflect.Type // the pointed-to type, for ptr
	offset   uintptr      // from the start of the root struct, when Fixed
	slowType reflect.Type
}

var cache sync.Map // reflect.Type -> *Codec or error

// For returns the codec of struct type t, built once and cached.
func For(t reflect.Type) (*Codec, error) {
	if c, ok := cache.Load(t); ok {
		if err, isErr := c.(error); isErr {
			return nil, err
		}
		return c.(*Codec), nil
	}
	c, err := build(t)
	if err != nil {
		cache.Store(t, err)
		return nil, err
	}
	actual, _ := cache.LoadOrStore(t, c)
	if err, isErr := actual.(error); isErr {
		return nil, err
	}
	return actual.(*Codec), nil
}

// Fields returns the attributes of the type in declaration order.
func (c *Codec) Fields() []Field {
	out := make([]Field, len(c.fields))
	for i := range c.fields {
		out[i] = c.fields[i].Field
	}
	return out
}

// Names returns the attribute names of the type in declaration order. The
// slice is shared: do not modify it.
func (c *Codec) Names() []string { return c.names }

// Field returns the attribute called name.
func (c *Codec) Field(name string) (Field, bool) {
	i, ok := c.byName[name]
	if !ok {
		return Field{}, false
	}
	return c.fields[i].Field, true
}

// Index returns the position of the field of attribute name in
// [Codec.Names], -1 when the type has none.
func (c *Codec) Index(name string) int {
	if i, ok := c.byName[name]; ok {
		return i
	}
	return -1
}

// Len is the number of fields, an upper bound on the attributes Encode adds.
func (c *Codec) Len() int { return len(c.fields) }

// Direct reports whether EncodeDirect and DecodeDirect apply to the type:
// every field is of a kind the codec handles itself, at a fixed offset.
func (c *Codec) Direct() bool { return c.direct }

// Encode encodes the fields of v, a value of the codec's struct type, into
// out (one value per field, in the order of [Codec.Names]; nil for a field
// the item does not have), and returns their size as [itemsize.Size]
// counts it: an item's map can then be made with room for exactly the
// values it has ([Codec.Store]). A value that DynamoDB would
// refuse or change (an invalid number or set, a string that is not valid
// UTF-8, lists and maps nested too deep, anywhere in a field) is an
// [*itemsize.InvalidError].
func (c *Codec) Encode(v reflect.Value, out []types.AttributeValue) (int, error) {
	out, size := out[:len(c.fields)], 0
	for i := range c.fields {
		av, n, err := c.fields[i].encode(v)
		if err != nil {
			return size, err
		}
		out[i] = av
		size += n
	}
	return size, nil
}

// Store adds to dst the values that [Codec.Encode] or
// [Codec.EncodeDirect] put in vals, each under its field's attribute.
func (c *Codec) Store(dst map[string]types.AttributeValue, vals []types.AttributeValue) {
	for i, av := range vals[:len(c.names)] {
		if av != nil {
			dst[c.names[i]] = av
		}
	}
}

// encode encodes the field of the root value v, checked, and returns its
// size; nil when the item does not have it (omitted, or behind a nil
// embedded pointer).
func (f *field) encode(v reflect.Value) (types.AttributeValue, int, error) {
	fv, ok := f.get(v)
	if !ok {
		return nil, 0, nil
	}
	return f.encodeValue(fv)
}

// encodeValue encodes fv, a value of the field's type, as the field
// holding it is encoded, checked, and returns its size; nil when the item
// would not have the attribute (omitted).
func (f *field) encodeValue(fv reflect.Value) (types.AttributeValue, int, error) {
	var av types.AttributeValue
	var n int
	if f.kind == kSlow {
		var err error
		if av, err = f.encodeSlow(fv); err != nil {
			return nil, 0, fmt.Errorf("codec: field %s (attribute %q): %w", f.GoName, f.Name, err)
		}
	} else {
		av, n = f.encodeAt(addressOf(fv), nil)
	}
	if av == nil {
		return nil, 0, nil
	}
	n, err := f.checkedSize(av, n)
	if err != nil {
		return nil, 0, err
	}
	return av, n, nil
}

// Decode sets the fields of v, an addressable value of the codec's struct
// type, from src. Attributes without a field are ignored; fields without an
// attribute are left as they are.
func (c *Codec) Decode(src map[string]types.AttributeValue, v reflect.Value) error {
	for i := range c.fields {
		f := &c.fields[i]
		av, ok := src[f.Name]
		if !ok {
			continue
		}
		fv := f.set(v)
		if f.kind != kSlow && f.decodeAt(av, fv.Addr().UnsafePointer()) {
			continue
		}
		if err := f.decodeSlow(av, fv); err != nil {
			return fmt.Errorf("codec: field %s (attribute %q): %w", f.GoName, f.Name, err)
		}
	}
	return nil
}

// addressOf returns the address of v, or of a copy when v is not
// addressable.
func addressOf(v reflect.Value) unsafe.Pointer {
	if v.CanAddr() {
		return v.Addr().UnsafePointer()
	}
	cp := reflect.New(v.Type())
	cp.Elem().Set(v)
	return cp.UnsafePointer()
}

// IntAt reads the integer field called name (a Fixed field) of the struct
// at base. base does not escape.
func (c *Codec) IntAt(base unsafe.Pointer, name string) int64 {
	f := &c.fields[c.byName[name]]
	p := unsafe.Add(base, f.offset)
	if k := f.Type.Kind(); k >= reflect.Uint && k <= reflect.Uint64 {
		return int64(loadUint(p, f.size))
	}
	return loadInt(p, f.size)
}

// TimeAt reads the field at position i (in the order of [Codec.Names])
// of the struct at base when it is a time.Time encoded as RFC 3339 at a
// fixed offset, not behind a pointer; false otherwise. base does not
// escape.
func (c *Codec) TimeAt(base unsafe.Pointer, i int) (time.Time, bool) {
	f := &c.fields[i]
	if f.kind != kTime || f.ptr || !f.Fixed || f.tag.unixTime {
		return time.Time{}, false
	}
	return *(*time.Time)(unsafe.Add(base, f.offset)), true
}

// SetIntAt stores n in the integer field called name (a Fixed field) of
// the struct at base. base does not escape.
func (c *Codec) SetIntAt(base unsafe.Pointer, name string, n int64) {
	f := &c.fields[c.byName[name]]
	storeInt(unsafe.Add(base, f.offset), f.size, n)
}

// get reads the field from the root value; false when an embedded pointer
// on the way is nil.
func (f *field) get(v reflect.Value) (reflect.Value, bool) {
	if !f.viaPtr {
		if len(f.index) == 1 {
			return v.Field(f.index[0]), true
		}
		return v.FieldByIndex(f.index), true
	}
	for i, x := range f.index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// set returns the settable field, allocating nil embedded pointers.
func (f *field) set(v reflect.Value) reflect.Value {
	if !f.viaPtr {
		if len(f.index) == 1 {
			return v.Field(f.index[0])
		}
		return v.FieldByIndex(f.index)
	}
	for i, x := range f.index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v
}

var (
	timeType        = reflect.TypeFor[time.Time]()
	bytesType       = reflect.TypeFor[[]byte]()
	stringsType     = reflect.TypeFor[[]string]()
	marshalerType   = reflect.TypeFor[attributevalue.Marshaler]()
	unmarshalerType = reflect.TypeFor[attributevalue.Unmarshaler]()
)

// encodeSlow encodes the field through attributevalue, as a one-field
// struct carrying the field's own tag.
func (f *field) encodeSlow(v reflect.Value) (types.AttributeValue, error) {
	w := reflect.New(f.slowType)
	w.Elem().Field(0).Set(v)
	m, err := attributevalue.MarshalMap(w.Interface())
	if err != nil {
		return nil, err
	}
	return m["v"], nil
}

func (f *field) decodeSlow(av types.AttributeValue, v reflect.Value) error {
	w := reflect.New(f.slowType)
	if err := attributevalue.UnmarshalMap(map[string]types.AttributeValue{"v": av}, w.Interface()); err != nil {
		return err
	}
	v.Set(w.Elem().Field(0))
	return nil
}

// candidate is a field found while walking the struct and its embedded
// structs.
type candidate struct {
	sf     reflect.StructField
	tag    tag
	name   string
	tagged bool
	index  []int
	viaPtr bool
}

func build(t reflect.Type) (*Codec, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("%w: %s is a %s, not a struct", ErrUnsupported, t, t.Kind())
	}
	if err := checkNotCustom(t); err != nil {
		return nil, err
	}
	var cands []candidate
	if err := walk(t, nil, false, map[reflect.Type]bool{}, &cands); err != nil {
		return nil, err
	}
	chosen, err := dominant(t, cands)
	if err != nil {
		return nil, err
	}
	c := &Codec{typ: t, byName: make(map[string]int, len(chosen)), direct: true}
	for _, cd := range chosen {
		f := classify(cd)
		if !f.viaPtr {
			f.Fixed = true
			f.offset = offsetOf(t, f.index)
		}
		c.direct = c.direct && f.Fixed && f.kind != kSlow
		c.byName[f.Name] = len(c.fields)
		c.fields = append(c.fields, f)
		c.names = append(c.names, f.Name)
	}
	c.nS, c.nN, c.lists = slabKinds(c.fields)
	c.byGoName = goNames(t, c.fields)
	return c, nil
}

// offsetOf is the offset of the field at index (a path through embedded
// structs, none of them a pointer) from the start of t.
func offsetOf(t reflect.Type, index []int) uintptr {
	var off uintptr
	for _, i := range index {
		sf := t.Field(i)
		off += sf.Offset
		t = sf.Type
	}
	return off
}

// walk collects the fields of t, descending into embedded structs as
// attributevalue (and encoding/json) do.
func walk(t reflect.Type, index []int, viaPtr bool, onPath map[reflect.Type]bool, out *[]candidate) error {
	if onPath[t] {
		return nil
	}
	onPath[t] = true
	defer delete(onPath, t)
	for i := range t.NumField() {
		sf := t.Field(i)
		tg := parseTag(sf.Tag)
		if tg.ignore {
			continue
		}
		idx := append(append(make([]int, 0, len(index)+1), index...), i)
		ft := sf.Type
		isPtr := false
		if ft.Name() == "" && ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
			isPtr = true
		}
		if sf.Anonymous && tg.name == "" && ft.Kind() == reflect.Struct {
			if !sf.IsExported() && isPtr {
				// attributevalue panics decoding through it (it cannot
				// allocate an unexported pointer).
				var inside []candidate
				if err := walk(ft, idx, true, onPath, &inside); err != nil || len(inside) > 0 {
					return fmt.Errorf("%w: %s embeds a pointer to the unexported struct %s, which attributevalue cannot decode into; "+
						"embed it by value, export it, or tag it dynamodbav:\"-\"", ErrUnsupported, t, ft)
				}
				continue
			}
			if err := walk(ft, idx, viaPtr || isPtr, onPath, out); err != nil {
				return err
			}
			continue
		}
		if !sf.IsExported() {
			if sf.Anonymous {
				// attributevalue takes it for a field and panics on it.
				return fmt.Errorf("%w: %s embeds the unexported type %s, which attributevalue cannot encode; "+
					"export it, make it a named field, or tag it dynamodbav:\"-\"", ErrUnsupported, t, sf.Type)
			}
			continue
		}
		name := sf.Name
		if tg.name != "" {
			name = tg.name
		}
		*out = append(*out, candidate{sf: sf, tag: tg, name: name, tagged: tg.name != "", index: idx, viaPtr: viaPtr})
	}
	return nil
}

// dominant keeps, for each attribute name, the field Go's embedding rules
// select (the shallowest; at equal depth the one named by a tag). Two
// candidates left at the same depth are an ambiguity that attributevalue
// resolves by dropping both; here it is an error.
func dominant(t reflect.Type, cands []candidate) ([]candidate, error) {
	byName := map[string][]candidate{}
	for _, c := range cands {
		byName[c.name] = append(byName[c.name], c)
	}
	var out []candidate
	for name, cs := range byName {
		if name == "" {
			return nil, fmt.Errorf("%w: %s has a field with an empty attribute name", ErrUnsupported, t)
		}
		minDepth := len(cs[0].index)
		for _, c := range cs {
			minDepth = min(minDepth, len(c.index))
		}
		var top, tagged []candidate
		for _, c := range cs {
			if len(c.index) == minDepth {
				top = append(top, c)
				if c.tagged {
					tagged = append(tagged, c)
				}
			}
		}
		switch {
		case len(tagged) == 1:
			out = append(out, tagged[0])
		case len(top) == 1:
			out = append(out, top[0])
		default:
			return nil, fmt.Errorf("%w: %s has %d fields for the attribute %q at the same depth",
				ErrUnsupported, t, len(top), name)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].index, out[j].index
		for k := 0; k < len(a) && k < len(b); k++ {
			if a[k] != b[k] {
				return a[k] < b[k]
			}
		}
		return len(a) < len(b)
	})
	return out, nil
}

// checkNotCustom refuses a struct type that is itself an attributevalue
// Marshaler or Unmarshaler, usually through a method promoted from an
// embedded type: attributevalue would then encode (or decode) the whole
// item with that method alone, ignoring the other fields (MarshalMap even
// returns an empty map when the method does not return a map), which the
// codec, working field by field, cannot match.
func checkNotCustom(t reflect.Type) error {
	implements := func(i reflect.Type) bool { return t.Implements(i) || reflect.PointerTo(t).Implements(i) }
	method := ""
	switch {
	case implements(marshalerType):
		method = "MarshalDynamoDBAttributeValue"
	case implements(unmarshalerType):
		method = "UnmarshalDynamoDBAttributeValue"
	default:
		return nil
	}
	return fmt.Errorf("%w: %s has the method %s (its own or promoted from an embedded type), with which "+
		"attributevalue would encode or decode the whole item instead of its fields; give the embedded "+
		"field a name (Money Money `dynamodbav:\"money\"`) so that the method applies to that attribute only",
		ErrUnsupported, t, method)
}

func hasCustomCodec(t reflect.Type) bool {
	for _, x := range []reflect.Type{t, reflect.PointerTo(t)} {
		if x.Implements(marshalerType) || x.Implements(unmarshalerType) {
			return true
		}
	}
	return false
}

// isNumberType reports a string type with Float64, Int64 and String methods
// (json.Number, attributevalue.Number), which attributevalue encodes as N.
func isNumberType(t reflect.Type) bool {
	if t.Kind() != reflect.String {
		return false
	}
	for _, m := range []string{"Float64", "Int64", "String"} {
		if _, ok := t.MethodByName(m); !ok {
			return false
		}
	}
	return true
}

// scalarKind is the fast kind of a non-pointer type, or kSlow.
func scalarKind(t reflect.Type, tg tag) (kind, int) {
	if hasCustomCodec(t) || isNumberType(t) {
		return kSlow, 0
	}
	if tg.asString {
		switch t.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
			reflect.Float32, reflect.Float64:
		default:
			return kSlow, 0
		}
	}
	if tg.unixTime && t != timeType {
		return kSlow, 0
	}
	if tg.stringSet && t != stringsType {
		return kSlow, 0
	}
	switch {
	case t == timeType:
		return kTime, 0
	case t == bytesType:
		return kBytes, 0
	case t == stringsType:
		return kStrings, 0
	}
	switch t.Kind() {
	case reflect.String:
		return kString, 0
	case reflect.Bool:
		return kBool, 0
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return kInt, 64
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return kUint, 64
	case reflect.Float32:
		return kFloat, 32
	case reflect.Float64:
		return kFloat, 64
	}
	return kSlow, 0
}

func classify(c candidate) field {
	ft := c.sf.Type
	f := field{
		Field: Field{
			Name:      c.name,
			GoName:    c.sf.Name,
			Type:      ft,
			OmitEmpty: c.tag.omitEmpty,
		},
		index:  c.index,
		viaPtr: c.viaPtr,
		tag:    c.tag,
	}
	fastTag := !c.tag.nullEmpty && !c.tag.omitEmptyElem && !c.tag.nullEmptyElem &&
		!c.tag.binarySet && !c.tag.numberSet
	if fastTag {
		if ft.Kind() == reflect.Pointer && ft.Name() == "" {
			if !hasCustomCodec(ft) {
				k, bits := scalarKind(ft.Elem(), c.tag)
				if k != kSlow && k != kBytes && k != kStrings {
					f.kind, f.bits, f.ptr = k, bits, true
					f.elem, f.size = ft.Elem(), ft.Elem().Size()
				}
			}
		} else {
			f.kind, f.bits = scalarKind(ft, c.tag)
			f.size = ft.Size()
		}
	}
	f.Kind = avKind(f)
	switch {
	case f.ptr, f.kind == kBytes, f.kind == kStrings:
		f.Nullable = !c.tag.omitEmpty
	case f.kind == kSlow:
		switch ft.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
			f.Nullable = !c.tag.omitEmpty
		}
	}
	opts := ""
	if c.tag.raw != "" {
		opts = "," + c.tag.raw
	}
	f.slowType = reflect.StructOf([]reflect.StructField{{
		Name: "V",
		Type: ft,
		Tag:  reflect.StructTag(`dynamodbav:"v` + opts + `"`),
	}})
	return f
}

func avKind(f field) AVKind {
	switch f.kind {
	case kString:
		return AVString
	case kBool:
		return AVBool
	case kInt, kUint, kFloat:
		if f.tag.asString {
			return AVString
		}
		return AVNumber
	case kTime:
		if f.tag.unixTime {
			return AVNumber
		}
		return AVString
	case kBytes:
		return AVBinary
	case kStrings:
		if f.tag.stringSet {
			return AVStringSet
		}
		return AVList
	}
	return AVUnknown
}

// FieldByGoName finds the field of the codec's struct type that Go calls
// name (as reflect.Type.FieldByName resolves it, promoted fields of
// embedded structs included) and returns it with its attribute name; false
// when no encoded field is called so (an unexported field, one tagged "-",
// one that two embedded structs promote).
func (c *Codec) FieldByGoName(name string) (Field, bool) {
	i, ok := c.byGoName[name]
	if !ok {
		return Field{}, false
	}
	return c.fields[i].Field, true
}

// goNames maps the Go names by which reflect.Type.FieldByName finds an
// encoded field to that field: what FieldByGoName resolves, once. A name
// FieldByName resolves to a field is that field's own Go name, so the
// fields' names are the only candidates.
func goNames(t reflect.Type, fields []field) map[string]int {
	m := make(map[string]int, len(fields))
	for i := range fields {
		if sf, ok := t.FieldByName(fields[i].GoName); ok && slices.Equal(fields[i].index, sf.Index) {
			m[fields[i].GoName] = i
		}
	}
	return m
}

// SetField stores x, a value of the field's own type, in the field with
// attribute name of v, an addressable value of the codec's struct type
// (nil embedded pointers on the way are allocated).
func (c *Codec) SetField(v reflect.Value, name string, x reflect.Value) {
	c.fields[c.byName[name]].set(v).Set(x)
}

// EncodeField encodes the field with attribute name of v, a value of the
// codec's struct type, exactly as [Codec.Encode] encodes it in an item,
// value checks included: ok is false when the item would not have the
// attribute (omitempty on an empty value, a nil embedded pointer).
func (c *Codec) EncodeField(v reflect.Value, name string) (av types.AttributeValue, ok bool, err error) {
	av, _, err = c.fields[c.byName[name]].encode(v)
	return av, av != nil, err
}

// EncodeValue encodes x, a value of the type of the field with attribute
// name, exactly as [Codec.EncodeField] encodes that field holding x, value
// checks included, without a struct to hold it: ok is false when the item
// would not have the attribute (omitempty on an empty value).
func (c *Codec) EncodeValue(name string, x reflect.Value) (av types.AttributeValue, ok bool, err error) {
	av, _, err = c.fields[c.byName[name]].encodeValue(x)
	return av, av != nil, err
}
