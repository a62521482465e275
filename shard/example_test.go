package shard_test

import (
	"fmt"

	"github.com/keyfirst/keyfirst/shard"
)

// Seed 002: 2,000 writes/s of items under 1 KB is 2,000 WCU/s on the
// index, which 3 shards of 800 WCU/s absorb.
func ExampleCount() {
	fmt.Println(shard.Count(2000))
	fmt.Println(shard.Count(800))
	// Output:
	// 3
	// 1
}

// An index write costs one unit per started KB of the projected item: the
// same 2,000 writes/s of 2.5 KB items need 6,000 WCU/s, so 8 shards.
func ExampleCountForItems() {
	fmt.Println(shard.CountForItems(2000, 900))
	fmt.Println(shard.CountForItems(2000, 2560))
	// Output:
	// 3
	// 8
}
