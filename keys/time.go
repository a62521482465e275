package keys

import (
	"fmt"
	"time"

	"github.com/keyfirst/keyfirst/internal/civil"
	"github.com/keyfirst/keyfirst/internal/digits"
)

// Precision is the finest unit a [Time] codec keeps. It fixes the width of
// the encoding, so that byte order is chronological order.
type Precision uint8

// Precisions of a [Time] codec, with the encoding of 1 July 2019 at each.
// [Day] is a calendar date (ISO-8601's extended date, seed 000's
// <STATUS>#<date>); the others are a date and a time of day.
const (
	Day    Precision = iota + 1 // 2019-07-01
	Second                      // 2019-07-01T00:00:00
	Milli                       // 2019-07-01T00:00:00.000
	Micro                       // 2019-07-01T00:00:00.000000
	Nano                        // 2019-07-01T00:00:00.000000000
)

// digits is the number of fractional digits (none at [Day] and [Second]).
func (p Precision) digits() int {
	if p <= Second {
		return 0
	}
	return 3 * int(p-Second)
}

// unit is the duration of one step at this precision.
func (p Precision) unit() time.Duration {
	return [...]time.Duration{24 * time.Hour, time.Second, time.Millisecond, time.Microsecond, time.Nanosecond}[p-Day]
}

// String returns the precision's name ("day", "second", "milli", "micro",
// "nano").
func (p Precision) String() string {
	if p < Day || p > Nano {
		return fmt.Sprintf("Precision(%d)", uint8(p))
	}
	return [...]string{"day", "second", "milli", "micro", "nano"}[p-Day]
}

// TimeOptions configures a [Time] codec.
type TimeOptions struct {
	// Z appends ISO-8601's UTC designator "Z" to every encoding
	// (2026-06-23T00:00:00Z, the audit-log keys of seed 003). It changes
	// nothing about order; without it the segment is still UTC.
	Z bool
}

// WithZ is an option for [Time] that appends the "Z" designator.
func WithZ(o *TimeOptions) { o.Z = true }

// Time returns a codec for [time.Time] as fixed-width ISO-8601 in UTC at
// precision p: 2019-07-01T00:00:00.000000 at [Micro], with [WithZ]
// 2026-06-23T00:00:00Z at [Second], 2019-07-01 at [Day].
//
// At [Day] a time encodes as its UTC date, so an instant late in the day
// west of Greenwich is the next date: time.Date(2019, 6, 30, 22, 0, 0, 0, x)
// with x at UTC-2 is 2019-07-01. A date meant in another zone is built in
// UTC (time.Date(y, m, d, 0, 0, 0, 0, time.UTC)). A range of days reads as
// the calendar does: Between(jul1, sep30) includes the whole of 30
// September. [WithZ] does not apply to a date and is [ErrDefinition].
//
// A time in another zone encodes as the same instant in UTC, so two times
// that are Equal have the same encoding. Digits below the precision are
// truncated toward the past (never rounded, so a value never moves into the
// next second); the codec therefore compares times at its precision, and
// Decode returns the truncated instant, in UTC. A UTC year outside
// 0000-9999 is [ErrOutOfRange]. Decoding accepts exactly the strings the
// codec produces: a day that does not exist (2019-02-29), hour 24 or leap
// second 60 are [ErrMalformed].
func Time(p Precision, opts ...func(*TimeOptions)) Codec[time.Time] {
	var o TimeOptions
	for _, f := range opts {
		f(&o)
	}
	c := timeCodec{p: p, z: o.Z}
	if p < Day || p > Nano {
		c.err = defErr(ErrOutOfRange, "time precision %d is not Day, Second, Milli, Micro or Nano", uint8(p))
		return c
	}
	if p == Day {
		if c.z {
			c.err = defErr(nil, "WithZ applies to a time of day, not to a Day (a date has no zone designator)")
		}
		c.width = len("2006-01-02")
		return c
	}
	c.width = len("2006-01-02T15:04:05")
	if d := p.digits(); d > 0 {
		c.width += 1 + d
	}
	if c.z {
		c.width++
	}
	return c
}

