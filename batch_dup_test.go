package keyfirst

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestFirstDuplicate: the first repeat in order is found; keys whose
// values have the same text but other types hash alike and are not
// duplicates.
func TestFirstDuplicate(t *testing.T) {
	s := func(v string) keyPart { return keyPart{val: v, typ: types.ScalarAttributeTypeS} }
	n := func(v string) keyPart { return keyPart{val: v, typ: types.ScalarAttributeTypeN} }
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
			first, second, dup := firstDuplicate(len(tt.pairs), func(i int) keyPair { return tt.pairs[i] })
			if dup != tt.dup || dup && (first != tt.first || second != tt.second) {
				t.Fatalf("firstDuplicate = %d, %d, %v", first, second, dup)
			}
		})
	}
}
