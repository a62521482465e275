package keys

import (
	"encoding/binary"
	"unsafe"
)

// plainText reports whether s, not empty, is all ASCII bytes above
// sep+1 other than DEL: what checkChars accepts without looking at a
// byte on its own. A text of 4 bytes or more it reads in words of 8
// bytes, the last one overlapping the one before it (a text of 4 to 7
// bytes as two overlapping halves of one word); a shorter one byte by
// byte. false leaves s to checkChars's loop, which finds the fault or
// accepts multi-byte UTF-8. Keys are mostly short ASCII identifiers, and
// every key of every item written is checked.
func plainText(s string, sep byte) bool {
	n := len(s)
	if n < 4 {
		for i := range n {
			if b := s[i]; b <= sep+1 || b >= del {
				return false
			}
		}
		return n > 0
	}
	b := unsafe.Slice(unsafe.StringData(s), n)
	least := uint64(sep) + 2 // at most '+'+2: below 128, as plainWord needs
	if n < 8 {
		return plainWord(uint64(binary.LittleEndian.Uint32(b))|uint64(binary.LittleEndian.Uint32(b[n-4:]))<<32, least)
	}
	for i := 0; i < n-8; i += 8 {
		if !plainWord(binary.LittleEndian.Uint64(b[i:]), least) {
			return false
		}
	}
	return plainWord(binary.LittleEndian.Uint64(b[n-8:]), least)
}

const (
	byteOnes  = 0x0101010101010101
	byteHighs = 0x8080808080808080
)

// plainWord reports whether each of the eight bytes of x is below 0x80,
// at least least (at most 128) and not DEL. With every byte below 0x80,
// x - least*byteOnes sets the high bit of some byte exactly when a byte
// is below least, and (y - byteOnes) &^ y of some byte exactly when y has
// a zero byte (Bit Twiddling Hacks, "hasless" and "haszero").
func plainWord(x, least uint64) bool {
	if x&byteHighs != 0 {
		return false
	}
	del := x ^ 0x7F*byteOnes
	return (x-least*byteOnes)&^x&byteHighs == 0 && (del-byteOnes)&^del&byteHighs == 0
}
