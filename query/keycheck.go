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

// validUTF8 is utf8.ValidString(s), reading eight bytes at a time while
// they are ASCII, as a key's text mostly is: the standard library's loop
// reads its eight bytes one by one.
func validUTF8(s string) bool {
	i := 0
	for ; len(s)-i >= 8; i += 8 {
		w := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:]), 8))
		if w&0x8080808080808080 != 0 {
			return utf8.ValidString(s[i:]) // the bytes before are ASCII
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return utf8.ValidString(s[i:])
		}
	}
	return true
}
