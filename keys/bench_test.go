package keys_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/keyfirst/keyfirst/keys"
)

// The benchmarked key: CANCELLED#2019-07-01T00:00:00.000000#0000012345
// (enum, microsecond time, 10-digit integer), beside the hand-written
// equivalents measured in the issue. Run with
// go test -run '^$' -bench . -benchmem ./keys/

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

func BenchmarkEncode(b *testing.B) {
	b.Run("keys.Key3.Encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s, err := benchKey.Encode(benchStatus, benchTime, benchN)
			if err != nil {
				b.Fatal(err)
			}
			sinkString = s
		}
	})
	b.Run("keys.Key3.Append", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 64)
		for b.Loop() {
			var err error
			buf, err = benchKey.Append(buf[:0], benchStatus, benchTime, benchN)
			if err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
	b.Run("fmt.Sprintf", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkString = fmt.Sprintf("%s#%s#%010d", benchStatus, benchTime.UTC().Format(benchLayout), benchN)
		}
	})
	b.Run("concat", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			n := strconv.FormatUint(benchN, 10)
			sinkString = string(benchStatus) + "#" + benchTime.UTC().Format(benchLayout) + "#" + strings.Repeat("0", 10-len(n)) + n
		}
	})
	b.Run("append-builder", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var buf [64]byte
			out := append(buf[:0], benchStatus...)
			out = append(out, '#')
			out = benchTime.UTC().AppendFormat(out, benchLayout)
			out = append(out, '#')
			var num [20]byte
			d := strconv.AppendUint(num[:0], benchN, 10)
			for range 10 - len(d) {
				out = append(out, '0')
			}
			out = append(out, d...)
			sinkString = string(out)
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	b.Run("keys.Key3.Decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s, t, n, err := benchKey.Decode(benchString)
			if err != nil {
				b.Fatal(err)
			}
			sinkStatus, sinkTime, sinkN = s, t, n
		}
	})
	b.Run("strings.Cut", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			st, rest, ok1 := strings.Cut(benchString, "#")
			ts, ns, ok2 := strings.Cut(rest, "#")
			if !ok1 || !ok2 {
				b.Fatal("bad key")
			}
			t, err := time.Parse(benchLayout, ts)
			if err != nil {
				b.Fatal(err)
			}
			n, err := strconv.ParseUint(ns, 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			sinkStatus, sinkTime, sinkN = Status(st), t, n
		}
	})
}

// BenchmarkRange measures building a condition: the calendar window of
// seed 000 on the benchmarked key, and Between of two anchors.
func BenchmarkRange(b *testing.B) {
	oct1 := time.Date(2019, time.October, 1, 0, 0, 0, 0, time.UTC)
	b.Run("keys.Key3.With1.HalfOpen", benchCond(func() (keys.Cond, error) {
		return benchKey.With1(benchStatus).HalfOpen(benchTime, oct1)
	}))
	b.Run("keys.Between", benchCond(func() (keys.Cond, error) {
		return keys.Between(benchKey.At(benchStatus, benchTime, benchN), benchKey.At(benchStatus, oct1, benchN))
	}))
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

var sinkCond keys.Cond
