package keys_test

import (
	"cmp"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/keyfirst/keyfirst/keys"
)

// statusDate is seed 000's OrderStatusDate: CANCELLED#2019-07-01T00:00:00.000000.
var statusDate = keys.NewKey2(statusCodec, keys.Time(keys.Micro))
var statusDay = keys.NewKey2(statusCodec, keys.Time(keys.Day))

func day(m time.Month, d int) time.Time { return time.Date(2019, m, d, 0, 0, 0, 0, time.UTC) }

func TestRangeConditions(t *testing.T) {
	evt := keys.NewKey2(keys.Time(keys.Second, keys.WithZ), keys.Uint[uint32](4), keys.WithPrefix("EVT"))
	june23 := time.Date(2026, 6, 23, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		cond   func() (keys.Cond, error)
		want   string
		native string
	}{
		{
			"seed 000: July through September",
			func() (keys.Cond, error) { return statusDate.With1(Cancelled).HalfOpen(day(7, 1), day(10, 1)) },
			`BETWEEN "CANCELLED#2019-07-01T00:00:00.000000" AND "CANCELLED#2019-09-30T23:59:59.999999"`,
			`[1] = "CANCELLED" AND [2] BETWEEN "2019-07-01T00:00:00.000000" AND "2019-09-30T23:59:59.999999"`,
		},
		{
			"Between is inclusive at the codec's precision",
			func() (keys.Cond, error) {
				return statusDate.With1(Cancelled).Between(day(7, 1), day(9, 30).Add(24*time.Hour-1))
			},
			`BETWEEN "CANCELLED#2019-07-01T00:00:00.000000" AND "CANCELLED#2019-09-30T23:59:59.999999"`,
			`[1] = "CANCELLED" AND [2] BETWEEN "2019-07-01T00:00:00.000000" AND "2019-09-30T23:59:59.999999"`,
		},
		{
			"days: Between includes its last day whole",
			func() (keys.Cond, error) { return statusDay.With1(Cancelled).Between(day(7, 1), day(9, 30)) },
			`BETWEEN "CANCELLED#2019-07-01" AND "CANCELLED#2019-09-30"`,
			`[1] = "CANCELLED" AND [2] BETWEEN "2019-07-01" AND "2019-09-30"`,
		},
		{
			"days: HalfOpen ends the day before",
			func() (keys.Cond, error) { return statusDay.With1(Cancelled).HalfOpen(day(7, 1), day(10, 1)) },
			`BETWEEN "CANCELLED#2019-07-01" AND "CANCELLED#2019-09-30"`,
			`[1] = "CANCELLED" AND [2] BETWEEN "2019-07-01" AND "2019-09-30"`,
		},
		{
			"prefix of a status is exact at the boundary",
			func() (keys.Cond, error) { return statusDate.With1(Cancelled).BeginsWith() },
			`begins_with "CANCELLED#"`,
			`[1] = "CANCELLED"`,
		},
		{
			"Eq on a segment that is not last is a prefix",
			func() (keys.Cond, error) { return statusDate.Range().Eq(Cancelled) },
			`begins_with "CANCELLED#"`,
			`[1] = "CANCELLED"`,
		},
		{
			"Eq on the last segment is equality",
			func() (keys.Cond, error) { return statusDate.With1(Cancelled).Eq(day(7, 1)) },
			`= "CANCELLED#2019-07-01T00:00:00.000000"`,
			`[1] = "CANCELLED" AND [2] = "2019-07-01T00:00:00.000000"`,
		},
		{
			"Lt on the first segment, unbounded",
			func() (keys.Cond, error) { return statusDate.Range().Lt(Cancelled) },
			`< "CANCELLED"`,
			`[1] < "CANCELLED"`,
		},
		{
			"Le on the first segment includes longer keys",
			func() (keys.Cond, error) { return statusDate.Range().Le(Cancelled) },
			`<= "CANCELLED$"`,
			`[1] <= "CANCELLED"`,
		},
		{
			"Gt on the first segment excludes longer keys",
			func() (keys.Cond, error) { return statusDate.Range().Gt(Cancelled) },
			`> "CANCELLED$"`,
			`[1] > "CANCELLED"`,
		},
		{
			"Ge on the first segment",
			func() (keys.Cond, error) { return statusDate.Range().Ge(Cancelled) },
			`>= "CANCELLED"`,
			`[1] >= "CANCELLED"`,
		},
		{
			"Lt within a prefix stops before the bound",
			func() (keys.Cond, error) { return statusDate.With1(Cancelled).Lt(day(10, 1)) },
			`BETWEEN "CANCELLED#" AND "CANCELLED#2019-09-30T23:59:59.999999"`,
			`[1] = "CANCELLED" AND [2] < "2019-10-01T00:00:00.000000"`,
		},
		{
			"Gt within a prefix",
			func() (keys.Cond, error) { return statusDate.With1(Cancelled).Gt(day(7, 1)) },
			`BETWEEN "CANCELLED#2019-07-01T00:00:00.000000$" AND "CANCELLED$"`,
			`[1] = "CANCELLED" AND [2] > "2019-07-01T00:00:00.000000"`,
		},
		{
			"seed 003: a day of events, every disambiguator included",
			func() (keys.Cond, error) { return evt.Range().Between(june23, june23.Add(24*time.Hour-time.Second)) },
			`BETWEEN "EVT#2026-06-23T00:00:00Z" AND "EVT#2026-06-23T23:59:59Z$"`,
			`[1] BETWEEN "2026-06-23T00:00:00Z" AND "2026-06-23T23:59:59Z"`,
		},
		{
			"seed 003: every event",
			func() (keys.Cond, error) { return evt.Range().BeginsWith() },
			`begins_with "EVT#"`,
			`(no condition)`,
		},
		{
			"seed 003: before a time, within the prefix",
			func() (keys.Cond, error) { return evt.Range().Lt(june23) },
			`BETWEEN "EVT#" AND "EVT#2026-06-22T23:59:59Z$"`,
			`[1] < "2026-06-23T00:00:00Z"`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := tc.cond()
			wantErr(t, err, nil)
			if c.String() != tc.want {
				t.Errorf("concatenated:\n got %s\nwant %s", c, tc.want)
			}
			n, err := c.Native()
			wantErr(t, err, nil)
			if n.String() != tc.native {
				t.Errorf("native:\n got %s\nwant %s", n, tc.native)
			}
		})
	}
}

