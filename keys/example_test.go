package keys_test

import (
	"fmt"
	"time"

	"github.com/keyfirst/keyfirst/keys"
)

// Seed 000: a GSI sort key that leads with the status (enum first) and
// follows with the order date at microsecond precision.
func ExampleNewKey2() {
	type Status string
	orderStatusDate := keys.NewKey2(
		keys.Enum[Status]("ACTIVE", "CANCELLED", "SHIPPED"),
		keys.Time(keys.Micro),
	)
	key, err := orderStatusDate.Encode("CANCELLED", time.Date(2019, time.July, 1, 0, 0, 0, 0, time.UTC))
	fmt.Println(key, err)
	status, date, err := orderStatusDate.Decode(key)
	fmt.Println(status, date, err)
	// Output:
	// CANCELLED#2019-07-01T00:00:00.000000 <nil>
	// CANCELLED 2019-07-01 00:00:00 +0000 UTC <nil>
}

// Seed 000: "all CANCELLED orders from 1 July through 30 September", with
// typed values only. HalfOpen takes the first day after the window; the
// upper bound is the last microsecond of 30 September.
func ExampleRange_HalfOpen() {
	type Status string
	orderStatusDate := keys.NewKey2(
		keys.Enum[Status]("ACTIVE", "CANCELLED", "SHIPPED"),
		keys.Time(keys.Micro),
	)
	jul1 := time.Date(2019, time.July, 1, 0, 0, 0, 0, time.UTC)
	oct1 := time.Date(2019, time.October, 1, 0, 0, 0, 0, time.UTC)
	cond, err := orderStatusDate.With1("CANCELLED").HalfOpen(jul1, oct1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cond)
	// The same condition for a native multi-attribute GSI sort key
	// (status, date): equality on the first attribute, BETWEEN on the second.
	native, _ := cond.Native()
	fmt.Println(native)
	// Output:
	// BETWEEN "CANCELLED#2019-07-01T00:00:00.000000" AND "CANCELLED#2019-09-30T23:59:59.999999"
	// [1] = "CANCELLED" AND [2] BETWEEN "2019-07-01T00:00:00.000000" AND "2019-09-30T23:59:59.999999"
}

// An inclusive bound is an instant: Between(jul1, sep30) ends at 30
// September 00:00:00 and leaves out the rest of that day. "1 July through
// 30 September" whole is HalfOpen up to the day after the last one.
func ExampleRange_Between_wholeDays() {
	date := keys.NewKey1(keys.Time(keys.Micro))
	jul1 := time.Date(2019, time.July, 1, 0, 0, 0, 0, time.UTC)
	sep30 := time.Date(2019, time.September, 30, 0, 0, 0, 0, time.UTC)
	through, _ := date.Range().Between(jul1, sep30)
	fmt.Println(through)
	whole, _ := date.Range().HalfOpen(jul1, sep30.AddDate(0, 0, 1))
	fmt.Println(whole)
	// Output:
	// BETWEEN "2019-07-01T00:00:00.000000" AND "2019-09-30T00:00:00.000000"
	// BETWEEN "2019-07-01T00:00:00.000000" AND "2019-09-30T23:59:59.999999"
}

// Seed 000's key as the book writes it, <STATUS>#<ISO-8601 date>: at Day
// precision a range of days reads as the calendar does, and Between(jul1,
// sep30) includes the whole of 30 September (every order of that date,
// whatever follows the date in the key).
func ExampleRange_Between_days() {
	type Status string
	statusDay := keys.NewKey2(keys.Enum[Status]("ACTIVE", "CANCELLED", "SHIPPED"), keys.Time(keys.Day))
	jul1 := time.Date(2019, time.July, 1, 0, 0, 0, 0, time.UTC)
	sep30 := time.Date(2019, time.September, 30, 0, 0, 0, 0, time.UTC)
	key, _ := statusDay.Encode("CANCELLED", sep30.Add(17*time.Hour))
	fmt.Println(key)
	quarter, _ := statusDay.With1("CANCELLED").Between(jul1, sep30)
	fmt.Println(quarter)
	// Output:
	// CANCELLED#2019-09-30
	// BETWEEN "CANCELLED#2019-07-01" AND "CANCELLED#2019-09-30"
}

