// Package civil converts between days since 1970-01-01 and proleptic
// Gregorian dates of the years 0000 to 9999, as package time counts them,
// and reads the ISO-8601 text of a date and a time of day, without package
// time's general path: for keys' times and the codec's.
package civil

// MinUnix and MaxUnix are the first and last second of the years 0000 to
// 9999, in seconds since 1970-01-01T00:00:00Z.
const (
	MinUnix = -62167219200 // 0000-01-01T00:00:00Z
	MaxUnix = 253402300799 // 9999-12-31T23:59:59Z
)

// FromDays returns the date of the day that is days after 1970-01-01
// (Howard Hinnant's civil_from_days), for years 0000-9999.
func FromDays(days int64) (year, month, day uint64) {
	z := uint64(days + 719468 + 146097) // days since -0400-03-01: positive from year -400 on
	era := z / 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	day = doy - (153*mp+2)/5 + 1
	if mp < 10 {
		month = mp + 3
	} else {
		month = mp - 9
	}
	year = yoe + era*400 - 400
	if month <= 2 {
		year++
	}
	return year, month, day
}

// FromUnix returns the date and the second of the day (0 to 86399) of sec,
// in seconds since 1970-01-01T00:00:00Z, from MinUnix to MaxUnix.
func FromUnix(sec int64) (year, month, day, secOfDay uint64) {
	days, rem := sec/86400, sec%86400
	if rem < 0 { // before 1970: floor, not truncation
		days, rem = days-1, rem+86400
	}
	year, month, day = FromDays(days)
	return year, month, day, uint64(rem)
}

// ParseDate reads s, of the form 2006-01-02, a date that exists; false
// for any other s.
func ParseDate(s string) (year, month, day uint64, ok bool) {
	if len(s) != len("2006-01-02") || s[4] != '-' || s[7] != '-' {
		return 0, 0, 0, false
	}
	hi, ok1 := two(s, 0)
	lo, ok2 := two(s, 2)
	month, ok3 := two(s, 5)
	day, ok4 := two(s, 8)
	year = hi*100 + lo
	ok = ok1 && ok2 && ok3 && ok4 && month >= 1 && month <= 12 && day >= 1 && day <= DaysIn(month, year)
	return year, month, day, ok
}

// ParseClock reads s, of the form 15:04:05, a time of day (no leap
// second); false for any other s.
func ParseClock(s string) (hour, minute, sec uint64, ok bool) {
	if len(s) != len("15:04:05") || s[2] != ':' || s[5] != ':' {
		return 0, 0, 0, false
	}
	hour, ok1 := two(s, 0)
	minute, ok2 := two(s, 3)
	sec, ok3 := two(s, 6)
	ok = ok1 && ok2 && ok3 && hour <= 23 && minute <= 59 && sec <= 59
	return hour, minute, sec, ok
}

// two reads the two ASCII digits of s at i.
func two(s string, i int) (uint64, bool) {
	a, b := s[i]-'0', s[i+1]-'0'
	return uint64(a)*10 + uint64(b), a <= 9 && b <= 9
}

// Days is the number of days from 1970-01-01 to the date (year 0000 to
// 9999, month 1 to 12, day 1 to DaysIn): Howard Hinnant's
// days_from_civil, FromDays' inverse.
func Days(year, month, day uint64) int64 {
	y := int64(year) + 400 // from year -400 on, the era is never negative
	if month <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	mp := int64(month) + 9 // months from March
	if month > 2 {
		mp = int64(month) - 3
	}
	doy := (153*mp+2)/5 + int64(day) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468 - 146097
}

// DaysIn is the number of days of month (1 to 12) of year.
func DaysIn(month, year uint64) uint64 {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
