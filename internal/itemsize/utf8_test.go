package itemsize

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/keyfirst/keyfirst/internal/benchorder"
)

// ValidString agrees with utf8.ValidString on ASCII, multi-byte and
// invalid texts of every length around its word steps, the odd bytes at
// every position, and on random bytes.
func TestValidStringIsUTF8Valid(t *testing.T) {
	odd := []string{"é", "€", "𝄞", "\x80", "\xff", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc0\xaf"}
	for n := 0; n <= 40; n++ {
		ascii := strings.Repeat("a", n)
		if !ValidString(ascii) {
			t.Fatalf("%d ASCII bytes refused", n)
		}
		for _, o := range odd {
			for at := 0; at <= n; at++ {
				s := ascii[:at] + o + ascii[at:]
				if got, want := ValidString(s), utf8.ValidString(s); got != want {
					t.Fatalf("ValidString(%q) = %v, utf8.ValidString %v", s, got, want)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(r.IntN(128))
			if r.IntN(16) == 0 {
				b[i] = byte(r.IntN(256))
			}
		}
		if got, want := ValidString(string(b)), utf8.Valid(b); got != want {
			t.Fatalf("ValidString(%q) = %v, utf8.Valid %v", b, got, want)
		}
	}
}

func FuzzValidString(f *testing.F) {
	f.Add("CUST#c000042")
	f.Add("é#\xff")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := ValidString(s), utf8.ValidString(s); got != want {
			t.Fatalf("ValidString(%q) = %v, utf8.ValidString %v", s, got, want)
		}
	})
}

var sinkValid bool

// BenchmarkValidString: the ASCII texts of an item's keys and values,
// ValidString beside utf8.ValidString.
func BenchmarkValidString(b *testing.B) {
	r := benchorder.New(b)
	defer r.Done()
	texts := []string{"CUST#c000042", "ORDER#o000000017", "STATUS#CANCELLED", "CANCELLED#2019-07-01T10:30:00.123456", "c000042", "gift", "leave at the door"}
	for _, v := range []struct {
		name string
		f    func(string) bool
	}{{"keyfirst", ValidString}, {"hand", utf8.ValidString}} {
		r.Run(v.name, func(b *testing.B) {
			for b.Loop() {
				for _, s := range texts {
					sinkValid = v.f(s)
				}
			}
		})
	}
}
