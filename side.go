package keyfirst

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/codec"
	"github.com/keyfirst/keyfirst/keys"
)

// Side is one side of an index key, its partition key or its sort key: the
// attribute or attributes that hold it and how a Go value V is stored in
// them. Build it with [Composite] (a keys definition concatenated in one
// string attribute), [Native] (a keys definition's segments in one
// attribute each, a native multi-attribute key), [ID], [Str], [Num] or
// [Bin] (a value stored as it is), [Const] (one literal value) or
// [NoSort] (no sort key), and give it to [OnTable] or [OnIndex].
//
// A Side is an immutable value. One that could not be built keeps its
// error, which every use returns as a [*PatternError].
type Side[V any] struct {
	s *side
	// enc encodes v into out, its values and their texts from sl (nil:
	// allocated one by one).
	enc func(v V, sl *codec.Slab, out []types.AttributeValue) error
	// one encodes a side of one attribute without a buffer (nil for the
	// others).
	one func(v V, sl *codec.Slab) (types.AttributeValue, error)
	// dec decodes a stored value of the side back into V: the inverse of
	// enc, for the sides of a table's key (Composite, the values as they
	// are, Const, NoSort); nil for the others.
	dec func(in []types.AttributeValue) (V, error)
	// text appends the key text of a Composite side (nil for the others),
	// which fromFields1 calls on the field itself.
	text func(dst []byte, v V) ([]byte, error)
}

// None is the value of the missing sort key of a [Pattern] built with
// [NoSort].
type None struct{}

// side is the untyped part of a Side, shared by its copies.
type side struct {
	attrs []Attribute
	// segs are the Go types of the values V is made of, in order: what the
	// fields bound to the side must be ([Pattern.Fields]).
	segs []reflect.Type
	// def is the keys definition of the whole side (zero for a value
	// stored as it is, and for a tuple of sides): the definition its
	// conditions are built from.
	def keys.DefID
	// per describes each attribute's value.
	per []attrValue
	// tuple: V is a keys tuple (keys.T2 ...) whose fields are segs;
	// copies copies them from and to an item's fields without reflect,
	// when copied is set ([tupleCopies]).
	tuple  bool
	copies []segCopy
	copied bool
	// konst is the value of a [Const] side (constant true): the one
	// value every item stores.
	konst    string
	constant bool
	// keysText: each value of the side is a text that a keys.Key1 made
	// (Composite), which keys has checked: valid UTF-8, as a key value
	// must be (checkKeyValue does not check it again).
	keysText bool
	// prefix checks the prefix of a BeginsWith condition on a side that
	// stores a string as it is (Str, ID, Time), refusing one that no value
	// of the side begins with; nil for the sides begins_with does not
	// apply to.
	prefix func(string) error
	desc   string
	err    error
}

// attrValue is how one attribute of a side is computed: from which
// segments (fields) and by which definition.
type attrValue struct {
	def     keys.DefID // zero for a value as it is
	native  bool       // a segment of def (Native), not its whole key
	pos, of int        // the segment of def the attribute holds (Native), or 0 of 1
	segs    []int      // the segments (bound fields) the value is computed from
}

// Composite stores V in the string attribute attr as def encodes it: a
// composite key such as CANCELLED#2019-07-01T00:00:00.000000 or ORDER#o1.
// V is def's value: A for a keys.Key1[A], keys.T2[A, B] for a
// keys.Key2[A, B], and so on.
func Composite[V any](attr string, def keys.Def[V]) Side[V] {
	ds := defSide(def, false, attr)
	var app func(dst []byte, v V) ([]byte, error)
	app, ds.keysText = appendOf(def)
	s := single(ds, func(v V, sl *codec.Slab) (types.AttributeValue, error) { return compositeValue(app, v, sl) })
	s.text = app
	s.dec = func(in []types.AttributeValue) (V, error) {
		str, ok := in[0].(*types.AttributeValueMemberS)
		if !ok {
			var zero V
			return zero, fmt.Errorf("%s: %s is not a string", attr, avTypeName(in[0]))
		}
		return def.DecodeValue(str.Value)
	}
	return s
}

