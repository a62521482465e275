package civil

import (
	"testing"
	"time"
)

// TestEveryDay: for every day of the years 0000 to 9999, FromDays and
// Days agree with package time and with each other, and DaysIn with the
// last day of each month.
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
		if got := Days(y, m, dd); got != days {
			t.Fatalf("Days(%04d-%02d-%02d) = %d, want %d", y, m, dd, got, days)
		}
		if next := d.AddDate(0, 0, 1); next.Month() != d.Month() && DaysIn(m, y) != dd {
			t.Fatalf("DaysIn(%d, %d) = %d, the month ends on day %d", m, y, DaysIn(m, y), dd)
		}
		d = d.AddDate(0, 0, 1)
	}
}
