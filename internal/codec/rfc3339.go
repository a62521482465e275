package codec

import (
	"time"

	"github.com/keyfirst/keyfirst/internal/civil"
	"github.com/keyfirst/keyfirst/internal/digits"
)

// AppendTime is t.AppendFormat(b, time.RFC3339Nano): the same bytes. A
// time in UTC of the years 0000 to 9999 is written here without package
// time's general formatting; any other is left to AppendFormat.
func AppendTime(b []byte, t time.Time) []byte {
	sec := t.Unix()
	if t.Location() != time.UTC || sec < civil.MinUnix || sec > civil.MaxUnix {
		return t.AppendFormat(b, time.RFC3339Nano)
	}
	year, month, day, sod := civil.FromUnix(sec)
	var buf [len("2006-01-02T15:04:05.999999999Z")]byte
	put2(buf[0:2], year/100)
	put2(buf[2:4], year%100)
	buf[4] = '-'
	put2(buf[5:7], month)
	buf[7] = '-'
	put2(buf[8:10], day)
	buf[10] = 'T'
	put2(buf[11:13], sod/3600)
	buf[13] = ':'
	put2(buf[14:16], sod/60%60)
	buf[16] = ':'
	put2(buf[17:19], sod%60)
	n := 19
	if ns := uint64(t.Nanosecond()); ns != 0 {
		buf[19] = '.'
		buf[20] = byte('0' + ns/1e8)
		put2(buf[21:23], ns/1e6%100)
		put2(buf[23:25], ns/1e4%100)
		put2(buf[25:27], ns/1e2%100)
		put2(buf[27:29], ns%100)
		n = 29
		for buf[n-1] == '0' { // trailing zeros dropped; ns != 0 stops it
			n--
		}
	}
	buf[n] = 'Z'
	return append(b, buf[:n+1]...)
}

// put2 writes v < 100 as two digits into b.
func put2(b []byte, v uint64) {
	b[0], b[1] = digits.Pairs[2*v], digits.Pairs[2*v+1]
}

// ParseTime is time.Parse(time.RFC3339, s), which also reads
// time.RFC3339Nano: the same Time and the same errors. The form the codec
// writes of a time in UTC (2006-01-02T15:04:05Z, with up to nine digits of
// a fraction of a second) is read here without time.Parse; any other s,
// and one of that form with a field out of range, is left to time.Parse.
func ParseTime(s string) (time.Time, error) {
	if t, ok := parseUTC(s); ok {
		return t, nil
	}
	return time.Parse(time.RFC3339, s)
}

// pow10 are the multipliers of a fraction of 1 to 9 digits into
// nanoseconds.
var pow10 = [10]uint64{0, 1e8, 1e7, 1e6, 1e5, 1e4, 1e3, 1e2, 1e1, 1}

// parseUTC reads s of the form 2006-01-02T15:04:05Z or
// 2006-01-02T15:04:05.999999999Z (one to nine digits), each field in its
// range; false for any other s.
func parseUTC(s string) (time.Time, bool) {
	n := len(s)
	if n < 20 || n == 21 || n > 30 || s[n-1] != 'Z' || s[10] != 'T' {
		return time.Time{}, false
	}
	year, month, day, ok1 := civil.ParseDate(s[0:10])
	hour, minute, sec, ok2 := civil.ParseClock(s[11:19])
	if !ok1 || !ok2 {
		return time.Time{}, false
	}
	var nsec uint64
	if n > 20 {
		frac, ok := digits.Parse(s[20 : n-1])
		if !ok || s[19] != '.' {
			return time.Time{}, false
		}
		nsec = frac * pow10[n-21]
	}
	unix := (civil.Days(year, month, day)*24+int64(hour))*3600 + int64(minute)*60 + int64(sec)
	return time.Unix(unix, int64(nsec)).UTC(), true
}
