package txn

import "github.com/keyfirst/keyfirst"

// seenScan is the most items [seenItems] compares one by one; past it
// they go into a map.
const seenScan = 16

// seenItems remembers the items of a transaction's steps, and the action
// of each, to refuse two steps on one item: a small transaction (the
// common case) is scanned by the items' digests, which allocates nothing
// (the caller, who holds the items, gives one again only when two digests
// are equal), a large one looked up in a map.
type seenItems struct {
	n       int
	digests [seenScan]uint64
	at      [seenScan]int
	idx     map[keyfirst.ItemID]int // made past seenScan items
}

// add records that action i has a step on item id, and returns the action
// that already had one (dup), if any. idOf(k) returns the item added k-th
// (from 0) before.
func (s *seenItems) add(id *keyfirst.ItemID, i int, idOf func(k int) keyfirst.ItemID) (first int, dup bool) {
	if s.idx != nil {
		if j, ok := s.idx[*id]; ok {
			return j, true
		}
		s.idx[*id] = i
		return 0, false
	}
	d := id.Digest()
	for k, seen := range s.digests[:s.n] {
		if seen == d && idOf(k) == *id {
			return s.at[k], true
		}
	}
	if s.n < seenScan {
		s.digests[s.n], s.at[s.n] = d, i
		s.n++
		return 0, false
	}
	s.idx = make(map[keyfirst.ItemID]int, 2*seenScan)
	for k, at := range s.at {
		s.idx[idOf(k)] = at
	}
	s.idx[*id] = i
	return 0, false
}