// The July-September condition selects exactly the CANCELLED orders of
// the quarter, at microsecond precision, and nothing of CANCELLEDX.
func TestRangeSeed000Exact(t *testing.T) {
	c, err := statusDate.With1(Cancelled).HalfOpen(day(7, 1), day(10, 1))
	wantErr(t, err, nil)
	for _, tc := range []struct {
		s    Status
		t    time.Time
		want bool
	}{
		{Cancelled, day(7, 1), true},
		{Cancelled, day(9, 30).Add(24*time.Hour - time.Microsecond), true},
		{Cancelled, day(9, 30).Add(24*time.Hour - time.Nanosecond), true}, // truncated to .999999
		{Cancelled, day(10, 1), false},
		{Cancelled, day(7, 1).Add(-time.Microsecond), false},
		{CancelledX, day(8, 1), false},
		{Active, day(8, 1), false},
		{Delivered, day(8, 1), false},
	} {
		key, err := statusDate.Encode(tc.s, tc.t)
		wantErr(t, err, nil)
		if c.Match(key) != tc.want {
			t.Errorf("%v matches %s = %v, want %v", c, key, !tc.want, tc.want)
		}
	}
}

func TestRangeErrors(t *testing.T) {
	small := keys.NewKey2(statusCodec, keys.Int[int8](3))
	for _, tc := range []struct {
		name    string
		cond    func() (keys.Cond, error)
		want    error
		segment int
		kind    string
	}{
		{"Between reversed", func() (keys.Cond, error) { return statusDate.With1(Cancelled).Between(day(9, 1), day(7, 1)) }, keys.ErrEmptyRange, 2, "time"},
		{"HalfOpen empty", func() (keys.Cond, error) { return statusDate.With1(Cancelled).HalfOpen(day(7, 1), day(7, 1)) }, keys.ErrEmptyRange, 2, "time"},
		{"Lt the minimum within a prefix", func() (keys.Cond, error) { return small.With1(Active).Lt(-100) }, keys.ErrEmptyRange, 2, "int"},
		{"Lt the first enum value within a prefix", func() (keys.Cond, error) {
			return keys.NewKey1(statusCodec, keys.WithPrefix("P")).Range().Lt(A)
		}, keys.ErrEmptyRange, 1, "enum"},
		{"HalfOpen to the minimum", func() (keys.Cond, error) { return small.With1(Active).HalfOpen(-100, -100) }, keys.ErrEmptyRange, 2, "int"},
		{"fixed segment invalid", func() (keys.Cond, error) { return statusDate.With1("PENDING").Eq(day(7, 1)) }, keys.ErrNotInEnum, 1, "enum"},
		{"fixed segment invalid, BeginsWith", func() (keys.Cond, error) { return statusDate.With1("PENDING").BeginsWith() }, keys.ErrNotInEnum, 1, "enum"},
		{"bound out of range", func() (keys.Cond, error) { return small.With1(Active).Le(-101) }, keys.ErrOutOfRange, 2, "int"},
		{"lower bound out of range", func() (keys.Cond, error) { return small.With1(Active).Between(-101, 0) }, keys.ErrOutOfRange, 2, "int"},
		{"upper bound out of range", func() (keys.Cond, error) { return small.With1(Active).HalfOpen(0, -101) }, keys.ErrOutOfRange, 2, "int"},
		{"year 10000", func() (keys.Cond, error) {
			return statusDate.With1(Active).Ge(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC))
		}, keys.ErrOutOfRange, 2, "time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.cond()
			wantErr(t, err, tc.want)
			wantSegment(t, err, tc.segment, tc.kind)
		})
	}
	_, err := statusDate.Range().BeginsWith()
	wantErr(t, err, keys.ErrNoCondition)
}

