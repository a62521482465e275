package codec

import (
	"reflect"
	"testing"
	"time"
)

// FuzzParseTime: ParseTime returns what time.Parse(time.RFC3339, s)
// returns, the Time compared in full (its instant, its location, its
// internal form) and the error's text, for any s; the seeds cover the
// form read without time.Parse at the edges of each field's range, leap
// days, fractions of every length, and the forms left to time.Parse.
func FuzzParseTime(f *testing.F) {
	for _, s := range []string{
		"2026-12-06T20:04:05Z", "2026-12-06T20:04:05.1Z", "2026-12-06T20:04:05.123456789Z", "2026-12-06T20:04:05.1234567891Z",
		"0000-01-01T00:00:00Z", "0000-02-29T23:59:59Z", "9999-12-31T23:59:59.999999999Z", "1969-12-31T23:59:59.5Z",
		"2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
		"2026-00-10T00:00:00Z", "2026-13-10T00:00:00Z", "2026-12-00T00:00:00Z", "2026-12-06T24:00:00Z", "2026-12-06T23:60:00Z",
		"2026-12-06T23:59:60Z", "2026-12-06T20:04:05.Z", "2026-12-06T20:04:05,5Z", "2026-12-06t20:04:05Z", "2026-12-06T20:04:05z",
		"2026-12-06T20:04:05+02:00", "2026-12-06T20:04:05.5-07:30", "2026-12-06T20:04:05+00:00", "2026-12-06 20:04:05Z",
		"+026-12-06T20:04:05Z", "2026-1a-06T20:04:05Z", "2026-12-06T20:04:05.1a3Z", "", "Z", "2026-12-06T20:04:05",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseTime(s)
		want, wantErr := time.Parse(time.RFC3339, s)
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("ParseTime(%q): error %v, time.Parse's %v", s, err, wantErr)
		}
		if !reflect.DeepEqual(got, want) || got.Location().String() != want.Location().String() {
			t.Fatalf("ParseTime(%q) = %#v, time.Parse returned %#v", s, got, want)
		}
	})
}

// TestParseUTCReadsItsForm: the seeds of the codec's own form are read
// without time.Parse (parseUTC accepts them), so that FuzzParseTime tests
// the fast path and not only its fallback.
func TestParseUTCReadsItsForm(t *testing.T) {
	for _, s := range []string{"2026-12-06T20:04:05Z", "0000-02-29T23:59:59Z", "9999-12-31T23:59:59.999999999Z", "2024-02-29T00:00:00.1Z"} {
		if _, ok := parseUTC(s); !ok {
			t.Errorf("parseUTC(%q) refused it", s)
		}
	}
	for _, s := range []string{"2023-02-29T00:00:00Z", "2026-12-06T20:04:05.Z", "2026-12-06T20:04:05.1234567891Z", "2026-12-06T20:04:05+02:00"} {
		if _, ok := parseUTC(s); ok {
			t.Errorf("parseUTC(%q) accepted it", s)
		}
	}
}

// FuzzAppendTime: AppendTime writes what t.AppendFormat(b,
// time.RFC3339Nano) writes, after what b holds, for any instant (seconds
// and nanoseconds) in UTC, in a fixed zone (offset 0 among them: written
// with Z, by AppendFormat), in Local, and read back from its own text.
func FuzzAppendTime(f *testing.F) {
	for _, s := range []int64{0, -1, 1, 1751328000, -62167219200, -62167219201, 253402300799, 253402300800, 1 << 40, -1 << 40} {
		f.Add(s, int64(0), int32(0))
		f.Add(s, int64(500000000), int32(60))
		f.Add(s, int64(123456789), int32(-7*60-30))
		f.Add(s, int64(100), int32(0))
		f.Add(s, int64(999999999), int32(1))
	}
	f.Fuzz(func(t *testing.T, sec, nsec int64, offset int32) {
		nsec %= 1e9
		for _, at := range []time.Time{
			time.Unix(sec, nsec).UTC(),
			time.Unix(sec, nsec).In(time.FixedZone("", int(offset%(18*60))*60)), // RFC 3339 writes whole minutes
			time.Unix(sec, nsec),
		} {
			want := at.AppendFormat([]byte("prefix"), time.RFC3339Nano)
			if got := AppendTime([]byte("prefix"), at); string(got) != string(want) {
				t.Fatalf("AppendTime(%#v) = %q, AppendFormat %q", at, got, want)
			}
			if back, err := ParseTime(string(want[len("prefix"):])); err == nil && !back.Equal(at) {
				t.Fatalf("ParseTime(%q) = %v, the time written was %v", want[len("prefix"):], back, at)
			}
		}
	})
}