// compositeValue is the value holding the text app appends for v, from sl.
func compositeValue[V any](app func(dst []byte, v V) ([]byte, error), v V, sl *codec.Slab) (types.AttributeValue, error) {
	b, err := app(sl.Bytes(), v)
	if err != nil {
		return nil, err
	}
	return sl.Str(sl.Text(b)), nil
}

// appendOf is def's AppendValue: a keys.Key1's own Append (one call,
// where the interface's takes three), nil for a nil def (whose side is
// refused, and never encodes). key1 tells a keys.Key1, whose texts keys
// has checked (side.keysText).
func appendOf[V any](def keys.Def[V]) (app func(dst []byte, v V) ([]byte, error), key1 bool) {
	switch k := def.(type) {
	case nil:
		return nil, false
	case keys.Key1[V]:
		return k.Append, true
	}
	return def.AppendValue, false
}

// single is a side of one attribute whose value one encodes.
func single[V any](s *side, one func(V, *codec.Slab) (types.AttributeValue, error)) Side[V] {
	return Side[V]{s: s, one: one, enc: func(v V, sl *codec.Slab, out []types.AttributeValue) (err error) {
		out[0], err = one(v, sl)
		return err
	}}
}

// Native stores V in one string attribute per segment of def, in order: a
// native multi-attribute key of a global secondary index, which DynamoDB
// compares attribute by attribute. len(attrs) is the number of def's
// segments (1 to 4).
func Native[V any](def keys.Def[V], attrs ...string) Side[V] {
	s := defSide(def, true, attrs...)
	if s.err == nil && len(attrs) != len(s.segs) {
		s.err = fmt.Errorf("%d attributes for the %d segments of %s: give one attribute per segment", len(attrs), len(s.segs), s.def)
	}
	return Side[V]{s: s, enc: func(v V, sl *codec.Slab, out []types.AttributeValue) error {
		parts, err := def.PartsValue(v)
		if err != nil {
			return err
		}
		for i, p := range parts {
			out[i] = sl.Str(p)
		}
		return nil
	}}
}

// defSide is the untyped side of a keys definition over attrs: its
// concatenated form (Composite) or its segments (native).
func defSide[V any](def keys.Def[V], native bool, attrs ...string) *side {
	s := &side{}
	for _, a := range attrs {
		s.attrs = append(s.attrs, StringAttr(a))
	}
	switch {
	case def == nil:
		s.err = fmt.Errorf("a nil keys definition")
	case def.Err() != nil:
		s.err = fmt.Errorf("the keys definition: %w", def.Err())
	default:
		s.def = def.ID()
		s.segs = def.Segments()
		s.tuple = len(s.segs) > 1
		s.setCopies(tupleCopies[V](s.segs))
	}
	all := make([]int, len(s.segs))
	for i := range all {
		all[i] = i
	}
	for i := range attrs {
		if native {
			s.per = append(s.per, attrValue{def: s.def, native: true, pos: i, of: len(attrs), segs: []int{i}})
		} else {
			s.per = append(s.per, attrValue{def: s.def, of: 1, segs: all})
		}
	}
	s.describe()
	return s
}

// Str stores a string as it is in the string attribute attr: a value that
// is not an identifier, such as a title with spaces ("Toy Story"), a date
// stored as text, a shard's partition (OPEN#2). It accepts every string
// DynamoDB stores as a key value (not empty, valid UTF-8, at most 2,048
// bytes in a partition key and 1,024 in a sort key, checked on every
// write and query before any request) and does not look inside it: a
// value encoded by hand, "CUSTOMER#c_42", is stored and looked up as it
// is written, so a query for it finds only what was written that way. For
// an identifier use [ID], which refuses what an identifier cannot hold.
func Str(attr string) Side[string] {
	s := plain(StringAttr(attr), func(v string, sl *codec.Slab) types.AttributeValue { return sl.Str(v) })
	s.s.prefix = func(string) error { return nil } // any string: the query checks it as a key value
	return s
}

