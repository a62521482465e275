package keyfirst

import (
	"context"
	"iter"
	"slices"
	"sync"
)

// BatchWriteSeq writes the requests of reqs, a stream of any length (the
// rows of a file, the items of an import, millions of them), with
// BatchWriteItem: it takes requests from reqs until it has 25 or reqs
// ends, checks them, sends them as one request and retries those DynamoDB
// leaves unprocessed, as [Table.BatchWrite] does, until each is written;
// only then does it take the next. It holds one request of 25 at a time:
// a request built in reqs (by [Entity.PutRequest] or
// [Entity.DeleteRequest]) is encoded when it is taken and dropped when it
// is written, so memory does not grow with the stream.
//
// A stream is read once, so unlike BatchWrite's batch it cannot be
// checked whole before the first write: each request of 25 is checked
// before it is sent (a request that could not be built, the zero
// request, a request of another table), and nothing of a request with a
// bad one is sent, as DynamoDB checks a BatchWriteItem request whole. The
// first bad request stops the write; the requests of the stream before
// its request of 25 are written. A caller that must write all or nothing
// writes a batch it holds with BatchWrite.
//
// The requests of one key are written in the stream's order: a request
// whose key is already in the request of 25 being filled sends that one
// first, so that a stream of changes to one item leaves its last (where
// BatchWrite refuses two requests of one key in its batch).
//
// When it stops early (a bad request, a failed request, the context
// ended, or [Options.MaxAttempts] consecutive responses leaving items
// unprocessed) it returns a [*BatchWriteError]: Unprocessed holds, in the
// stream's order, the requests taken from reqs and not written (a bad
// request and those of its request of 25 included), Total the requests
// taken, Err the cause (a bad request's own error). Every request taken
// and not in Unprocessed is written; reqs is not read further. A nil reqs
// is an [*OptionError].
func (t *Table) BatchWriteSeq(ctx context.Context, api BatchWriteItemAPI, reqs iter.Seq[WriteRequest], optFns ...func(*Options)) error {
	o, err := buildOptions("BatchWriteSeq", TakesRetries, optFns)
	if err != nil {
		return err
	}
	if reqs == nil {
		return &OptionError{Op: "BatchWriteSeq", Option: "reqs", Detail: "a nil iter.Seq; an empty stream is a function that yields nothing"}
	}
	if err := ctx.Err(); err != nil { // nothing taken from reqs
		return &BatchWriteError{Err: err}
	}
	s := streams.Get().(*batchStream)
	s.start(batchWriter{t: t, api: api, o: o, call: "BatchWriteSeq"})
	for r := range reqs {
		s.taken++
		if err := t.checkWrite(&r, s.taken-1); err != nil {
			return s.refused(&r, err)
		}
		if err := s.take(ctx, &r, r.key); err != nil {
			return err
		}
	}
	if err := s.end(ctx); err != nil {
		return err
	}
	streams.Put(s)
	return nil
}

// batchStream is the state of a BatchWriteSeq: the request of 25 being
// filled, the digests of its keys, the table of its requests by digest,
// and the count of requests taken from the stream.
type batchStream struct {
	w       batchWriter
	chunk   []WriteRequest
	digests [MaxBatchWrite]uint64
	// slots holds the position+1 in chunk of each request, at its
	// digest's slot or the next free one (0: free); more than twice as
	// many slots as requests, so that a probe ends soon.
	slots [streamSlots]uint8
	taken int
	// used is the most requests the chunk has held in this write: the
	// requests of the room that end drops.
	used int
	// keep: end drops only what the room's requests hold of the caller
	// (their items: BatchPut sets no key, WriteRequest.key, and a stream
	// that ends with an error is not reused), and keeps their table,
	// entity and value's place (BatchPut's, set once per stream).
	keep bool
	// room is chunk's memory; positions the memory of the positions of
	// its requests that drain sends (batchWriter.chunk).
	room      [MaxBatchWrite]WriteRequest
	positions [MaxBatchWrite]int
}

