package keyfirst_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// everyKind has a field of each kind the codec encodes in place (its
// direct path), pointers among them.
type everyKind struct {
	ID     string    `dynamodbav:"id"`
	Group  string    `dynamodbav:"group"`
	Data   []byte    `dynamodbav:"data"`
	Tags   []string  `dynamodbav:"tags"`
	Set    []string  `dynamodbav:"set,stringset"`
	Int    int64     `dynamodbav:"int"`
	Small  int8      `dynamodbav:"small"`
	Uint   uint32    `dynamodbav:"uint"`
	Float  float64   `dynamodbav:"float"`
	Text   float32   `dynamodbav:"text,string"`
	Flag   bool      `dynamodbav:"flag"`
	When   time.Time `dynamodbav:"when"`
	Unix   time.Time `dynamodbav:"unix,unixtime"`
	Name   *string   `dynamodbav:"name"`
	Count  *int      `dynamodbav:"count"`
	Absent *string   `dynamodbav:"absent,omitempty"`
}

// TestItemHoldsNoPointerIntoT: Entity.Item builds its item from T on its
// own stack (stackT), which is sound only while no value of the item
// points into the T it was built from. Each item is copied deeply, the
// stack where its T was is then overwritten, and the item must still
// equal its copy: for T's of every kind the codec encodes in place, keys
// bound to fields (strings, a number, bytes, composite keys) and to
// functions, a version, lifecycle times, and a T that the codec reads by
// reflection.
func TestItemHoldsNoPointerIntoT(t *testing.T) {
	table := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "kinds",
		PartitionKey: keyfirst.StringAttr("PK"), SortKey: keyfirst.StringAttr("SK"),
		GSIs: []keyfirst.Index{{Name: "GSI1",
			PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("GSI1PK")},
			SortKey:      []keyfirst.Attribute{keyfirst.StringAttr("GSI1SK")}}}}))
	kinds := keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[everyKind]{Type: "KIND",
		Keys: []keyfirst.Binding{
			keyfirst.OnTable(keyfirst.Str("PK"), keyfirst.Str("SK")).Fields("ID", "Group"),
			keyfirst.Func(keyfirst.OnIndex("GSI1", keyfirst.Str("GSI1PK"), keyfirst.Str("GSI1SK")),
				func(k everyKind) (string, string, bool) { return "G#" + k.Group, k.ID, true }),
		}}))
	name, count := "a name", 7
	checkNoPointerIntoT(t, kinds, everyKind{ID: "k1", Group: "g", Data: []byte{1, 2, 3}, Tags: []string{"x", "y"}, Set: []string{"s"},
		Int: -5, Small: 3, Uint: 9, Float: 1.5, Text: 2.25, Flag: true, When: day, Unix: day, Name: &name, Count: &count})

	checkNoPointerIntoT(t, benchEntity(t, "bench"), benchValue)
	checkNoPointerIntoT(t, benchPatternEntity(t), benchValue)
	readings := readingEntity(t, keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "readings", Key: sensorByKey})))
	checkNoPointerIntoT(t, readings, sensorReading{Sensor: 1.5, Data: []byte{0, 1, 2}, Note: "n", Version: 3})
	notes := keyfirst.Must(keyfirst.NewEntity(keyfirst.Must(keyfirst.NewTable(notesSpec())), noteEntitySpec(&clock{now: day})))
	checkNoPointerIntoT(t, notes, Note{ID: "n1", Owner: "ann", Body: "body", Expires: day.AddDate(1, 0, 0)})
	placed := "2019-07-01"
	loose := looseEntity(t, keyfirst.Must(keyfirst.NewTable(shopSpec())))
	checkNoPointerIntoT(t, loose, Loose{Customer: "c1", ID: "o1", Status: "OPEN", PlacedAt: &placed, Bucket: "C#c1", Total: 1.5, Blob: []byte("b")})
}

// checkNoPointerIntoT fails t unless the item of v still equals a deep
// copy of itself once the stack where Item held v is overwritten: the
// arguments' area of this frame (where a large T is passed) by another
// call of Item, and the frames below it.
func checkNoPointerIntoT[T any](t *testing.T, e *keyfirst.Entity[T], v T) {
	t.Helper()
	clobberStack(16) // the stack grows now, not between Item and the check
	item, err := e.Item(v)
	if err != nil {
		t.Fatal(err)
	}
	want := make(map[string]types.AttributeValue, len(item))
	for name, av := range item {
		want[strings.Clone(name)] = cloneValue(av)
	}
	var zero T
	_, _ = e.Item(zero) // a T passed on the stack is in this frame: overwrite it
	clobberStack(16)
	for name, av := range item {
		if !reflect.DeepEqual(av, want[name]) {
			t.Errorf("%T: attribute %s changed when the stack was overwritten (it points into its T): %+v, was %+v", v, name, av, want[name])
		}
	}
}

// clobberStack overwrites the depth*4 KiB of stack below its caller
// (and grows a smaller stack to hold them).
//
//go:noinline
func clobberStack(depth int) byte {
	var buf [4096]byte
	for i := range buf {
		buf[i] = 0xA5
	}
	if depth > 0 {
		return clobberStack(depth-1) ^ buf[depth]
	}
	return buf[0]
}

// cloneValue copies av and everything it holds into new memory.
func cloneValue(av types.AttributeValue) types.AttributeValue {
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		return &types.AttributeValueMemberS{Value: strings.Clone(x.Value)}
	case *types.AttributeValueMemberN:
		return &types.AttributeValueMemberN{Value: strings.Clone(x.Value)}
	case *types.AttributeValueMemberB:
		return &types.AttributeValueMemberB{Value: bytes.Clone(x.Value)}
	case *types.AttributeValueMemberBOOL:
		return &types.AttributeValueMemberBOOL{Value: x.Value}
	case *types.AttributeValueMemberNULL:
		return &types.AttributeValueMemberNULL{Value: x.Value}
	case *types.AttributeValueMemberSS:
		return &types.AttributeValueMemberSS{Value: cloneStrings(x.Value)}
	case *types.AttributeValueMemberNS:
		return &types.AttributeValueMemberNS{Value: cloneStrings(x.Value)}
	case *types.AttributeValueMemberBS:
		bs := make([][]byte, len(x.Value))
		for i, b := range x.Value {
			bs[i] = bytes.Clone(b)
		}
		return &types.AttributeValueMemberBS{Value: bs}
	case *types.AttributeValueMemberL:
		l := make([]types.AttributeValue, len(x.Value))
		for i, e := range x.Value {
			l[i] = cloneValue(e)
		}
		return &types.AttributeValueMemberL{Value: l}
	case *types.AttributeValueMemberM:
		m := make(map[string]types.AttributeValue, len(x.Value))
		for k, e := range x.Value {
			m[strings.Clone(k)] = cloneValue(e)
		}
		return &types.AttributeValueMemberM{Value: m}
	}
	panic("cloneValue: " + reflect.TypeOf(av).String())
}

func cloneStrings(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.Clone(s)
	}
	return out
}