// ID stores an identifier as it is in the string attribute attr (c_42 is
// stored as c_42) and refuses, on every write and every query before any
// request, what an identifier cannot hold, as the segment of a
// keys.ID[string](opts...) codec refuses it in a key of the default
// separator '#': the empty string, the separator itself (so a key encoded
// by hand, "CUSTOMER#c_42", is refused instead of finding nothing), ASCII
// control characters, space and the punctuation at or below '$', invalid
// UTF-8, and values longer than [keys.IDOptions] MaxLen (default
// [keys.MaxKeyBytes]). The error wraps the keys sentinel
// (errors.Is(err, keys.ErrSeparator)). Like [Str], it stores a value
// without a keys definition: a sort key of IDs takes query.Attr
// conditions, and a table key attribute of the field's own name is the
// field, stored once.
func ID(attr string, opts ...func(*keys.IDOptions)) Side[string] {
	id := keys.ID[string](opts...)
	s := &side{attrs: []Attribute{StringAttr(attr)}, segs: []reflect.Type{reflect.TypeFor[string]()}, per: asIs}
	s.describe()
	s.desc = attr + " = an id as it is"
	if _, err := id.Parse("id", keys.DefaultSeparator); errors.Is(err, keys.ErrDefinition) {
		s.err = err
	}
	// The prefix of an id is an id: the same characters.
	s.prefix = func(p string) error { _, err := id.Parse(p, keys.DefaultSeparator); return err }
	return asIsDec(single(s, func(v string, sl *codec.Slab) (types.AttributeValue, error) {
		if _, err := id.Parse(v, keys.DefaultSeparator); err != nil {
			return nil, err
		}
		return sl.Str(v), nil
	}))
}

// Time stores a time.Time in the string attribute attr, in
// [TimeKeyLayout]: UTC, four-digit year, nine fractional digits, so that
// every value has the same width, DynamoDB's byte order is time order and
// one instant has one encoding whatever its zone. A year outside
// 0000..9999 has no such encoding and is refused on every write and query
// before any request. Bound with [Pattern.Fields] to a time.Time field of
// T, it stores the field's instant in attr. Its sort conditions compare
// instants (Between(jul1, sep30)); [Side.BeginsWith] takes a prefix of a
// TimeKeyLayout value, a date prefix such as "2024-04" (seed 002's
// begins_with(order_date, prefix)), and refuses one that no value begins
// with ("2024-4", "2024-13").
func Time(attr string) Side[time.Time] {
	s := &side{attrs: []Attribute{StringAttr(attr)}, segs: []reflect.Type{reflect.TypeFor[time.Time]()}, per: asIs}
	s.describe()
	s.desc = attr + " = a time in " + TimeKeyLayout
	s.prefix = timeKeyPrefix
	return asIsDec(single(s, func(t time.Time, sl *codec.Slab) (types.AttributeValue, error) {
		k, err := FormatTimeKey(t)
		if err != nil {
			return nil, err
		}
		return sl.Str(k), nil
	}))
}

// Const stores the string value in the string attribute attr of every
// item bound to the pattern: a constant side, for an overloaded index
// whose sort key says what an item is (GSI1SK = "Admin") or a sparse
// index whose partition key is one bucket (openBucket = "OPEN"). It has
// no value of its own to bind ([None]): [Pattern.Fields] names the fields
// of the other side only, and [If] decides membership (the constant is
// SET while an item qualifies, REMOVEd when it stops). A query of the
// pattern (query.On) reads the constant itself: a constant sort side
// adds sort = value to the key condition, and a constant partition side
// is queried with None{}.
//
// value is checked here, as DynamoDB checks a key value: not empty,
// valid UTF-8, at most [keys.MaxKeyBytes] bytes (and, as the sort side
// of a pattern, [keys.MaxSortKeyBytes]). A bad one is kept as the side's
// error, which the pattern returns ([PatternSide]).
func Const(attr, value string) Side[None] {
	s := &side{attrs: []Attribute{StringAttr(attr)}, per: []attrValue{{of: 1}}, konst: value, constant: true}
	s.desc = fmt.Sprintf("%s = %q", attr, value)
	switch {
	case value == "":
		s.err = errors.New("an empty constant: DynamoDB refuses empty key values")
	case !utf8.ValidString(value):
		s.err = errors.New("a constant that is not valid UTF-8: DynamoDB refuses it as a key value")
	case len(value) > keys.MaxKeyBytes:
		s.err = fmt.Errorf("a constant of %d bytes: a key value has at most %d", len(value), keys.MaxKeyBytes)
	}
	c := single(s, func(_ None, sl *codec.Slab) (types.AttributeValue, error) { return sl.Str(value), nil })
	c.dec = func([]types.AttributeValue) (None, error) { return None{}, nil }
	return c
}

