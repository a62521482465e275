package keyfirst

import (
	"fmt"
	"strings"
	"testing"
)

// sKey is the key pair of two string values.
func sKey(pk, sk string) keyPair {
	return keyPair{pk: keyPart{val: pk, typ: partS}, sk: keyPart{val: sk, typ: partS}}
}

// TestKeyDigestSpreads: equal keys (in other memory) have equal digests;
// the keys of a typical batch, which differ in their last bytes only,
// have distinct digests, and the low bits that a table of digests takes
// (BatchWriteSeq's) spread them evenly.
func TestKeyDigestSpreads(t *testing.T) {
	for _, k := range []keyPair{sKey("CUST#c0001", "CUST#c0001"), sKey("a", ""), sKey("", ""), sKey("ORDER#o1", "ITEM#2")} {
		other := sKey(strings.Clone(k.pk.val), strings.Clone(k.sk.val))
		if keyDigest(k) != keyDigest(other) {
			t.Fatalf("equal keys %v have other digests", k)
		}
	}
	for _, shape := range []struct {
		name string
		key  func(i int) keyPair
	}{
		{"one text", func(i int) keyPair { s := fmt.Sprintf("CUST#c%04d", i); return sKey(s, s) }},
		{"sort key", func(i int) keyPair { return sKey("CUST#c1", fmt.Sprintf("ORDER#o%05d", i)) }},
		{"partition key", func(i int) keyPair { return sKey(fmt.Sprintf("USER#%d", i), "PROFILE") }},
		{"short", func(i int) keyPair { return sKey(fmt.Sprint(i), "") }},
	} {
		const n = 10000
		seen := map[uint64]int{}
		var buckets [streamSlots]int
		for i := range n {
			d := keyDigest(shape.key(i))
			if j, ok := seen[d]; ok {
				t.Fatalf("%s: keys %d and %d have one digest", shape.name, j, i)
			}
			seen[d] = i
			buckets[digestSlot(d, streamBits)]++
		}
		for b, c := range buckets { // n/streamSlots = 156 each, evenly
			if c < 100 || c > 220 {
				t.Fatalf("%s: %d of %d keys in slot %d of %d", shape.name, c, n, b, streamSlots)
			}
		}
	}
}

// TestBatchStreamTable: the chunk's table finds a request's key among
// requests of the same slot and of the same digest (keys alike in their
// last 8 bytes), and tells them from it.
func TestBatchStreamTable(t *testing.T) {
	var s batchStream
	s.chunk = make([]WriteRequest, 0, MaxBatchWrite)
	// Keys of one digest: the same length and last 8 bytes.
	for i := range 12 {
		k := sKey(fmt.Sprintf("%c-same-tail", 'A'+i), "x")
		r := WriteRequest{key: k}
		if s.has(r.key, keyDigest(k)) {
			t.Fatalf("key %v found before it was added", k)
		}
		s.add(&r, keyDigest(k))
	}
	// Keys of one slot, other digests.
	slot := digestSlot(keyDigest(sKey("A-same-tail", "x")), streamBits)
	for i := 0; len(s.chunk) < MaxBatchWrite; i++ {
		k := sKey(fmt.Sprintf("K%d", i), "x")
		if digestSlot(keyDigest(k), streamBits) != slot {
			continue
		}
		r := WriteRequest{key: k}
		if s.has(r.key, keyDigest(k)) {
			t.Fatalf("key %v found before it was added", k)
		}
		s.add(&r, keyDigest(k))
	}
	for i := range s.chunk {
		if r := s.chunk[i]; !s.has(r.key, keyDigest(r.key)) {
			t.Fatalf("key %v of the chunk not found", r.key)
		}
	}
	if d := keyDigest(sKey("Z-same-tail", "x")); d != keyDigest(sKey("A-same-tail", "x")) {
		t.Fatal("the keys meant to share a digest do not")
	}
	for _, k := range []keyPair{sKey("Z-same-tail", "x"), sKey("A-same-tail", "y"), sKey("K999999", "x")} {
		if r := (WriteRequest{key: k}); s.has(r.key, keyDigest(k)) {
			t.Fatalf("key %v found, not in the chunk", k)
		}
	}
}
