package wirebody

import (
	"bytes"
	"testing"
)

// TestSorted: bodies that differ in key order only are the same bytes;
// another value is not.
func TestSorted(t *testing.T) {
	a, err := Sorted([]byte(`{"b":{"y":1,"x":"s"},"a":[1.50,{"d":true,"c":null}]}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Sorted([]byte(`{"a":[1.50,{"c":null,"d":true}],"b":{"x":"s","y":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) || string(a) != `{"a":[1.50,{"c":null,"d":true}],"b":{"x":"s","y":1}}` {
		t.Fatalf("%s and %s", a, b)
	}
	c, _ := Sorted([]byte(`{"a":[1.5,{"c":null,"d":true}],"b":{"x":"s","y":1}}`))
	if bytes.Equal(a, c) {
		t.Fatal("1.50 and 1.5 are other bytes")
	}
	if _, err := Sorted([]byte(`{`)); err == nil {
		t.Fatal("a broken body")
	}
}
