package keyfirst

import (
	"reflect"
	"time"
	"unsafe"
)

// A tuple side (a keys.T2 .. T4 value, V) is read from the fields of an
// item, and written back to them, segment by segment. segCopy copies one
// segment with a typed load and store chosen once, when the side is
// built, rather than through reflect, which would copy the tuple to the
// heap at every write.

// copyKind is how one segment's value is copied.
type copyKind uint8

const (
	copyReflect copyKind = iota // any other type: through reflect
	copyString
	copyTime
	copyBytes
	copy1
	copy2
	copy4
	copy8
)

// segCopy copies segment i of a tuple: at offset off in the tuple, of
// type typ.
type segCopy struct {
	kind copyKind
	off  uintptr
	typ  reflect.Type
}

// tupleCopies are the segment copies of V, a struct whose fields are the
// segments segs, in order; nil when V is not such a struct.
func tupleCopies[V any](segs []reflect.Type) []segCopy {
	t := reflect.TypeFor[V]()
	if t.Kind() != reflect.Struct || t.NumField() != len(segs) {
		return nil
	}
	out := make([]segCopy, len(segs))
	for i, seg := range segs {
		f := t.Field(i)
		if f.Type != seg {
			return nil
		}
		out[i] = segCopy{kind: copyKindOf(seg), off: f.Offset, typ: seg}
	}
	return out
}

// copyKindOf is the copy of a segment of type t; fieldFits admits fields
// of t's own kind, whose memory is the same.
func copyKindOf(t reflect.Type) copyKind {
	switch t.Kind() {
	case reflect.String:
		return copyString
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return copyBytes
		}
	case reflect.Struct:
		if t == reflect.TypeFor[time.Time]() {
			return copyTime
		}
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		switch t.Size() {
		case 1:
			return copy1
		case 2:
			return copy2
		case 4:
			return copy4
		case 8:
			return copy8
		}
	}
	return copyReflect
}

// copyTo copies the segment's value from src to dst; false for a
// segment copied through reflect (the caller's).
func (c segCopy) copyTo(dst, src unsafe.Pointer) bool {
	switch c.kind {
	case copyString:
		*(*string)(dst) = *(*string)(src)
	case copyTime:
		*(*time.Time)(dst) = *(*time.Time)(src)
	case copyBytes:
		*(*[]byte)(dst) = *(*[]byte)(src)
	case copy1:
		*(*uint8)(dst) = *(*uint8)(src)
	case copy2:
		*(*uint16)(dst) = *(*uint16)(src)
	case copy4:
		*(*uint32)(dst) = *(*uint32)(src)
	case copy8:
		*(*uint64)(dst) = *(*uint64)(src)
	default:
		return false
	}
	return true
}

// typed reports whether every segment is copied without reflect.
func typed(cs []segCopy) bool {
	for _, c := range cs {
		if c.kind == copyReflect {
			return false
		}
	}
	return cs != nil
}
