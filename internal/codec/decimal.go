package codec

import (
	"strconv"

	"github.com/keyfirst/keyfirst/internal/digits"
)

// parseInt is strconv.ParseInt(s, 10, 64), false for its errors. A number
// of at most 18 digits, with or without a minus sign (what DynamoDB
// returns for an integer), is read in one loop; anything else goes to
// strconv, so the two accept exactly the same strings with the same
// values.
func parseInt(s string) (int64, bool) {
	mag := s // the magnitude: s without its minus sign
	if len(mag) > 0 && mag[0] == '-' {
		mag = mag[1:]
	}
	if n, ok := smallDecimal(mag); ok {
		if len(mag) < len(s) {
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
	if len(s) > 18 {
		return 0, false
	}
	return digits.Parse(s)
}
