package query

import (
	"encoding/json"
	"strings"
	"testing"
)

// The payload is written byte for byte as encoding/json writes it.
func TestPayloadIsJSON(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "plain", `"quoted" \back\`, "\x00\x01\x1f\b\f\n\r\t", "<a href='x'>&amp;</a>",
		"\u2028\u2029", "é ü 日本 🎉", "bad \xff utf-8 \xc3", "\x7f"} {
		checkPayload(t, s, []byte(s))
	}
}

func FuzzPayload(f *testing.F) {
	f.Add("T#x", []byte{0, 1, 2})
	f.Add("\xff<\u2028>", []byte(nil))
	f.Fuzz(checkPayload)
}

func checkPayload(t *testing.T, s string, b []byte) {
	for _, p := range []cursorPayload{
		{V: 1, B: s},
		{V: 1, B: s, K: []cursorKey{}},
		{V: cursorVersion, B: "bind", K: []cursorKey{{N: s, T: "S", S: s}, {N: "n", T: "N", S: "1.5"}, {N: "b", T: "B", B: b}, {N: s}}},
	} {
		want, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendPayload(nil, p); string(got) != string(want) {
			t.Fatalf("%+v:\n got %s\nwant %s", p, got, want)
		}
	}
}

// Cursors are written as before this package built queries from shapes:
// a cursor made by the previous version (these, from commit 78e7216)
// still resumes, signed or not.
func TestCursorFormatUnchanged(t *testing.T) {
	t.Parallel()
	const body = "eyJ2IjoxLCJiIjoiRFFIb3ZzOGdzbXBLS3VKVHNBd0FaVDlkIiwiayI6W3sibiI6Ik93bmVyIiwidCI6IlMiLCJzIjoiYW5uIn0seyJuIjoiUEsiLCJ0IjoiUyIsInMiOiJPI2FubiJ9LHsibiI6IlJhbmsiLCJ0IjoiTiIsInMiOiI3In0seyJuIjoiU0siLCJ0IjoiUyIsInMiOiJUI3gifV19"
	p, q := thingPlan(t, "ann")
	signed, _ := thingPlan(t, "ann", WithCursorKey([]byte(strings.Repeat("k", 32))))
	between, err := q.SortAttr(Attr("Rank").Between(N(1), N(9))).Desc().plan(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		p    *plan
		want Cursor
	}{
		{p, body},
		{signed, body + ".kl05gg_xVip12b4BGCOwUvbRIvOco-DUBRa8ZxGGbc0"},
		{between, "eyJ2IjoxLCJiIjoiVFF4MDgyX3U0NlB0b1h4NE9iQkg1OVkwIiwiayI6W3sibiI6Ik93bmVyIiwidCI6IlMiLCJzIjoiYW5uIn0seyJuIjoiUEsiLCJ0IjoiUyIsInMiOiJPI2FubiJ9LHsibiI6IlJhbmsiLCJ0IjoiTiIsInMiOiI3In0seyJuIjoiU0siLCJ0IjoiUyIsInMiOiJUI3gifV19"},
	} {
		if got, err := c.p.cursorAt(goodKey()); got != c.want || err != nil {
			t.Fatalf("cursor %q %v, want %q", got, err, c.want)
		}
		if _, err := c.p.resume(c.want); err != nil {
			t.Fatal(err)
		}
	}
}
