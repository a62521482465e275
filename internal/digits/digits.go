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
