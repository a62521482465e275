package itemsize

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestCheck(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	l := func(e ...types.AttributeValue) types.AttributeValue { return &types.AttributeValueMemberL{Value: e} }
	m := func(k string, e types.AttributeValue) types.AttributeValue {
		return &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{k: e}}
	}
	tests := []struct {
		name   string
		av     types.AttributeValue
		reason Reason
		where  string
		value  string
		key    bool
	}{
		{"string", s("a\xff"), BadUTF8, "a", "a\xff", false},
		{"number", n("NaN"), BadNumber, "a", "NaN", false},
		{"string set", &types.AttributeValueMemberSS{Value: []string{"x", "\xfe"}}, BadUTF8, "a[1]", "\xfe", false},
		{"number set", &types.AttributeValueMemberNS{Value: []string{"1", "2", "1e999"}}, BadNumber, "a[2]", "1e999", false},
		{"list", l(s("x"), l(n("1"), s("\xff"))), BadUTF8, "a[1][1]", "\xff", false},
		{"map", m("k", m("two words", n("1e-200"))), BadNumber, `a.k.["two words"]`, "1e-200", false},
		{"map key", m("k", m("\xff", s("v"))), BadUTF8, "a.k", "\xff", true},
		{"empty set", &types.AttributeValueMemberNS{Value: []string{}}, BadSet, "a", "", false},
		{"number set, one value twice", &types.AttributeValueMemberNS{Value: []string{"1.50", "2", "15e-1"}}, BadSet, "a[2]", "", false},
		{"binary set in a map", m("k", &types.AttributeValueMemberBS{Value: [][]byte{{}, {}}}), BadSet, "a.k[1]", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Check("a", tt.av)
			var ie *InvalidError
			if !errors.As(err, &ie) {
				t.Fatalf("err = %v, want an *InvalidError", err)
			}
			if ie.Reason != tt.reason || ie.Where() != tt.where || ie.Value != tt.value || ie.Key != tt.key {
				t.Fatalf("got %+v (%s)", ie, ie.Where())
			}
			if !strings.Contains(err.Error(), tt.where) {
				t.Fatalf("message %q does not say where", err)
			}
		})
	}
	// A valid value: its size, as Size counts it.
	good := &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
		"é": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("héllo"), n("-1.5")}}}}
	size, err := Check("name", good)
	if err != nil || size != Size("name", good) {
		t.Fatalf("Check = %d, %v; Size = %d", size, err, Size("name", good))
	}
}

// BenchmarkCheck measures what the checks add to Size, on the item of the
// root package's benchmarks (eight fields and four derived keys).
func BenchmarkCheck(b *testing.B) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	item := map[string]types.AttributeValue{
		"PK": s("CUST#c000042"), "SK": s("ORDER#o000000017"), "GSI1PK": s("STATUS#CANCELLED"),
		"GSI1SK": s("CANCELLED#2019-07-01T10:30:00.123456"), "_type": s("ORDER"),
		"customer": s("c000042"), "id": s("o000000017"), "status": s("CANCELLED"),
		"placedAt": s("2019-07-01T10:30:00.123456Z"), "total": n("12345"),
		"tags": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("gift"), s("express")}},
		"note": s("leave at the door"), "version": n("3"),
	}
	b.Run("Size", func(b *testing.B) {
		for b.Loop() {
			for name, av := range item {
				_ = Size(name, av)
			}
		}
	})
	b.Run("Check", func(b *testing.B) {
		for b.Loop() {
			for name, av := range item {
				if _, err := Check(name, av); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
