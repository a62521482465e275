package keyfirst

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// pairParts gives a keyPair's parts to firstDuplicate.
func pairParts(p *keyPair) (pk, sk *keyPart) { return &p.pk, &p.sk }

// TestFirstDuplicate: the first repeat in order is found; keys whose
// values have the same text but other types hash alike and are not
// duplicates.
func TestFirstDuplicate(t *testing.T) {
	s := func(v string) keyPart { return keyPart{val: v, typ: partS} }
	n := func(v string) keyPart { return keyPart{val: v, typ: partN} }
	tests := []struct {
		name          string
		pairs         []keyPair
		first, second int
		dup           bool
	}{
		{"none", nil, 0, 0, false},
		{"one", []keyPair{{pk: s("a")}}, 0, 0, false},
		{"types differ", []keyPair{{pk: s("1")}, {pk: n("1")}, {pk: s("1"), sk: s("1")}, {pk: s("1"), sk: n("1")}}, 0, 0, false},
		{"sort keys swapped", []keyPair{{pk: s("a"), sk: s("b")}, {pk: s("b"), sk: s("a")}}, 0, 0, false},
		{"repeat after a collision", []keyPair{{pk: s("1")}, {pk: n("1")}, {pk: n("2")}, {pk: n("1")}}, 1, 3, true},
		{"the first repeat", []keyPair{{pk: s("a")}, {pk: s("b")}, {pk: s("c")}, {pk: s("b")}, {pk: s("a")}, {pk: s("b")}}, 1, 3, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first, second, dup := firstDuplicate(tt.pairs, pairParts)
			if dup != tt.dup || dup && (first != tt.first || second != tt.second) {
				t.Fatalf("firstDuplicate = %d, %d, %v", first, second, dup)
			}
		})
	}
}

// TestFirstDuplicateRandom: over random batches of keys from a small
// alphabet (so that repeats are common, and texts repeat across types,
// which hash alike), firstDuplicate finds what a map of the keys finds:
// the smallest position whose key came before, and that key's first
// position.
func TestFirstDuplicateRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	typs := []partType{partS, partN}
	found := 0
	for range 3000 {
		n := r.IntN(300)
		pairs := make([]keyPair, n)
		for i := range pairs {
			pairs[i] = keyPair{pk: keyPart{val: strconv.Itoa(r.IntN(40)), typ: typs[r.IntN(2)]},
				sk: keyPart{val: strconv.Itoa(r.IntN(40)), typ: partS}}
			if r.IntN(4) == 0 { // one text for both, as a shared text gives them
				pairs[i].sk.val = pairs[i].pk.val
			}
		}
		wantFirst, wantSecond, wantDup := 0, 0, false
		seen := map[keyPair]int{}
		for i, p := range pairs {
			if j, ok := seen[p]; ok {
				wantFirst, wantSecond, wantDup = j, i, true
				break
			}
			seen[p] = i
		}
		first, second, dup := firstDuplicate(pairs, pairParts)
		if dup != wantDup || first != wantFirst || second != wantSecond {
			t.Fatalf("%d keys: firstDuplicate = %d, %d, %v; want %d, %d, %v", n, first, second, dup, wantFirst, wantSecond, wantDup)
		}
		if dup {
			found++
		}
	}
	if found < 1000 || found > 2900 {
		t.Fatalf("%d of 3000 batches had a repeat: the test does not cover both", found)
	}
}
