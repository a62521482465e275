package stream

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/avequal"
)

// Movement says what a change did to an item's place in an index.
type Movement uint8

// The movements of a [Transition]. The zero value, Absent, is an item in
// the index in neither image.
const (
	Absent  Movement = iota // in the index before and after: neither
	Entered                 // not in the index before, in it after
	Left                    // in the index before, not after
	Moved                   // in the index before and after, under another index key
	Stayed                  // in the index before and after, under the same index key
)

var movementText = map[Movement]string{Absent: "absent", Entered: "entered", Left: "left", Moved: "moved", Stayed: "stayed"}

// String returns "absent", "entered", "left", "moved" or "stayed".
func (m Movement) String() string {
	if s, ok := movementText[m]; ok {
		return s
	}
	return fmt.Sprintf("Movement(%d)", uint8(m))
}

// Transition is what one change did to the item's place in one secondary
// index of the table.
type Transition struct {
	Index    string
	Movement Movement
	// Old and New are the index's key attributes in each image; nil
	// where the item is not in the index.
	Old, New map[string]types.AttributeValue
}

// transitions computes, for each secondary index of the table, the
// movement between the stored images, by DynamoDB's own rule
// ([keyfirst.KeySchema.Contains]: an index holds exactly the items that
// carry every key attribute of it), which is the rule keyfirst's write
// paths follow when they write all of an index's derived attributes or
// none. The stored attributes, not a recomputation (Entity.Item) of the
// decoded images, are what DynamoDB indexed: the two agree for every
// item written through keyfirst under the current definitions, and the
// stored ones stay right for an item written under an older definition
// that a backfill has not yet rewritten (a new index, another shard
// count), whose recomputation would claim an index entry that does not
// exist. Indexes the item is in neither before nor after are left out.
func transitions(table *keyfirst.Table, old, new map[string]types.AttributeValue) []Transition {
	var out []Transition
	indexes := viewOf(table).indexes
	for _, ix := range indexes {
		t := Transition{Index: ix.IndexName, Old: indexKey(ix, old), New: indexKey(ix, new)}
		switch {
		case t.Old == nil && t.New == nil:
			continue
		case t.Old == nil:
			t.Movement = Entered
		case t.New == nil:
			t.Movement = Left
		case avequal.EqualMaps(t.Old, t.New):
			t.Movement = Stayed
		default:
			t.Movement = Moved
		}
		if out == nil {
			out = make([]Transition, 0, len(indexes))
		}
		out = append(out, t)
	}
	return out
}

// indexKey returns the index's key attributes in item, nil when the item
// is not in the index: [keyfirst.KeySchema.Contains], without copying the
// key's attributes.
func indexKey(ix keyfirst.KeySchema, item map[string]types.AttributeValue) map[string]types.AttributeValue {
	if item == nil {
		return nil
	}
	var out map[string]types.AttributeValue
	for _, side := range [2][]keyfirst.Attribute{ix.PartitionKey, ix.SortKey} {
		for _, a := range side {
			av, ok := item[a.Name]
			if !ok {
				return nil
			}
			if out == nil {
				out = make(map[string]types.AttributeValue, len(ix.PartitionKey)+len(ix.SortKey))
			}
			out[a.Name] = av
		}
	}
	return out
}
