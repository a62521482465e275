// Package digits reads decimal numbers written only in ASCII digits: the
// segments of keys' times and integers, and the integers DynamoDB
// returns.
package digits

// Parse parses s, made only of ASCII digits (at most 19 of them, so that
// its value fits), as a decimal number; false for an empty s or any other
// byte.
func Parse(s string) (uint64, bool) {
	var v uint64
	for i := 0; i < len(s); i++ {
		d := s[i] - '0'
		if d > 9 {
			return 0, false
		}
		v = v*10 + uint64(d)
	}
	return v, len(s) > 0
}

// Append appends v as exactly n decimal digits, zero-padded; v must
// be below 10^n.
func Append(dst []byte, v uint64, n int) []byte {
	start := len(dst)
	dst = append(dst, make([]byte, n)...)
	i := start + n - 1
	for ; i > start; i -= 2 { // two digits per division
		q := v / 100
		r := (v - q*100) * 2
		dst[i-1], dst[i] = Pairs[r], Pairs[r+1]
		v = q
	}
	if i == start {
		dst[i] = byte('0' + v%10)
	}
	return dst
}

// Pairs holds "00" through "99": the two digits of v < 100 are
// Pairs[2*v] and Pairs[2*v+1].
const Pairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"
