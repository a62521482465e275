package keys

import (
	"reflect"
	"strings"
)

// DefID identifies one key definition: every successful call of [NewKey1]
// .. [NewKey4] creates a new one, and every copy of the resulting key
// shares it, so two calls with identical arguments give two definitions.
// DefIDs are comparable; the zero DefID is no definition (a zero Key
// value, the zero [Cond]).
//
// Conditions remember the definitions they were built from
// ([Cond.Defs]), so that a query can refuse a condition built from
// another key before any request.
type DefID struct{ p *defInfo }

// defInfo is what a DefID points to; its address is the identity.
type defInfo struct {
	desc string // the definition's shape, for String
}

// newDefID returns a new identity for a key of separator sep, literal
// prefix prefix ("" for none) and the given codecs.
func newDefID(sep byte, prefix string, codecs []definer) DefID {
	var b strings.Builder
	if prefix != "" {
		b.WriteString(prefix)
		b.WriteByte(sep)
	}
	for i, c := range codecs {
		if i > 0 {
			b.WriteByte(sep)
		}
		b.WriteString("<" + c.kind() + ">")
	}
	return DefID{p: &defInfo{desc: b.String()}}
}

// IsZero reports whether d is the zero DefID, no definition.
func (d DefID) IsZero() bool { return d.p == nil }

// String describes the definition's shape for error messages: its literal
// prefix, then each segment's codec kind in angle brackets, joined by the
// separator, as in ORDER#<id> or <enum>#<time>. Two definitions of the
// same shape are still different DefIDs.
func (d DefID) String() string {
	if d.p == nil {
		return "(no key definition)"
	}
	return d.p.desc
}

// Def is a key definition of any arity with its value V as one Go value:
// [Key1] of A is a Def[A], [Key2] of A, B a Def[T2[A, B]], [Key3] a Def of
// [T3], [Key4] a Def of [T4]. It lets code bind a key to an attribute
// without knowing its arity; a KeyN passed where a Def[V] is expected
// infers V.
type Def[V any] interface {
	// EncodeValue is the key's Encode of v's fields.
	EncodeValue(v V) (string, error)
	// AppendValue is the key's Append of v's fields.
	AppendValue(dst []byte, v V) ([]byte, error)
	// DecodeValue is the key's Decode, its results as one V.
	DecodeValue(s string) (V, error)
	// PartsValue is the key's Parts of v's fields.
	PartsValue(v V) ([]string, error)
	// Segments returns the Go types of the typed segments, in order (one
	// per segment; the literal prefix is not one). The slice is new.
	Segments() []reflect.Type
	// ID returns the definition's identity; zero for a zero Key value and
	// for a definition that could not be built.
	ID() DefID
	// Err reports why the definition could not be built (nil when it
	// can be used).
	Err() error
}

// pack2 .. pack4 pack a DecodeN's results into a tuple.
func pack2[A, B any](a A, b B, err error) (T2[A, B], error) { return Of2(a, b), err }

func pack3[A, B, C any](a A, b B, c C, err error) (T3[A, B, C], error) { return Of3(a, b, c), err }

func pack4[A, B, C, D any](a A, b B, c C, d D, err error) (T4[A, B, C, D], error) {
	return Of4(a, b, c, d), err
}

// EncodeValue implements [Def]: Encode(v).
func (k Key1[A]) EncodeValue(v A) (string, error) { return k.Encode(v) }

// AppendValue implements [Def]: Append(dst, v).
func (k Key1[A]) AppendValue(dst []byte, v A) ([]byte, error) { return k.Append(dst, v) }

// DecodeValue implements [Def]: Decode(s).
func (k Key1[A]) DecodeValue(s string) (A, error) { return k.Decode(s) }

// PartsValue implements [Def]: Parts(v).
func (k Key1[A]) PartsValue(v A) ([]string, error) { return k.Parts(v) }

// Segments implements [Def]: the type A.
func (k Key1[A]) Segments() []reflect.Type { return []reflect.Type{reflect.TypeFor[A]()} }

// ID implements [Def].
func (k Key1[A]) ID() DefID { return k.l.id }

// Err reports why the definition could not be built, nil when it can be
// used: an invalid definition (see [NewKey1]) or the zero value.
func (k Key1[A]) Err() error { return k.l.ready() }

// EncodeValue implements [Def]: Encode(v.V1, v.V2).
func (k Key2[A, B]) EncodeValue(v T2[A, B]) (string, error) { return k.Encode(v.V1, v.V2) }

