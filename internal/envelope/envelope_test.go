package envelope

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

type payload struct {
	A string `json:"a"`
}

func TestSealOpen(t *testing.T) {
	key := []byte("0123456789abcdef")
	for _, secret := range [][]byte{nil, key} {
		c := Seal(nil, []byte(`{"a":"x"}`), secret)
		var p payload
		if err := Open(c, 1024, secret, &p); err != nil || p.A != "x" {
			t.Fatalf("secret %q: %v %+v", secret, err, p)
		}
	}
	signed := Seal(nil, []byte(`{"a":"x"}`), key)
	unsigned := Seal(nil, []byte(`{"a":"x"}`), nil)
	body, mac, _ := strings.Cut(signed, ".")
	tests := []struct {
		name   string
		c      string
		secret []byte
		want   error
	}{
		{"too long", strings.Repeat("a", 2000), nil, ErrMalformed},
		{"unsigned with a key", unsigned, key, ErrTampered},
		{"another key", signed, []byte("fedcba9876543210"), ErrTampered},
		{"changed body", Seal(nil, []byte(`{"a":"y"}`), nil) + "." + mac, key, ErrTampered},
		{"signed without a key", signed, nil, ErrMismatch},
		{"not base64", "!!", nil, ErrMalformed},
		{"padded base64", body + "=", nil, ErrMalformed},
		// base64 decoders skip line breaks: one found by FuzzCursor.
		{"a carriage return in the base64", unsigned[:4] + "\r" + unsigned[4:], nil, ErrMalformed},
		{"a newline in the base64", unsigned[:4] + "\n" + unsigned[4:], nil, ErrMalformed},
		{"a newline in the signature", body + "." + mac[:4] + "\n" + mac[4:], key, ErrMalformed},
		{"invalid UTF-8", Seal(nil, []byte("{\"a\":\"\xff\"}"), nil), nil, ErrMalformed},
		{"unknown field", Seal(nil, []byte(`{"a":"x","z":1}`), nil), nil, ErrMalformed},
		{"trailing data", Seal(nil, []byte(`{"a":"x"} {}`), nil), nil, ErrMalformed},
		{"a closing bracket after the value", Seal(nil, []byte(`{"a":"x"}]`), nil), nil, ErrMalformed},
		// Another spelling of {"a":"x"}: one form per payload.
		{"a space", Seal(nil, []byte(`{"a": "x"}`), nil), nil, ErrMalformed},
		{"a newline at the end", Seal(nil, []byte("{\"a\":\"x\"}\n"), nil), nil, ErrMalformed},
		{"a field name in capitals", Seal(nil, []byte(`{"A":"x"}`), nil), nil, ErrMalformed},
		{"a repeated field", Seal(nil, []byte(`{"a":"y","a":"x"}`), nil), nil, ErrMalformed},
		{"an escaped letter", Seal(nil, []byte(`{"a":"\u0078"}`), nil), nil, ErrMalformed},
		{"an escaped surrogate", Seal(nil, []byte(`{"a":"\udc80"}`), nil), nil, ErrMalformed},
		{"signed, another spelling", Seal(nil, []byte(`{"a": "x"}`), key), key, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p payload
			if err := Open(tt.c, 1024, tt.secret, &p); !errors.Is(err, tt.want) {
				t.Errorf("%v, want %v", err, tt.want)
			}
		})
	}
	// What encoding/json writes opens, escapes included.
	for _, v := range []string{"", "<&>", "\u2028", "\x01", "\ufffd", `"\`} {
		raw, _ := json.Marshal(payload{A: v})
		var p payload
		if err := Open(Seal(nil, raw, nil), 1024, nil, &p); err != nil || p.A != v {
			t.Errorf("%q: %v, %q", v, err, p.A)
		}
	}
	var p payload
	if err := DecodeJSON([]byte(" {\"a\":\"x\"}\n"), &p); err != nil || p.A != "x" {
		t.Errorf("DecodeJSON with white space around the value: %v %+v", err, p)
	}
}
