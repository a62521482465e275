package shard_test

import (
	"strconv"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/shard"
)

// fnv1a32 is FNV-1a 32 written out from the package doc, independently of
// the package: what another language would implement.
func fnv1a32(s string) uint32 {
	h := uint32(2166136261)
	for _, b := range []byte(s) {
		h ^= uint32(b)
		h *= 16777619
	}
	return h
}

type keyed struct{ ID string }

var byID = keyfirst.OnIndex("ById", keyfirst.Str("shard"), keyfirst.NoSort())

// The hash is frozen: these vectors (the first two are FNV's published
// ones) were computed outside Go from the doc's definition, and must hold
// for ever. For N = 3 and 10, Index.Shard gives hash mod N and the
// partition is OPEN#<shard>.
func TestHashVectors(t *testing.T) {
	t.Parallel()
	vectors := []struct {
		value     string
		hash      uint32
		of3, of10 int
	}{
		{"a", 0xe40c292c, 1, 0},
		{"foobar", 0xbf9cf968, 1, 0},
		{"o-0001", 0x1a50d1e6, 2, 0},
		{"o-0002", 0x1950d053, 0, 1},
		{"o-0003", 0x1850cec0, 1, 2},
		{"o-0004", 0x1f50d9c5, 0, 5},
		{"o-0005", 0x1e50d832, 1, 6},
		{"o-0006", 0x1d50d69f, 2, 7},
		{"order-42", 0x572446f4, 2, 2},
		{"ORD#7", 0x36df7e2a, 1, 0},
		{"café", 0xa82b5049, 1, 9},
		{"注文-9", 0xe525a691, 1, 7},
		{"Z", 0xdf0c214d, 0, 5},
		{"9f1c2d3e-0000-4000-8000-000000000001", 0xa8351c5b, 1, 5},
	}
	if got := fnv1a32(""); got != 0x811c9dc5 {
		t.Fatalf("the test's FNV-1a of \"\" is %#x, want the offset basis", got)
	}
	for _, n := range []int{3, 10} {
		x, err := shard.New(byID, shard.Spec[keyed, keyfirst.None]{Base: "OPEN", Shards: n, Field: "ID"})
		if err != nil {
			t.Fatal(err)
		}
		parts := x.Partitions()
		for _, v := range vectors {
			want := v.of3
			if n == 10 {
				want = v.of10
			}
			if h := fnv1a32(v.value); h != v.hash || int(h%uint32(n)) != want {
				t.Fatalf("%q: the vector is wrong (test FNV %#x)", v.value, h)
			}
			if h := shard.Hash(v.value); h != v.hash {
				t.Errorf("Hash(%q) = %#x, want %#x", v.value, h, v.hash)
			}
			got, err := x.Shard(keyed{v.value})
			if err != nil || got != want {
				t.Errorf("%d shards: Shard(%q) = %d, %v; want %d", n, v.value, got, err, want)
			}
			if err == nil && parts[got] != "OPEN#"+strconv.Itoa(want) {
				t.Errorf("%d shards: partition of %q is %s", n, v.value, parts[got])
			}
		}
	}
}
