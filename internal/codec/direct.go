package codec

import (
	"math"
	"reflect"
	"strconv"
	"time"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/itemsize"
)

// The fast kinds are encoded and decoded through the field's address, so
// that a struct whose fields are all fast and at fixed offsets is converted
// without reflection and without copying it to the heap (EncodeDirect,
// DecodeDirect). The address is only read and written during the call,
// never kept.

// EncodeDirect is Encode for a Direct codec, given the address of the
// struct: its string and number values, and the texts of its numbers and
// times, come from sl (nil: allocated one by one; size it with
// [Codec.SlabValues]). base does not escape.
func (c *Codec) EncodeDirect(base unsafe.Pointer, out []types.AttributeValue, sl *Slab) (int, error) {
	out, size := out[:len(c.fields)], 0
	for i := range c.fields {
		av, n, err := c.EncodeFieldDirect(i, base, sl)
		out[i] = av
		if err != nil {
			return size, err
		}
		size += n
	}
	return size, nil
}

// EncodeFieldDirect is [Codec.EncodeDirect] of field i alone (in the
// codec's order, that of [Codec.Store]'s values): its value, nil when the
// item does not have it, and its size. A caller that stores each value
// in an array of its own, by index, spares the write barrier of a store
// through a slice.
func (c *Codec) EncodeFieldDirect(i int, base unsafe.Pointer, sl *Slab) (types.AttributeValue, int, error) {
	f := &c.fields[i]
	av, n := f.encodeAt(unsafe.Add(base, f.offset), sl)
	if av == nil {
		return nil, 0, nil
	}
	n, err := f.checkedSize(av, n)
	return av, n, err
}

// SlabValues is the number of string and number values EncodeDirect
// takes from a [Slab] for the struct at base: one per field that can
// encode to one, and one per element of its lists of strings.
func (c *Codec) SlabValues(base unsafe.Pointer) int {
	n := c.nS + c.nN
	for _, i := range c.lists {
		f := &c.fields[i]
		p := unsafe.Add(base, f.offset)
		n += len(*(*[]string)(p))
	}
	return n
}

// DecodeDirect is Decode for a Direct codec, given the address of the
// struct. It reports false, leaving the struct partly written, when an
// attribute needs the general path (a type mismatch, an invalid number):
// decode again with Decode then. base does not escape.
func (c *Codec) DecodeDirect(src map[string]types.AttributeValue, base unsafe.Pointer) bool {
	fields := c.fields // read once: a store through base could be to c, for all the compiler knows
	for i := range fields {
		f := &fields[i]
		av, ok := src[f.Name]
		if !ok {
			continue
		}
		p := unsafe.Add(base, f.offset)
		if !f.ptr && f.scalarDecodeAt(av, p) {
			continue // the common case; no kind takes a NULL
		}
		if !f.decodeAt(av, p) {
			return false
		}
	}
	return true
}

func null() types.AttributeValue { return &types.AttributeValueMemberNULL{Value: true} }

// slabKinds counts the fields of the fast kinds that encode to a string
// (s) or a number (n) attribute value, and lists the lists of strings
// (whose elements a slab holds too): what a slab of an item holds.
func slabKinds(fields []field) (s, n int, lists []int) {
	for i := range fields {
		f := &fields[i]
		switch f.kind {
		case kStrings:
			if !f.tag.stringSet && !f.ptr {
				lists = append(lists, i)
			}
		case kString:
			s++
		case kInt, kUint, kFloat:
			if f.tag.asString {
				s++
			} else {
				n++
			}
		case kTime:
			if f.tag.unixTime {
				n++
			} else {
				s++
			}
		}
	}
	return s, n, lists
}

// encodeAt mirrors attributevalue's Encoder.encode for the fast kinds: the
// field is at p; its value comes from sl when sl has one. It returns the
// attribute's size as [itemsize.Check] gives it when the kind decides it
// (see [field.checkedSize]), 0 when Check must measure the value.
func (f *field) encodeAt(p unsafe.Pointer, sl *Slab) (types.AttributeValue, int) {
	if f.ptr {
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			if f.tag.omitEmpty {
				return nil, 0
			}
			return null(), len(f.Name) + 1
		}
		return f.scalarAt(q, false, sl)
	}
	return f.scalarAt(p, f.tag.omitEmpty, sl)
}

