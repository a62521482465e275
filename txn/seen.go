package txn

import "github.com/keyfirst/keyfirst"

// seenScan is the most items [seenItems] compares one by one; past it
// they go into a map.
const seenScan = 16

// seenItems remembers the items of a transaction's steps, and the action
// of each, to refuse two steps on one item: a small transaction (the
// common case) is scanned, by the items' digests first, which allocates
// nothing, a large one looked up in a map.
type seenItems struct {
	n       int
	digests [seenScan]uint64 // of ids: two ids are compared only when their digests are equal
	ids     [seenScan]keyfirst.ItemID
	at      [seenScan]int
	idx     map[keyfirst.ItemID]int // made past seenScan items
}

// add records that action i has a step on item id, and returns the action
// that already had one (dup), if any.
func (s *seenItems) add(id *keyfirst.ItemID, i int) (first int, dup bool) {
	if s.idx != nil {
		if j, ok := s.idx[*id]; ok {
			return j, true
		}
		s.idx[*id] = i
		return 0, false
	}
	d := id.Digest()
	for k, seen := range s.digests[:s.n] {
		if seen == d && s.ids[k] == *id {
			return s.at[k], true
		}
	}
	if s.n < seenScan {
		s.digests[s.n], s.ids[s.n], s.at[s.n] = d, *id, i
		s.n++
		return 0, false
	}
	s.idx = make(map[keyfirst.ItemID]int, 2*seenScan)
	for k, seen := range s.ids {
		s.idx[seen] = s.at[k]
	}
	s.idx[*id] = i
	return 0, false
}
