package keyfirst

import (
	"fmt"
	"math"
	"reflect"
)

// minVersionBits is the narrowest version field NewEntity accepts. An 8- or
// 16-bit version runs out after 127 to 65,535 writes of one item, which
// ordinary use reaches: the item could then never be written again, and
// changing the field to a wider integer costs nothing (the stored numbers
// stay valid). A 32-bit version lasts 2,147,483,647 writes: 25 days of one
// item written at DynamoDB's per-partition maximum of 1,000 writes a
// second; such a field is accepted and its last write refused
// (ItemVersionMax).
const minVersionBits = 32

// versionLimit returns the largest version a field of integer type t can
// read back, within keyfirst's int64 arithmetic, and whether t is unsigned.
func versionLimit(t reflect.Type) (limit int64, unsigned bool) {
	bits := t.Bits()
	switch t.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if bits >= 64 {
			return math.MaxInt64, true
		}
		return 1<<bits - 1, true
	}
	return 1<<(bits-1) - 1, false
}

// nextVersion returns the version that a write of an item with version
// expected stores, or an [*ItemError] when the field could not hold it:
// keyfirst never stores a version the item's field cannot read back.
func (e *Entity[T]) nextVersion(expected int64) (int64, error) {
	if e.versionUnsigned && expected < 0 {
		// An unsigned 64-bit field beyond math.MaxInt64.
		return 0, e.versionOverflow(fmt.Sprintf("version %d is beyond %d, the largest keyfirst counts to",
			uint64(expected), int64(math.MaxInt64)))
	}
	if expected >= e.versionMax {
		return 0, e.versionOverflow(fmt.Sprintf("version %d is the largest the field holds: the write would store %d, which it cannot read back",
			expected, uint64(expected)+1))
	}
	return expected + 1, nil
}

func (e *Entity[T]) versionOverflow(detail string) error {
	if e.versionMax < math.MaxInt64 {
		detail += "; widen the version field to int64 (the stored numbers stay valid)"
	}
	return &ItemError{Entity: e.typeName, Attribute: e.version, Problem: ItemVersionMax, Detail: detail}
}