// streams are the states of BatchWriteSeq calls: a write that ends
// without an error (and so holds nothing: every request written and
// dropped, end) gives its state back for the next, so that a write of a
// few requests does not allocate 3 KB of state each time. A write that
// ends with an error keeps it: the error's requests share its memory.
var streams = sync.Pool{New: func() any { return new(batchStream) }}

// streamSlots is the size of a batchStream's table, 1<<streamBits.
const (
	streamBits  = 6
	streamSlots = 1 << streamBits
)

// start readies s, new or given back after a write without an error,
// for a write by w.
func (s *batchStream) start(w batchWriter) {
	s.w, s.chunk, s.taken, s.used, s.keep = w, s.room[:0], 0, 0, false
	s.w.chunk = s.positions[:0]
}

// take puts r, checked, whose key is key, in the request of 25 being
// filled: when that has r's key, it writes it first; when r fills it, it
// writes it.
func (s *batchStream) take(ctx context.Context, r *WriteRequest, key keyPair) *BatchWriteError {
	digest := keyDigest(key)
	if s.has(key, digest) {
		if err := s.flush(ctx); err != nil {
			err.Unprocessed = append(err.Unprocessed, *r)
			s.w.t.keyed(err.Unprocessed[len(err.Unprocessed)-1:])
			return err
		}
	}
	s.add(r, digest)
	if len(s.chunk) == MaxBatchWrite {
		return s.flush(ctx)
	}
	return nil
}

// refused is the error of a stream stopped by r, the request taken last,
// which err refuses: r and the requests of its request of 25 are not
// written.
func (s *batchStream) refused(r *WriteRequest, err error) *BatchWriteError {
	be := &BatchWriteError{Unprocessed: append(s.chunk, *r), Total: s.taken, Err: err}
	s.w.t.keyed(be.Unprocessed)
	return be
}

// end writes what the stream left in the request being filled; without
// an error, s holds nothing of the write after it.
func (s *batchStream) end(ctx context.Context) error {
	if err := s.flush(ctx); err != nil {
		return err
	}
	s.w = batchWriter{}
	if !s.keep {
		clear(s.room[:s.used])
		return nil
	}
	for i := range s.room[:s.used] { // nor a key nor an error: see WriteRequest.key
		s.room[i].item = nil
	}
	return nil
}

// has reports whether the chunk has a request of key, whose digest is
// digest: the requests of equal digest (found in the table, not by a
// scan of the chunk) compared by key.
func (s *batchStream) has(key keyPair, digest uint64) bool {
	for at := digestSlot(digest, streamBits); s.slots[at] != 0; at = (at + 1) & (streamSlots - 1) {
		if i := s.slots[at] - 1; s.digests[i] == digest && s.w.t.requestKey(&s.chunk[i]) == key {
			return true
		}
	}
	return false
}

// add puts r, whose key the chunk does not have, in the chunk: a copy of
// it, unless r is already the room's next request (BatchPut builds its
// requests there).
func (s *batchStream) add(r *WriteRequest, digest uint64) {
	at := digestSlot(digest, streamBits)
	n := len(s.chunk)
	for s.slots[at] != 0 {
		at = (at + 1) & (streamSlots - 1)
	}
	s.slots[at] = uint8(n + 1)
	s.digests[n] = digest
	s.chunk = s.chunk[:n+1]
	if r != &s.chunk[n] {
		s.chunk[n] = *r
	}
}

// flush writes the requests of the chunk, each until it is processed, and
// empties it; it reports those it could not write, in order.
func (s *batchStream) flush(ctx context.Context) *BatchWriteError {
	if len(s.chunk) == 0 {
		return nil
	}
	left, err := s.w.write(ctx, s.chunk)
	if len(left) > 0 || err != nil {
		slices.Sort(left)
		return s.w.t.batchWriteError(s.chunk, left, s.taken, err)
	}
	// The written requests stay in the room until the next ones replace
	// them, or the stream ends (end): clearing them here would cost a
	// write barrier per pointer while the collector marks, as replacing
	// them does.
	s.used = max(s.used, len(s.chunk))
	s.chunk = s.chunk[:0]
	s.slots = [streamSlots]uint8{}
	return nil
}
