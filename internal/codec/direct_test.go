package codec

import (
	"math"
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/itemsize"
)

type Inner struct {
	Level int8   `dynamodbav:"level"`
	Code  uint16 `dynamodbav:"code"`
}

// flat has only fast fields at fixed offsets (one of them through an
// embedded struct): a Direct codec.
type flat struct {
	Inner
	S    status    `dynamodbav:"s"`
	B    bool      `dynamodbav:"b,omitempty"`
	I    int       `dynamodbav:"i"`
	I32  int32     `dynamodbav:"i32"`
	U    uint      `dynamodbav:"u"`
	U8   uint8     `dynamodbav:"u8"`
	F32  float32   `dynamodbav:"f32"`
	F64  float64   `dynamodbav:"f64,omitempty"`
	Txt  int64     `dynamodbav:"txt,string"`
	T    time.Time `dynamodbav:"t"`
	Unix time.Time `dynamodbav:"unix,unixtime"`
	Raw  []byte    `dynamodbav:"raw"`
	L    []string  `dynamodbav:"l"`
	Set  []string  `dynamodbav:"set,stringset,omitempty"`
	PS   *string   `dynamodbav:"ps"`
	PI   *int16    `dynamodbav:"pi,omitempty"`
	PT   *time.Time
	PB   *bool
	PF   *float32
	PU   *uint32
}

func flatValues() map[string]flat {
	s := "x"
	i := int16(-7)
	tm := time.Date(2026, 6, 23, 1, 2, 3, 4, time.UTC)
	yes := true
	f := float32(1.25)
	u := uint32(1 << 31)
	return map[string]flat{
		"zero": {},
		"full": {Inner: Inner{Level: -128, Code: 65535}, S: "OPEN", B: true, I: math.MinInt, I32: math.MaxInt32,
			U: math.MaxUint, U8: 255, F32: -3.5, F64: 1e-7, Txt: -99, T: tm, Unix: time.Unix(1, 0).UTC(),
			Raw: []byte{0, 1}, L: []string{"a", ""}, Set: []string{"q"}, PS: &s, PI: &i, PT: &tm, PB: &yes, PF: &f, PU: &u},
		"empty slices": {Raw: []byte{}, L: []string{}, Set: []string{}, PS: new(string)},
	}
}

func TestDirectMatchesAttributeValue(t *testing.T) {
	c := mustCodec(t, reflect.TypeFor[flat]())
	if !c.Direct() {
		t.Fatal("flat is not Direct")
	}
	for name, v := range flatValues() {
		t.Run(name, func(t *testing.T) {
			want, err := attributevalue.MarshalMap(&v)
			if err != nil {
				t.Fatal(err)
			}
			// Without a slab, with one of the room the item needs, and with
			// one too small (spent halfway): the same item.
			var full, small Slab
			full.Reset(c.SlabValues(unsafe.Pointer(&v)), 64)
			small.Reset(1, 1)
			for _, sl := range []*Slab{nil, &full, &small} {
				got, size, err := encodeDirect(c, &v, sl)
				if err != nil || !reflect.DeepEqual(got, want) || size != itemsize.ItemSize(want) {
					t.Fatalf("EncodeDirect:\n got %v\nwant %v (size %d, %d)", dump(got), dump(want), size, itemsize.ItemSize(want))
				}
			}
			var mine, theirs flat
			if !c.DecodeDirect(want, unsafe.Pointer(&mine)) {
				t.Fatal("DecodeDirect refused what attributevalue wrote")
			}
			if err := attributevalue.UnmarshalMap(want, &theirs); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(mine, theirs) {
				t.Fatalf("DecodeDirect:\n got %+v\nwant %+v", mine, theirs)
			}
		})
	}
}

