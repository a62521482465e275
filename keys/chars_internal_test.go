package keys

import (
	"math/rand/v2"
	"testing"
)

// checkCharsByByte is checkChars without plainText: every byte looked at
// on its own.
func checkCharsByByte(s string, sep byte) error {
	if s == "" {
		return ErrEmpty
	}
	return checkEachChar(s, sep)
}

// TestCheckCharsByWords: checkChars, which reads a text in words, gives
// what reading it byte by byte gives, for every separator, every length
// from 0 to 40 with every byte value at every position of a text of
// valid characters, and 200,000 random texts.
func TestCheckCharsByWords(t *testing.T) {
	check := func(s string, sep byte) {
		t.Helper()
		if got, want := checkChars(s, sep), checkCharsByByte(s, sep); got != want {
			t.Fatalf("checkChars(%q, %q) = %v, byte by byte %v", s, sep, got, want)
		}
	}
	for sep := byte('!'); sep <= '+'; sep++ {
		for n := range 41 {
			base := make([]byte, n)
			for i := range base {
				base[i] = 'a' + byte(i%26)
			}
			check(string(base), sep)
			for at := range n {
				for c := range 256 {
					b := append([]byte(nil), base...)
					b[at] = byte(c)
					check(string(b), sep)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("aZ09-_.:,+*#!\"$%&'()\x7f\x00\x1f\xc3\xa9\xe6\x97\xa5\xff\x80")
	for range 200_000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			if r.IntN(8) == 0 {
				b[i] = alphabet[r.IntN(len(alphabet))]
			} else {
				b[i] = 'a' + byte(r.IntN(26))
			}
		}
		check(string(b), byte('!'+r.IntN(11)))
	}
}

// FuzzCheckChars: checkChars gives what reading the text byte by byte
// gives.
func FuzzCheckChars(f *testing.F) {
	f.Add("CUSTOMER", byte('#'))
	f.Add("ab\x7fcdefgh", byte('#'))
	f.Add("abc,defgh", byte('+'))
	f.Fuzz(func(t *testing.T, s string, sep byte) {
		sep = '!' + sep%11
		if got, want := checkChars(s, sep), checkCharsByByte(s, sep); got != want {
			t.Fatalf("checkChars(%q, %q) = %v, byte by byte %v", s, sep, got, want)
		}
	})
}
