package keys_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/keyfirst/keyfirst/keys"
)

func TestSegmentError(t *testing.T) {
	_, err := orderSK.Encode(Cancelled, july1, 10_000_000_000)
	var se *keys.SegmentError
	if !errors.As(err, &se) {
		t.Fatalf("%T is not a *SegmentError", err)
	}
	if se.Segment != 3 || se.Kind != "uint" || se.Value != "10000000000" || se.Err != keys.ErrOutOfRange {
		t.Fatalf("SegmentError = %+v", *se)
	}
	if want := `keys: value out of range: segment 3 (uint) "10000000000"`; err.Error() != want {
		t.Fatalf("Error() = %s, want %s", err, want)
	}
	// A hostile value is not repeated in full.
	err = keys.NewKey1(keys.ID[string]()).Err()
	wantErr(t, err, nil)
	_, err = repoSK.Encode(strings.Repeat("x", 10_000) + "#")
	if len(err.Error()) > 200 {
		t.Fatalf("message of %d bytes", len(err.Error()))
	}
}

// TestBadInputs is the table of what a careless or hostile caller may pass
// and the error each gets: the sentinel to match with errors.Is, and the
// segment and codec named by the *SegmentError.
func TestBadInputs(t *testing.T) {
	type K = keys.Key3[Status, string, int64]
	k := keys.NewKey3(statusCodec, keys.ID[string](keys.MaxLen(8)), keys.Int[int64](3), keys.WithPrefix("ORDER"))
	enc := func(s Status, id string, n int64) func() error {
		return func() error { _, err := k.Encode(s, id, n); return err }
	}
	dec := func(s string) func() error {
		return func() error { _, _, _, err := k.Decode(s); return err }
	}
	tm := keys.NewKey1(keys.Time(keys.Micro))
	encT := func(v time.Time) func() error { return func() error { _, err := tm.Encode(v); return err } }
	for _, tc := range []struct {
		name    string
		call    func() error
		want    error
		segment int
		kind    string
	}{
		{"status outside the enum", enc("PENDING", "a", 1), keys.ErrNotInEnum, 1, "enum"},
		{"empty status", enc("", "a", 1), keys.ErrEmpty, 1, "enum"},
		{"status of another case", enc("cancelled", "a", 1), keys.ErrNotInEnum, 1, "enum"},
		{"empty id", enc(Active, "", 1), keys.ErrEmpty, 2, "id"},
		{"id with the separator", enc(Active, "a#b", 1), keys.ErrSeparator, 2, "id"},
		{"id forging a segment", enc(Active, "a#001", 1), keys.ErrSeparator, 2, "id"},
		{"id with a space", enc(Active, "a b", 1), keys.ErrReserved, 2, "id"},
		{"id with a newline", enc(Active, "a\n", 1), keys.ErrReserved, 2, "id"},
		{"id with NUL", enc(Active, "\x00", 1), keys.ErrReserved, 2, "id"},
		{"id with $", enc(Active, "$5", 1), keys.ErrReserved, 2, "id"},
		{"id invalid UTF-8", enc(Active, "\xc3(", 1), keys.ErrMalformed, 2, "id"},
		{"id too long", enc(Active, "123456789", 1), keys.ErrTooLong, 2, "id"},
		{"int too big", enc(Active, "a", 1000), keys.ErrOutOfRange, 3, "int"},
		{"int too small", enc(Active, "a", -101), keys.ErrOutOfRange, 3, "int"},
		{"year before 0000", encT(time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)), keys.ErrOutOfRange, 1, "time"},
		{"year after 9999", encT(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)), keys.ErrOutOfRange, 1, "time"},
		{"zero time (year 1 is fine)", encT(time.Time{}), nil, 0, ""},
		{"decode: wrong prefix", dec("ORDERS#ACTIVE#a#001"), keys.ErrMalformed, 0, "prefix"},
		{"decode: missing segment", dec("ORDER#ACTIVE#a"), keys.ErrMalformed, 3, "key"},
		{"decode: extra segment", dec("ORDER#ACTIVE#a#001#x"), keys.ErrMalformed, 4, "key"},
		{"decode: status outside the enum", dec("ORDER#PENDING#a#001"), keys.ErrNotInEnum, 1, "enum"},
		{"decode: empty id", dec("ORDER#ACTIVE##001"), keys.ErrEmpty, 2, "id"},
		{"decode: id with a space", dec("ORDER#ACTIVE#a b#001"), keys.ErrReserved, 2, "id"},
		{"decode: int of the wrong width", dec("ORDER#ACTIVE#a#01"), keys.ErrMalformed, 3, "int"},
		{"decode: int with a plus", dec("ORDER#ACTIVE#a#+01"), keys.ErrMalformed, 3, "int"},
		{"decode: time of another precision", func() error { _, err := tm.Decode("2019-07-01T00:00:00"); return err }, keys.ErrMalformed, 1, "time"},
		{"decode: 30 February", func() error { _, err := tm.Decode("2019-02-30T00:00:00.000000"); return err }, keys.ErrMalformed, 1, "time"},
		{"range: reversed", func() error { _, err := k.With2(Active, "a").Between(5, 1); return err }, keys.ErrEmptyRange, 3, "int"},
		{"range: fixed id invalid", func() error { _, err := k.With2(Active, "a#b").Eq(1); return err }, keys.ErrSeparator, 2, "id"},
		{"definition: prefix with separator", func() error {
			err := keys.NewKey1(keys.ID[string](), keys.WithPrefix("A#")).Err()
			return err
		}, keys.ErrSeparator, 0, "prefix"},
		{"definition: bad separator", func() error {
			err := keys.NewKey1(keys.ID[string](), keys.WithSeparator('|')).Err()
			return err
		}, keys.ErrDefinition, -1, ""},
		{"definition: zero Key", func() error { _, err := (K{}).Encode(Active, "a", 1); return err }, keys.ErrDefinition, -1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			wantErr(t, err, tc.want)
			if tc.want != nil && tc.segment >= 0 {
				wantSegment(t, err, tc.segment, tc.kind)
			}
		})
	}
}

func TestSegmentErrorWithoutValue(t *testing.T) {
	err := keys.NewKey1(keys.Enum[Status]("A", "A")).Err()
	if want := "keys: invalid key definition: enum with a duplicate value: segment 1 (enum)"; err.Error() != want {
		t.Fatalf("Error() = %s, want %s", err, want)
	}
}
