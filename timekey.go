package keyfirst

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/codec"
)

// TimeKeyLayout is how keyfirst stores a time.Time field of T that is an
// index key attribute (a native multi-attribute GSI over fields of T): UTC,
// four-digit year, nine fractional digits, "Z". Every value has the same
// width, so DynamoDB's byte order is time order and one instant has one
// encoding whatever its zone. The attributevalue encoding of other
// time.Time fields (RFC 3339 with the value's own offset and as few
// fractional digits as the value needs) has neither property: 10:00:00.5Z
// sorts before 10:00:00Z there. The field reads back as the same instant,
// in UTC.
const TimeKeyLayout = "2006-01-02T15:04:05.000000000Z"

// FormatTimeKey encodes t as keyfirst stores a time.Time index key field
// ([TimeKeyLayout]), for the values of a query on such an attribute. Years
// outside 0000..9999 have no fixed-width encoding and are an error wrapping
// [ErrInvalidItem].
func FormatTimeKey(t time.Time) (string, error) {
	b, err := appendTimeKey(nil, t)
	return string(b), err
}

// appendTimeKey appends t's [FormatTimeKey] to b.
func appendTimeKey(b []byte, t time.Time) ([]byte, error) {
	u := t.UTC()
	if y := u.Year(); y < 0 || y > 9999 {
		return b, fmt.Errorf("%w: year %d of %s is outside 0000..9999: a time index key has four year digits", ErrInvalidItem, y, t)
	}
	return u.AppendFormat(b, TimeKeyLayout), nil
}

// timeKeyOf is the value in [TimeKeyLayout] of the time.Time field of
// *v that d derives, whose encoding is field: formatted from the field
// itself, into sl, where the codec reaches it; re-encoded from field
// (timeKeyValue) otherwise.
func (e *Entity[T]) timeKeyOf(d *derivation[T], v *T, field types.AttributeValue, sl *codec.Slab) (types.AttributeValue, error) {
	t, ok := e.codec.TimeAt(unsafe.Pointer(v), d.at)
	if !ok {
		return e.timeKeyValue(d, field)
	}
	return e.timeKeyAt(d, t, sl)
}

// timeKeyAt is t in [TimeKeyLayout], the value of the key attribute d
// derives, its text and value taken from sl (nil: allocated).
func (e *Entity[T]) timeKeyAt(d *derivation[T], t time.Time, sl *codec.Slab) (types.AttributeValue, error) {
	b, err := appendTimeKey(sl.Bytes(), t)
	if err != nil {
		return nil, e.itemError(d, ItemKeyType, "", err)
	}
	return sl.Str(sl.Text(b)), nil
}

// timeKeyValue re-encodes the attributevalue form of a time.Time field (an
// RFC 3339 string) in [TimeKeyLayout].
func (e *Entity[T]) timeKeyValue(d *derivation[T], av types.AttributeValue) (types.AttributeValue, error) {
	s, ok := av.(*types.AttributeValueMemberS)
	if !ok {
		return av, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s.Value)
	if err != nil {
		return nil, e.itemError(d, ItemKeyType, "the time field did not encode as RFC 3339", err)
	}
	return e.timeKeyAt(d, t, nil)
}

// timeKeyPrefix checks that prefix begins some value of [TimeKeyLayout]
// ("2024-04" does, "2024-4" and "2024-13" do not): the field the prefix
// ends in is completed with each of its possible digits, the rest with the
// earliest value's, until one completion parses.
func timeKeyPrefix(prefix string) error {
	const earliest = "0000-01-01T00:00:00.000000000Z"
	if len(prefix) > len(earliest) {
		return fmt.Errorf("prefix %q is longer than a time key (%d bytes, %s)", prefix, len(earliest), TimeKeyLayout)
	}
	missing := 0 // the digits still missing from the field the prefix ends in
	if last := prefix[len(prefix)-1]; last >= '0' && last <= '9' {
		for i := len(prefix); i < 19 && earliest[i] >= '0' && earliest[i] <= '9'; i++ {
			missing++
		}
	}
	n := 1
	for range missing {
		n *= 10
	}
	for d := range n {
		fill := fmt.Sprintf("%0*d", missing, d)[:missing]
		if _, err := time.Parse(TimeKeyLayout, prefix+fill+earliest[len(prefix)+missing:]); err == nil {
			return nil
		}
	}
	return errors.New("no time key begins with it: a time key is " + strings.Replace(TimeKeyLayout, "2006", "YYYY", 1) + ", every field at its full width (2024-04, not 2024-4)")
}
