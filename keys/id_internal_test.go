package keys

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestGreatestBelow(t *testing.T) {
	for _, tc := range []struct {
		s    string
		m    int
		want string
		ok   bool
	}{
		{"b", 1, "a", true},
		{"b", 2, "a~", true}, // DEL, above '~', is a control character
		{"b", 3, "a\u07ff", true},
		{"b", 4, "a\uffff", true},
		{"b", 5, "a\U0010FFFF", true},
		{"b", 9, "a\U0010FFFF\U0010FFFF", true},
		{"ab", 1, "a", true},          // the prefix is the greatest that fits
		{"a%", 8, "a", true},          // nothing between "a" and "a%": '%' is the smallest character
		{"%", 8, "", false},           // nothing below the smallest identifier
		{"%%", 8, "%", true},          // its prefix
		{"\uE000", 3, "\uD7FF", true}, // surrogates are skipped
		{"é", 1, "~", true},           // a smaller rune that fits
		{"aé", 2, "a~", true},
		{"a\u0080", 2, "a~", true}, // DEL is skipped
	} {
		got, ok := greatestBelow(tc.s, '#', tc.m)
		if got != tc.want || ok != tc.ok {
			t.Errorf("greatestBelow(%q, %d) = %q, %v; want %q, %v", tc.s, tc.m, got, ok, tc.want, tc.ok)
		}
	}
}

// FuzzGreatestBelow checks the defining property against any candidate:
// every identifier of at most m bytes below s is at most the result, and
// the result is itself such an identifier.
func FuzzGreatestBelow(f *testing.F) {
	f.Add("b", "a~", uint8(3))
	f.Add("a%", "a", uint8(8))
	f.Add("aé", "a\x7f", uint8(2))
	f.Add("a\u0080", "a~", uint8(3))
	f.Add("\U00010000", "\uFFFF", uint8(3))
	f.Fuzz(func(t *testing.T, s, cand string, m8 uint8) {
		m := int(m8%12) + 1
		if checkChars(s, '#') != nil {
			return
		}
		p, ok := greatestBelow(s, '#', m)
		if ok {
			if p >= s || len(p) > m || checkChars(p, '#') != nil {
				t.Fatalf("greatestBelow(%q, %d) = %q: not an identifier of <= %d bytes below s", s, m, p, m)
			}
		}
		// Try cand itself and cand just above the result.
		for _, c := range []string{cand, p + cand} {
			if checkChars(c, '#') != nil || len(c) > m || c >= s {
				continue
			}
			if !ok || c > p {
				t.Fatalf("greatestBelow(%q, %d) = %q, %v, but %q is greater and below s", s, m, p, ok, c)
			}
		}
	})
}

func TestFillIsValidUTF8(t *testing.T) {
	for n := range 12 {
		var b strings.Builder
		fill(&b, n)
		if b.Len() != n || !utf8.ValidString(b.String()) {
			t.Errorf("fill(%d) = %q", n, b.String())
		}
	}
}
