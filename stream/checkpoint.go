package stream

import (
	"maps"
	"slices"
)

// Checkpoint is a consumer's position in a stream: the sequence number of
// the last record handled in each shard, and the shards handled to their
// end. It is plain data: serialise it with encoding/json, store it where
// the service keeps its state, and resume from it ([Options.Resume]).
// Records after it are delivered again after a crash (at least once): a
// handler that must apply each record once keeps the sequence number as
// its idempotency key.
type Checkpoint struct {
	// Stream is the stream's ARN ("" in the zero Checkpoint, the start of
	// any stream).
	Stream string `json:"stream,omitempty"`
	// Shards maps a shard's id to the sequence number of the last record
	// handled in it.
	Shards map[string]string `json:"shards,omitempty"`
	// Done lists the shards handled to their end, sorted; their children
	// come next (a shard's records before its children's).
	Done []string `json:"done,omitempty"`
}

// Clone returns a copy that shares nothing with c.
func (c Checkpoint) Clone() Checkpoint {
	c.Shards = maps.Clone(c.Shards)
	c.Done = slices.Clone(c.Done)
	return c
}

func (c *Checkpoint) done(shard string) bool {
	_, found := slices.BinarySearch(c.Done, shard)
	return found
}

// finish records the shard as handled to its end.
func (c *Checkpoint) finish(shard string) {
	if i, found := slices.BinarySearch(c.Done, shard); !found {
		c.Done = slices.Insert(c.Done, i, shard)
	}
	delete(c.Shards, shard)
}

// prune forgets the finished shards that the stream no longer lists
// (trimmed after 24 hours), so that the checkpoint stays small.
func (c *Checkpoint) prune(listed map[string]bool) {
	c.Done = slices.DeleteFunc(c.Done, func(id string) bool { return !listed[id] })
}
