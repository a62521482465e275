package digits

import (
	"strconv"
	"testing"
)

// FuzzParse: Parse of up to 19 bytes accepts exactly the strings of ASCII
// digits, with strconv.ParseUint's value.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "0", "007", "1234567890123456789", "9999999999999999999", "-1", "+1", "1_0", "١", "12a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 19 {
			return
		}
		n, ok := Parse(s)
		digitsOnly := s != ""
		for i := 0; i < len(s); i++ {
			digitsOnly = digitsOnly && s[i] >= '0' && s[i] <= '9'
		}
		want, err := strconv.ParseUint(s, 10, 64)
		if ok != digitsOnly || ok && (err != nil || n != want) {
			t.Errorf("Parse(%q) = %d, %v; digits only %v, strconv %d, %v", s, n, ok, digitsOnly, want, err)
		}
	})
}