// AppendValue implements [Def]: Append(dst, v.V1, v.V2).
func (k Key2[A, B]) AppendValue(dst []byte, v T2[A, B]) ([]byte, error) {
	return k.Append(dst, v.V1, v.V2)
}

// DecodeValue implements [Def]: Decode(s) as a [T2].
func (k Key2[A, B]) DecodeValue(s string) (T2[A, B], error) { return pack2(k.Decode(s)) }

// PartsValue implements [Def]: Parts(v.V1, v.V2).
func (k Key2[A, B]) PartsValue(v T2[A, B]) ([]string, error) { return k.Parts(v.V1, v.V2) }

// Segments implements [Def]: the types A and B.
func (k Key2[A, B]) Segments() []reflect.Type {
	return []reflect.Type{reflect.TypeFor[A](), reflect.TypeFor[B]()}
}

// ID implements [Def].
func (k Key2[A, B]) ID() DefID { return k.l.id }

// Err reports why the definition could not be built, nil when it can be
// used: an invalid definition (see [NewKey1]) or the zero value.
func (k Key2[A, B]) Err() error { return k.l.ready() }

// EncodeValue implements [Def]: Encode(v.V1, v.V2, v.V3).
func (k Key3[A, B, C]) EncodeValue(v T3[A, B, C]) (string, error) {
	return k.Encode(v.V1, v.V2, v.V3)
}

// AppendValue implements [Def]: Append(dst, v.V1, v.V2, v.V3).
func (k Key3[A, B, C]) AppendValue(dst []byte, v T3[A, B, C]) ([]byte, error) {
	return k.Append(dst, v.V1, v.V2, v.V3)
}

// DecodeValue implements [Def]: Decode(s) as a [T3].
func (k Key3[A, B, C]) DecodeValue(s string) (T3[A, B, C], error) { return pack3(k.Decode(s)) }

// PartsValue implements [Def]: Parts(v.V1, v.V2, v.V3).
func (k Key3[A, B, C]) PartsValue(v T3[A, B, C]) ([]string, error) {
	return k.Parts(v.V1, v.V2, v.V3)
}

// Segments implements [Def]: the types A, B and C.
func (k Key3[A, B, C]) Segments() []reflect.Type {
	return []reflect.Type{reflect.TypeFor[A](), reflect.TypeFor[B](), reflect.TypeFor[C]()}
}

// ID implements [Def].
func (k Key3[A, B, C]) ID() DefID { return k.l.id }

// Err reports why the definition could not be built, nil when it can be
// used: an invalid definition (see [NewKey1]) or the zero value.
func (k Key3[A, B, C]) Err() error { return k.l.ready() }

// EncodeValue implements [Def]: Encode(v.V1, v.V2, v.V3, v.V4).
func (k Key4[A, B, C, D]) EncodeValue(v T4[A, B, C, D]) (string, error) {
	return k.Encode(v.V1, v.V2, v.V3, v.V4)
}

// AppendValue implements [Def]: Append(dst, v.V1, v.V2, v.V3, v.V4).
func (k Key4[A, B, C, D]) AppendValue(dst []byte, v T4[A, B, C, D]) ([]byte, error) {
	return k.Append(dst, v.V1, v.V2, v.V3, v.V4)
}

// DecodeValue implements [Def]: Decode(s) as a [T4].
func (k Key4[A, B, C, D]) DecodeValue(s string) (T4[A, B, C, D], error) {
	return pack4(k.Decode(s))
}

// PartsValue implements [Def]: Parts(v.V1, v.V2, v.V3, v.V4).
func (k Key4[A, B, C, D]) PartsValue(v T4[A, B, C, D]) ([]string, error) {
	return k.Parts(v.V1, v.V2, v.V3, v.V4)
}

// Segments implements [Def]: the types A, B, C and D.
func (k Key4[A, B, C, D]) Segments() []reflect.Type {
	return []reflect.Type{reflect.TypeFor[A](), reflect.TypeFor[B](), reflect.TypeFor[C](), reflect.TypeFor[D]()}
}

// ID implements [Def].
func (k Key4[A, B, C, D]) ID() DefID { return k.l.id }

// Err reports why the definition could not be built, nil when it can be
// used: an invalid definition (see [NewKey1]) or the zero value.
func (k Key4[A, B, C, D]) Err() error { return k.l.ready() }
