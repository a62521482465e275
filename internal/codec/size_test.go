package codec

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/itemsize"
)

// TestKnownSizeIsChecksSize: for random values of every fast kind
// (strings and lists of them with multi-byte and invalid UTF-8, integers
// of every length with runs of zeros, negative ones, times before 1970,
// floats), the size EncodeDirect and Encode report is what itemsize.Check
// gives each attribute, and a value Check refuses is refused with Check's
// error.
func TestKnownSizeIsChecksSize(t *testing.T) {
	c := mustCodec(t, reflect.TypeFor[flat]())
	r := rand.New(rand.NewPCG(3, 4))
	texts := []string{"", "a", "OPEN", "é", "日本語", "\xff", "a\xc3", "ok\x80ok", "😀"}
	text := func() string {
		s := ""
		for range r.IntN(4) {
			s += texts[r.IntN(len(texts))]
		}
		return s
	}
	integer := func() int64 {
		n := r.Int64() >> r.UintN(64)
		if r.UintN(4) == 0 {
			n -= n % 10000
		}
		if r.UintN(2) == 0 {
			n = -n
		}
		return n
	}
	refused := 0
	for range 5000 {
		s := text()
		i16 := int16(integer())
		tm := time.Unix(integer()%(1<<36), integer()%1e9).UTC()
		v := flat{Inner: Inner{Level: int8(integer()), Code: uint16(integer())}, S: status(text()), B: r.UintN(2) == 0,
			I: int(integer()), I32: int32(integer()), U: uint(r.Uint64() >> r.UintN(64)), U8: uint8(integer()),
			F32: float32(r.NormFloat64()), F64: r.NormFloat64() * 1e30, Txt: integer(), T: tm, Unix: tm,
			L: []string{text(), text()}, PS: &s, PI: &i16, PT: &tm}
		want, wantErr := checkAll(c, &v)
		var sl Slab
		sl.Reset(c.SlabValues(unsafe.Pointer(&v)), 64)
		_, got, err := encodeDirect(c, &v, &sl)
		vals := make([]types.AttributeValue, c.Len())
		viaEncode, encErr := c.Encode(reflect.ValueOf(&v).Elem(), vals)
		if wantErr != nil {
			refused++
			for name, err := range map[string]error{"EncodeDirect": err, "Encode": encErr} {
				if !reflect.DeepEqual(err, wantErr) {
					t.Fatalf("%s refuses %+v with %v, Check with %v", name, v, err, wantErr)
				}
			}
			continue
		}
		if err != nil || encErr != nil || got != want || viaEncode != want {
			t.Fatalf("%+v: EncodeDirect size %d (%v), Encode %d (%v), Check's %d", v, got, err, viaEncode, encErr, want)
		}
	}
	if refused == 0 || refused == 5000 {
		t.Fatalf("%d of 5000 values refused: the test does not cover both", refused)
	}
}

// checkAll is the size itemsize.Check gives the attributes v encodes to,
// or the first error it reports, in field order.
func checkAll(c *Codec, v *flat) (int, error) {
	vals := make([]types.AttributeValue, c.Len())
	for i := range c.fields {
		vals[i], _ = c.fields[i].encodeAt(unsafe.Add(unsafe.Pointer(v), c.fields[i].offset), nil)
	}
	size := 0
	for i, av := range vals {
		if av == nil {
			continue
		}
		n, err := itemsize.Check(c.fields[i].Name, av)
		if err != nil {
			return 0, err
		}
		size += n
	}
	return size, nil
}
