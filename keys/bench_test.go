package keys_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/keyfirst/keyfirst/keys"

	"github.com/keyfirst/keyfirst/internal/benchorder"
)

// The benchmarked key: CANCELLED#2019-07-01T00:00:00.000000#0000012345
// (enum, microsecond time, 10-digit integer). Each benchmark runs keyfirst
// (and keyfirst-<variant>) beside its hand-written twin, hand, the fastest
// way by hand, and references (fmt.Sprintf, concat) that a program also
// writes; TestBenchTwinsAgree proves that every variant gives the same
// key, values or bounds. Run with
//
//	go run ./internal/benchratio -bench . ./keys/

var (
	benchKey = keys.NewKey3(
		keys.Enum(Active, Cancelled, Delivered, Shipped),
		keys.Time(keys.Micro),
		keys.Uint[uint64](10),
	)
	benchStatus = Cancelled
	benchTime   = time.Date(2019, time.July, 1, 0, 0, 0, 0, time.UTC)
	benchN      = uint64(12345)
	benchString = "CANCELLED#2019-07-01T00:00:00.000000#0000012345"
	sinkString  string
	sinkBytes   []byte
	sinkStatus  Status
	sinkTime    time.Time
	sinkN       uint64
)

const benchLayout = "2006-01-02T15:04:05.000000"

// The benchmarked key of one identifier, CUST#c0001: the partition key of
// most single-table designs, built by BenchmarkEncodeID.
var (
	benchIDKey    = keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUST"))
	benchID       = "c0001"
	benchIDString = "CUST#c0001"
)

// handEncodeID is benchIDKey's key by hand.
func handEncodeID(id string) string { return "CUST#" + id }

func BenchmarkEncodeID(b *testing.B) {
	benchEncode(b, func() (string, error) { return benchIDKey.Encode(benchID) },
		func(dst []byte) ([]byte, error) { return benchIDKey.Append(dst, benchID) },
		func() string { return handEncodeID(benchID) })
}

// benchEncode runs the variants of an encode benchmark: keyfirst (the
// key as a string), keyfirst-append (appended to a buffer reused) and
// hand, each called through a function alike.
func benchEncode(b *testing.B, encode func() (string, error), appendTo func(dst []byte) ([]byte, error), hand func() string) {
	r := benchorder.New(b)
	defer r.Done()
	r.Run("keyfirst", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s, err := encode()
			if err != nil {
				b.Fatal(err)
			}
			sinkString = s
		}
	})
	r.Run("keyfirst-append", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 64)
		for b.Loop() {
			var err error
			buf, err = appendTo(buf[:0])
			if err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
	r.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkString = hand()
		}
	})
}

func BenchmarkEncode(b *testing.B) {
	r := benchorder.New(b)
	defer r.Done()
	benchEncode(b, func() (string, error) { return benchKey.Encode(benchStatus, benchTime, benchN) },
		func(dst []byte) ([]byte, error) { return benchKey.Append(dst, benchStatus, benchTime, benchN) },
		func() string { return handEncode(benchStatus, benchTime, benchN) })
	r.Run("fmt.Sprintf", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkString = sprintfEncode(benchStatus, benchTime, benchN)
		}
	})
	r.Run("concat", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkString = concatEncode(benchStatus, benchTime, benchN)
		}
	})
}

// handEncode is the benchmarked key built by hand, the fastest way: one
// buffer on the stack, appended to, one string made of it.
func handEncode(st Status, t time.Time, n uint64) string {
	var buf [64]byte
	out := append(buf[:0], st...)
	out = append(out, '#')
	out = t.UTC().AppendFormat(out, benchLayout)
	out = append(out, '#')
	var num [20]byte
	d := strconv.AppendUint(num[:0], n, 10)
	for range 10 - len(d) {
		out = append(out, '0')
	}
	out = append(out, d...)
	return string(out)
}

// sprintfEncode is the key as fmt.Sprintf builds it.
func sprintfEncode(st Status, t time.Time, n uint64) string {
	return fmt.Sprintf("%s#%s#%010d", st, t.UTC().Format(benchLayout), n)
}

// concatEncode is the key as string concatenation builds it.
func concatEncode(st Status, t time.Time, n uint64) string {
	d := strconv.FormatUint(n, 10)
	return string(st) + "#" + t.UTC().Format(benchLayout) + "#" + strings.Repeat("0", 10-len(d)) + d
}

func BenchmarkDecode(b *testing.B) {
	r := benchorder.New(b)
	defer r.Done()
	r.Run("keyfirst", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s, t, n, err := benchKey.Decode(benchString)
			if err != nil {
				b.Fatal(err)
			}
			sinkStatus, sinkTime, sinkN = s, t, n
		}
	})
	r.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s, t, n, err := handDecode(benchString)
			if err != nil {
				b.Fatal(err)
			}
			sinkStatus, sinkTime, sinkN = s, t, n
		}
	})
}

// handDecode parses the benchmarked key by hand: strings.Cut, time.Parse
// and strconv.ParseUint.
func handDecode(key string) (Status, time.Time, uint64, error) {
	st, rest, ok1 := strings.Cut(key, "#")
	ts, ns, ok2 := strings.Cut(rest, "#")
	if !ok1 || !ok2 {
		return "", time.Time{}, 0, fmt.Errorf("%q: not three segments", key)
	}
	t, err := time.Parse(benchLayout, ts)
	if err != nil {
		return "", time.Time{}, 0, err
	}
	n, err := strconv.ParseUint(ns, 10, 64)
	return Status(st), t, n, err
}

