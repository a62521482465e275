// Package civil converts between days since 1970-01-01 and proleptic
// Gregorian dates of the years 0000 to 9999, as package time counts them,
// without package time's general path: for keys' times and the codec's.
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
