package codec

import (
	"errors"
	"reflect"
	"strconv"
	"testing"
	"time"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/itemsize"
)

type status string

type custom struct{ n int }

func (c custom) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberS{Value: "custom-" + strconv.Itoa(c.n)}, nil
}

func (c *custom) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	s, ok := av.(*types.AttributeValueMemberS)
	if !ok {
		return errors.New("custom: not a string")
	}
	n, err := strconv.Atoi(s.Value[len("custom-"):])
	c.n = n
	return err
}

type Base struct {
	Created time.Time `dynamodbav:"created"`
	Tenant  string    `dynamodbav:"tenant,omitempty"`
}

type Extra struct {
	Score float32
}

// everything has a field of every kind the fast path handles, and some it
// leaves to attributevalue.
type everything struct {
	Base
	*Extra
	ID       string            `dynamodbav:"id"`
	Status   status            `dynamodbav:"status"`
	Note     string            `dynamodbav:"note,omitempty"`
	Flag     bool              `dynamodbav:"flag"`
	FlagOmit bool              `dynamodbav:"flag_omit,omitempty"`
	Count    int64             `dynamodbav:"count"`
	Small    int8              `dynamodbav:"small,omitempty"`
	Big      uint64            `dynamodbav:"big"`
	Ratio    float64           `dynamodbav:"ratio"`
	AsText   int               `dynamodbav:"as_text,string"`
	When     time.Time         `dynamodbav:"when"`
	Unix     time.Time         `dynamodbav:"unix,unixtime"`
	Blob     []byte            `dynamodbav:"blob"`
	BlobOmit []byte            `dynamodbav:"blob_omit,omitempty"`
	Tags     []string          `dynamodbav:"tags"`
	Set      []string          `dynamodbav:"set,stringset"`
	SetOmit  []string          `dynamodbav:"set_omit,stringset,omitempty"`
	PtrS     *string           `dynamodbav:"ptr_s"`
	PtrOmit  *int              `dynamodbav:"ptr_omit,omitempty"`
	PtrTime  *time.Time        `dynamodbav:"ptr_time"`
	Attrs    map[string]string `dynamodbav:"attrs"`
	Nums     []int             `dynamodbav:"nums,numberset"`
	Custom   custom            `dynamodbav:"custom"`
	Any      any               `dynamodbav:"any"`
	Nested   Extra             `dynamodbav:"nested"`
	Skipped  string            `dynamodbav:"-"`
	Untagged string
	private  string
}

func full() everything {
	s := "pointed"
	n := 7
	tm := time.Date(2026, 6, 23, 10, 0, 0, 123456789, time.UTC)
	return everything{
		Base:     Base{Created: tm, Tenant: "acme"},
		Extra:    &Extra{Score: 1.5},
		ID:       "o-1",
		Status:   "OPEN",
		Note:     "hello",
		Flag:     true,
		FlagOmit: true,
		Count:    -42,
		Small:    3,
		Big:      1 << 63,
		Ratio:    0.25,
		AsText:   99,
		When:     tm,
		Unix:     time.Unix(1700000000, 0).UTC(),
		Blob:     []byte{1, 2, 3},
		BlobOmit: []byte{},
		Tags:     []string{"a", "", "c"},
		Set:      []string{"x", "y"},
		SetOmit:  []string{},
		PtrS:     &s,
		PtrOmit:  &n,
		PtrTime:  &tm,
		Attrs:    map[string]string{"k": "v"},
		Nums:     []int{1, 2},
		Custom:   custom{n: 5},
		Any:      "anything",
		Nested:   Extra{Score: 2},
		Skipped:  "never",
		Untagged: "plain",
		private:  "hidden",
	}
}

func mustCodec(t *testing.T, typ reflect.Type) *Codec {
	t.Helper()
	c, err := For(typ)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func encode(t *testing.T, c *Codec, v any) (map[string]types.AttributeValue, error) {
	t.Helper()
	vals := make([]types.AttributeValue, c.Len())
	size, err := c.Encode(reflect.ValueOf(v).Elem(), vals)
	m := map[string]types.AttributeValue{}
	c.Store(m, vals)
	if err == nil && size != itemsize.ItemSize(m) {
		t.Errorf("Encode reports size %d, the item has %d", size, itemsize.ItemSize(m))
	}
	return m, err
}

// TestEncodeMatchesAttributeValue compares the codec with attributevalue
// on values that exercise zero, empty, nil and set cases.
func TestEncodeMatchesAttributeValue(t *testing.T) {
	c := mustCodec(t, reflect.TypeFor[everything]())
	cases := map[string]func() everything{
		"zero": func() everything { return everything{} },
		"full": full,
		"empties": func() everything {
			v := full()
			v.Tags, v.Set, v.Blob, v.Attrs = []string{}, []string{}, []byte{}, map[string]string{}
			v.PtrS = new(string)
			v.Extra = nil
			return v
		},
		"local time": func() everything {
			v := full()
			v.When = time.Date(2019, 7, 1, 9, 30, 0, 0, time.FixedZone("X", 3600))
			return v
		},
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			v := mk()
			want, err := attributevalue.MarshalMap(&v)
			if err != nil {
				t.Fatal(err)
			}
			got, err := encode(t, c, &v)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("encode differs from attributevalue:\n got %#v\nwant %#v", dump(got), dump(want))
			}
			// A value that is not addressable encodes the same.
			vals := make([]types.AttributeValue, c.Len())
			if _, err := c.Encode(reflect.ValueOf(v), vals); err != nil {
				t.Fatal(err)
			}
			plain := map[string]types.AttributeValue{}
			c.Store(plain, vals)
			if !reflect.DeepEqual(plain, want) {
				t.Errorf("unaddressable encode differs:\n got %#v\nwant %#v", dump(plain), dump(want))
			}
			// Decode what attributevalue encoded, both ways.
			var mine, theirs everything
			if err := c.Decode(want, reflect.ValueOf(&mine).Elem()); err != nil {
				t.Fatal(err)
			}
			if err := attributevalue.UnmarshalMap(want, &theirs); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(mine, theirs) {
				t.Errorf("decode differs from attributevalue:\n got %+v\nwant %+v", mine, theirs)
			}
		})
	}
}

