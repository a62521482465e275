package query

import (
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"
)

// shapeKey identifies an index shape: the table, the index, and what the
// read decodes. readEntity reads decode the attributes of the table's
// entity type of that name (one per name); views those of P, their Go
// type; collections every registered type (see indexShape.registered).
//
// The table is its address, which keeps nothing alive: a shape found is
// the table's only if its weak pointer (indexShape.of) still points to
// it, so a table allocated where a collected one was never finds the
// other's shapes. (weak.Make, on each call, would cost more than the rest
// of the lookup: it locks the table's span.)
type shapeKey struct {
	table  uintptr
	index  string
	kind   readKind
	entity string
	goType reflect.Type
}

// shapeBucket is what the cache's map is keyed by: the words of a
// shapeKey that hash fast, the table's address and the Go type's (a
// type descriptor is static, never moved). Hashing the whole key, its
// strings and its interface, cost most of a lookup (64 ns against 8 on
// the benchmark machine), on every call.
type shapeBucket struct{ table, goType uintptr }

// bucket is k's bucket.
func (k *shapeKey) bucket() shapeBucket {
	return shapeBucket{table: k.table, goType: uintptr((*[2]unsafe.Pointer)(unsafe.Pointer(&k.goType))[1])}
}

// shapeEntry is one shape of a bucket, under its whole key.
type shapeEntry struct {
	key shapeKey
	sh  *indexShape
}

// shapes is the process-wide cache of index shapes, by bucket: the
// shapes of one table and Go type, which a lookup compares whole keys
// with (one per index and entity type read into that Go type: a few). Entries of collected tables are
// dropped when the cache has doubled since the last sweep, and replaced
// when their address is reused.
//
// The map and its buckets are copied on write (under the mutex) and never
// changed once stored: a lookup, on every call, takes no lock. Shapes are
// added once per table, index and decoded type.
var shapes struct {
	sync.Mutex
	m atomic.Pointer[map[shapeBucket][]shapeEntry]
	// n counts the entries, swept those left by the last sweep.
	n, swept int
}

// same reports whether k and o are the same key: their buckets' words
// first (a reflect.Type is the same type exactly when its descriptor is),
// then the rest; cheaper than comparing the interfaces.
func (k *shapeKey) same(o *shapeKey) bool {
	return k.bucket() == o.bucket() && k.kind == o.kind && k.index == o.index && k.entity == o.entity
}

// recentShapes is a direct-mapped front of the cache: in each slot
// (shapeBucket.slot), the entry that a lookup last found for a key of
// that slot, compared before the map is hashed, which cost most of a
// lookup. storeShape empties it, so that it holds entries of the current
// map or, after a lookup that raced with a store, of the one before: a
// shape that shapeOf checks as it checks any (its table, its types), and
// builds again when they are not what it needs.
var recentShapes [64]atomic.Pointer[shapeEntry]

// slot is the bucket's slot of recentShapes: the top bits of its words
// mixed by a multiplication (Fibonacci hashing).
func (b shapeBucket) slot() int {
	h := (uint64(b.table) ^ uint64(b.goType)>>3) * 0x9e3779b97f4a7c15
	return int(h >> (64 - 6)) // len(recentShapes) is 1<<6
}

// lookupShape returns the shape cached under k, or nil.
func lookupShape(k shapeKey) *indexShape {
	b := k.bucket()
	recent := &recentShapes[b.slot()]
	if e := recent.Load(); e != nil && e.key.same(&k) {
		return e.sh
	}
	m := shapes.m.Load()
	if m == nil {
		return nil
	}
	entries := (*m)[b]
	for i := range entries {
		if e := &entries[i]; e.key.same(&k) {
			recent.Store(e) // entries are never changed once stored
			return e.sh
		}
	}
	return nil
}

// storeShape stores sh under k in a copy of the shapes cache, replacing
// the entry of k, dropping the entries of collected tables when the cache
// has doubled since the last sweep. The caller holds the lock.
func storeShape(k shapeKey, sh *indexShape) {
	var old map[shapeBucket][]shapeEntry
	if m := shapes.m.Load(); m != nil {
		old = *m
	}
	sweep := shapes.n >= max(2*shapes.swept, 64)
	b := k.bucket()
	m := make(map[shapeBucket][]shapeEntry, len(old)+1)
	n := 0
	for ob, entries := range old {
		var kept []shapeEntry
		for _, e := range entries {
			if (ob != b || e.key != k) && (!sweep || e.sh.of.Value() != nil) {
				kept = append(kept, e)
			}
		}
		if len(kept) > 0 {
			m[ob] = kept
			n += len(kept)
		}
	}
	if sweep {
		shapes.swept = n
	}
	m[b] = append(m[b], shapeEntry{key: k, sh: sh})
	shapes.n = n + 1
	shapes.m.Store(&m)
	for i := range recentShapes {
		recentShapes[i].Store(nil)
	}
}
