package keyjson

import (
	"encoding/json"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/avequal"
)

// Every scalar survives JSON exactly (B as base64, N as its text); a
// non-scalar has no form, and an unknown type decodes to nothing.
func TestRoundTrip(t *testing.T) {
	for _, av := range []types.AttributeValue{
		&types.AttributeValueMemberS{Value: "CANCELLED#2019-07-01T00:00:00.000000"},
		&types.AttributeValueMemberS{Value: ""},
		&types.AttributeValueMemberN{Value: "-1.50E+3"},
		&types.AttributeValueMemberB{Value: []byte{0, 0xff, '#'}},
	} {
		a, ok := From("k", av)
		if !ok {
			t.Fatalf("From(%#v): not a scalar", av)
		}
		raw, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		var back Attr
		if err := json.Unmarshal(raw, &back); err != nil {
			t.Fatal(err)
		}
		got, ok := back.Value()
		if !ok || back.N != "k" || avequal.Compare(got, av) != 0 {
			t.Errorf("%s: back to %#v (%v)", raw, got, ok)
		}
		if n, isN := av.(*types.AttributeValueMemberN); isN && got.(*types.AttributeValueMemberN).Value != n.Value {
			t.Errorf("N %q came back as %q", n.Value, got.(*types.AttributeValueMemberN).Value)
		}
	}
	if _, ok := From("k", &types.AttributeValueMemberBOOL{Value: true}); ok {
		t.Error("a BOOL has a key form")
	}
	if _, ok := (Attr{N: "k", T: "M"}).Value(); ok {
		t.Error("type M decoded")
	}
}