// Bin stores bytes as they are in the binary attribute attr.
func Bin(attr string) Side[[]byte] {
	return plain(BinaryAttr(attr), func(v []byte, _ *codec.Slab) types.AttributeValue { return &types.AttributeValueMemberB{Value: v} })
}

// Num stores a number in the number attribute attr, which DynamoDB orders
// by value.
func Num[V Number](attr string) Side[V] {
	s := &side{attrs: []Attribute{NumberAttr(attr)}, segs: []reflect.Type{reflect.TypeFor[V]()}, per: asIs}
	s.describe()
	return asIsDec(single(s, func(v V, sl *codec.Slab) (types.AttributeValue, error) {
		n, err := formatNumber(v)
		if err != nil {
			return nil, err
		}
		return sl.Num(n), nil
	}))
}

// plain is a side of one attribute holding the value as it is.
func plain[V any](a Attribute, av func(V, *codec.Slab) types.AttributeValue) Side[V] {
	s := &side{attrs: []Attribute{a}, segs: []reflect.Type{reflect.TypeFor[V]()}, per: asIs}
	s.describe()
	return asIsDec(single(s, func(v V, sl *codec.Slab) (types.AttributeValue, error) { return av(v, sl), nil }))
}

// asIsDec gives s, a side of one attribute that holds a value as it is (a
// string, a number, bytes, a time in TimeKeyLayout), its decoder.
func asIsDec[V any](s Side[V]) Side[V] {
	s.dec = func(in []types.AttributeValue) (V, error) {
		var v V
		rv := reflect.ValueOf(&v).Elem()
		bad := fmt.Errorf("%s: a stored %s is not a %s", s.s.attrs[0].Name, avTypeName(in[0]), rv.Type())
		switch x := in[0].(type) {
		case *types.AttributeValueMemberS:
			if t, ok := any(&v).(*time.Time); ok {
				parsed, err := time.Parse(TimeKeyLayout, x.Value)
				*t = parsed
				return v, err
			}
			if rv.Kind() != reflect.String {
				return v, bad
			}
			rv.SetString(x.Value)
		case *types.AttributeValueMemberB:
			if rv.Kind() != reflect.Slice {
				return v, bad
			}
			rv.SetBytes(x.Value)
		case *types.AttributeValueMemberN:
			var err error
			switch k := rv.Kind(); {
			case k >= reflect.Int && k <= reflect.Int64:
				var n int64
				n, err = strconv.ParseInt(x.Value, 10, rv.Type().Bits())
				rv.SetInt(n)
			case k >= reflect.Uint && k <= reflect.Uint64:
				var n uint64
				n, err = strconv.ParseUint(x.Value, 10, rv.Type().Bits())
				rv.SetUint(n)
			case k == reflect.Float32 || k == reflect.Float64:
				var f float64
				f, err = strconv.ParseFloat(x.Value, rv.Type().Bits())
				rv.SetFloat(f)
			default:
				return v, bad
			}
			return v, err
		default:
			return v, bad
		}
		return v, nil
	}
	return s
}

// asIs is the attribute of a side that stores one value as it is.
var asIs = []attrValue{{of: 1, segs: []int{0}}}

