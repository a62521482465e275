// Package envelope seals and opens the opaque cursors of the query and
// shard packages: a JSON payload in unpadded base64url, followed, when the
// caller configured a key, by "." and its HMAC-SHA256. Opening checks, in
// this order, the size, the signature, the encoding (strict base64, valid
// UTF-8), the format (known fields only, nothing after the value) and the
// form: the payload must be exactly what encoding/json writes for the
// value it decodes to, so that each payload has one encoding and a changed
// cursor cannot pass for the same one, signed or not.
package envelope

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// The errors of Open; the query package exports them as its cursor
// sentinels.
var (
	// ErrMismatch: the cursor belongs to another read.
	ErrMismatch = errors.New("query: cursor belongs to another query")
	// ErrTampered: the HMAC does not verify, or the read has a key and
	// the cursor is unsigned.
	ErrTampered = errors.New("query: cursor has been tampered with")
	// ErrMalformed: the cursor cannot be decoded.
	ErrMalformed = errors.New("query: malformed cursor")
)

// strict decodes cursors: one encoding of each payload, so that a changed
// cursor cannot pass for the same one.
var strict = base64.RawURLEncoding.Strict()

// Seal appends to dst the cursor of payload raw, signed with secret when
// it is set, and returns it as a string.
func Seal(dst, raw, secret []byte) string {
	body := base64.RawURLEncoding.AppendEncode(dst, raw)
	if len(secret) == 0 {
		return string(body)
	}
	mac := sign(secret, body)
	body = append(body, '.')
	return string(base64.RawURLEncoding.AppendEncode(body, mac))
}

// Sign returns the HMAC-SHA256 of body under secret, the signature Seal
// appends: for a form that is signed but not sealed (migrate's JSON
// checkpoints).
func Sign(secret, body []byte) []byte { return sign(secret, body) }

func sign(secret, body []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return m.Sum(nil)
}

// Open checks cursor c (at most max bytes, signed when secret is set) and
// decodes its payload into v, a pointer to the type its payload was
// marshalled from, refusing unknown fields, trailing data and any other
// spelling of the same JSON (spaces, escapes, a field name in another
// case or repeated, another base64 of the same bytes, a line break in
// it: json.Marshal of v must give the payload back byte for byte). Its
// errors wrap ErrMalformed, ErrTampered or ErrMismatch (a signed cursor
// for a read without a key).
func Open(c string, max int, secret []byte, v any) error {
	if len(c) > max {
		return fmt.Errorf("%w: %d bytes, at most %d", ErrMalformed, len(c), max)
	}
	if strings.ContainsAny(c, "\r\n") {
		// base64 decoding skips line breaks, even Strict's: the cursor
		// with one inserted would be another spelling of the same one.
		return fmt.Errorf("%w: a line break", ErrMalformed)
	}
	body, mac, signed := strings.Cut(c, ".")
	if len(secret) > 0 {
		got, err := strict.DecodeString(mac)
		if !signed || err != nil || !hmac.Equal(got, sign(secret, []byte(body))) {
			return ErrTampered
		}
	} else if signed {
		return fmt.Errorf("%w: the cursor is signed but the read has no CursorKey", ErrMismatch)
	}
	raw, err := strict.DecodeString(body)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if err := DecodeJSON(raw, v); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	// A cursor has one form: the bytes the library wrote. (A checkpoint,
	// which a caller may store in a JSON store that re-spells it, is
	// sealed over its content instead, and read with DecodeJSON alone.)
	if again, err := json.Marshal(v); err != nil || !bytes.Equal(again, raw) {
		return fmt.Errorf("%w: not in the form the library writes (another spelling of the same JSON)", ErrMalformed)
	}
	return nil
}

// DecodeJSON decodes the JSON payload raw into v as Open does: valid
// UTF-8, known fields only, nothing after the value.
func DecodeJSON(raw []byte, v any) error {
	if !utf8.Valid(raw) {
		// encoding/json would read each invalid byte as U+FFFD: another value.
		return errors.New("not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data")
	}
	return nil
}
