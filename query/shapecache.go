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
func (k shapeKey) bucket() shapeBucket {
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

// lookupShape returns the shape cached under k, or nil.
func lookupShape(k shapeKey) *indexShape {
	m := shapes.m.Load()
	if m == nil {
		return nil
	}
	for _, e := range (*m)[k.bucket()] {
		if e.key == k {
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
}