// Tuple2 is a native multi-attribute key side whose attributes are the
// sides a and b, each of one attribute and one value ([ID], [Str], [Num],
// [Bin], or [Composite] of a keys.Key1): attributes of their own types, an
// attribute that is a field of T as it is beside a derived one. DynamoDB
// compares them left to right. A sort key condition on a tuple comes from
// query.Attr on its first attribute (no keys definition describes it
// whole); use [Native] for keys conditions over all of them.
func Tuple2[A, B any](a Side[A], b Side[B]) Side[keys.T2[A, B]] {
	s := tuple(a.s, b.s)
	s.setCopies(tupleCopies[keys.T2[A, B]](s.segs))
	return Side[keys.T2[A, B]]{s: s, enc: func(v keys.T2[A, B], sl *codec.Slab, out []types.AttributeValue) error {
		return errors.Join(a.enc(v.V1, sl, out[0:1]), b.enc(v.V2, sl, out[1:2]))
	}}
}

// Tuple3 is [Tuple2] of three sides.
func Tuple3[A, B, C any](a Side[A], b Side[B], c Side[C]) Side[keys.T3[A, B, C]] {
	s := tuple(a.s, b.s, c.s)
	s.setCopies(tupleCopies[keys.T3[A, B, C]](s.segs))
	return Side[keys.T3[A, B, C]]{s: s, enc: func(v keys.T3[A, B, C], sl *codec.Slab, out []types.AttributeValue) error {
		return errors.Join(a.enc(v.V1, sl, out[0:1]), b.enc(v.V2, sl, out[1:2]), c.enc(v.V3, sl, out[2:3]))
	}}
}

// Tuple4 is [Tuple2] of four sides.
func Tuple4[A, B, C, D any](a Side[A], b Side[B], c Side[C], d Side[D]) Side[keys.T4[A, B, C, D]] {
	s := tuple(a.s, b.s, c.s, d.s)
	s.setCopies(tupleCopies[keys.T4[A, B, C, D]](s.segs))
	return Side[keys.T4[A, B, C, D]]{s: s, enc: func(v keys.T4[A, B, C, D], sl *codec.Slab, out []types.AttributeValue) error {
		return errors.Join(a.enc(v.V1, sl, out[0:1]), b.enc(v.V2, sl, out[1:2]), c.enc(v.V3, sl, out[2:3]), d.enc(v.V4, sl, out[3:4]))
	}}
}

// tuple is the untyped side of a tuple of one-attribute, one-value sides.
func tuple(parts ...*side) *side {
	s := &side{tuple: true}
	var descs []string
	for i, p := range parts {
		switch {
		case p == nil:
			s.err = fmt.Errorf("part %d of the tuple is a zero Side", i+1)
		case p.err != nil:
			s.err = fmt.Errorf("part %d of the tuple (%s): %w", i+1, p.desc, p.err)
		case len(p.attrs) != 1 || len(p.segs) != 1:
			s.err = fmt.Errorf("part %d of the tuple (%s) has %d attributes and %d values: each part is one attribute of one value", i+1, p.desc, len(p.attrs), len(p.segs))
		}
		if s.err != nil {
			s.desc = "invalid tuple"
			return s
		}
		s.attrs = append(s.attrs, p.attrs[0])
		s.segs = append(s.segs, p.segs[0])
		s.per = append(s.per, attrValue{def: p.per[0].def, of: 1, segs: []int{i}})
		descs = append(descs, p.desc)
	}
	s.desc = "(" + strings.Join(descs, ", ") + ")"
	return s
}

// NoSort is the sort side of a table or index without a sort key.
func NoSort() Side[None] {
	return Side[None]{s: &side{desc: "no sort key"}, enc: func(None, *codec.Slab, []types.AttributeValue) error { return nil },
		dec: func([]types.AttributeValue) (None, error) { return None{}, nil }}
}

func (s *side) describe() {
	names := make([]string, len(s.attrs))
	for i, a := range s.attrs {
		names[i] = a.Name
	}
	what := "a value as it is"
	if len(s.attrs) > 0 {
		what = "a " + string(s.attrs[0].Type) + " value as it is"
	}
	if !s.def.IsZero() {
		what = s.def.String()
	}
	s.desc = strings.Join(names, ", ") + " = " + what
}

// setCopies records the typed copies of a tuple's segments.
func (s *side) setCopies(cs []segCopy) {
	s.copies, s.copied = cs, typed(cs)
}

