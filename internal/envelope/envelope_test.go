package envelope

import (
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
		{"invalid UTF-8", Seal(nil, []byte("{\"a\":\"\xff\"}"), nil), nil, ErrMalformed},
		{"unknown field", Seal(nil, []byte(`{"a":"x","z":1}`), nil), nil, ErrMalformed},
		{"trailing data", Seal(nil, []byte(`{"a":"x"} {}`), nil), nil, ErrMalformed},
		{"a closing bracket after the value", Seal(nil, []byte(`{"a":"x"}]`), nil), nil, ErrMalformed},
	}
	for _, tt := range tests {
		var p payload
		if err := Open(tt.c, 1024, tt.secret, &p); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
	}
	var p payload
	if err := DecodeJSON([]byte(" {\"a\":\"x\"}\n"), &p); err != nil || p.A != "x" {
		t.Errorf("DecodeJSON with white space around the value: %v %+v", err, p)
	}
}