// TestDirectLeavesOddInputsToAttributeValue: what the direct path does not
// recognise makes DecodeDirect report false, and Decode then agrees with
// attributevalue, value or error.
func TestDirectLeavesOddInputsToAttributeValue(t *testing.T) {
	c := mustCodec(t, reflect.TypeFor[flat]())
	n := func(s string) types.AttributeValue { return &types.AttributeValueMemberN{Value: s} }
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	cases := map[string]struct {
		item   map[string]types.AttributeValue
		direct bool
	}{
		"int8 overflow":       {map[string]types.AttributeValue{"level": n("128")}, false},
		"int8 lowest":         {map[string]types.AttributeValue{"level": n("-128")}, true},
		"uint16 overflow":     {map[string]types.AttributeValue{"code": n("65536")}, false},
		"uint8 negative":      {map[string]types.AttributeValue{"u8": n("-1")}, false},
		"int32 overflow":      {map[string]types.AttributeValue{"i32": n("2147483648")}, false},
		"float32 overflow":    {map[string]types.AttributeValue{"f32": n("1e39")}, false},
		"float32 max":         {map[string]types.AttributeValue{"f32": n("3.4e38")}, true},
		"string-tagged digit": {map[string]types.AttributeValue{"txt": s("12")}, true},
		"string-tagged bad":   {map[string]types.AttributeValue{"txt": s("x")}, false},
		"null pointer":        {map[string]types.AttributeValue{"ps": &types.AttributeValueMemberNULL{Value: true}}, true},
		"null scalar":         {map[string]types.AttributeValue{"i": &types.AttributeValueMemberNULL{Value: true}, "t": &types.AttributeValueMemberNULL{Value: true}}, true},
		"pointer to bad time": {map[string]types.AttributeValue{"PT": s("later")}, false},
		"pointer bool":        {map[string]types.AttributeValue{"PB": &types.AttributeValueMemberBOOL{Value: true}}, true},
		"bool as number":      {map[string]types.AttributeValue{"b": n("1")}, false},
		"number into string":  {map[string]types.AttributeValue{"s": n("5")}, true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var direct flat
			if got := c.DecodeDirect(tc.item, unsafe.Pointer(&direct)); got != tc.direct {
				t.Fatalf("DecodeDirect = %v, want %v", got, tc.direct)
			}
			var mine, theirs flat
			errMine := c.Decode(tc.item, reflect.ValueOf(&mine).Elem())
			errTheirs := attributevalue.UnmarshalMap(tc.item, &theirs)
			if (errMine == nil) != (errTheirs == nil) {
				t.Fatalf("Decode err %v, attributevalue err %v", errMine, errTheirs)
			}
			if errMine == nil && !reflect.DeepEqual(mine, theirs) {
				t.Fatalf("Decode %+v, attributevalue %+v", mine, theirs)
			}
			if tc.direct && !reflect.DeepEqual(direct, theirs) {
				t.Fatalf("DecodeDirect %+v, attributevalue %+v", direct, theirs)
			}
		})
	}
}

func TestDirectness(t *testing.T) {
	type withMap struct{ M map[string]string }
	type withEmbeddedPointer struct{ *Inner }
	for typ, want := range map[reflect.Type]bool{
		reflect.TypeFor[flat]():                true,
		reflect.TypeFor[everything]():          false,
		reflect.TypeFor[withMap]():             false,
		reflect.TypeFor[withEmbeddedPointer](): false,
	} {
		if got := mustCodec(t, typ).Direct(); got != want {
			t.Errorf("%s: Direct() = %v", typ, got)
		}
	}
	c := mustCodec(t, reflect.TypeFor[withEmbeddedPointer]())
	if f, _ := c.Field("level"); f.Fixed {
		t.Error("a field behind an embedded pointer is not Fixed")
	}
}

// slabbed is a Direct struct of five string values, two numbers and a
// list of three strings.
type slabbed struct {
	A, B, C, D string
	When       time.Time
	N          int64
	F          float64
	L          []string
	Yes, No    bool
}

