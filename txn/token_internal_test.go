package txn

import (
	"bytes"
	"testing"
)

// One request, its object keys in two orders (as Go's maps give them to
// the SDK): the same canonical bytes and the same derived token.
func TestCanonicalJSON(t *testing.T) {
	a := []byte(`{"TransactItems":[{"Put":{"Item":{"b":{"S":"2"},"a":{"N":"1.50"}},"TableName":"t"}}],"ClientRequestToken":"x"}`)
	b := []byte(`{"ClientRequestToken":"y","TransactItems":[{"Put":{"TableName":"t","Item":{"a":{"N":"1.50"},"b":{"S":"2"}}}}]}`)
	var ta, tb string
	ca, err := canonicalJSON(a, true, &ta)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := canonicalJSON(b, true, &tb)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ca, cb) || ta != tb || len(ta) != maxTokenLen || !validToken(ta) {
		t.Fatalf("\n%s\n%s\ntokens %q %q", ca, cb, ta, tb)
	}
	want := `{"ClientRequestToken":"` + ta + `","TransactItems":[{"Put":{"Item":{"a":{"N":"1.50"},"b":{"S":"2"}},"TableName":"t"}}]}`
	if string(ca) != want {
		t.Fatalf("got  %s\nwant %s", ca, want)
	}
	// Without derive the caller's token stays.
	var none string
	c, err := canonicalJSON(a, false, &none)
	if err != nil || !bytes.Contains(c, []byte(`"ClientRequestToken":"x"`)) || none != "" {
		t.Fatalf("%s %v", c, err)
	}
}
