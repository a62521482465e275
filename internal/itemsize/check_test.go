package itemsize

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/benchorder"
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
	r := benchorder.New(b)
	defer r.Done()
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
	r.Run("Size", func(b *testing.B) {
		for b.Loop() {
			for name, av := range item {
				_ = Size(name, av)
			}
		}
	})
	r.Run("Check", func(b *testing.B) {
		for b.Loop() {
			for name, av := range item {
				if _, err := Check(name, av); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// TestCheckNesting: an attribute's value holds MaxNesting-1 lists and
// maps one inside the other, an expression's value MaxNesting; a set is
// no level (the boundaries measured on DynamoDB Local, proven there by
// the root package's TestNestingLimitMatchesDynamoDB and txn's
// TestConditionNestingLimitMatchesDynamoDB).
func TestCheckNesting(t *testing.T) {
	wrap := func(n int, inner types.AttributeValue, asMap bool) types.AttributeValue {
		for range n {
			if asMap {
				inner = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": inner}}
			} else {
				inner = &types.AttributeValueMemberL{Value: []types.AttributeValue{inner}}
			}
		}
		return inner
	}
	leaves := map[string]types.AttributeValue{
		"string":     &types.AttributeValueMemberS{Value: "x"},
		"set":        &types.AttributeValueMemberSS{Value: []string{"x"}},
		"empty list": &types.AttributeValueMemberL{},
	}
	for name, leaf := range leaves {
		for _, asMap := range []bool{false, true} {
			// The empty list is a level itself.
			n := MaxNesting - 1
			if name == "empty list" {
				n--
			}
			if _, err := Check("a", wrap(n, leaf, asMap)); err != nil {
				t.Errorf("%s in %d levels (maps %v): %v", name, n, asMap, err)
			}
			var ie *InvalidError
			if _, err := Check("a", wrap(n+1, leaf, asMap)); !errors.As(err, &ie) || ie.Reason != TooDeep || ie.Attribute != "a" {
				t.Errorf("%s in %d levels (maps %v): %v, want TooDeep", name, n+1, asMap, err)
			}
			if err := CheckExpressionValue(wrap(n+1, leaf, asMap)); err != nil {
				t.Errorf("expression value, %s in %d levels (maps %v): %v", name, n+1, asMap, err)
			}
			if err := CheckExpressionValue(wrap(n+2, leaf, asMap)); !errors.As(err, &ie) || ie.Reason != TooDeep {
				t.Errorf("expression value, %s in %d levels (maps %v): %v, want TooDeep", name, n+2, asMap, err)
			}
		}
	}
	// Size counts any depth.
	deep := wrap(100, leaves["string"], false)
	if Size("a", deep) != 1+3*100+100+1 {
		t.Fatalf("Size of 100 lists: %d", Size("a", deep))
	}
}