// EncodeDirect takes an item's strings and numbers, a list's elements
// among them, the texts of its numbers and time and its booleans from one
// slab: 4 allocations (the slab's values and bytes, the list and its
// slice), where one value per allocation made 17. Each item's values stay
// its own.
func TestEncodeDirectSlab(t *testing.T) {
	c := mustCodec(t, reflect.TypeFor[slabbed]())
	if !c.Direct() {
		t.Fatal("not Direct")
	}
	v := slabbed{A: "a", B: "b", C: "c", D: "d", When: time.Date(2020, 1, 2, 3, 4, 5, 6, time.UTC), N: 12345, F: 1.5, L: []string{"x", "y", "z"}, Yes: true}
	vals := make([]types.AttributeValue, c.Len())
	if n := c.SlabValues(unsafe.Pointer(&v)); n != 10 {
		t.Fatalf("SlabValues = %d, want 10 (5 strings, 2 numbers, 3 list elements)", n)
	}
	var sl Slab
	allocs := testing.AllocsPerRun(100, func() {
		sl.Reset(c.SlabValues(unsafe.Pointer(&v)), 64)
		if _, err := c.EncodeDirect(unsafe.Pointer(&v), vals, &sl); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 4 {
		t.Errorf("EncodeDirect makes %v allocations, want at most 4", allocs)
	}
	var s1, s2 Slab
	s1.Reset(10, 64)
	s2.Reset(10, 64)
	one, _, err := encodeDirect(c, &v, &s1)
	if err != nil {
		t.Fatal(err)
	}
	two, _, err := encodeDirect(c, &v, &s2)
	if err != nil {
		t.Fatal(err)
	}
	want, err := attributevalue.MarshalMap(v)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, want) {
		t.Fatalf("EncodeDirect\n%#v\nattributevalue\n%#v", one, want)
	}
	if used := s1.Used(); used != len("2020-01-02T03:04:05.000000006Z")+len("12345")+len("1.5")+2*boolSize {
		t.Errorf("the slab counts %d bytes of text used, want the time's, the numbers' and the booleans'", used)
	}
	one["A"].(*types.AttributeValueMemberS).Value = "changed"
	one["L"].(*types.AttributeValueMemberL).Value[0].(*types.AttributeValueMemberS).Value = "changed"
	one["Yes"].(*types.AttributeValueMemberBOOL).Value = false
	one["No"].(*types.AttributeValueMemberBOOL).Value = true
	if !reflect.DeepEqual(two, want) {
		t.Fatalf("changing one item changed another: %#v", two)
	}
	if two["B"].(*types.AttributeValueMemberS).Value != "b" || one["B"] == one["A"] || one["Yes"] == one["No"] {
		t.Fatal("the values of one item share memory")
	}
}

// encodeDirect encodes *v with EncodeDirect into a map.
func encodeDirect[T any](c *Codec, v *T, sl *Slab) (map[string]types.AttributeValue, int, error) {
	vals := make([]types.AttributeValue, c.Len())
	size, err := c.EncodeDirect(unsafe.Pointer(v), vals, sl)
	m := map[string]types.AttributeValue{}
	c.Store(m, vals)
	return m, size, err
}

// TestSlabKeep: items that share a slab (Keep) take their values and
// texts from the room of several, in two allocations, each item's values
// its own and its Used counted from its Keep; an item the room left cannot
// hold takes new room.
func TestSlabKeep(t *testing.T) {
	c := mustCodec(t, reflect.TypeFor[slabbed]())
	v := slabbed{A: "a", B: "b", C: "c", D: "d", When: time.Date(2020, 1, 2, 3, 4, 5, 6, time.UTC), N: 12345, F: 1.5, L: []string{"x", "y", "z"}, Yes: true}
	want, err := attributevalue.MarshalMap(v)
	if err != nil {
		t.Fatal(err)
	}
	text := len("2020-01-02T03:04:05.000000006Z") + len("12345") + len("1.5") + 2*boolSize
	var sl Slab
	items := make([]map[string]types.AttributeValue, 3)
	encode := func(ready func()) float64 {
		return testing.AllocsPerRun(1, func() {
			sl = Slab{}
			for i := range items {
				ready()
				if items[i], _, err = encodeDirect(c, &v, &sl); err != nil {
					t.Fatal(err)
				}
				if used := sl.Used(); used != text {
					t.Fatalf("item %d: %d bytes of text used, want %d", i, used, text)
				}
			}
		})
	}
	each := encode(func() { sl.Reset(10, text) })
	shared := encode(func() { sl.Keep(10, 10, text, 3) })
	if each-shared != 4 { // the slab's two allocations for each item, or for the three
		t.Errorf("three items make %v allocations sharing a slab, %v with one each: want 4 fewer", shared, each)
	}
	for i, item := range items {
		if !reflect.DeepEqual(item, want) {
			t.Fatalf("item %d:\n%#v\nwant\n%#v", i, item, want)
		}
	}
	items[0]["A"].(*types.AttributeValueMemberS).Value = "changed"
	items[0]["When"].(*types.AttributeValueMemberS).Value = "changed"
	if !reflect.DeepEqual(items[1], want) || !reflect.DeepEqual(items[2], want) {
		t.Fatal("changing one item changed another")
	}
	if sl.next != len(sl.vals) || len(sl.buf) != cap(sl.buf) {
		t.Fatalf("three items left room: %d of %d values, %d of %d bytes", sl.next, len(sl.vals), len(sl.buf), cap(sl.buf))
	}
	sl.Keep(10, 10, text, 3)
	if sl.next != 0 || len(sl.vals) != 30 || cap(sl.buf) != 3*text {
		t.Fatalf("a fourth item did not take new room: %d of %d values, %d bytes", sl.next, len(sl.vals), cap(sl.buf))
	}
}

// TestSlabKeepEachRoom: Keep renews the room that ran out and keeps the
// other's. Its values and bytes are bounds, which an item seldom reaches,
// so renewing both when one runs out would drop room later items use.
func TestSlabKeepEachRoom(t *testing.T) {
	var sl Slab
	sl.Keep(4, 4, 8, 3) // room for 12 values and 24 bytes
	vals, buf := &sl.vals[0], unsafe.SliceData(sl.buf[:1])
	sl.Str(sl.Text(append(sl.Bytes(), "0123456789abcdefghi"...))) // 19 bytes, 1 value
	sl.Keep(4, 4, 8, 3)                                           // 5 bytes left: new text; 11 values left, kept
	if &sl.vals[0] != vals || sl.next != 1 {
		t.Fatalf("the values' room was renewed with 11 of 12 values left (next %d)", sl.next)
	}
	if unsafe.SliceData(sl.buf[:1]) == buf || len(sl.buf) != 0 || cap(sl.buf) != 24 {
		t.Fatalf("the text's room was not renewed with 5 of 24 bytes left: %d of %d", len(sl.buf), cap(sl.buf))
	}
	buf = unsafe.SliceData(sl.buf[:1])
	for range 8 {
		sl.Str("v")
	}
	sl.Keep(4, 4, 8, 3) // 3 values left: new values; 24 bytes left, kept
	if &sl.vals[0] == vals || sl.next != 0 || len(sl.vals) != 12 {
		t.Fatalf("the values' room was not renewed with 3 values left: %d of %d", sl.next, len(sl.vals))
	}
	if unsafe.SliceData(sl.buf[:1]) != buf {
		t.Fatal("the text's room was renewed with 24 of 24 bytes left")
	}
}

// TestSlabKeepByEach: new room holds the bound of the item that takes it
// and each values for each of the n-1 after it, and Values counts the
// values of the item since Keep; an item whose bound does not fit in
// what is left takes new room, so none of its values is allocated alone.
func TestSlabKeepByEach(t *testing.T) {
	var sl Slab
	sl.Keep(5, 2, 8, 4) // 5 + 2*3 values
	if len(sl.vals) != 11 {
		t.Fatalf("room for %d values, want 11", len(sl.vals))
	}
	first := &sl.vals[0]
	for range 3 {
		sl.Str("v")
	}
	if sl.Values() != 3 {
		t.Fatalf("Values %d after 3, want 3", sl.Values())
	}
	sl.Keep(5, 2, 8, 4) // 8 left: kept
	sl.Num("1")
	if &sl.vals[0] != first || sl.Values() != 1 || sl.next != 4 {
		t.Fatalf("room renewed with 8 of 11 values left, or Values %d (next %d)", sl.Values(), sl.next)
	}
	for range 3 {
		sl.Str("v")
	}
	sl.Keep(5, 2, 8, 4) // 4 left, the bound is 5: new room
	if &sl.vals[0] == first || sl.next != 0 || len(sl.vals) != 11 || sl.Values() != 0 {
		t.Fatalf("an item whose bound does not fit kept the room: next %d of %d", sl.next, len(sl.vals))
	}
	for range 5 {
		if x := sl.Str("v"); x != &sl.vals[sl.next-1] {
			t.Fatal("a value within the bound was allocated alone")
		}
	}
}
