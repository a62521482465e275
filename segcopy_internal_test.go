package keyfirst

import (
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/keyfirst/keyfirst/keys"
)

// segItem holds fields of every kind a tuple segment can be read from.
type segItem struct {
	Name  string
	N8    int8
	U16   uint16
	F32   float32
	B     bool
	Raw   []byte
	When  time.Time
	N64   int64
	Named segName
}

type segName string

// TestTupleCopies: a tuple read from an item's fields and written back by
// the typed copies is the tuple reflect reads and writes, for every kind
// of segment; a segment of another type keeps the reflect copy.
func TestTupleCopies(t *testing.T) {
	item := segItem{Name: "n", N8: -3, U16: 65000, F32: 1.5, B: true, Raw: []byte{1, 2}, When: time.Date(2024, 4, 1, 0, 0, 0, 7, time.UTC), N64: -1 << 40, Named: "x"}
	typ := reflect.TypeFor[segItem]()
	off := func(name string) uintptr { f, _ := typ.FieldByName(name); return f.Offset }
	check := func(t *testing.T, s *side, offs []uintptr, read func(unsafe.Pointer, []uintptr) any, readR func(unsafe.Pointer, []uintptr) any, write func(unsafe.Pointer, []uintptr, any)) {
		t.Helper()
		if !s.copied {
			t.Fatalf("the tuple is not copied typed: %+v", s.copies)
		}
		got, want := read(unsafe.Pointer(&item), offs), readR(unsafe.Pointer(&item), offs)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("typed read %#v, reflect read %#v", got, want)
		}
		var back segItem
		write(unsafe.Pointer(&back), offs, got)
		if again := readR(unsafe.Pointer(&back), offs); !reflect.DeepEqual(again, want) {
			t.Fatalf("written back and read %#v, want %#v", again, want)
		}
	}
	t.Run("T4", func(t *testing.T) {
		s := Tuple4(Num[int8]("a"), Num[uint16]("b"), Num[float32]("c"), Str("d"))
		offs := []uintptr{off("N8"), off("U16"), off("F32"), off("Name")}
		check(t, s.s, offs,
			func(b unsafe.Pointer, o []uintptr) any { return s.read(b, o) },
			func(b unsafe.Pointer, o []uintptr) any { return s.readReflect(b, o) },
			func(b unsafe.Pointer, o []uintptr, v any) { s.write(b, o, v.(keys.T4[int8, uint16, float32, string])) })
	})
	t.Run("T3", func(t *testing.T) {
		s := Tuple3(Bin("a"), Time("b"), Num[int64]("c"))
		offs := []uintptr{off("Raw"), off("When"), off("N64")}
		check(t, s.s, offs,
			func(b unsafe.Pointer, o []uintptr) any { return s.read(b, o) },
			func(b unsafe.Pointer, o []uintptr) any { return s.readReflect(b, o) },
			func(b unsafe.Pointer, o []uintptr, v any) { s.write(b, o, v.(keys.T3[[]byte, time.Time, int64])) })
	})
	t.Run("Key2", func(t *testing.T) {
		def := keys.NewKey2(keys.ID[segName](), keys.Uint[uint16](5))
		s := Composite("a", def)
		offs := []uintptr{off("Named"), off("U16")}
		check(t, s.s, offs,
			func(b unsafe.Pointer, o []uintptr) any { return s.read(b, o) },
			func(b unsafe.Pointer, o []uintptr) any { return s.readReflect(b, o) },
			func(b unsafe.Pointer, o []uintptr, v any) { s.write(b, o, v.(keys.T2[segName, uint16])) })
	})
	if k := copyKindOf(reflect.TypeFor[[]string]()); k != copyReflect {
		t.Errorf("a []string segment is copied as %d, want through reflect", k)
	}
	if typed([]segCopy{{kind: copyString}, {kind: copyReflect}}) {
		t.Error("a tuple with a reflect segment is taken as typed")
	}
}
