package shard

import (
	"hash/fnv"
	"unicode/utf8"
)

// Hash is the frozen, seedless hash that picks an item's shard from its
// hash field: FNV-1a, 32 bits, over the field's UTF-8 bytes (offset basis
// 2166136261, prime 16777619; for each byte, xor it in, then multiply
// modulo 2^32). It never changes: items written by one version of this
// package, or by another language that computes the same function, are on
// the shard every other version computes.
func Hash(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// hashShard is the shard of hash field value s among n shards, [Hash](s)
// mod n computed on unsigned 32-bit integers, or the problem that leaves
// the item without one.
func hashShard(s string, n int) (int, PickProblem) {
	switch {
	case s == "":
		return 0, PickEmptyField
	case !utf8.ValidString(s):
		return 0, PickInvalidUTF8
	}
	return int(Hash(s) % uint32(n)), 0
}