// TestDecodeOddInputsMatchesAttributeValue feeds attributes of unexpected
// types; the codec must agree with attributevalue on the value or on
// failing.
func TestDecodeOddInputsMatchesAttributeValue(t *testing.T) {
	c := mustCodec(t, reflect.TypeFor[everything]())
	n := func(s string) types.AttributeValue { return &types.AttributeValueMemberN{Value: s} }
	s := func(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }
	null := &types.AttributeValueMemberNULL{Value: true}
	cases := map[string]map[string]types.AttributeValue{
		"number into string":     {"id": n("12")},
		"null into string":       {"id": null},
		"null into pointer":      {"ptr_s": null},
		"bool into string":       {"id": &types.AttributeValueMemberBOOL{Value: true}},
		"text into int":          {"count": s("12")},
		"bad number":             {"count": n("1.5")},
		"overflow int8":          {"small": n("300")},
		"negative into uint":     {"big": n("-1")},
		"string tag number":      {"as_text": s("41")},
		"string tag bad":         {"as_text": s("x")},
		"string tag given N":     {"as_text": n("41")},
		"time as number":         {"when": n("1700000000")},
		"unix time as string":    {"unix": s("2026-06-23T10:00:00Z")},
		"bad time":               {"when": s("yesterday")},
		"set into list field":    {"tags": &types.AttributeValueMemberSS{Value: []string{"a"}}},
		"list into set field":    {"set": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("a")}}},
		"list with numbers":      {"tags": &types.AttributeValueMemberL{Value: []types.AttributeValue{n("1"), null}}},
		"binary into string":     {"id": &types.AttributeValueMemberB{Value: []byte("x")}},
		"string into binary":     {"blob": s("x")},
		"number into bool":       {"flag": n("1")},
		"float":                  {"ratio": n("1e3")},
		"embedded pointer field": {"Score": n("2.5")},
		"wrong-case name":        {"ID": s("ignored")},
		"unknown attribute":      {"nope": s("x")},
	}
	for name, item := range cases {
		t.Run(name, func(t *testing.T) {
			var mine, theirs everything
			errMine := c.Decode(item, reflect.ValueOf(&mine).Elem())
			errTheirs := attributevalue.UnmarshalMap(item, &theirs)
			if name == "wrong-case name" {
				// The one deliberate difference: exact names only.
				if errMine != nil || mine.ID != "" {
					t.Fatalf("decoded a wrong-case attribute: %+v, %v", mine.ID, errMine)
				}
				return
			}
			if (errMine == nil) != (errTheirs == nil) {
				t.Fatalf("error mismatch: codec %v, attributevalue %v", errMine, errTheirs)
			}
			if errMine == nil && !reflect.DeepEqual(mine, theirs) {
				t.Errorf("decode differs:\n got %+v\nwant %+v", mine, theirs)
			}
		})
	}
}

