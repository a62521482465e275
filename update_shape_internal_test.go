package keyfirst

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/nocalls"
	"github.com/keyfirst/keyfirst/internal/wirebody"
)

// shapeItem has a field of every kind an update changes: a sparse index
// whose key reads Status and Rank, counters of three types, a list, sets,
// an omitempty field, a version, an updated time and an expiry an hour
// after Seen.
type shapeItem struct {
	ID      string    `dynamodbav:"id"`
	Status  string    `dynamodbav:"status,omitempty"`
	Rank    int       `dynamodbav:"rank"`
	Count   int64     `dynamodbav:"count"`
	Small   int32     `dynamodbav:"small"`
	Price   float64   `dynamodbav:"price"`
	Note    string    `dynamodbav:"note,omitempty"`
	Log     []string  `dynamodbav:"log"`
	Tags    []string  `dynamodbav:"tags,stringset,omitempty"`
	Nums    []int     `dynamodbav:"nums,numberset,omitempty"`
	Version int64     `dynamodbav:"version"`
	Updated time.Time `dynamodbav:"updated"`
	Seen    time.Time `dynamodbav:"seen"`
}

var shapeClock = time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)

// shapeEntity is the entity of shapeItem of type typ in a table of its
// own; adopt: it adopts the untyped items whose key begins "OLD".
func shapeEntity(t testing.TB, typ string, adopt bool) *Entity[shapeItem] {
	t.Helper()
	byStatus := OnIndex("by-status", Str("SPK"), Num[int]("RSK"))
	table, err := NewTable(TableSpec{Name: "shapes", PartitionKey: StringAttr("PK"), TimeToLive: "expires",
		GSIs: []Index{byStatus.Index()}})
	if err != nil {
		t.Fatal(err)
	}
	spec := EntitySpec[shapeItem]{Type: typ, Version: "version", Updated: "Updated",
		ExpiresAfter: ExpiresAfter{Field: "Seen", After: time.Hour}, Clock: func() time.Time { return shapeClock },
		Keys: []Binding{OnTable(Str("PK"), NoSort()).Fields("ID"),
			If(byStatus.Fields("Status", "Rank"), func(s shapeItem) bool { return s.Status != "" }).Reads("Status")}}
	if adopt {
		spec.Adopt = func(pk, _ types.AttributeValue) bool {
			s, ok := pk.(*types.AttributeValueMemberS)
			return ok && strings.HasPrefix(s.Value, "OLD")
		}
	}
	e, err := NewEntity(table, spec)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// uncached is e building every update for itself, as before shapes.
func uncached[T any](e *Entity[T]) *Entity[T] {
	c := *e
	c.shapes = &updateShapes{}
	return &c
}

// sentBody is the body the SDK sends for e's Update of key by u, its
// objects' keys sorted (wirebody).
func sentBody[T any](t *testing.T, e *Entity[T], key Key[T], u Update) []byte {
	t.Helper()
	rec := &wirebody.Recorder{Keep: true}
	_, _ = e.Update(context.Background(), wirebody.Client(rec), key, u) // the answer {} decodes as no item
	bodies := rec.Bodies()
	if len(bodies) != 1 {
		t.Fatalf("%d requests sent, want 1", len(bodies))
	}
	body, err := wirebody.Sorted(bodies[0])
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// sentRequest is the body's expression parts: the texts and names, and
// the values.
func sentRequest(t *testing.T, body []byte) (text string, values string) {
	t.Helper()
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	return string(doc["UpdateExpression"]) + " ? " + string(doc["ConditionExpression"]) + " names " + string(doc["ExpressionAttributeNames"]),
		string(doc["ExpressionAttributeValues"])
}

// shapeCase is one shape of update, with two sets of values: a and b
// build the update with each.
type shapeCase struct {
	name string
	key  string // the item's ID (default "a1")
	u    func(i int) Update
}

// The values of the cases are spelled with a mark, so that a test can
// tell that none reached a shape's text.
func marked(i int) string { return fmt.Sprintf("VAL%dMARK", i) }

func shapeCases() []shapeCase {
	seen := func(i int) time.Time { return shapeClock.Add(time.Duration(i+1) * time.Minute) }
	return []shapeCase{
		{"set", "", func(i int) Update { return Set("Note", marked(i)) }},
		{"set zero of omitempty (REMOVE)", "", func(int) Update { return Set("Note", "") }},
		{"remove", "", func(int) Update { return Remove("Note") }},
		{"add counter up", "", func(i int) Update { return Add("Count", 5+i) }},
		{"add counter down", "", func(i int) Update { return Add("Count", -3-i) }},
		{"add zero", "", func(int) Update { return Add("Count", 0) }},
		{"add int32", "", func(i int) Update { return Add("Small", int8(1+i)) }},
		{"add float", "", func(i int) Update { return Add("Price", 1.5+float64(i)) }},
		{"append list", "", func(i int) Update { return Append("Log", []string{marked(i), "x"}) }},
		{"add to set", "", func(i int) Update { return AddToSet("Tags", []string{marked(i)}) }},
		{"delete from set", "", func(i int) Update { return DeleteFromSet("Nums", []int{i + 1, 10}) }},
		{"index key recomputed", "", func(i int) Update { return Set("Status", marked(i)).Set("Rank", i+1) }},
		{"leaves sparse index", "", func(i int) Update { return Set("Status", "").Set("Rank", i+1) }},
		{"expiry stamped", "", func(i int) Update { return Set("Seen", seen(i)) }},
		{"expiry removed", "", func(int) Update { return Set("Seen", time.Time{}) }},
		{"expected version", "", func(i int) Update { return Set("Note", marked(i)).If(Field("Version").Eq(i + 3)) }},
		{"conditions", "", func(i int) Update {
			return Add("Count", 1).If(And(Field("Count").Ge(i), Field("Price").Between(0.5, float64(i)+2),
				Field("Status").BeginsWith(marked(i)), Or(Field("Note").Exists(), Field("Tags").NotExists()),
				Not(Field("Note").Eq(marked(i))), Field("Note").Ne(marked(i+1)), Field("Status").Eq("")))
		}},
		// Shapes apart by one name, by where a group ends.
		{"condition on Count", "", func(i int) Update { return Set("Note", marked(i)).If(Field("Count").Ge(i)) }},
		{"condition on Small", "", func(i int) Update { return Set("Note", marked(i)).If(Field("Small").Ge(i)) }},
		{"or of an and of two", "", func(i int) Update {
			return Set("Note", marked(i)).If(Or(And(Field("Count").Ge(i), Field("Count").Le(i+9)), Field("Count").Eq(i), Field("Small").Eq(i)))
		}},
		{"or of an and of three", "", func(i int) Update {
			return Set("Note", marked(i)).If(Or(And(Field("Count").Ge(i), Field("Count").Le(i+9), Field("Count").Eq(i)), Field("Small").Eq(i)))
		}},
		{"many changes", "", func(i int) Update {
			return Set("Note", marked(i)).Add("Count", i+1).Append("Log", []string{marked(i)}).AddToSet("Tags", []string{"t", marked(i)}).
				Set("Status", marked(i)).Set("Rank", i).If(Field("Small").Lt(100 + i))
		}},
		{"adopted key", "OLD1", func(i int) Update { return Set("Note", marked(i)).If(Field("Count").Gt(i)) }},
	}
}

// TestUpdateShapesSendTheSameRequest: for every shape, an update whose
// shape is compiled (the first: the entity keeps it) and one that takes
// it from the entity (the second, other values) send the bytes the
// update built for itself sends; the two share their expressions' text
// and names and differ in their values; no value reaches the text kept.
func TestUpdateShapesSendTheSameRequest(t *testing.T) {
	for _, typ := range []string{"SHAPE", "0", "1", "VAL0MARK"} { // a type that reads like a stand-in or a value
		e := shapeEntity(t, typ, true)
		plain := uncached(e)
		for _, c := range shapeCases() {
			t.Run(typ+"/"+c.name, func(t *testing.T) {
				id := c.key
				if id == "" {
					id = "a1"
				}
				key, err := e.Key(shapeItem{ID: id})
				if err != nil {
					t.Fatal(err)
				}
				var texts, values [2]string
				var kept [2]int
				before := e.shapes.len()
				for i := range 2 {
					got, want := sentBody(t, e, key, c.u(i)), sentBody(t, plain, key, c.u(i))
					if !bytes.Equal(got, want) {
						t.Fatalf("values %d: the shape's request\n%s\nthe update's own\n%s", i, got, want)
					}
					texts[i], values[i] = sentRequest(t, got)
					kept[i] = e.shapes.len()
				}
				if kept[0] > before+1 || kept[1] != kept[0] {
					t.Errorf("shapes kept: %d, then %d after the first update and %d after the second; want at most one more, then none", before, kept[0], kept[1])
				}
				if texts[0] != texts[1] {
					t.Errorf("one shape, two texts:\n%s\n%s", texts[0], texts[1])
				}
				if c.name != "set zero of omitempty (REMOVE)" && c.name != "remove" && c.name != "add zero" && c.name != "expiry removed" &&
					values[0] == values[1] {
					t.Errorf("other values, same values sent: %s", values[0])
				}
				if plain.shapes.len() != 0 {
					t.Error("the uncached entity kept a shape")
				}
			})
		}
		for _, c := range e.shapes.shapes {
			text := fmt.Sprint(*c.update, *c.cond, c.names)
			if strings.Contains(text, "MARK") && typ != "VAL0MARK" || strings.Contains(text, "2026") {
				t.Errorf("a value reached a shape's text: %s", text)
			}
		}
	}
}

// TestUpdateShapeValuesChecked: a value DynamoDB would refuse is refused
// before any request by an update whose shape the entity keeps, as by
// the first: invalid UTF-8, NaN, a number out of range, an expression
// too long.
func TestUpdateShapeValuesChecked(t *testing.T) {
	e := shapeEntity(t, "SHAPE", false)
	key, err := e.Key(shapeItem{ID: "a1"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	okAPI := &lastInput{}
	cases := []struct {
		name    string
		good    Update
		bad     Update
		problem ItemProblem
	}{
		{"UTF-8 in a Set", Set("Note", "ok"), Set("Note", "\xff"), ItemBadString},
		{"UTF-8 in a condition", Add("Count", 1).If(Field("Note").Eq("ok")), Add("Count", 1).If(Field("Note").Eq("\xfe")), ItemBadString},
		{"NaN added", Add("Price", 1.5), Add("Price", math.NaN()), ItemBadNumber},
		{"number out of range", Add("Price", 1.5), Add("Price", 1e300), ItemBadNumber},
		{"UTF-8 in a set", AddToSet("Tags", []string{"a"}), AddToSet("Tags", []string{"a", "\xfd"}), ItemBadString},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			okAPI.in = nil
			if _, err := e.Update(ctx, okAPI, key, c.good); okAPI.in == nil {
				t.Fatalf("the good update: %v", err)
			}
			kept := e.shapes.len()
			_, err := e.Update(ctx, nocalls.Client{T: t}, key, c.bad)
			var ie *ItemError
			if !errors.As(err, &ie) || ie.Problem != c.problem {
				t.Fatalf("got %v, want an *ItemError %v", err, c.problem)
			}
			if e.shapes.len() != kept {
				t.Errorf("the refused update added a shape")
			}
		})
	}
	// A condition beyond DynamoDB's 300 operators, refused each time,
	// kept never.
	long := Set("Note", "x")
	for i := range 110 {
		long = long.If(Field("Count").Ne(i))
	}
	kept := e.shapes.len()
	for range 2 {
		_, err := e.Update(ctx, nocalls.Client{T: t}, key, long)
		var ie *ItemError
		if !errors.As(err, &ie) || ie.Problem != ItemExpression {
			t.Fatalf("a condition of 110 conjuncts: %v, want ItemExpression", err)
		}
	}
	if e.shapes.len() != kept {
		t.Errorf("the refused update added a shape")
	}
}

// lastInput is a client whose UpdateItem keeps its input and answers
// with no item.
type lastInput struct{ in *dynamodb.UpdateItemInput }

func (l *lastInput) UpdateItem(_ context.Context, in *dynamodb.UpdateItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	l.in = in
	return &dynamodb.UpdateItemOutput{}, nil
}

// boundShape is shape i of at least 512: the conjuncts of its condition
// are Count >= 1 or Count <= 1 by the bits of i.
func boundShape(i, v int) Update {
	u := Add("Count", 1)
	for bit := range 9 {
		if i>>bit&1 == 1 {
			u = u.If(Field("Count").Ge(v))
		} else {
			u = u.If(Field("Count").Le(v))
		}
	}
	return u
}

// TestUpdateShapesBounded: an entity keeps at most maxShapes shapes; an
// update of a shape past them is built for itself and sends the same
// request, and a kept shape is still used.
func TestUpdateShapesBounded(t *testing.T) {
	e := shapeEntity(t, "SHAPE", false)
	plain := uncached(e)
	key, err := e.Key(shapeItem{ID: "a1"})
	if err != nil {
		t.Fatal(err)
	}
	api := &lastInput{}
	for i := range maxShapes + 44 {
		if _, err := e.Update(context.Background(), api, key, boundShape(i, 1)); api.in == nil {
			t.Fatal(err)
		}
	}
	if n := e.shapes.len(); n != maxShapes {
		t.Fatalf("%d shapes kept, want %d", n, maxShapes)
	}
	for _, i := range []int{0, maxShapes - 1, maxShapes, maxShapes + 43} {
		if got, want := sentBody(t, e, key, boundShape(i, 7)), sentBody(t, plain, key, boundShape(i, 7)); !bytes.Equal(got, want) {
			t.Errorf("shape %d: the entity's request\n%s\nthe update's own\n%s", i, got, want)
		}
	}
	if n := e.shapes.len(); n != maxShapes {
		t.Fatalf("%d shapes kept, want %d", n, maxShapes)
	}
}

// TestUpdateShapesConcurrent (run with -race): goroutines updating one
// entity with shapes old and new, each with values of its own, each get
// the request the update built for itself gets.
func TestUpdateShapesConcurrent(t *testing.T) {
	e := shapeEntity(t, "SHAPE", true)
	plain := uncached(e)
	cases := shapeCases()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, want := &lastInput{}, &lastInput{}
			for round := range 30 {
				c := cases[(g+round)%len(cases)]
				id := c.key
				if id == "" {
					id = "a1"
				}
				key, err := e.Key(shapeItem{ID: id})
				if err != nil {
					errs <- err
					return
				}
				v := g*100 + round
				_, err1 := e.Update(context.Background(), got, key, c.u(v))
				_, err2 := plain.Update(context.Background(), want, key, c.u(v))
				if (err1 == nil) != (err2 == nil) || got.in == nil || want.in == nil {
					errs <- fmt.Errorf("%s: %v and %v", c.name, err1, err2)
					return
				}
				if !sameExpressions(got.in, want.in) {
					errs <- fmt.Errorf("%s, values %d: the shape's request %s, the update's own %s", c.name, v, inputText(got.in), inputText(want.in))
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := e.shapes.len(); n != len(cases) {
		t.Errorf("%d shapes kept, want %d", n, len(cases))
	}
}

func sameExpressions(a, b *dynamodb.UpdateItemInput) bool {
	return *a.UpdateExpression == *b.UpdateExpression && *a.ConditionExpression == *b.ConditionExpression &&
		reflect.DeepEqual(a.ExpressionAttributeNames, b.ExpressionAttributeNames) &&
		reflect.DeepEqual(a.ExpressionAttributeValues, b.ExpressionAttributeValues)
}

func inputText(in *dynamodb.UpdateItemInput) string {
	values, _ := json.Marshal(in.ExpressionAttributeValues)
	return fmt.Sprintf("%s ? %s %v %s", *in.UpdateExpression, *in.ConditionExpression, in.ExpressionAttributeNames, values)
}

// TestUpdateShapeRequestsOwnTheirParts: a request shares nothing a caller
// could change with the shape it came from: changing one request's text
// and names leaves the next request of the shape as it was.
func TestUpdateShapeRequestsOwnTheirParts(t *testing.T) {
	e := shapeEntity(t, "SHAPE", false)
	key, err := e.Key(shapeItem{ID: "a1"})
	if err != nil {
		t.Fatal(err)
	}
	api := &lastInput{}
	_, _ = e.Update(context.Background(), api, key, Set("Note", "a"))
	first := inputText(api.in)
	*api.in.UpdateExpression, *api.in.ConditionExpression = "SET broken", "broken"
	for k := range api.in.ExpressionAttributeNames {
		api.in.ExpressionAttributeNames[k] = "broken"
	}
	_, _ = e.Update(context.Background(), api, key, Set("Note", "a"))
	if again := inputText(api.in); again != first {
		t.Fatalf("a changed request changed the shape: %s, then %s", first, again)
	}
}

// TestPlaceholdersOnePerValue: a template's placeholders are read back
// only when there is exactly one per value.
func TestPlaceholdersOnePerValue(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	if slots, ok := placeholders(map[string]types.AttributeValue{":0": s("1"), ":1": s("0")}, 2); !ok || slots[0] != ":1" || slots[1] != ":0" {
		t.Fatalf("%v %v", slots, ok)
	}
	for name, values := range map[string]map[string]types.AttributeValue{
		"too few":      {":0": s("0")},
		"twice":        {":0": s("0"), ":1": s("0")},
		"out of range": {":0": s("0"), ":1": s("2")},
		"not a number": {":0": s("0"), ":1": s("x")},
		"not a string": {":0": s("0"), ":1": &types.AttributeValueMemberN{Value: "1"}},
	} {
		if _, ok := placeholders(values, 2); ok {
			t.Errorf("%s: read back", name)
		}
	}
}
