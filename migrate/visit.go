package migrate

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// Visit returns the target of the items of e's entity type that a backfill
// reads and hands to visit, decoded as T, instead of bringing them up to
// date: a fold over every item of the entity (an aggregate rebuilt from
// scratch, an export), with the backfill's parallel Scan, [Progress],
// checkpoint and resume. A backfill whose targets are all visits writes
// nothing and needs no budget (WCU 0); beside [Entity] targets it visits
// one entity while it brings the others up to date. Visited counts the
// items visited.
//
// visit is called from the Scan's segments: the items of one segment one
// at a time, in the order of the Scan, and segments concurrently. segment
// (0 to Segments-1) is the segment the item was read in, so that a fold
// can keep a state per segment without a lock. An item that does not
// decode is a [Failure], not visited; an error returned by visit stops the
// run, with the checkpoint before the item. Resumed from a checkpoint, the
// backfill visits the items after it: an item visited after the last
// checkpoint persisted is visited again (at least once, as a stream's
// records), so that a fold that must count each item once is keyed by
// the item (a set, a map by key) or persists its state with the
// checkpoint it is at.
func Visit[T any](e *keyfirst.Entity[T], visit func(ctx context.Context, segment int, item T) error) Target {
	t := Entity(e)
	if t.t == nil || visit == nil {
		return Target{}
	}
	t.t.definition += " visited"
	t.t.visit = func(ctx context.Context, segment int, item map[string]types.AttributeValue) (decoded bool, err error) {
		v, err := e.Decode(item)
		if err != nil {
			return false, err
		}
		return true, visit(ctx, segment, v)
	}
	return t
}

// writes reports whether the backfill writes: whether a target brings
// its items up to date.
func (b *Backfill) writes() bool {
	for _, t := range b.Entities {
		if t.t != nil && t.t.visit == nil {
			return true
		}
	}
	return false
}

// visited visits item, of target t, read in segment: a Failure when it
// does not decode, the run stopped when visit fails.
func (r *runner) visited(ctx context.Context, t *target, segment int, item map[string]types.AttributeValue) (Counts, error) {
	var n Counts
	decoded, err := t.visit(ctx, segment, item)
	if !decoded {
		res, _ := t.plan(item)
		return r.failed(n, t.typ, res.Key, item, err)
	}
	if err != nil {
		return n, err
	}
	n.Scanned, n.Visited = 1, 1
	r.count(t.typ, func(c *Counts) { c.Scanned++; c.Visited++ })
	return n, nil
}
