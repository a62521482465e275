package keys_test

import (
	"strings"
	"testing"
	"time"

	"github.com/keyfirst/keyfirst/keys"
)

// layouts is the time.Format layout equivalent to each precision: the
// independent oracle for the encoder (Format truncates fractions too).
var layouts = map[keys.Precision]string{
	keys.Day:    "2006-01-02",
	keys.Second: "2006-01-02T15:04:05",
	keys.Milli:  "2006-01-02T15:04:05.000",
	keys.Micro:  "2006-01-02T15:04:05.000000",
	keys.Nano:   "2006-01-02T15:04:05.000000000",
}

var precisions = []keys.Precision{keys.Day, keys.Second, keys.Milli, keys.Micro, keys.Nano}

func TestTimeEncoding(t *testing.T) {
	sp := time.FixedZone("BRT", -3*3600)
	for _, tc := range []struct {
		name string
		p    keys.Precision
		z    bool
		t    time.Time
		want string
	}{
		{"seed 000", keys.Micro, false, time.Date(2019, 7, 1, 0, 0, 0, 0, time.UTC), "2019-07-01T00:00:00.000000"},
		{"seed 003", keys.Second, true, time.Date(2026, 6, 23, 0, 0, 0, 0, time.UTC), "2026-06-23T00:00:00Z"},
		{"other zone, same instant", keys.Second, true, time.Date(2026, 6, 22, 21, 0, 0, 0, sp), "2026-06-23T00:00:00Z"},
		{"milli", keys.Milli, false, time.Date(2026, 1, 2, 3, 4, 5, 6_789_000, time.UTC), "2026-01-02T03:04:05.006"},
		{"nano", keys.Nano, false, time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), "2026-01-02T03:04:05.000000006"},
		{"truncated, not rounded", keys.Second, false, time.Date(2026, 12, 31, 23, 59, 59, 999_999_999, time.UTC), "2026-12-31T23:59:59"},
		{"micro truncates nanos", keys.Micro, false, time.Date(2026, 1, 1, 0, 0, 0, 1_999, time.UTC), "2026-01-01T00:00:00.000001"},
		{"first instant", keys.Second, false, time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), "0000-01-01T00:00:00"},
		{"last instant", keys.Nano, false, time.Date(9999, 12, 31, 23, 59, 59, 999_999_999, time.UTC), "9999-12-31T23:59:59.999999999"},
		{"leap day", keys.Second, false, time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC), "2024-02-29T12:00:00"},
		{"before 1970", keys.Milli, false, time.Date(1969, 12, 31, 23, 59, 59, 500_000_000, time.UTC), "1969-12-31T23:59:59.500"},
		{"seed 000's date", keys.Day, false, time.Date(2019, 7, 1, 0, 0, 0, 0, time.UTC), "2019-07-01"},
		{"a day keeps its date, not its time", keys.Day, false, time.Date(2019, 7, 1, 23, 59, 59, 999_999_999, time.UTC), "2019-07-01"},
		{"a day is the UTC date of the instant", keys.Day, false, time.Date(2019, 6, 30, 22, 0, 0, 0, time.FixedZone("W", -2*3600)), "2019-07-01"},
		{"a day before 1970", keys.Day, false, time.Date(1969, 12, 31, 23, 0, 0, 0, time.UTC), "1969-12-31"},
		{"first day", keys.Day, false, time.Date(0, 1, 1, 5, 0, 0, 0, time.UTC), "0000-01-01"},
		{"last day", keys.Day, false, time.Date(9999, 12, 31, 23, 59, 59, 999_999_999, time.UTC), "9999-12-31"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts []func(*keys.TimeOptions)
			if tc.z {
				opts = append(opts, keys.WithZ)
			}
			c := keys.Time(tc.p, opts...)
			b, err := c.Append(nil, '#', tc.t)
			wantErr(t, err, nil)
			if string(b) != tc.want {
				t.Fatalf("Append(%v) = %s, want %s", tc.t, b, tc.want)
			}
			got, err := c.Parse(tc.want, '#')
			wantErr(t, err, nil)
			if want := truncate(tc.p, tc.t); !got.Equal(want) || got.Location() != time.UTC {
				t.Fatalf("Parse(%s) = %v, want %v in UTC", tc.want, got, want)
			}
		})
	}
}

// truncate is t at precision p, by package time's own arithmetic: the
// oracle for the codec's truncation.
func truncate(p keys.Precision, t time.Time) time.Time {
	if p == keys.Day {
		y, m, d := t.UTC().Date()
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	}
	unit := map[keys.Precision]time.Duration{keys.Second: time.Second, keys.Milli: time.Millisecond, keys.Micro: time.Microsecond, keys.Nano: 1}[p]
	return t.Add(-(time.Duration(t.Nanosecond()) % unit))
}

