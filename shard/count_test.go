package shard_test

import (
	"math"
	"testing"

	"github.com/keyfirst/keyfirst/shard"
)

// Count is ceil(peak / 800), at least 1; CountForItems multiplies the
// writes by the write units of the item (ceil(bytes / 1 KB), at least 1).
func TestCount(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		peak float64
		want int
	}{
		{2000, 3}, // seed 002
		{800, 1}, {800.5, 2}, {1600, 2}, {1601, 3}, {1, 1}, {0, 1}, {-5, 1},
		{math.NaN(), 1}, {80000, shard.MaxShards}, {80001, shard.MaxShards + 1},
		{math.Inf(1), math.MaxInt32},
	} {
		if got := shard.Count(tt.peak); got != tt.want {
			t.Errorf("Count(%v) = %d, want %d", tt.peak, got, tt.want)
		}
	}
	for _, tt := range []struct {
		writes float64
		bytes  int
		want   int
	}{
		{2000, 500, 3},        // seed 002: items under 1 KB
		{2000, 1024, 3},       // exactly 1 KB is one unit
		{2000, 1025, 5},       // 2 units: 4,000 WCU/s
		{2000, 2560, 8},       // 3 units: 6,000 WCU/s
		{2000, 0, 3},          // no size: one unit
		{2000, -1, 3},         // idem
		{100, 400 * 1024, 50}, // 400 units: 40,000 WCU/s
		{2000, math.MaxInt, math.MaxInt32},
	} {
		if got := shard.CountForItems(tt.writes, tt.bytes); got != tt.want {
			t.Errorf("CountForItems(%v, %d) = %d, want %d", tt.writes, tt.bytes, got, tt.want)
		}
	}
}
