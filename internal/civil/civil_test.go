package civil

import (
	"testing"
	"time"
)

// TestEveryDay: for every day of the years 0000 to 9999, FromDays, Days,
// ParseDate and FromUnix agree with package time and with each other, and
// DaysIn with the last day of each month.
func TestEveryDay(t *testing.T) {
	first := time.Date(0, time.January, 1, 0, 0, 0, 0, time.UTC)
	if first.Unix() != MinUnix || time.Date(9999, time.December, 31, 23, 59, 59, 0, time.UTC).Unix() != MaxUnix {
		t.Fatal("MinUnix or MaxUnix is not the bound package time computes")
	}
	d := first
	for days := int64(MinUnix / 86400); days <= MaxUnix/86400; days++ {
		y, m, dd := FromDays(days)
		if int(y) != d.Year() || time.Month(m) != d.Month() || int(dd) != d.Day() {
			t.Fatalf("FromDays(%d) = %04d-%02d-%02d, package time %s", days, y, m, dd, d.Format(time.DateOnly))
		}
		if py, pm, pd, ok := ParseDate(d.Format(time.DateOnly)); !ok || py != y || pm != m || pd != dd {
			t.Fatalf("ParseDate(%q) = %04d-%02d-%02d, %v", d.Format(time.DateOnly), py, pm, pd, ok)
		}
		if fy, fm, fd, sod := FromUnix(days*86400 + 86399); fy != y || fm != m || fd != dd || sod != 86399 {
			t.Fatalf("FromUnix(%d) = %04d-%02d-%02d %d, want the day's last second", days*86400+86399, fy, fm, fd, sod)
		}
		if got := Days(y, m, dd); got != days {
			t.Fatalf("Days(%04d-%02d-%02d) = %d, want %d", y, m, dd, got, days)
		}
		if next := d.AddDate(0, 0, 1); next.Month() != d.Month() && DaysIn(m, y) != dd {
			t.Fatalf("DaysIn(%d, %d) = %d, the month ends on day %d", m, y, DaysIn(m, y), dd)
		}
		d = d.AddDate(0, 0, 1)
	}
}

// TestParseRefuses: ParseDate and ParseClock refuse a date that does not
// exist, a field out of range, a wrong separator or length, and any byte
// that is not a digit; they read every time of day.
func TestParseRefuses(t *testing.T) {
	for _, s := range []string{"2023-02-29", "2026-04-31", "2026-00-01", "2026-13-01", "2026-01-00", "2026/01/01", "2026-1-01", "2026-01-01Z", "2a26-01-01", "+026-01-01", ""} {
		if _, _, _, ok := ParseDate(s); ok {
			t.Errorf("ParseDate(%q) accepted it", s)
		}
	}
	for _, s := range []string{"24:00:00", "23:60:00", "23:59:60", "23-59-59", "1:00:00", "01:00:00Z", "0a:00:00", ""} {
		if _, _, _, ok := ParseClock(s); ok {
			t.Errorf("ParseClock(%q) accepted it", s)
		}
	}
	for sec := 0; sec < 86400; sec++ {
		s := time.Unix(int64(sec), 0).UTC().Format(time.TimeOnly)
		if h, m, ss, ok := ParseClock(s); !ok || h*3600+m*60+ss != uint64(sec) {
			t.Fatalf("ParseClock(%q) = %d:%d:%d, %v", s, h, m, ss, ok)
		}
	}
}
