package query_test

import (
	"math"
	"testing"

	"github.com/keyfirst/keyfirst/query"
)

type score int16

func TestValue(t *testing.T) {
	raw := []byte{1, 2}
	b := query.B(raw)
	raw[0] = 9
	tests := []struct {
		name string
		v    query.Value
		typ  string
		text string
	}{
		{"string", query.S("CUST#c1"), "S", `S:"CUST#c1"`},
		{"int", query.N(-42), "N", "N:-42"},
		{"named int type", query.N(score(7)), "N", "N:7"},
		{"uint64 max", query.N(uint64(math.MaxUint64)), "N", "N:18446744073709551615"},
		{"float64", query.N(2.5), "N", "N:2.5"},
		{"float32", query.N(float32(0.1)), "N", "N:0.1"},
		{"big float", query.N(1e125), "N", "N:1e+125"},
		{"bytes, copied", b, "B", "B:0102"},
		{"NaN", query.N(math.NaN()), "", `error: query: number "NaN": NaN and infinities are not numbers DynamoDB stores`},
		{"infinity", query.N(math.Inf(-1)), "", `error: query: number "-Inf": NaN and infinities are not numbers DynamoDB stores`},
		{"float above 1E+126", query.N(1e300), "", `error: query: number "1e+300": magnitude of 1E+126 or more`},
		{"float below 1E-130", query.N(-1e-300), "", `error: query: number "-1e-300": magnitude below 1E-130`},
		{"zero", query.Value{}, "", "(none)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if string(tt.v.Type()) != tt.typ || tt.v.String() != tt.text {
				t.Fatalf("got %s %s, want %s %s", tt.v.Type(), tt.v, tt.typ, tt.text)
			}
		})
	}
}
