package keys_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/keyfirst/keyfirst/keys"
)

type repoName string

func TestID(t *testing.T) {
	c := keys.ID[repoName](keys.MaxLen(12))
	for _, tc := range []struct {
		name string
		v    repoName
		sep  byte
		want error
	}{
		{"plain", "keyfirst", '#', nil},
		{"punctuation that sorts above the separator", "a-b_c.d:e@f/", '#', nil},
		{"percent is fine with #", "100%", '#', nil},
		{"non-ASCII", "ação", '#', nil},
		{"max length", "abcdefghijkl", '#', nil},
		{"empty", "", '#', keys.ErrEmpty},
		{"separator", "a#b", '#', keys.ErrSeparator},
		{"other separator", "a!b", '!', keys.ErrSeparator},
		{"# is fine with !", "a#b", '!', nil},
		{"space", "a b", '#', keys.ErrReserved},
		{"tab", "a\tb", '#', keys.ErrReserved},
		{"NUL", "a\x00", '#', keys.ErrReserved},
		{"DEL", "a\x7fb", '#', keys.ErrReserved},
		{"quote", `a"b`, '#', keys.ErrReserved},
		{"bang", "a!b", '#', keys.ErrReserved},
		{"successor of separator", "a$b", '#', keys.ErrReserved},
		{"invalid UTF-8", "a\xffb", '#', keys.ErrMalformed},
		{"too long", "abcdefghijklm", '#', keys.ErrTooLong},
		{"too long in bytes", "ççççççç", '#', keys.ErrTooLong},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := c.Append(nil, tc.sep, tc.v)
			wantErr(t, err, tc.want)
			_, perr := c.Parse(string(tc.v), tc.sep)
			wantErr(t, perr, tc.want)
			if tc.want != nil {
				wantSegment(t, err, 1, "id")
				return
			}
			if string(b) != string(tc.v) {
				t.Fatalf("Append(%q) = %q, want the value itself", tc.v, b)
			}
		})
	}
}

func TestIDDefaultMaxLen(t *testing.T) {
	c := keys.ID[string]()
	ok := strings.Repeat("a", keys.MaxKeyBytes)
	if _, err := c.Append(nil, '#', ok); err != nil {
		t.Fatalf("%d bytes: %v", len(ok), err)
	}
	_, err := c.Append(nil, '#', ok+"a")
	wantErr(t, err, keys.ErrTooLong)
}

func TestIDDefinition(t *testing.T) {
	err := keys.NewKey1(keys.ID[string](keys.MaxLen(-1))).Err()
	wantErr(t, err, keys.ErrDefinition)
	_, err = keys.ID[string](keys.MaxLen(-1)).Append(nil, '#', "a")
	wantErr(t, err, keys.ErrDefinition)
}

// validID is the oracle for an identifier under '#': the rules, restated.
func validID(s string, max int) error {
	switch {
	case s == "":
		return keys.ErrEmpty
	case len(s) > max:
		return keys.ErrTooLong
	case strings.IndexByte(s, '#') >= 0:
		return keys.ErrSeparator
	case strings.IndexFunc(s, func(r rune) bool { return r <= '$' || r == 0x7F }) >= 0:
		return keys.ErrReserved
	case !utf8.ValidString(s):
		return keys.ErrMalformed
	}
	return nil
}

func FuzzID(f *testing.F) {
	f.Add("keyfirst", "keyfirst-go")
	f.Add("a", "a%")
	f.Add("a#", "a")
	f.Add("ação", "acao")
	f.Add("\U0010FFFF", "\uFFFF")
	c := keys.ID[string](keys.MaxLen(16))
	f.Fuzz(func(t *testing.T, x, y string) {
		ex, err := c.Append(nil, '#', x)
		want := validID(x, 16)
		if (err == nil) != (want == nil) {
			t.Fatalf("Append(%q) error = %v, want %v", x, err, want)
		}
		dx, derr := c.Parse(x, '#')
		if (derr == nil) != (want == nil) {
			t.Fatalf("Parse(%q) error = %v, want %v", x, derr, want)
		}
		if err != nil {
			if !errors.Is(err, want) && !errors.Is(err, keys.ErrReserved) && !errors.Is(err, keys.ErrSeparator) {
				t.Fatalf("Append(%q) error = %v, want %v", x, err, want)
			}
			return
		}
		if string(ex) != x || dx != x {
			t.Fatalf("round trip of %q: %q, %q", x, ex, dx)
		}
		ey, err := c.Append(nil, '#', y)
		if err != nil {
			return
		}
		if sign(strings.Compare(x, y)) != sign(strings.Compare(string(ex), string(ey))) {
			t.Fatalf("order of %q, %q not preserved", x, y)
		}
	})
}