// The fuzzed key: an enum, a short identifier, a millisecond time and a
// signed integer, with or without a literal prefix.
type rkey = keys.Key4[Status, string, time.Time, int16]

var rangeKeys = [2]rkey{
	keys.NewKey4(statusCodec, keys.ID[string](keys.MaxLen(6)), keys.Time(keys.Milli), keys.Int[int16](3)),
	keys.NewKey4(statusCodec, keys.ID[string](keys.MaxLen(6)), keys.Time(keys.Milli), keys.Int[int16](3), keys.WithPrefix("ORD")),
}

type rtuple struct {
	s  Status
	id string
	t  time.Time
	n  int16
}

// idAlphabet gives the fuzzer identifiers that collide and sit at the
// edges of the order: the smallest character, a few ASCII ones, the
// greatest ASCII one ('~', below DEL), the smallest 2-byte rune, another
// 2-byte rune and the greatest rune.
var idAlphabet = []string{"%", "-", "a", "b", "~", "\u0080", "é", "\U0010FFFF"}

func fuzzID(b string) string {
	var out strings.Builder
	for i := 0; i < len(b); i++ {
		r := idAlphabet[int(b[i])%len(idAlphabet)]
		if out.Len()+len(r) > 6 {
			break
		}
		out.WriteString(r)
	}
	if out.Len() == 0 {
		return "a"
	}
	return out.String()
}

var fuzzEpoch = time.Date(2019, 7, 1, 0, 0, 0, 0, time.UTC)

func fuzzTuple(s uint8, id string, t int64, n int16) rtuple {
	return rtuple{
		s:  statuses[int(s)%len(statuses)],
		id: fuzzID(id),
		t:  fuzzEpoch.Add(time.Duration(t % 5_000_000_000)), // a 10-second window, nanoseconds included
		n:  int16((int(n)%1110+1110)%1110 - 110),            // -110..999: the codec's range and a few below
	}
}

// segCompare compares segment i of two tuples by value, at the codecs'
// precision.
func segCompare(x, y rtuple, i int) int {
	switch i {
	case 0:
		return strings.Compare(string(x.s), string(y.s))
	case 1:
		return strings.Compare(x.id, y.id)
	case 2:
		return x.t.Truncate(time.Millisecond).Compare(y.t.Truncate(time.Millisecond))
	}
	return cmp.Compare(x.n, y.n)
}