// Seed 003: an audit log whose sort key is EVT#<ISO-8601 UTC>, and the
// window of one day.
func ExampleTime() {
	evtSK := keys.NewKey1(keys.Time(keys.Second, keys.WithZ), keys.WithPrefix("EVT"))
	june23 := time.Date(2026, time.June, 23, 0, 0, 0, 0, time.UTC)
	key, _ := evtSK.Encode(june23)
	fmt.Println(key)
	// A time in another zone is the same instant in UTC.
	key, _ = evtSK.Encode(june23.In(time.FixedZone("BRT", -3*3600)))
	fmt.Println(key)
	window, _ := evtSK.Range().Between(june23, june23.Add(24*time.Hour-time.Second))
	fmt.Println(window)
	// Output:
	// EVT#2026-06-23T00:00:00Z
	// EVT#2026-06-23T00:00:00Z
	// BETWEEN "EVT#2026-06-23T00:00:00Z" AND "EVT#2026-06-23T23:59:59Z"
}

// Seed 003: sort keys must be unique in a partition, so two events of the
// same second get a sequence number after the time. A window on the time
// still includes every event of its last second, whatever its number.
func ExampleNewKey2_disambiguator() {
	evtSK := keys.NewKey2(
		keys.Time(keys.Second, keys.WithZ),
		keys.Uint[uint32](10),
		keys.WithPrefix("EVT"),
	)
	june23 := time.Date(2026, time.June, 23, 0, 0, 0, 0, time.UTC)
	first, _ := evtSK.Encode(june23, 0)
	second, _ := evtSK.Encode(june23, 1)
	fmt.Println(first)
	fmt.Println(second)
	window, _ := evtSK.Range().Between(june23, june23.Add(24*time.Hour-time.Second))
	fmt.Println(window)
	// Output:
	// EVT#2026-06-23T00:00:00Z#0000000000
	// EVT#2026-06-23T00:00:00Z#0000000001
	// BETWEEN "EVT#2026-06-23T00:00:00Z" AND "EVT#2026-06-23T23:59:59Z$"
}

// Seed 000: a repo, its issues and its stars share a partition; the repo's
// own sort key anchors both reads.
func ExampleBetween() {
	repoSK := keys.NewKey1(keys.ID[string](), keys.WithPrefix("REPO"))
	issueSK := keys.NewKey1(keys.Uint[uint32](7), keys.WithPrefix("ISSUE"))
	starSK := keys.NewKey1(keys.ID[string](), keys.WithPrefix("STAR"))

	fmt.Println(keys.Must(repoSK.Encode("keyfirst")))
	fmt.Println(keys.Must(issueSK.Encode(42)))
	fmt.Println(keys.Must(starSK.Encode("alice")))

	withIssues, _ := keys.Between(issueSK.Start(), repoSK.At("keyfirst")) // read newest first
	withStars, _ := keys.Between(repoSK.At("keyfirst"), starSK.End())
	fmt.Println(withIssues)
	fmt.Println(withStars)
	// Output:
	// REPO#keyfirst
	// ISSUE#0000042
	// STAR#alice
	// BETWEEN "ISSUE#" AND "REPO#keyfirst"
	// BETWEEN "REPO#keyfirst" AND "STAR$"
}

// Signed integers sort in numeric order: negative values are '-' and the
// ten's complement.
func ExampleInt() {
	score := keys.NewKey1(keys.Int[int](4))
	for _, v := range []int{-10, -5, -1, 0, 7} {
		fmt.Println(keys.Must(score.Encode(v)))
	}
	_, err := score.Encode(10000)
	fmt.Println(err)
	// Output:
	// -990
	// -995
	// -999
	// 0000
	// 0007
	// keys: value out of range: segment 1 (int) "10000"
}

// A prefix of whole segments never matches a longer value: CANCELLED# does
// not select CANCELLEDX.
func ExampleRange_BeginsWith() {
	type Status string
	k := keys.NewKey2(keys.Enum[Status]("CANCELLED", "CANCELLEDX"), keys.ID[string]())
	cond, _ := k.With1("CANCELLED").BeginsWith()
	fmt.Println(cond)
	fmt.Println(cond.Match(keys.Must(k.Encode("CANCELLED", "o-1"))))
	fmt.Println(cond.Match(keys.Must(k.Encode("CANCELLEDX", "o-1"))))
	// Output:
	// begins_with "CANCELLED#"
	// true
	// false
}

// Bad input gets a typed error naming the segment.
func ExampleSegmentError() {
	k := keys.NewKey2(keys.ID[string](), keys.Uint[uint16](5), keys.WithPrefix("ISSUE"))
	_, err := k.Encode("owner#repo", 1)
	fmt.Println(err)
	// Output:
	// keys: value contains the separator: segment 1 (id) "owner#repo"
}