type timeCodec struct {
	p     Precision
	z     bool
	width int
	err   error
}

// Append implements [Codec].
func (c timeCodec) Append(dst []byte, sep byte, v time.Time) ([]byte, error) {
	return appendWith[time.Time](c, dst, sep, v)
}

// Parse implements [Codec].
func (c timeCodec) Parse(seg string, sep byte) (time.Time, error) {
	return parseWith[time.Time](c, seg, sep)
}

func (c timeCodec) kind() string { return "time" }

func (c timeCodec) check(byte) error { return c.err }

// truncate drops the digits below the precision (at [Day], the time of
// day in UTC).
func (c timeCodec) truncate(t time.Time) time.Time {
	if c.p == Day {
		y, m, d := t.UTC().Date()
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	}
	return t.Add(-(time.Duration(t.Nanosecond()) % c.p.unit()))
}

func (c timeCodec) size(time.Time) int { return c.width }

func (c timeCodec) appendSeg(dst []byte, t time.Time, _ byte) ([]byte, error) {
	if c.err != nil {
		return dst, c.err
	}
	sec := t.Unix() // the instant, whatever t's zone
	if sec < civil.MinUnix || sec > civil.MaxUnix {
		return dst, ErrOutOfRange
	}
	year, month, day, sod := civil.FromUnix(sec)
	b := digits.Append(dst, year, 4)
	b = append(b, '-')
	b = digits.Append(b, month, 2)
	b = append(b, '-')
	b = digits.Append(b, day, 2)
	if c.p == Day {
		return b, nil
	}
	b = append(b, 'T')
	b = digits.Append(b, sod/3600, 2)
	b = append(b, ':')
	b = digits.Append(b, sod/60%60, 2)
	b = append(b, ':')
	b = digits.Append(b, sod%60, 2)
	if d := c.p.digits(); d > 0 {
		b = append(b, '.')
		b = digits.Append(b, uint64(t.Nanosecond())/uint64(c.p.unit()), d)
	}
	if c.z {
		b = append(b, 'Z')
	}
	return b, nil
}

func (c timeCodec) decode(s string, _ byte) (time.Time, error) {
	if c.err != nil {
		return time.Time{}, c.err
	}
	if s == "" {
		return time.Time{}, ErrEmpty
	}
	if len(s) != c.width {
		return time.Time{}, ErrMalformed
	}
	year, month, day, ok := civil.ParseDate(s[0:10])
	if c.p == Day {
		if !ok {
			return time.Time{}, ErrMalformed
		}
		return time.Date(int(year), time.Month(month), int(day), 0, 0, 0, 0, time.UTC), nil
	}
	hour, minute, sec, okc := civil.ParseClock(s[11:19])
	ok = ok && okc && s[10] == 'T'
	var frac uint64
	rest := s[19:]
	if d := c.p.digits(); d > 0 && ok {
		var okf bool
		frac, okf = digits.Parse(rest[1 : 1+d])
		ok = okf && rest[0] == '.'
		rest = rest[1+d:]
	}
	if c.z && ok {
		ok = rest == "Z"
	}
	if !ok {
		return time.Time{}, ErrMalformed
	}
	ns := int(frac * uint64(c.p.unit()))
	return time.Date(int(year), time.Month(month), int(day), int(hour), int(minute), int(sec), ns, time.UTC), nil
}

// minTime is the first instant a Time codec can encode.
var minTime = time.Date(0, time.January, 1, 0, 0, 0, 0, time.UTC)

func (c timeCodec) prev(t time.Time, _ byte, _ int) (time.Time, bool) {
	t = c.truncate(t).UTC()
	if !t.After(minTime) {
		return time.Time{}, false
	}
	return t.Add(-c.p.unit()), true
}
