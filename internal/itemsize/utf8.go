package itemsize

import (
	"encoding/binary"
	"unicode/utf8"
	"unsafe"
)

// ValidString reports whether s is valid UTF-8: exactly
// [utf8.ValidString], which it calls for any text that is not all ASCII.
// An ASCII text, what most keys and short attribute values are, is read
// in words: a text of 8 bytes or more eight at a time, the last word
// overlapping the one before it, a shorter one in two overlapping halves
// of 4 bytes or byte by byte. utf8.ValidString reads a short text byte
// by byte after its first word (about 150 instructions for 16 bytes,
// against 20 here), and an item's writes check every string of it.
func ValidString(s string) bool {
	const hi8, hi4 = 0x8080808080808080, 0x80808080
	n := len(s)
	switch {
	case n >= 8:
		b := unsafe.Slice(unsafe.StringData(s), n)
		for i := 0; i < n-8; i += 8 {
			if binary.LittleEndian.Uint64(b[i:])&hi8 != 0 {
				return utf8.ValidString(s)
			}
		}
		if binary.LittleEndian.Uint64(b[n-8:])&hi8 != 0 {
			return utf8.ValidString(s)
		}
		return true
	case n >= 4:
		b := unsafe.Slice(unsafe.StringData(s), n)
		if (binary.LittleEndian.Uint32(b)|binary.LittleEndian.Uint32(b[n-4:]))&hi4 != 0 {
			return utf8.ValidString(s)
		}
		return true
	}
	for i := 0; i < n; i++ {
		if s[i] >= utf8.RuneSelf {
			return utf8.ValidString(s)
		}
	}
	return true
}
