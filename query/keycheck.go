package query

import (
	"encoding/binary"
	"unicode/utf8"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// keyValueOK reports, in one pass over the value, that av passes every
// check of [checkValue] as a key value of type typ of at most limit bytes:
// a non-empty string of valid UTF-8, or non-empty bytes, of the
// attribute's type and within the limit. It is false for any other value,
// numbers included, which checkValue then checks one by one (and refuses
// with the reason, or accepts): a query's common values, strings, are
// checked without it.
func keyValueOK(av types.AttributeValue, typ types.ScalarAttributeType, limit int) bool {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return typ == types.ScalarAttributeTypeS && len(v.Value) > 0 && len(v.Value) <= limit && validUTF8(v.Value)
	case *types.AttributeValueMemberB:
		return typ == types.ScalarAttributeTypeB && len(v.Value) > 0 && len(v.Value) <= limit
	}
	return false
}

// validUTF8 is utf8.ValidString(s), answered from a few loads of eight
// (or four) bytes when s is ASCII, as a key's text mostly is: the
// standard library's loop reads its eight bytes one by one. Any byte
// above 0x7F sends the whole string to utf8.ValidString.
func validUTF8(s string) bool {
	n := len(s)
	var seen uint64 // the bytes of s ORed, in some order
	switch {
	case n >= 8:
		for i := 0; i < n-8; i += 8 {
			seen |= load64(s, i)
		}
		seen |= load64(s, n-8) // overlaps the last word read
	case n >= 4:
		seen = uint64(load32(s, 0) | load32(s, n-4))
	default:
		for i := range n {
			seen |= uint64(s[i])
		}
	}
	return seen&0x8080808080808080 == 0 || utf8.ValidString(s)
}

// load64 is the eight bytes of s from i, which the caller keeps in range.
func load64(s string, i int) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), i)), 8))
}

// load32 is the four bytes of s from i, which the caller keeps in range.
func load32(s string, i int) uint32 {
	return binary.LittleEndian.Uint32(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), i)), 4))
}
