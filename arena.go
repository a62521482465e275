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
	// shared > 1: the plans of up to shared items of a batch share the
	// slab's allocations (codec.Slab.Keep); the batch's items live as
	// long as each other (a request of 25), so an item's values keep at
	// most a few others' alive.
	shared int
}

// The values of an item's fields (by field, nil for a field it does not
// have) and its derived attributes (index keys, the derived expiry) are
// held until its map is made, with room for exactly the attributes it
// has (each attribute is put in the map once: a small map that is full
// grows even to replace a value), on the stack of the plan that makes
// it ([Entity.planAt]), in room of these sizes, so that nothing of it
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
	if a.shared > 1 {
		a.sl.Keep(n, e.texts.get(), a.shared)
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