// read builds V from the fields of an item at base, at offsets offs (one
// per segment), whose types were checked against segs by fieldFits.
func (s Side[V]) read(base unsafe.Pointer, offs []uintptr) V {
	if len(offs) == 0 {
		var none V // NoSort
		return none
	}
	if !s.s.tuple {
		return *(*V)(unsafe.Add(base, offs[0]))
	}
	if !s.s.copied {
		return s.readReflect(base, offs)
	}
	var v V
	for i, c := range s.s.copies {
		c.copyTo(unsafe.Add(unsafe.Pointer(&v), c.off), unsafe.Add(base, offs[i]))
	}
	return v
}

// readReflect is read of a tuple with a segment of a type segCopy does not
// copy.
func (s Side[V]) readReflect(base unsafe.Pointer, offs []uintptr) V {
	var v V
	rv := reflect.ValueOf(&v).Elem()
	for i, t := range s.s.segs {
		rv.Field(i).Set(reflect.NewAt(t, unsafe.Add(base, offs[i])).Elem())
	}
	return v
}

// write stores v in the fields of an item at base, at offsets offs: the
// inverse of read.
func (s Side[V]) write(base unsafe.Pointer, offs []uintptr, v V) {
	if len(offs) == 0 {
		return
	}
	if !s.s.tuple {
		*(*V)(unsafe.Add(base, offs[0])) = v
		return
	}
	if s.s.copied {
		for i, c := range s.s.copies {
			c.copyTo(unsafe.Add(base, offs[i]), unsafe.Add(unsafe.Pointer(&v), c.off))
		}
		return
	}
	s.writeReflect(base, offs, v)
}

// writeReflect is write of a tuple with a segment of a type segCopy does
// not copy.
func (s Side[V]) writeReflect(base unsafe.Pointer, offs []uintptr, v V) {
	rv := reflect.ValueOf(&v).Elem()
	for i, t := range s.s.segs {
		reflect.NewAt(t, unsafe.Add(base, offs[i])).Elem().Set(rv.Field(i))
	}
}

// toFields decodes the side's stored value in and stores it in the fields
// of an item at base; nil for a side without a decoder.
func (s Side[V]) toFields() func(base unsafe.Pointer, offs []uintptr, in []types.AttributeValue) error {
	if s.dec == nil {
		return nil
	}
	return func(base unsafe.Pointer, offs []uintptr, in []types.AttributeValue) error {
		v, err := s.dec(in)
		if err == nil {
			s.write(base, offs, v)
		}
		return err
	}
}

// fromFields encodes the side from fields of an item at base, its
// values from sl.
func (s Side[V]) fromFields(base unsafe.Pointer, offs []uintptr, sl *codec.Slab, out []types.AttributeValue) error {
	return s.enc(s.read(base, offs), sl, out)
}

// fromFields1 encodes a side of one attribute from fields of an item at
// base, its value from sl; nil for the other sides.
func (s Side[V]) fromFields1() func(base unsafe.Pointer, offs []uintptr, sl *codec.Slab) (types.AttributeValue, error) {
	if s.one == nil {
		return nil
	}
	if app := s.text; app != nil && !s.s.tuple {
		// A Composite of one field: its value read in place.
		return func(base unsafe.Pointer, offs []uintptr, sl *codec.Slab) (types.AttributeValue, error) {
			return compositeValue(app, *(*V)(unsafe.Add(base, offs[0])), sl)
		}
	}
	return func(base unsafe.Pointer, offs []uintptr, sl *codec.Slab) (types.AttributeValue, error) {
		return s.one(s.read(base, offs), sl)
	}
}

// fieldFits reports whether a field of Go type field can be read as a
// segment of type seg: the same type, or the same basic kind (a named
// string type for a string segment), whose memory is the same.
func fieldFits(field, seg reflect.Type) bool {
	if field == seg {
		return true
	}
	if field.Kind() != seg.Kind() {
		return false
	}
	switch field.Kind() {
	case reflect.Bool, reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return true
	case reflect.Slice:
		return field.Elem().Kind() == reflect.Uint8 && seg.Elem().Kind() == reflect.Uint8
	}
	return false
}
