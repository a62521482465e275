package shard

import (
	"math"

	"github.com/keyfirst/keyfirst/sparse"
)

// WCUPerShard is the write rate one shard is sized for: 800 write capacity
// units per second, a margin under the ~1,000 WCU/s a partition safely
// takes (seed 002).
const WCUPerShard = 800

// Count returns the shard count for a peak write rate on the index, in
// index write capacity units per second: ceil(peakWCU / 800), at least 1
// (seed 002: 2,000 writes/s of items under 1 KB is 2,000 WCU/s, which
// gives 3). Size it on the index's WCUs, not on writes: an index write of
// an item that projects more than 1 KB costs ceil(size / 1 KB) units
// ([CountForItems] does the product). A peak that is not positive (or
// NaN) gives 1. The result may exceed [MaxShards], which [New] refuses:
// such a rate needs an index key of real cardinality.
func Count(peakWCU float64) int {
	if !(peakWCU > 0) {
		return 1
	}
	return int(min(math.Ceil(peakWCU/WCUPerShard), math.MaxInt32))
}

// CountForItems returns [Count] for writesPerSecond writes of items whose
// projection on the index is itemBytes long (the whole item for an index
// that projects ALL; sparse.ItemSize measures it): each write costs
// ceil(itemBytes / 1 KB) WCUs on the index, at least 1.
func CountForItems(writesPerSecond float64, itemBytes int) int {
	units := itemBytes / sparse.WriteUnit
	if itemBytes%sparse.WriteUnit != 0 {
		units++
	}
	units = max(1, units)
	return Count(writesPerSecond * float64(units))
}
