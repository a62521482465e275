package txn

import (
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// seenItems finds the first step on an item again wherever it is, the
// items scanned one by one or, past seenScan, in the map.
func TestSeenItems(t *testing.T) {
	table := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "seen",
		PartitionKey: keyfirst.StringAttr("PK"), SortKey: keyfirst.StringAttr("SK")}))
	id := func(n int) keyfirst.ItemID {
		return table.ItemID(map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: "P"}, "SK": &types.AttributeValueMemberS{Value: strconv.Itoa(n)}})
	}
	idOf := func(k int) keyfirst.ItemID { return id(k) } // item k is added k-th
	for _, n := range []int{1, seenScan - 1, seenScan, seenScan + 1, 3 * seenScan} {
		for again := 0; again < n; again++ {
			var s seenItems
			for i := range n {
				if j, dup := s.add(ptr(id(i)), i, idOf); dup {
					t.Fatalf("n %d: item %d already seen at %d", n, i, j)
				}
			}
			if j, dup := s.add(ptr(id(again)), n, idOf); !dup || j != again {
				t.Fatalf("n %d: item %d again: first %d, dup %v; want %d", n, again, j, dup, again)
			}
			if _, dup := s.add(ptr(id(n+1)), n+1, idOf); dup {
				t.Fatalf("n %d: a new item taken for seen", n)
			}
		}
	}
}

// ptr is a pointer to a copy of id.
func ptr(id keyfirst.ItemID) *keyfirst.ItemID { return &id }