// scalarAt is encodeAt of the value at p, the pointer followed; omitZero
// leaves out a zero value.
func (f *field) scalarAt(p unsafe.Pointer, omitZero bool, sl *Slab) (types.AttributeValue, int) {
	switch f.kind {
	case kString:
		s := *(*string)(p)
		if s == "" && omitZero {
			return nil, 0
		}
		return sl.Str(s), f.stringSize(s)
	case kBool:
		b := *(*bool)(p)
		if !b && omitZero {
			return nil, 0
		}
		return sl.Bool(b), len(f.Name) + 1
	case kInt:
		n := loadInt(p, f.size)
		if n == 0 && omitZero {
			return nil, 0
		}
		return f.integer(strconv.AppendInt(sl.Bytes(), n, 10), sl)
	case kUint:
		n := loadUint(p, f.size)
		if n == 0 && omitZero {
			return nil, 0
		}
		return f.integer(strconv.AppendUint(sl.Bytes(), n, 10), sl)
	case kFloat:
		x := loadFloat(p, f.bits)
		if x == 0 && omitZero {
			return nil, 0
		}
		b := strconv.AppendFloat(sl.Bytes(), x, 'f', -1, f.bits)
		if f.tag.asString {
			return sl.Str(sl.Text(b)), len(f.Name) + len(b) // ASCII
		}
		return sl.Num(sl.Text(b)), 0 // its magnitude is Check's
	case kTime:
		t := *(*time.Time)(p)
		if f.tag.unixTime {
			text := sl.Text(strconv.AppendInt(sl.Bytes(), t.Unix(), 10))
			return sl.Num(text), len(f.Name) + itemsize.IntegerSize(text)
		}
		b := AppendTime(sl.Bytes(), t)
		return sl.Str(sl.Text(b)), len(f.Name) + len(b) // ASCII
	case kBytes:
		b := *(*[]byte)(p)
		if b == nil {
			if omitZero {
				return nil, 0
			}
			return null(), len(f.Name) + 1
		}
		return &types.AttributeValueMemberB{Value: append([]byte{}, b...)}, 0
	case kStrings:
		ss := *(*[]string)(p)
		if ss == nil {
			if omitZero {
				return nil, 0
			}
			return null(), len(f.Name) + 1
		}
		if f.tag.stringSet {
			if len(ss) == 0 {
				return null(), len(f.Name) + 1
			}
			return &types.AttributeValueMemberSS{Value: append(make([]string, 0, len(ss)), ss...)}, 0
		}
		l := make([]types.AttributeValue, len(ss))
		if sl == nil {
			elems := make([]types.AttributeValueMemberS, len(ss)) // one allocation for all
			for i, s := range ss {
				elems[i].Value = s
				l[i] = &elems[i]
			}
		} else {
			for i, s := range ss {
				l[i] = sl.Str(s)
			}
		}
		return &types.AttributeValueMemberL{Value: l}, f.listSize(ss)
	}
	panic("codec: encodeAt on a slow field")
}

// integer is the value of an integer's text b, appended to sl.Bytes(),
// and its size.
func (f *field) integer(b []byte, sl *Slab) (types.AttributeValue, int) {
	text := sl.Text(b)
	if f.tag.asString {
		return sl.Str(text), len(f.Name) + len(text)
	}
	return sl.Num(text), len(f.Name) + itemsize.IntegerSize(text)
}

// decodeAt mirrors attributevalue's Decoder.decode for the common cases of
// the fast kinds; false leaves the case, errors included, to attributevalue.
func (f *field) decodeAt(av types.AttributeValue, p unsafe.Pointer) bool {
	if _, isNull := av.(*types.AttributeValueMemberNULL); isNull {
		if f.ptr {
			*(*unsafe.Pointer)(p) = nil
		} else {
			f.zeroAt(p)
		}
		return true
	}
	if !f.ptr {
		return f.scalarDecodeAt(av, p)
	}
	q := reflect.New(f.elem).UnsafePointer()
	if !f.scalarDecodeAt(av, q) {
		return false
	}
	*(*unsafe.Pointer)(p) = q
	return true
}

func (f *field) zeroAt(p unsafe.Pointer) {
	switch f.kind {
	case kString:
		*(*string)(p) = ""
	case kBool:
		*(*bool)(p) = false
	case kInt, kUint:
		storeInt(p, f.size, 0)
	case kFloat:
		storeFloat(p, f.bits, 0)
	case kTime:
		*(*time.Time)(p) = time.Time{}
	case kBytes:
		*(*[]byte)(p) = nil
	case kStrings:
		*(*[]string)(p) = nil
	}
}