func TestTimeRefuses(t *testing.T) {
	c := keys.Time(keys.Micro)
	for _, tc := range []struct {
		name string
		t    time.Time
	}{
		{"year -1", time.Date(-1, 12, 31, 23, 59, 59, 999_999_999, time.UTC)},
		{"year 10000", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"year 10000 through a zone", time.Date(9999, 12, 31, 23, 0, 0, 0, time.FixedZone("W", -2*3600))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Append(nil, '#', tc.t)
			wantErr(t, err, keys.ErrOutOfRange)
			wantSegment(t, err, 1, "time")
		})
	}
	for _, s := range []string{
		"",
		"2019-07-01T00:00:00",         // wrong width for Micro
		"2019-07-01T00:00:00.000000Z", // Z not configured
		"2019-07-01 00:00:00.000000",
		"2019-07-01T00:00:00,000000",
		"2019-13-01T00:00:00.000000",
		"2019-00-01T00:00:00.000000",
		"2019-02-29T00:00:00.000000", // not a leap year
		"2019-04-31T00:00:00.000000",
		"2019-07-00T00:00:00.000000",
		"2019-07-01T24:00:00.000000",
		"2019-07-01T23:60:00.000000",
		"2019-07-01T23:59:60.000000", // leap second
		"2019-07-01T00:00:00.00000a",
		"+019-07-01T00:00:00.000000",
		"2019-07-01T00:00:00.-00000",
		"２019-07-01T00:00:00.0000",
	} {
		t.Run("decode "+s, func(t *testing.T) {
			_, err := c.Parse(s, '#')
			if err == nil {
				t.Fatalf("Parse(%q) accepted", s)
			}
			wantSegment(t, err, 1, "time")
		})
	}
	_, err := keys.Time(keys.Second, keys.WithZ).Parse("2026-06-23T00:00:00X", '#')
	wantErr(t, err, keys.ErrMalformed)
	day := keys.Time(keys.Day)
	for _, s := range []string{"", "2019-07-1", "2019-07-01T00:00:00", "2019-07-01Z", "2019-02-29", "2019-13-01", "2019-07-00", "2019/07/01", "+019-07-01", "２019-07-1"} {
		t.Run("decode day "+s, func(t *testing.T) {
			if _, err := day.Parse(s, '#'); err == nil {
				t.Fatalf("Parse(%q) accepted", s)
			}
		})
	}
}

func TestTimeDefinition(t *testing.T) {
	err := keys.NewKey1(keys.Time(keys.Day, keys.WithZ)).Err()
	wantErr(t, err, keys.ErrDefinition)
	for _, p := range []keys.Precision{0, keys.Nano + 1} {
		err := keys.NewKey1(keys.Time(p)).Err()
		wantErr(t, err, keys.ErrDefinition)
		_, err = keys.Time(p).Append(nil, '#', time.Now())
		wantErr(t, err, keys.ErrDefinition)
		_, err = keys.Time(p).Parse("2019-07-01T00:00:00", '#')
		wantErr(t, err, keys.ErrDefinition)
	}
	for p, want := range map[keys.Precision]string{keys.Day: "day", keys.Second: "second", keys.Nano: "nano", 9: "Precision(9)"} {
		if p.String() != want {
			t.Errorf("String() = %q, want %q", p.String(), want)
		}
	}
}

// Encoded times are chronological at every precision, and a time equal at
// the precision (whatever its zone) has the same encoding.
func FuzzTime(f *testing.F) {
	f.Add(int64(1561939200), int64(0), int64(1561939200), int64(1), uint8(2), int32(0), "2019-07-01T00:00:00.000000")
	f.Add(int64(-62167219200), int64(0), int64(253402300799), int64(999999999), uint8(3), int32(-3600), "0000-01-01T00:00:00.000000000")
	f.Add(int64(-1), int64(500000000), int64(0), int64(0), uint8(1), int32(19800), "1969-12-31T23:59:59.500")
	f.Add(int64(951782400), int64(0), int64(951868800), int64(0), uint8(0), int32(50400), "2000-02-29T00:00:00Z")
	f.Fuzz(func(t *testing.T, s1, n1, s2, n2 int64, p8 uint8, offset int32, raw string) {
		p := precisions[int(p8)%len(precisions)]
		z := p8&8 != 0 && p != keys.Day
		var opts []func(*keys.TimeOptions)
		layout := layouts[p]
		if z {
			opts = append(opts, keys.WithZ)
			layout += "Z"
		}
		c := keys.Time(p, opts...)
		zone := time.FixedZone("", int(offset%(18*3600)))
		x := time.Unix(s1%400_000_000_000, n1).In(zone)
		y := time.Unix(s2%400_000_000_000, n2).In(zone)
		ex, errx := c.Append(nil, '#', x)
		ey, erry := c.Append(nil, '#', y)
		for _, v := range []struct {
			t   time.Time
			enc []byte
			err error
		}{{x, ex, errx}, {y, ey, erry}} {
			u := v.t.UTC()
			if u.Year() < 0 || u.Year() > 9999 {
				wantErr(t, v.err, keys.ErrOutOfRange)
				continue
			}
			wantErr(t, v.err, nil)
			if want := u.Format(layout); string(v.enc) != want {
				t.Fatalf("Append(%v) = %s, want %s", v.t, v.enc, want)
			}
			back, err := c.Parse(string(v.enc), '#')
			wantErr(t, err, nil)
			if !back.Equal(truncate(p, u)) {
				t.Fatalf("round trip of %v: %v", v.t, back)
			}
		}
		if errx == nil && erry == nil {
			xt := truncate(p, x)
			yt := truncate(p, y)
			if sign(xt.Compare(yt)) != sign(strings.Compare(string(ex), string(ey))) {
				t.Fatalf("order of %v, %v not preserved: %s, %s", x, y, ex, ey)
			}
		}
		// Decoding accepts only canonical encodings.
		if v, err := c.Parse(raw, '#'); err == nil {
			again, err := c.Append(nil, '#', v)
			if err != nil || string(again) != raw {
				t.Fatalf("Parse(%q) = %v, which encodes as %q (%v)", raw, v, again, err)
			}
		}
	})
}
