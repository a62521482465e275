package keyfirst

import (
	"sync/atomic"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/codec"
)

// arena is the working memory of one item's plan: the slab that every
// string and number value of the item comes from, with the texts made
// for them (composite keys, formatted numbers and times), allocated at
// once rather than value by value, and room for the results of a Func
// binding. An item's values live as long as each other, so nothing is
// kept alive that the item does not hold.
//
// A plan's own arena is a local on its stack ([noEscape]): the item
// holds the slab's values and texts, never the arena, which dies with the
// call, so nothing has to be emptied for the next item, and no pool is
// taken from and given back to. The arena that a BatchPut's items share
// is on the heap, one per call (see noEscape).
type arena struct {
	sl  codec.Slab
	out [2 * MaxKeyAttributes]types.AttributeValue
	// shared > 0: the plans of the items of a batch share the slab's
	// allocations (codec.Slab.Keep), shared the items left to plan in the
	// request of 25 that the next plan is of, itself included: new room
	// is made for them, so that the room runs out as the request ends.
	// The batch's items live as long as each other (a request), so an
	// item's values keep at most a few others' alive.
	shared int
}

// The values of an item's fields (by field, nil for a field it does not
// have) and its derived attributes (index keys, the derived expiry) are
// held until its map is made, with room for exactly the attributes it
// has (each attribute is put in the map once: a small map that is full
// grows even to replace a value), on the stack of the plan that makes
// it ([Entity.planWith]), in room of these sizes, so that nothing of it
// has to be cleared after the plan: while the collector marks, clearing
// heap memory that holds pointers shades each pointer it drops (a write
// barrier), and a batch clears for every item. An entity with more takes
// the rest from the heap.
const (
	fieldRoom   = 24
	derivedRoom = 8
)

// namedValue is an attribute of an item: its name and value.
type namedValue struct {
	name string
	av   types.AttributeValue
}

// textHint is the room an entity's arenas start with for texts: the most
// an item of the entity has used so far, so that after the first writes
// an item's texts take one allocation. Copies of an entity share it; a
// nil textHint starts small.
type textHint struct{ n atomic.Int32 }

// maxTextHint bounds the room an arena starts with; an item with more
// text grows its own.
const maxTextHint = 4096

func (h *textHint) get() int {
	if h == nil {
		return 64
	}
	if n := int(h.n.Load()); n > 0 {
		return n
	}
	return 64
}

// saw records that an item used n bytes of text.
func (h *textHint) saw(n int) {
	if h == nil {
		return
	}
	if n > maxTextHint {
		n = maxTextHint
	}
	for {
		old := h.n.Load()
		if int32(n) <= old || h.n.CompareAndSwap(old, int32(n)) {
			return
		}
	}
}

// valueHint is the string and number values that an item of an entity's
// batches uses on average (a running mean, in eighths), by which the
// items of a batch that share a slab take its room: room for every value
// an item can have (the bound) makes a slab larger than its items fill
// when some of them have fewer (an item out of an index, an omitted
// field), and that room is allocated and cleared, and scanned when a
// collection finds it live.
// Copies of an entity share it; a nil or new valueHint gives the bound.
type valueHint struct{ eighths atomic.Int32 }

// get returns the values to give each item, at most bound.
func (h *valueHint) get(bound int) int {
	if h == nil {
		return bound
	}
	if e := int(h.eighths.Load()); e > 0 {
		return min(bound, (e+7)/8)
	}
	return bound
}

// saw records that an item of a batch used n values (only batches read
// the hint, so other writes do not record): the mean moves an eighth of
// the way to n. Writes at once may lose one another's records, which
// only makes the hint less exact: an item that finds too little room
// in a slab takes new room.
func (h *valueHint) saw(n int) {
	if h == nil {
		return
	}
	n *= 8
	old := int(h.eighths.Load())
	if old == 0 { // the first item: the mean is its count
		h.eighths.Store(int32(n))
		return
	}
	if n == old {
		return // no store: the writes of one entity share the hint's cache line
	}
	step := (n - old) / 8
	if step == 0 { // at least an eighth, so that the mean reaches n
		step = 1
		if n < old {
			step = -1
		}
	}
	h.eighths.Store(int32(old + step))
}

// prepare readies a, new or shared with a batch's items, for a plan of
// the item at v: room for each string and number value the item can have
// (its fields', list elements included, its derived attributes', the
// entity type's and the version's), and the entity's text hint. It
// returns fields, empty, resliced (or made, when its room is too small)
// to hold a value for each of T's fields.
func (e *Entity[T]) prepare(a *arena, v *T, fields []types.AttributeValue) []types.AttributeValue {
	n := e.slabOwn
	if e.codec.Direct() {
		n += e.codec.SlabValues(unsafe.Pointer(v))
	} else {
		n += e.codec.Len()
	}
	if a.shared > 0 {
		a.sl.Keep(n, e.values.get(n), e.texts.get(), a.shared)
	} else {
		a.sl.Reset(n, e.texts.get())
	}
	if nf := e.codec.Len(); cap(fields) < nf {
		return make([]types.AttributeValue, nf)
	} else {
		return fields[:nf]
	}
}

// slabValues is the count of the string and number values of an item's
// arena besides its fields': its derived attributes, the agreement
// checks', the primary key, the entity type, the version, and the
// attributes that a Func binding's function gives beside them (every
// attribute of its pattern, a field of T included).
func (e *Entity[T]) slabValues() int {
	n := e.nDerived + len(e.agree) + 2 + e.funcSpare // the partition key, the entity type
	if e.hasSK {
		n++
	}
	if e.version != "" {
		n++
	}
	return n
}