func (f *field) scalarDecodeAt(av types.AttributeValue, p unsafe.Pointer) bool {
	switch f.kind {
	case kString:
		switch x := av.(type) {
		case *types.AttributeValueMemberS:
			*(*string)(p) = x.Value
			return true
		case *types.AttributeValueMemberN:
			*(*string)(p) = x.Value
			return true
		}
	case kBool:
		if x, ok := av.(*types.AttributeValueMemberBOOL); ok {
			*(*bool)(p) = x.Value
			return true
		}
	case kInt:
		if s, ok := f.numberText(av); ok {
			n, ok := parseInt(s)
			if !ok || intOverflows(n, f.size) {
				return false
			}
			storeInt(p, f.size, n)
			return true
		}
	case kUint:
		if s, ok := f.numberText(av); ok {
			n, ok := parseUint(s)
			if !ok || uintOverflows(n, f.size) {
				return false
			}
			storeInt(p, f.size, int64(n))
			return true
		}
	case kFloat:
		if s, ok := f.numberText(av); ok {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil || f.bits == 32 && math.Abs(x) > math.MaxFloat32 && !math.IsInf(x, 0) {
				return false
			}
			storeFloat(p, f.bits, x)
			return true
		}
	case kTime:
		var t time.Time
		var err error
		switch x := av.(type) {
		case *types.AttributeValueMemberS:
			t, err = ParseTime(x.Value)
		case *types.AttributeValueMemberN:
			sec, ok := parseInt(x.Value)
			if !ok {
				return false
			}
			t = time.Unix(sec, 0)
		default:
			return false
		}
		if err != nil {
			return false
		}
		*(*time.Time)(p) = t
		return true
	case kBytes:
		if x, ok := av.(*types.AttributeValueMemberB); ok {
			*(*[]byte)(p) = append(make([]byte, 0, len(x.Value)), x.Value...)
			return true
		}
	case kStrings:
		switch x := av.(type) {
		case *types.AttributeValueMemberSS:
			*(*[]string)(p) = append(make([]string, 0, len(x.Value)), x.Value...)
			return true
		case *types.AttributeValueMemberL:
			ss := make([]string, len(x.Value))
			for i, e := range x.Value {
				s, ok := e.(*types.AttributeValueMemberS)
				if !ok {
					return false
				}
				ss[i] = s.Value
			}
			*(*[]string)(p) = ss
			return true
		}
	}
	return false
}

// numberText returns the digits of a number attribute: N, or S with the
// string tag option.
func (f *field) numberText(av types.AttributeValue) (string, bool) {
	switch x := av.(type) {
	case *types.AttributeValueMemberN:
		return x.Value, true
	case *types.AttributeValueMemberS:
		if f.tag.asString {
			return x.Value, true
		}
	}
	return "", false
}

func loadInt(p unsafe.Pointer, size uintptr) int64 {
	switch size {
	case 1:
		return int64(*(*int8)(p))
	case 2:
		return int64(*(*int16)(p))
	case 4:
		return int64(*(*int32)(p))
	}
	return *(*int64)(p)
}

func loadUint(p unsafe.Pointer, size uintptr) uint64 {
	switch size {
	case 1:
		return uint64(*(*uint8)(p))
	case 2:
		return uint64(*(*uint16)(p))
	case 4:
		return uint64(*(*uint32)(p))
	}
	return *(*uint64)(p)
}

// storeInt stores the low size bytes of n (signed and unsigned alike).
func storeInt(p unsafe.Pointer, size uintptr, n int64) {
	switch size {
	case 1:
		*(*int8)(p) = int8(n)
	case 2:
		*(*int16)(p) = int16(n)
	case 4:
		*(*int32)(p) = int32(n)
	default:
		*(*int64)(p) = n
	}
}

func loadFloat(p unsafe.Pointer, bits int) float64 {
	if bits == 32 {
		return float64(*(*float32)(p))
	}
	return *(*float64)(p)
}

func storeFloat(p unsafe.Pointer, bits int, x float64) {
	if bits == 32 {
		*(*float32)(p) = float32(x)
	} else {
		*(*float64)(p) = x
	}
}

func intOverflows(n int64, size uintptr) bool {
	bits := size * 8
	if bits >= 64 {
		return false
	}
	lim := int64(1) << (bits - 1)
	return n < -lim || n >= lim
}

func uintOverflows(n uint64, size uintptr) bool {
	bits := size * 8
	return bits < 64 && n >= uint64(1)<<bits
}
