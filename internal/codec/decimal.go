package codec

import "strconv"

// parseInt is strconv.ParseInt(s, 10, 64), false for its errors. A number
// of at most 18 digits, with or without a minus sign (what DynamoDB
// returns for an integer), is read in one loop; anything else goes to
// strconv, so the two accept exactly the same strings with the same
// values.
func parseInt(s string) (int64, bool) {
	digits := s
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if n, ok := smallDecimal(digits); ok {
		if len(digits) < len(s) {
			return -int64(n), true
		}
		return int64(n), true
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// parseUint is strconv.ParseUint(s, 10, 64), false for its errors, read
// as parseInt reads an integer.
func parseUint(s string) (uint64, bool) {
	if n, ok := smallDecimal(s); ok {
		return n, true
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil
}

// smallDecimal reads s, 1 to 18 decimal digits and nothing else (its
// value is below 10^18, so it cannot overflow); false leaves any other s
// to strconv.
func smallDecimal(s string) (uint64, bool) {
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		d := s[i] - '0'
		if d > 9 {
			return 0, false
		}
		n = n*10 + uint64(d)
	}
	return n, true
}
