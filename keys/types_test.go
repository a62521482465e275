package keys_test

import (
	"errors"
	"testing"

	"github.com/keyfirst/keyfirst/keys"
)

// Status is the order status of seed 000, the enum the examples and tests
// lead their keys with.
type Status string

// The statuses of an order, plus one that extends another (a prefix trap
// for begins_with) and one that sorts first.
const (
	Active     Status = "ACTIVE"
	Cancelled  Status = "CANCELLED"
	CancelledX Status = "CANCELLEDX"
	Delivered  Status = "DELIVERED"
	Shipped    Status = "SHIPPED"
	A          Status = "A"
)

// statuses is every Status, in no particular order.
var statuses = []Status{Shipped, Cancelled, A, Delivered, CancelledX, Active}

// statusCodec encodes every Status.
var statusCodec = keys.Enum(statuses...)

// wantErr fails t unless err matches target (nil: no error).
func wantErr(t *testing.T, err, target error) {
	t.Helper()
	switch {
	case target == nil && err != nil:
		t.Fatalf("unexpected error: %v", err)
	case target != nil && !errors.Is(err, target):
		t.Fatalf("error = %v, want %v", err, target)
	}
}

// wantSegment fails t unless err is a *keys.SegmentError for segment i.
func wantSegment(t *testing.T, err error, i int, kind string) {
	t.Helper()
	var se *keys.SegmentError
	if !errors.As(err, &se) {
		t.Fatalf("error %v (%T) is not a *keys.SegmentError", err, err)
	}
	if se.Segment != i || se.Kind != kind {
		t.Fatalf("error names segment %d (%s), want %d (%s): %v", se.Segment, se.Kind, i, kind, err)
	}
}

// cmp3 compares two strings like strings.Compare but as -1/0/1 of bytes.
func sign(c int) int {
	switch {
	case c < 0:
		return -1
	case c > 0:
		return 1
	}
	return 0
}
