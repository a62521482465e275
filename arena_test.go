package keyfirst_test

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// TestItemAllocations holds the allocations of building the benchmark's
// item (BenchmarkMarshal, BenchmarkMarshalPattern): the hand-written twin
// makes 26. Every string and number value of the item and their texts
// come from one arena; what is left is the arena's slab (2: its values
// and its texts; the arena, and the T the plan reads, are on the plan's
// stack), the map (4), the list of tags (2), and, for the functions, the
// four strings they return.
func TestItemAllocations(t *testing.T) {
	for name, c := range map[string]struct {
		e   *keyfirst.Entity[benchOrder]
		max float64
	}{
		"patterns":  {benchPatternEntity(t), 8},
		"functions": {benchEntity(t, "bench"), 12},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := c.e.Item(benchValue); err != nil { // the entity learns the room of its texts
				t.Fatal(err)
			}
			allocs := testing.AllocsPerRun(200, func() {
				if _, err := c.e.Item(benchValue); err != nil {
					t.Fatal(err)
				}
			})
			if allocs > c.max {
				t.Errorf("Item makes %v allocations, want at most %v", allocs, c.max)
			}
		})
	}
}

// TestItemArenaOwnValues: two items built one after the other share no
// value: changing one leaves the other as built.
func TestItemArenaOwnValues(t *testing.T) {
	e := benchPatternEntity(t)
	one, err := e.Item(benchValue)
	if err != nil {
		t.Fatal(err)
	}
	two, err := e.Item(benchValue)
	if err != nil {
		t.Fatal(err)
	}
	want, err := marshalByHand(benchValue)
	if err != nil {
		t.Fatal(err)
	}
	for name, av := range one {
		switch x := av.(type) {
		case *types.AttributeValueMemberS:
			x.Value = "changed"
		case *types.AttributeValueMemberN:
			x.Value = "0"
		}
		if av == two[name] {
			t.Errorf("%s: both items hold one value", name)
		}
	}
	if !reflect.DeepEqual(two, want) {
		t.Fatalf("changing one item changed the other:\n%#v", two)
	}
}

// TestItemArenasConcurrent: items built at once by 8 goroutines, of two
// entities that share their texts' hints with every goroutine, each hold
// their own values, as a hand-written program builds them (run under
// -race).
func TestItemArenasConcurrent(t *testing.T) {
	orders, shop := benchPatternEntity(t), newShop(t, "bench")
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				o := benchValue
				o.ID, o.Total = fmt.Sprintf("o%d-%d", g, i), int64(g*1000+i)
				c := Customer{ID: fmt.Sprintf("c%d-%d", g, i), Name: "n", Admin: i%2 == 0}
				got, err := orders.Item(o)
				if err != nil {
					t.Error(err)
					return
				}
				gotC, err := shop.customers.Item(c)
				if err != nil {
					t.Error(err)
					return
				}
				want, err := marshalByHand(o)
				if err != nil {
					t.Error(err)
					return
				}
				if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotC, handCustomer(c)) {
					t.Errorf("goroutine %d, item %d: another item's values", g, i)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestItemMapRoom: an item's map is made for exactly the attributes it
// has, whatever leaves some out: a sparse index the item is not in, an
// omitted field, a version written where the field omits it, key
// attributes that are fields, a derived expiry. A map made for more
// takes the next size of map (Go's maps hold 8 entries in their smallest
// form): an item of 8 attributes sized for 11 took 1,168 bytes, not 568.
func TestItemMapRoom(t *testing.T) {
	s := newShop(t, "")
	castTable := keyfirst.Must(keyfirst.NewTable(castSpec()))
	roles := castEntity(t, castTable)
	readings := readingEntity(t, keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "readings", Key: sensorByKey})))
	notes := keyfirst.Must(keyfirst.NewTable(notesSpec()))
	sessions := keyfirst.Must(keyfirst.NewEntity(notes, sessionSpec(&clock{now: day}, "SLIDE", "Updated", time.Hour)))
	open := order("c1", "o1", Open, day)
	shipped := order("c1", "o2", Shipped, day)
	noted := open
	noted.Note, noted.Tags = "a note", []string{"gift"}
	check := func(name string, room, have int, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if room != have {
			t.Errorf("%s: the map was made for %d attributes, the item has %d", name, room, have)
		}
	}
	for name, c := range map[string]Customer{"admin": {ID: "c1", Name: "Ann", Admin: true}, "not admin": {ID: "c2", Name: "Bob"}} {
		room, have, err := keyfirst.ItemRoom(s.customers, c, -1)
		check("customer, "+name, room, have, err)
	}
	for name, o := range map[string]Order{"open": open, "shipped": shipped, "with note and tags": noted} {
		for _, version := range []int64{-1, 0, 1} {
			room, have, err := keyfirst.ItemRoom(s.orders, o, version)
			check(fmt.Sprintf("order %s, version %d", name, version), room, have, err)
		}
	}
	for name, r := range map[string]castRole{"with role": {Actor: "a", Movie: "m", Role: "r", Year: 1999}, "without": {Actor: "a", Movie: "m"}} {
		room, have, err := keyfirst.ItemRoom(roles, r, -1)
		check("key fields, "+name, room, have, err)
	}
	for _, version := range []int64{-1, 0, 3} {
		room, have, err := keyfirst.ItemRoom(readings, sensorReading{Sensor: 1.5, Data: []byte{1}}, version)
		check(fmt.Sprintf("number key field, version %d", version), room, have, err)
	}
	room, have, err := keyfirst.ItemRoom(sessions, Session{ID: "s1", Owner: "ann"}, -1)
	check("derived expiry", room, have, err)

	// A sparse ticket whose version is omitted while it is 0.
	type ticket struct {
		ID      string `dynamodbav:"id"`
		Status  Status `dynamodbav:"status"`
		Version int64  `dynamodbav:"version,omitempty"`
	}
	tickets := keyfirst.Must(keyfirst.NewEntity(s.table, keyfirst.EntitySpec[ticket]{Type: "TICKET", Version: "version", Keys: []keyfirst.Binding{
		selfKey("PK", "SK", "TICKET"),
		keyfirst.If(keyfirst.OnIndex("GSI1", keyfirst.Const("GSI1PK", "OPEN"), keyfirst.Composite("GSI1SK", shopCustomer)).Fields("ID"),
			func(x ticket) bool { return x.Status == Open }),
	}}))
	for _, status := range []Status{Open, Shipped} {
		for _, v := range []int64{0, 4} {
			for _, version := range []int64{-1, 0, 5} {
				room, have, err := keyfirst.ItemRoom(tickets, ticket{ID: "t1", Status: status, Version: v}, version)
				check(fmt.Sprintf("ticket %s, version field %d, written %d", status, v, version), room, have, err)
			}
		}
	}
}
