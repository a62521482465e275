package keyfirst_test

import (
	"bytes"
	"testing"

	"github.com/keyfirst/keyfirst/internal/wirebody"
)

// sameRequests fails t unless mine and hand recorded n requests each and
// the same bodies, in the same order, once their object keys are sorted
// (the order of Go's maps is not the request's); request i must contain
// mark(i), so that the requests compared are the ones meant. mine's
// bodies pass through edit first, when it is not nil.
func sameRequests(t *testing.T, mine, hand *wirebody.Recorder, n int, mark func(i int) string, edit func(body []byte) []byte) {
	t.Helper()
	m, err := mine.SortedBodies()
	if err != nil {
		t.Fatal(err)
	}
	h, err := hand.SortedBodies()
	if err != nil {
		t.Fatal(err)
	}
	if len(m) != n || len(h) != n {
		t.Fatalf("keyfirst sent %d requests and the hand-written twin %d, want %d", len(m), len(h), n)
	}
	for i := range m {
		if edit != nil {
			m[i] = edit(m[i])
		}
		if !bytes.Equal(m[i], h[i]) || !bytes.Contains(m[i], []byte(mark(i))) {
			t.Errorf("request %d (with %s): keyfirst sent\n%s\nthe hand-written twin\n%s", i, mark(i), m[i], h[i])
		}
	}
}
