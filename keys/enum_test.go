package keys_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/keyfirst/keyfirst/keys"
)

func TestEnumRoundTrip(t *testing.T) {
	for _, s := range statuses {
		t.Run(string(s), func(t *testing.T) {
			b, err := statusCodec.Append(nil, '#', s)
			wantErr(t, err, nil)
			if string(b) != string(s) {
				t.Fatalf("Append(%q) = %q, want the value itself", s, b)
			}
			got, err := statusCodec.Parse(string(b), '#')
			wantErr(t, err, nil)
			if got != s {
				t.Fatalf("Parse(%q) = %q", b, got)
			}
		})
	}
}

func TestEnumRefusesOutsiders(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    Status
		want error
	}{
		{"unknown", "PENDING", keys.ErrNotInEnum},
		{"prefix of a member", "CANCEL", keys.ErrNotInEnum},
		{"member plus suffix", "SHIPPEDX", keys.ErrNotInEnum},
		{"case", "cancelled", keys.ErrNotInEnum},
		{"empty", "", keys.ErrEmpty},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := statusCodec.Append(nil, '#', tc.v)
			wantErr(t, err, tc.want)
			wantSegment(t, err, 1, "enum")
			_, err = statusCodec.Parse(string(tc.v), '#')
			wantErr(t, err, tc.want)
		})
	}
}

func TestEnumDefinition(t *testing.T) {
	for _, tc := range []struct {
		name   string
		values []Status
		sep    byte
		also   error
	}{
		{"no values", nil, '#', keys.ErrEmpty},
		{"duplicate", []Status{"A", "B", "A"}, '#', nil},
		{"empty value", []Status{"A", ""}, '#', keys.ErrEmpty},
		{"separator", []Status{"A#B"}, '#', keys.ErrSeparator},
		{"other separator", []Status{"A!B"}, '!', keys.ErrSeparator},
		{"space", []Status{"ON HOLD"}, '#', keys.ErrReserved},
		{"successor of separator", []Status{"A$"}, '#', keys.ErrReserved},
		{"invalid UTF-8", []Status{"A\xff"}, '#', keys.ErrMalformed},
		{"DEL", []Status{"A\x7f"}, '#', keys.ErrReserved},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := keys.NewKey1(keys.Enum(tc.values...), keys.WithSeparator(tc.sep)).Err()
			wantErr(t, err, keys.ErrDefinition)
			if tc.also != nil {
				wantErr(t, err, tc.also)
			}
			wantSegment(t, err, 1, "enum")
			// Used without a key, the codec refuses the value itself.
			if tc.also != nil && len(tc.values) > 0 && tc.values[len(tc.values)-1] != "" {
				v := tc.values[len(tc.values)-1]
				_, err = keys.Enum(tc.values...).Append(nil, tc.sep, v)
				wantErr(t, err, tc.also)
				_, err = keys.Enum(tc.values...).Parse(string(v), tc.sep)
				wantErr(t, err, tc.also)
			}
		})
	}
}

// An enum's order is the byte order of its values, whatever order they
// were listed in.
func TestEnumOrderAndPrev(t *testing.T) {
	sorted := slices.Clone(statuses)
	slices.Sort(sorted)
	k := keys.NewKey2(statusCodec, keys.Literal("X"), keys.WithPrefix("P"))
	for i, s := range sorted {
		c, err := k.Range().Lt(s)
		if i == 0 {
			wantErr(t, err, keys.ErrEmptyRange)
			continue
		}
		wantErr(t, err, nil)
		for j, o := range sorted {
			key, _ := k.Encode(o, struct{}{})
			if got := c.Match(key); got != (j < i) {
				t.Errorf("Lt(%s) matches %s = %v", s, key, got)
			}
		}
	}
}

func FuzzEnum(f *testing.F) {
	for _, s := range statuses {
		f.Add(string(s), "CANCEL")
	}
	f.Fuzz(func(t *testing.T, x, y string) {
		member := func(s string) bool { return slices.Contains(statuses, Status(s)) }
		ex, errx := statusCodec.Append(nil, '#', Status(x))
		if (errx == nil) != member(x) {
			t.Fatalf("Append(%q) error = %v, member = %v", x, errx, member(x))
		}
		dx, errd := statusCodec.Parse(x, '#')
		if (errd == nil) != member(x) {
			t.Fatalf("Parse(%q) error = %v, member = %v", x, errd, member(x))
		}
		if errx != nil {
			return
		}
		if string(ex) != x || string(dx) != x {
			t.Fatalf("round trip of %q: %q, %q", x, ex, dx)
		}
		ey, err := statusCodec.Append(nil, '#', Status(y))
		if err != nil {
			return
		}
		if sign(strings.Compare(x, y)) != sign(strings.Compare(string(ex), string(ey))) {
			t.Fatalf("order of %q, %q not preserved: %q, %q", x, y, ex, ey)
		}
	})
}
