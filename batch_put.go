package keyfirst

import (
	"context"
	"iter"
)

// BatchPut writes items, a stream of any length of this entity's items
// (the rows of a file, an import, a slice through [slices.Values]), with
// BatchWriteItem: the bulk load of one entity type. It is
// [Table.BatchWriteSeq] of the items' [Entity.PutRequest] requests, and
// writes, checks, orders and reports them as that does, with the same
// [*BatchWriteError], whose requests give the items back
// ([WriteRequest.Value]): it takes items until it has 25, encodes each
// as it takes it, sends them as one request and retries those DynamoDB
// leaves unprocessed until each is written; only then does it take the
// next. Items of one key are written in the stream's order (the last
// one stays), a bad item stops the write before its request of 25 is
// sent, and the requests before it are written.
//
// It holds one request of 25 and the 25 items it was built from, which it
// reuses for the next 25: unlike PutRequest, it does not copy each item
// to the heap, and the string and number values of the items of a
// request share their allocations (the items are sent together). A
// BatchPut that returns nil gives that memory to the next BatchPut of
// the entity. An entity that cannot be batch-written (a version, a
// unique field, a created time; see PutRequest) is refused with
// PutRequest's error before any item is taken. A nil items is an
// [*OptionError].
func (e *Entity[T]) BatchPut(ctx context.Context, api BatchWriteItemAPI, items iter.Seq[T], optFns ...func(*Options)) error {
	o, err := buildOptions("BatchPut", TakesRetries, optFns)
	if err != nil {
		return err
	}
	if items == nil {
		return &OptionError{Op: "BatchPut", Option: "items", Detail: "a nil iter.Seq; an empty stream is a function that yields nothing"}
	}
	if err := e.batchPutRefused("BatchPut"); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil { // nothing taken from items
		return &BatchWriteError{Err: err}
	}
	ps := e.puts.Get().(*putStream[T])
	s, vals := &ps.batchStream, &ps.vals
	s.start(batchWriter{t: e.table, api: api, o: o, call: "BatchPut", entity: e.typeName})
	if ps.of != e { // each request is of e and of the item at its place
		for i := range s.room {
			s.room[i] = WriteRequest{table: e.table, of: e, put: &vals[i]}
		}
		ps.of = e
	}
	s.keep = true
	// Every item's plan's arena; the items of a request of 25 share its
	// slab. It is the stream's, on the heap (the loop's body is a
	// closure that the stream's function holds, see noEscape), spent:
	// its first item gives it room.
	ar := &ps.ar
	for v := range items {
		s.taken++
		at := len(s.chunk)
		vals[at] = v
		r := &s.room[at] // built in place: take does not copy it
		ar.shared = MaxBatchWrite - at
		p, err := e.planWith(ar, &vals[at], -1, e.writeTime()) // in ar, straight: a call less per item
		if err != nil {
			r.item, r.err = nil, err
			return s.refused(r, err)
		}
		r.item = p.item // its key stays zero: see WriteRequest.key
		if err := s.take(ctx, r, keyPair{pk: p.key.pk, sk: p.key.sk}); err != nil {
			return err
		}
		if at > 0 && len(s.chunk) == 1 { // the request of its key written first: r is now at 0
			vals[0] = vals[at]
			s.chunk[0].put = &vals[0]
			s.used = max(s.used, at+1) // the room and vals at at still hold it, for end to drop
		}
	}
	if err := s.end(ctx); err != nil {
		return err
	}
	clear(vals[:s.used]) // the pool keeps none of the caller's values
	ps.ar = arena{}      // nor the texts and values of its items
	e.puts.Put(ps)
	return nil
}

// putStream is the state of a BatchPut: its stream's, the items of the
// request of 25 being filled, by position, which the requests' T are
// (WriteRequest.Value), and the arena its items' plans share (spent
// from one BatchPut to the next: it holds nothing of the items written).
// A BatchPut without an error gives it back to its entity's pool, as
// BatchWriteSeq does its state.
//
// Its room's requests are of its entity (of), each of the item at its
// place in vals, from one BatchPut to the next: set when the stream is
// first taken by of (copies of an entity share its pool), not at each
// call, and kept by end (keep). While the collector marks, every pointer
// written over in the heap costs a write barrier, so a BatchPut of a few
// items writes no more of this state than its items need.
type putStream[T any] struct {
	batchStream
	vals [MaxBatchWrite]T
	of   *Entity[T]
	ar   arena
}