const (
	opEq = iota
	opLt
	opLe
	opGt
	opGe
	opBetween
	opHalfOpen
	opBeginsWith
	numOps
)

// condOn builds the condition op on segment j of k, with the segments
// before j fixed to fixed's and the bounds taken from lo and hi.
func condOn(k rkey, j, op int, fixed, lo, hi rtuple) (keys.Cond, error) {
	switch j {
	case 0:
		return apply(k.Range(), op, lo.s, hi.s)
	case 1:
		return apply(k.With1(fixed.s), op, lo.id, hi.id)
	case 2:
		return apply(k.With2(fixed.s, fixed.id), op, lo.t, hi.t)
	}
	return apply(k.With3(fixed.s, fixed.id, fixed.t), op, lo.n, hi.n)
}

func apply[V any](r keys.Range[V], op int, lo, hi V) (keys.Cond, error) {
	switch op {
	case opEq:
		return r.Eq(lo)
	case opLt:
		return r.Lt(lo)
	case opLe:
		return r.Le(lo)
	case opGt:
		return r.Gt(lo)
	case opGe:
		return r.Ge(lo)
	case opBetween:
		return r.Between(lo, hi)
	case opHalfOpen:
		return r.HalfOpen(lo, hi)
	}
	return r.BeginsWith()
}

// want is the typed meaning of the condition: does y satisfy it?
func want(y, fixed, lo, hi rtuple, j, op int) bool {
	for i := range j {
		if segCompare(y, fixed, i) != 0 {
			return false
		}
	}
	cl, ch := segCompare(y, lo, j), segCompare(y, hi, j)
	switch op {
	case opEq:
		return cl == 0
	case opLt:
		return cl < 0
	case opLe:
		return cl <= 0
	case opGt:
		return cl > 0
	case opGe:
		return cl >= 0
	case opBetween:
		return cl >= 0 && ch <= 0
	case opHalfOpen:
		return cl >= 0 && ch < 0
	}
	return true
}