func TestFields(t *testing.T) {
	c := mustCodec(t, reflect.TypeFor[everything]())
	want := map[string]struct {
		kind     AVKind
		integer  bool
		nullable bool
	}{
		"id":       {AVString, false, false},
		"status":   {AVString, false, false},
		"count":    {AVNumber, true, false},
		"big":      {AVNumber, true, false},
		"ratio":    {AVNumber, false, false},
		"as_text":  {AVString, false, false},
		"when":     {AVString, false, false},
		"unix":     {AVNumber, false, false},
		"blob":     {AVBinary, false, true},
		"tags":     {AVList, false, true},
		"set":      {AVStringSet, false, true},
		"ptr_s":    {AVString, false, true},
		"ptr_omit": {AVNumber, false, false}, // a pointer is not a version candidate
		"custom":   {AVUnknown, false, false},
		"attrs":    {AVUnknown, false, true},
		"flag":     {AVBool, false, false},
		"created":  {AVString, false, false},
		"Score":    {AVNumber, false, false},
		"Untagged": {AVString, false, false},
	}
	for name, w := range want {
		f, ok := c.Field(name)
		if !ok {
			t.Errorf("field %q missing", name)
			continue
		}
		if f.Kind != w.kind || f.Integer() != w.integer || f.Nullable != w.nullable {
			t.Errorf("%s: kind %d integer %v nullable %v, want %d %v %v",
				name, f.Kind, f.Integer(), f.Nullable, w.kind, w.integer, w.nullable)
		}
	}
	for _, absent := range []string{"Skipped", "-", "private", "Extra", "Base"} {
		if _, ok := c.Field(absent); ok {
			t.Errorf("field %q should not be an attribute", absent)
		}
	}
	if got := c.Names(); got[0] != "created" || got[1] != "tenant" || got[2] != "Score" || got[3] != "id" {
		t.Errorf("names not in declaration order: %v", got)
	}
}

func TestIntAccessors(t *testing.T) {
	type versioned struct {
		V uint32 `dynamodbav:"v"`
		W int16  `dynamodbav:"w"`
	}
	c := mustCodec(t, reflect.TypeFor[versioned]())
	var v versioned
	p := unsafe.Pointer(&v)
	c.SetIntAt(p, "v", 41)
	c.SetIntAt(p, "w", -3)
	if v.V != 41 || v.W != -3 || c.IntAt(p, "v") != 41 || c.IntAt(p, "w") != -3 {
		t.Fatalf("got %+v", v)
	}
}

func TestUnsupported(t *testing.T) {
	type X struct{ A string }
	type Y struct{ A string }
	type ambiguous struct {
		X
		Y
	}
	type emptyName struct {
		A string `dynamodbav:",omitempty"`
	}
	tests := []struct {
		name string
		typ  reflect.Type
		ok   bool
	}{
		{"not a struct", reflect.TypeFor[string](), false},
		{"pointer", reflect.TypeFor[*X](), false},
		{"ambiguous embedded fields", reflect.TypeFor[ambiguous](), false},
		{"empty tag name keeps the Go name", reflect.TypeFor[emptyName](), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := For(tt.typ)
			if tt.ok {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrUnsupported) {
				t.Fatalf("err = %v, want ErrUnsupported", err)
			}
			// Cached: the same answer again.
			if _, err2 := For(tt.typ); !errors.Is(err2, ErrUnsupported) {
				t.Fatalf("second call err = %v", err2)
			}
		})
	}
}

func TestEncodeErrorNamesTheField(t *testing.T) {
	type bad struct {
		Nums []string `dynamodbav:"nums,numberset"`
	}
	c := mustCodec(t, reflect.TypeFor[bad]())
	_, err := encode(t, c, &bad{Nums: []string{"x"}})
	_, want := attributevalue.MarshalMap(&bad{Nums: []string{"x"}})
	if (err == nil) != (want == nil) {
		t.Fatalf("codec err %v, attributevalue err %v", err, want)
	}
}

func TestConcurrentFor(t *testing.T) {
	type fresh struct{ A, B string }
	done := make(chan *Codec)
	for range 8 {
		go func() {
			c, _ := For(reflect.TypeFor[fresh]())
			done <- c
		}()
	}
	first := <-done
	for range 7 {
		if c := <-done; c != first {
			t.Fatal("two codecs for one type")
		}
	}
}

func dump(m map[string]types.AttributeValue) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = reflect.TypeOf(v).Elem().Name() + ":" + valueString(v)
	}
	return out
}

func valueString(v types.AttributeValue) string {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		return x.Value
	case *types.AttributeValueMemberN:
		return x.Value
	}
	return ""
}

// EncodeValue of a field's value is EncodeField of a struct holding it,
// for every field of every kind (slow ones and promoted ones included),
// zero and full, present or omitted.
func TestEncodeValueMatchesEncodeField(t *testing.T) {
	c := mustCodec(t, reflect.TypeFor[everything]())
	for name, v := range map[string]everything{"zero": {Extra: &Extra{}}, "full": full()} {
		rv := reflect.ValueOf(&v).Elem()
		for _, f := range c.Fields() {
			want, wantOK, wantErr := c.EncodeField(rv, f.Name)
			sf, _ := reflect.TypeFor[everything]().FieldByName(f.GoName)
			got, gotOK, err := c.EncodeValue(f.Name, rv.FieldByIndex(sf.Index))
			if (err != nil) != (wantErr != nil) || gotOK != wantOK || !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: EncodeValue %#v, %v, %v; EncodeField %#v, %v, %v", name, f.GoName, got, gotOK, err, want, wantOK, wantErr)
			}
		}
	}
	bad := "\xff"
	if _, _, err := c.EncodeValue("id", reflect.ValueOf(bad)); err == nil {
		t.Error("EncodeValue takes invalid UTF-8")
	}
}
