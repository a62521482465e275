package codec

import (
	"strconv"
	"testing"
)

// FuzzParseIntIsStrconv: parseInt and parseUint accept exactly the
// strings strconv.ParseInt and ParseUint (base 10, 64 bits) accept, with
// the same values.
func FuzzParseIntIsStrconv(f *testing.F) {
	for _, s := range []string{"", "0", "-0", "+5", "007", "-", "12345", "-9223372036854775808", "9223372036854775807",
		"9223372036854775808", "18446744073709551615", "18446744073709551616", "999999999999999999", "1000000000000000000",
		"-999999999999999999", "1_000", "0x10", "1e3", "1.5", " 1", "1 ", "١"} {
		f.Add(s)
	}
	f.Fuzz(checkParse)
}

// TestParseIntIsStrconv runs FuzzParseIntIsStrconv's check over every
// length from 1 to 20 digits, signed and not, at the ends of each
// length's range.
func TestParseIntIsStrconv(t *testing.T) {
	for digits := 1; digits <= 20; digits++ {
		lo, hi := "1"+repeat('0', digits-1), repeat('9', digits)
		for _, s := range []string{lo, hi, "-" + lo, "-" + hi, "+" + lo} {
			checkParse(t, s)
		}
	}
}

// checkParse fails t unless parseInt and parseUint give for s what
// strconv gives.
func checkParse(t *testing.T, s string) {
	t.Helper()
	n, ok := parseInt(s)
	want, err := strconv.ParseInt(s, 10, 64)
	if ok != (err == nil) || ok && n != want {
		t.Errorf("parseInt(%q) = %d, %v; strconv: %d, %v", s, n, ok, want, err)
	}
	u, ok := parseUint(s)
	wantU, err := strconv.ParseUint(s, 10, 64)
	if ok != (err == nil) || ok && u != wantU {
		t.Errorf("parseUint(%q) = %d, %v; strconv: %d, %v", s, u, ok, wantU, err)
	}
}

func repeat(c byte, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = c
	}
	return string(b)
}
