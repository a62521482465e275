package keyfirst

import (
	"context"
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/backoff"
)

// DynamoDB's batch sizes.
const (
	MaxBatchGet   = 100 // keys per BatchGetItem request
	MaxBatchWrite = 25  // requests per BatchWriteItem request
)

// keyPair identifies an item of the table in a batch. The sort key comes
// first: two items of one collection, the pairs compared most often (a
// transaction's or a batch's check for one item twice), differ there,
// and the comparison stops at the first field.
type keyPair struct{ sk, pk keyPart }

// keyDigest is a digest of k: of each value its length and its last 8
// bytes (all of a shorter one), where keys of one kind differ (their
// prefixes are alike), mixed and multiplied so that the high bits of the
// digest depend on every bit of both (a table of digests takes its slot
// from them, digestSlot). Equal keys have equal digests, so that looking
// for a key among others (an ItemID's ==, BatchWriteSeq's request of 25,
// a transaction's items) compares digests first and keys only when two
// are equal. It has no seed: a caller who chooses keys can make their
// digests collide, which only slows those lookups, each among a few keys
// (the 25 of a BatchWriteSeq request, the first 16 of a transaction's
// items, a map past them); the duplicate check of a whole batch
// (firstDuplicate) hashes with a seed.
func keyDigest(k keyPair) uint64 {
	h := textWord(k.pk.val) * 0x9E3779B97F4A7C15
	h ^= h >> 32
	return (h + textWord(k.sk.val)) * 0xC2B2AE3D27D4EB4F
}

// digestSlot is the slot of a digest in a table of 1<<width slots: its
// high bits, which depend on all of the key's.
func digestSlot(digest uint64, width uint) uint64 { return digest >> (64 - width) }

// textWord is s's last 8 bytes (all of a shorter one) as a word, its
// length mixed in.
func textWord(s string) uint64 {
	n := len(s)
	var w uint64
	if n >= 8 {
		w = binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[n-8:]), 8))
	} else {
		for i := range n {
			w = w<<8 | uint64(s[i])
		}
	}
	return w ^ uint64(n)<<53 ^ uint64(n)
}

// sameMemory reports whether a and b are the same bytes in memory, and so
// the same text: the partition and sort key of an item that share a
// computed text (a shared text's values hold one string).
func sameMemory(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// sendChunk sends the requests at the given positions and appends to
// unprocessed the positions DynamoDB left unprocessed. The chunk's slice
// is reused by the next call.
type sendChunk func(ctx context.Context, chunk, unprocessed []int) ([]int, error)

// drain sends n requests in chunks of at most size until every one is
// processed: the requests in order, then those left unprocessed, in the
// order they came back. Each response that leaves some is followed by a
// backoff delay (exponential, full jitter), which a fully processed
// response resets. It stops when the context ends, when a request fails,
// or after o.MaxAttempts consecutive responses with unprocessed requests
// (0: no limit), and returns the positions not processed and the reason.
//
// It holds a chunk and the queue of unprocessed positions, never a list
// of all n. The chunk is buf's memory when it has room for it (a
// stream's, reused from one request of 25 to the next), else its own.
func drain(ctx context.Context, o Options, n, size int, buf []int, send sendChunk) (left []int, err error) {
	next := 0       // the requests next to n-1 are not sent yet
	var retry []int // unprocessed, to send again
	chunk := buf[:0]
	if cap(chunk) < min(size, n) {
		chunk = make([]int, 0, min(size, n))
	}
	unsent := func() []int {
		left := append(chunk, retry...)
		for i := next; i < n; i++ {
			left = append(left, i)
		}
		return left
	}
	policy := o.backoff()
	rounds := 0
	for next < n || len(retry) > 0 {
		chunk = chunk[:0]
		if err := ctx.Err(); err != nil {
			return unsent(), err
		}
		for ; len(chunk) < size && next < n; next++ {
			chunk = append(chunk, next)
		}
		taken := min(size-len(chunk), len(retry))
		chunk = append(chunk, retry[:taken]...)
		retry = retry[:copy(retry, retry[taken:])]
		got, err := send(ctx, chunk, retry)
		if err != nil {
			return unsent(), err
		}
		more := len(got) > len(retry)
		retry, chunk = got, chunk[:0]
		if !more {
			rounds = 0
			continue
		}
		rounds++
		if o.MaxAttempts > 0 && rounds >= o.MaxAttempts {
			return unsent(), nil
		}
		if err := backoff.Sleep(ctx, policy.Delay(rounds-1)); err != nil {
			return unsent(), err
		}
	}
	return nil, nil
}

// requestKey is r's key: its own, or read from its item (a request of
// BatchPut, WriteRequest.key).
func (t *Table) requestKey(r *WriteRequest) keyPair {
	if r.key.pk.typ != 0 || r.item == nil {
		return r.key
	}
	return t.pairOf(r.item)
}

// keyed gives each request of reqs its key (requestKey): requests that a
// caller receives (BatchWriteError.Unprocessed) have theirs.
func (t *Table) keyed(reqs []WriteRequest) {
	for i := range reqs {
		reqs[i].key = t.requestKey(&reqs[i])
	}
}

// pairOf reads the primary key of an item or a key map.
func (t *Table) pairOf(m map[string]types.AttributeValue) keyPair {
	p := keyPair{pk: partOf(m[t.primary.PartitionKey[0].Name])}
	if t.primary.SortKey != nil {
		p.sk = partOf(m[t.primary.SortKey[0].Name])
	}
	return p
}

// firstDuplicate finds, among the keys of es (parts gives an element's
// partition and sort key, in place), the first that repeats an earlier
// one: second is the smallest position whose key is at an earlier
// position, first the earliest of those. It puts the keys' hashes (of
// their values: keys of equal values and other types are told apart by
// comparing them), in order, in an open-addressed table of positions, one
// pass: 16 bytes per key rather than a map of the keys.
func firstDuplicate[E any](es []E, parts func(*E) (pk, sk *keyPart)) (first, second int, dup bool) {
	n := len(es)
	if n < 2 {
		return 0, 0, false
	}
	seed := maphash.MakeSeed()
	hs := make([]uint64, n)
	// slots holds position+1 of each key put in, 0 when free; at least
	// twice as many slots as keys, so that a probe ends soon.
	slots := make([]int32, 1<<bits.Len(uint(2*n-1)))
	mask := uint64(len(slots) - 1)
	for i := range es {
		pk, sk := parts(&es[i])
		hpk := maphash.String(seed, pk.val)
		hsk := hpk
		if !sameMemory(pk.val, sk.val) { // a key whose sort key is its partition key's text, hashed once
			hsk = maphash.String(seed, sk.val)
		}
		h := hpk ^ bits.RotateLeft64(hsk, 32)
		hs[i] = h
		at := h & mask
		for ; slots[at] != 0; at = (at + 1) & mask {
			// An equal hash is compared as keys: a hash collision is not
			// a duplicate.
			if j := int(slots[at] - 1); hs[j] == h {
				if jpk, jsk := parts(&es[j]); *jpk == *pk && *jsk == *sk {
					return j, i, true
				}
			}
		}
		slots[at] = int32(i + 1)
	}
	return 0, 0, false
}