// benchOct1 is the end of the benchmarked window of seed 000.
var benchOct1 = time.Date(2019, time.October, 1, 0, 0, 0, 0, time.UTC)

// BenchmarkRange measures building a condition's bounds: the calendar
// window of seed 000 on the benchmarked key (HalfOpen), and Between of
// two anchors, each beside the same two bounds built by hand.
func BenchmarkRange(b *testing.B) {
	r := benchorder.New(b)
	defer r.Done()
	r.Run("HalfOpen/keyfirst", benchCond(keyfirstHalfOpen))
	r.Run("HalfOpen/hand", benchBounds(handHalfOpen))
	r.Run("Between/keyfirst", benchCond(keyfirstBetween))
	r.Run("Between/hand", benchBounds(handBetween))
}

func keyfirstHalfOpen() (keys.Cond, error) {
	return benchKey.With1(benchStatus).HalfOpen(benchTime, benchOct1)
}

func keyfirstBetween() (keys.Cond, error) {
	return keys.Between(benchKey.At(benchStatus, benchTime, benchN), benchKey.At(benchStatus, benchOct1, benchN))
}

// handHalfOpen is the window [July 1, October 1) as a hand-written program
// bounds it with BETWEEN: from the first instant to the last microsecond
// before October, the upper bound followed by the byte after the
// separator, so that every key of that instant, whatever follows it, is in.
func handHalfOpen() (lo, hi string) {
	var buf [128]byte
	out := append(buf[:0], benchStatus...)
	out = append(out, '#')
	out = benchTime.AppendFormat(out, benchLayout)
	mid := len(out)
	out = append(out, benchStatus...)
	out = append(out, '#')
	out = benchOct1.Add(-time.Microsecond).AppendFormat(out, benchLayout)
	out = append(out, '#'+1)
	s := string(out)
	return s[:mid], s[mid:]
}

// handBetween is Between of the two anchors, each key built by hand.
func handBetween() (lo, hi string) {
	return handEncode(benchStatus, benchTime, benchN), handEncode(benchStatus, benchOct1, benchN)
}

// benchCond returns the benchmark of building a condition with build.
func benchCond(build func() (keys.Cond, error)) func(*testing.B) {
	return func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, err := build()
			if err != nil {
				b.Fatal(err)
			}
			sinkCond = c
		}
	}
}

// benchBounds returns the benchmark of building two bounds by hand.
func benchBounds(build func() (lo, hi string)) func(*testing.B) {
	return func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkLo, sinkHi = build()
		}
	}
}

var (
	sinkCond       keys.Cond
	sinkLo, sinkHi string
)

// TestBenchTwinsAgree: every variant of the benchmarks gives what keyfirst
// gives: the same key, the same values back, the same bounds.
func TestBenchTwinsAgree(t *testing.T) {
	want, err := benchKey.Encode(benchStatus, benchTime, benchN)
	if err != nil {
		t.Fatal(err)
	}
	appended, err := benchKey.Append(nil, benchStatus, benchTime, benchN)
	if err != nil {
		t.Fatal(err)
	}
	if want != benchString {
		t.Fatalf("the benchmarked key is %q, not %q", want, benchString)
	}
	for name, got := range map[string]string{"keyfirst-append": string(appended), "hand": handEncode(benchStatus, benchTime, benchN),
		"fmt.Sprintf": sprintfEncode(benchStatus, benchTime, benchN), "concat": concatEncode(benchStatus, benchTime, benchN)} {
		if got != want {
			t.Errorf("Encode %s: %q, keyfirst %q", name, got, want)
		}
	}

	id, err := benchIDKey.Encode(benchID)
	idAppended, err2 := benchIDKey.Append(nil, benchID)
	if err != nil || err2 != nil || id != benchIDString || string(idAppended) != benchIDString || handEncodeID(benchID) != benchIDString {
		t.Errorf("EncodeID: keyfirst %q, append %q (%v, %v), hand %q; want %q", id, idAppended, err, err2, handEncodeID(benchID), benchIDString)
	}

	st, tm, n, err := benchKey.Decode(benchString)
	if err != nil {
		t.Fatal(err)
	}
	hst, htm, hn, err := handDecode(benchString)
	if err != nil || hst != st || !htm.Equal(tm) || htm.Location() != tm.Location() || hn != n {
		t.Errorf("Decode hand: %v %v %v %v, keyfirst %v %v %v", hst, htm, hn, err, st, tm, n)
	}

	for name, tt := range map[string]struct {
		keyfirst func() (keys.Cond, error)
		hand     func() (string, string)
	}{"HalfOpen": {keyfirstHalfOpen, handHalfOpen}, "Between": {keyfirstBetween, handBetween}} {
		c, err := tt.keyfirst()
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := c.Values()
		hlo, hhi := tt.hand()
		if c.Op() != keys.OpBetween || hlo != lo || hhi != hi {
			t.Errorf("Range %s: hand [%q, %q], keyfirst %v [%q, %q]", name, hlo, hhi, c.Op(), lo, hi)
		}
	}
}
