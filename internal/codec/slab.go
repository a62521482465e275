package codec

import (
	"reflect"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Slab hands out the string, number and boolean attribute values of one
// item, and the bytes of the texts made for them (a composite key, a
// formatted number or time), from memory allocated once for the item
// rather than once per value: the values of an item live as long as each
// other.
// Values and texts handed out are never written again, so each item's
// values stay its own. A nil Slab, or a spent one, allocates each value.
//
// Its zero value is a spent Slab; [Slab.Reset] gives it room. It is not
// safe for concurrent use: a write builds its item with its own.
type Slab struct {
	// vals holds the S and the N values: the two types have the same
	// memory layout (a string), checked at init. next is the first not
	// handed out: an index rather than vals resliced, whose pointer,
	// written at each value, would cost a write barrier while the
	// collector marks, shading two pointers.
	vals []types.AttributeValueMemberS
	next int
	// first is next as the item began (Reset, Keep).
	first int
	buf   []byte
	used  int // the bytes of text handed out, in buf or not
}

// sameLayout reports whether an AttributeValueMemberN can be handed out
// from the memory of an AttributeValueMemberS: one string field each, at
// the same offset, and the same size.
var sameLayout = func() bool {
	s, n := reflect.TypeFor[types.AttributeValueMemberS](), reflect.TypeFor[types.AttributeValueMemberN]()
	if s.Size() != n.Size() || s.NumField() != n.NumField() {
		return false
	}
	for i := range s.NumField() {
		fs, fn := s.Field(i), n.Field(i)
		if fs.Offset != fn.Offset || fs.Type != fn.Type {
			return false
		}
	}
	return true
}()

// Reset gives sl room for values string and number values and bytes
// bytes of text (two allocations), dropping what it had left.
func (sl *Slab) Reset(values, bytes int) {
	sl.vals, sl.next, sl.first = make([]types.AttributeValueMemberS, values), 0, 0
	sl.buf = make([]byte, 0, bytes)
	sl.used = 0
}

// Keep readies sl for the next of the items that share it, which needs
// at most values string and number values, and bytes bytes of text: in
// the room sl has left when that is enough, else in new room for this
// item and n-1 more, of each values each (what items use on average,
// at most values) and bytes bytes; the values' room and the text's each
// renewed on its own (the room of one is not dropped when the other runs
// out: values and bytes are bounds, which an item seldom reaches). The
// items of a batch, which live as long as each other, then take two
// allocations for several of them. Used and Values count from here.
func (sl *Slab) Keep(values, each, bytes, n int) {
	if len(sl.vals)-sl.next < values {
		sl.vals, sl.next = make([]types.AttributeValueMemberS, values+each*(n-1)), 0
	}
	if cap(sl.buf)-len(sl.buf) < bytes {
		sl.buf = make([]byte, 0, bytes*n)
	}
	sl.used, sl.first = 0, sl.next
}

// Str hands out a string value holding v.
func (sl *Slab) Str(v string) *types.AttributeValueMemberS {
	if sl == nil || sl.next >= len(sl.vals) {
		return &types.AttributeValueMemberS{Value: v}
	}
	x := &sl.vals[sl.next]
	sl.next++
	x.Value = v
	return x
}

// Num hands out a number value holding v.
func (sl *Slab) Num(v string) *types.AttributeValueMemberN {
	if sl == nil || sl.next >= len(sl.vals) || !sameLayout {
		return &types.AttributeValueMemberN{Value: v}
	}
	x := (*types.AttributeValueMemberN)(unsafe.Pointer(&sl.vals[sl.next]))
	sl.next++
	x.Value = v
	return x
}

// boolSize is the size of a boolean value, which Bool hands out from the
// room of the text buffer: it holds no pointer, and a byte aligns it.
var boolSize = func() int {
	t := reflect.TypeFor[types.AttributeValueMemberBOOL]()
	if t.Align() != 1 {
		return 0 // Bool allocates each value
	}
	return int(t.Size())
}()

// Bool hands out a boolean value holding v, its bytes taken from the
// text buffer's room (counted as text, in [Slab.Used]).
func (sl *Slab) Bool(v bool) *types.AttributeValueMemberBOOL {
	if sl == nil {
		return &types.AttributeValueMemberBOOL{Value: v}
	}
	sl.used += boolSize
	n := len(sl.buf)
	if boolSize == 0 || n+boolSize > cap(sl.buf) {
		return &types.AttributeValueMemberBOOL{Value: v}
	}
	sl.buf = sl.buf[:n+boolSize]
	x := (*types.AttributeValueMemberBOOL)(unsafe.Pointer(&sl.buf[n]))
	x.Value = v
	return x
}

// Bytes returns the free room of the text buffer, empty, to append a
// text to; give the result to [Slab.Text]. nil for a nil Slab.
func (sl *Slab) Bytes() []byte {
	if sl == nil {
		return nil
	}
	return sl.buf[len(sl.buf):]
}

// Text returns b, appended to [Slab.Bytes] (or grown from it by append,
// into memory of its own), as a string, and keeps its bytes: the next
// Bytes starts after them. The caller must not modify b afterwards.
func (sl *Slab) Text(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if sl == nil {
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	sl.used += len(b)
	if len(sl.buf)+len(b) <= cap(sl.buf) && unsafe.SliceData(b) == unsafe.SliceData(sl.buf[len(sl.buf):cap(sl.buf)]) {
		sl.buf = sl.buf[:len(sl.buf)+len(b)]
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Values returns the string and number values handed out from sl's room
// since the last Reset or Keep.
func (sl *Slab) Values() int { return sl.next - sl.first }

// Used returns the bytes of text handed out since the last Reset, those
// that did not fit in its room included: the room the next item of the
// kind needs.
func (sl *Slab) Used() int { return sl.used }
