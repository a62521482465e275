package query

import "time"

// expiredFunc is what a read WithoutExpired(now) drops (see
// [Query.WithoutExpired], [Scan.WithoutExpired]): for a read of one
// entity decoded whole, its items whose expiry has passed
// ([keyfirst.Entity.Expired]); for a collection, each item by its own
// entity's expiry ([keyfirst.Table.Expired]), which the index must
// project whole (d). Any other read is refused with [ProblemExpired].
func (src *source[T]) expiredFunc(f failer, d decoding, now time.Time) (func(item) bool, error) {
	switch e := src.entity; {
	case e != nil && src.decode == nil && e.ExpiresAttribute() != "":
		return func(it item) bool { return e.Expired(it, now) }, nil
	case src.reads.kind == readCollection && !d.partial:
		t := src.table
		return func(it item) bool { return t.Expired(it, now) }, nil
	case src.reads.kind == readCollection:
		return nil, f.fail("", ProblemExpired, "WithoutExpired on a collection needs an index that projects every attribute "+
			"(ALL): another may lack an item's expiry, which the read could not tell", nil)
	}
	return nil, f.fail("", ProblemExpired, "WithoutExpired needs a read of one entity that declares its expiry (EntitySpec.Expires), "+
		"decoded whole, or of a collection", nil)
}
