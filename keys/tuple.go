package keys

// T2 is the value of a key of two typed segments ([Key2]) as one value,
// for code that handles keys of any arity through [Def]: V1 is the first
// segment's value, V2 the second's.
type T2[A, B any] struct {
	V1 A
	V2 B
}

// T3 is the value of a key of three typed segments ([Key3]) as one value:
// V1, V2 and V3 in segment order.
type T3[A, B, C any] struct {
	V1 A
	V2 B
	V3 C
}

// T4 is the value of a key of four typed segments ([Key4]) as one value:
// V1 .. V4 in segment order.
type T4[A, B, C, D any] struct {
	V1 A
	V2 B
	V3 C
	V4 D
}

// Of2 returns the [T2] of (a, b), its type parameters inferred:
// keys.Of2(Cancelled, date).
func Of2[A, B any](a A, b B) T2[A, B] { return T2[A, B]{V1: a, V2: b} }

// Of3 returns the [T3] of (a, b, c), its type parameters inferred.
func Of3[A, B, C any](a A, b B, c C) T3[A, B, C] { return T3[A, B, C]{V1: a, V2: b, V3: c} }

// Of4 returns the [T4] of (a, b, c, d), its type parameters inferred.
func Of4[A, B, C, D any](a A, b B, c C, d D) T4[A, B, C, D] {
	return T4[A, B, C, D]{V1: a, V2: b, V3: c, V4: d}
}
