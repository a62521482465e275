package keyfirst

import "unsafe"

// noEscape returns p, hidden from escape analysis, so that what p points
// to stays on its caller's stack: the T that [Entity.Item] builds an
// item of, and a plan's own arena ([Entity.planAt]). A plan hands *T, and
// its arena's slab, to the bindings' functions, which the compiler cannot
// see into, so it would otherwise move every T and every arena to the
// heap (a 128-byte T per item of the benchmark's entity; an arena, taken
// from a pool instead, cost a Get, a Put and its emptying per item).
//
// It is sound only while nothing keeps a pointer to them in the heap,
// past the call or during it. Go moves a goroutine's stack when it grows
// and adjusts the pointers on the stack, never those in the heap: a
// closure that escapes holding the pointer (the body of a range over a
// function, say) would write to the old stack. This holds because:
//   - the codec's direct path copies what it reads of T (a string's or a
//     slice's header, never the address of a field; a []byte is copied),
//     the bindings' functions get T by value, and a binding of fields
//     reads them through their offsets during the call;
//   - the slab hands out values from memory it allocates, and no function
//     stores the slab, the arena or T anywhere but in the plan's own
//     locals; the item holds only the values.
//
// The caller keeps the variable alive to the end of its use
// (runtime.KeepAlive): escape analysis no longer sees the uses through
// the pointer. BatchPut's arena, which its loop's body (a closure the
// stream holds) uses, is on the heap. TestItemHoldsNoPointerIntoT fails
// if an item points into the stack where Item held T and its arena;
// TestPlanAcrossStackGrowth moves the stack and runs the collector
// in the middle of plans.
//
//go:nosplit
func noEscape[V any](p *V) *V {
	x := uintptr(unsafe.Pointer(p)) // escape analysis does not follow a uintptr
	return *(**V)(unsafe.Pointer(&x))
}
