package keyfirst_test

import (
	"strings"
	"testing"
	"time"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/itemsize"
)

// TestPlannedSizeIsItemSize: the size an item's plan counts as it builds
// the item (from the sizes its key checks and its fields' encodings
// return, without measuring the item), which decides ItemTooLarge, is the
// size itemsize.ItemSize measures on the item, for entities of every
// kind of binding: composite keys over fields, a shared text, a sparse
// If, a Func and a FuncE, a number key and a binary key that are fields,
// key fields stored once, a version replaced, lifecycle times and an
// expiry, multi-byte text.
func TestPlannedSizeIsItemSize(t *testing.T) {
	s := newShop(t, "")
	table := keyfirst.Must(keyfirst.NewTable(shopSpec()))
	loose := looseEntity(t, table)
	_, points := newPoints(t, "points")
	readings := readingEntity(t, keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "readings", Key: sensorByKey})))
	roles := castEntity(t, keyfirst.Must(keyfirst.NewTable(castSpec())))
	c := &clock{now: day}
	notes := keyfirst.Must(keyfirst.NewEntity(keyfirst.Must(keyfirst.NewTable(notesSpec())), noteEntitySpec(c)))

	long := strings.Repeat("日本", 100)
	placed := "2019-07-01"
	for _, version := range []int64{-1, 0, 7, 1234567890} {
		checkPlannedSize(t, s.orders, version,
			order("c1", "o1", Open, day),
			Order{Customer: "c1", ID: "o2", Status: Shipped, PlacedAt: day.Add(time.Nanosecond), Note: long},
			Order{Customer: "ç", ID: "ø", Status: Cancelled, PlacedAt: day, Total: -12345, Tags: []string{"", "é", long}, Version: 42})
		checkPlannedSize(t, readings, version,
			sensorReading{Sensor: 1.5, Data: []byte{0, 1, 2}, Version: 3},
			sensorReading{Sensor: -1e-130, Data: []byte(long), Note: long},
			sensorReading{Sensor: 123456789012345678, Data: []byte{0xff}})
	}
	checkPlannedSize(t, s.customers, -1,
		Customer{ID: "c1", Name: "ann", Admin: true},
		Customer{ID: "c2", Name: long},
		Customer{ID: long, Admin: true})
	checkPlannedSize(t, benchEntity(t, "bench"), -1, benchValue, benchOrder{Customer: "c", ID: "o", Status: Open, PlacedAt: day})
	checkPlannedSize(t, benchPatternEntity(t), -1, benchValue)
	checkPlannedSize(t, loose, -1,
		Loose{Customer: "c1", ID: "o1", Status: "OPEN", PlacedAt: &placed, Bucket: "C#c1", Total: 1.5, Blob: []byte("b")},
		Loose{Customer: long, ID: "o2", PlacedAt: &placed, Bucket: "-"})
	checkPlannedSize(t, points, -1, point{X: 1, Y: -0.5, Label: "p"}, point{X: 1e20, Y: 3.25e-10})
	checkPlannedSize(t, roles, -1, woody, castRole{Actor: long, Movie: "m"})
	checkPlannedSize(t, notes, -1,
		Note{ID: "n1", Owner: "ann", Body: long, Expires: day.AddDate(1, 0, 0)},
		Note{ID: "n2", Owner: "bob", Created: day.Add(-time.Hour)})
}

// checkPlannedSize fails t unless the plan of each of vs, as a write of
// version builds it, counts the size itemsize.ItemSize gives its item.
func checkPlannedSize[T any](t *testing.T, e *keyfirst.Entity[T], version int64, vs ...T) {
	t.Helper()
	for _, v := range vs {
		item, size, err := keyfirst.PlannedSize(e, v, version)
		if err != nil {
			t.Fatalf("%+v (version %d): %v", v, version, err)
		}
		if want := itemsize.ItemSize(item); size != want {
			t.Errorf("%+v (version %d): the plan counts %d bytes, the item has %d", v, version, size, want)
		}
	}
}