// FuzzRange proves that every condition, in both renderings, selects
// exactly the keys whose typed values satisfy it: fixed segments equal,
// the ranged segment compared at the codec's precision, whatever follows.
func FuzzRange(f *testing.F) {
	f.Add(uint8(0x21), uint8(1), "a", int64(0), int16(5), uint8(1), "b", int64(1_000_000), int16(9), uint8(1), "a%", int64(999_999), int16(5), uint8(0xff))
	f.Add(uint8(0x12), uint8(4), "b", int64(42), int16(-1000), uint8(1), "a", int64(0), int16(0), uint8(4), "a\x07", int64(7), int16(-999), uint8(0x03))
	f.Add(uint8(0x36), uint8(1), "\x05", int64(4_999_999_999), int16(0), uint8(1), "\x07\x07", int64(0), int16(1), uint8(1), "\x06", int64(1), int16(2), uint8(0x07))
	f.Add(uint8(0x07), uint8(2), "%", int64(-3), int16(1099), uint8(3), "~", int64(3), int16(-100), uint8(2), "-", int64(2), int16(1), uint8(0x01))
	f.Fuzz(func(t *testing.T, sel, s1 uint8, id1 string, t1 int64, n1 int16, s2 uint8, id2 string, t2 int64, n2 int16, s3 uint8, id3 string, t3 int64, n3 int16, same uint8) {
		k := rangeKeys[sel>>7]
		j, op := int(sel&3), int(sel>>2)%numOps
		x := fuzzTuple(s1, id1, t1, n1) // fixed segments and lower bound
		h := fuzzTuple(s2, id2, t2, n2) // upper bound
		y := fuzzTuple(s3, id3, t3, n3) // the key tested
		// Copy segments of x into y so that matches are frequent.
		if same&1 != 0 {
			y.s = x.s
		}
		if same&2 != 0 {
			y.id = x.id
		}
		if same&4 != 0 {
			y.t = x.t
		}
		if same&8 != 0 {
			y.n = x.n
		}
		key, err := k.Encode(y.s, y.id, y.t, y.n)
		if err != nil {
			if !errors.Is(err, keys.ErrOutOfRange) {
				t.Fatalf("Encode(%v): %v", y, err)
			}
			return
		}
		parts, _ := k.Parts(y.s, y.id, y.t, y.n)
		c, err := condOn(k, j, op, x, x, h)
		switch {
		case errors.Is(err, keys.ErrOutOfRange):
			return // a bound outside the int codec's range
		case errors.Is(err, keys.ErrNoCondition):
			if op != opBeginsWith || j != 0 || sel>>7 != 0 {
				t.Fatalf("segment %d op %d: %v", j, op, err)
			}
			return
		case errors.Is(err, keys.ErrEmptyRange):
			// Only a range with no value at all may be refused.
			if op == opLt || op == opHalfOpen || op == opBetween {
				bound := x
				if op == opHalfOpen {
					bound = h
				}
				if op == opBetween && segCompare(x, h, j) > 0 || op == opHalfOpen && segCompare(x, h, j) >= 0 || isMin(bound, j) {
					return
				}
			}
			t.Fatalf("segment %d op %d, bounds %v %v: %v", j, op, x, h, err)
		case err != nil:
			t.Fatalf("segment %d op %d, bounds %v %v: %v", j, op, x, h, err)
		}
		lo, hi := c.Values()
		for _, b := range []string{lo, hi} {
			if !utf8.ValidString(b) || len(b) > keys.MaxSortKeyBytes {
				t.Fatalf("bound %q is not a valid sort key value", b)
			}
		}
		if c.Op() == keys.OpBetween && (lo > hi || lo == "") || c.Op() != keys.OpBetween && (hi != "" || lo == "") {
			t.Fatalf("%v: DynamoDB refuses these operands", c)
		}
		w := want(y, x, x, h, j, op)
		if c.Match(key) != w {
			t.Fatalf("segment %d: %v matches %q = %v, want %v (fixed %v, hi %v)", j+1, c, key, !w, w, x, h)
		}
		n, err := c.Native()
		wantErr(t, err, nil)
		if n.Op == keys.OpBetween && n.Lo > n.Hi {
			t.Fatalf("%v: DynamoDB refuses these operands", n)
		}
		if n.Match(parts) != w {
			t.Fatalf("segment %d: %v matches %q = %v, want %v", j+1, n, parts, !w, w)
		}
	})
}

// isMin reports whether segment j of x is the smallest value its codec
// encodes (nothing sorts below it).
func isMin(x rtuple, j int) bool {
	switch j {
	case 0:
		return x.s == A
	case 1:
		return x.id == "%"
	case 3:
		return x.n == -100
	}
	return false
}

// Seed 003: a disambiguator after the time keeps keys unique without
// breaking the time window: BETWEEN on the time includes every event of
// the window, whatever its sequence number, and nothing outside it.
func TestRangeDisambiguatedWindow(t *testing.T) {
	evt := keys.NewKey2(keys.Time(keys.Second, keys.WithZ), keys.Uint[uint32](10), keys.WithPrefix("EVT"))
	start := time.Date(2026, 6, 23, 0, 0, 0, 0, time.UTC)
	end := start.Add(24*time.Hour - time.Second)
	window, err := evt.Range().Between(start, end)
	wantErr(t, err, nil)
	for _, tc := range []struct {
		t    time.Time
		seq  uint32
		want bool
	}{
		{start, 0, true},
		{start, 4294967295, true},
		{end, 0, true},
		{end, 4294967295, true},
		{end.Add(999 * time.Millisecond), 7, true}, // truncated to the second
		{start.Add(-time.Second), 4294967295, false},
		{end.Add(time.Second), 0, false},
	} {
		key, err := evt.Encode(tc.t, tc.seq)
		wantErr(t, err, nil)
		if window.Match(key) != tc.want {
			t.Errorf("%v matches %s = %v", window, key, !tc.want)
		}
	}
	// Unique: the same second with two sequence numbers, two keys.
	if keys.Must(evt.Encode(start, 1)) == keys.Must(evt.Encode(start, 2)) {
		t.Fatal("disambiguated keys collide")
	}
}
