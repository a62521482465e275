package keys_test

import (
	"errors"
	"testing"

	"github.com/keyfirst/keyfirst/keys"
)

func TestOpString(t *testing.T) {
	for op, want := range map[keys.Op]string{
		keys.OpNone: "none", keys.OpEq: "=", keys.OpLt: "<", keys.OpLe: "<=", keys.OpGt: ">",
		keys.OpGe: ">=", keys.OpBetween: "BETWEEN", keys.OpBeginsWith: "begins_with", 42: "Op(42)",
	} {
		if op.String() != want {
			t.Errorf("%d.String() = %q, want %q", op, op.String(), want)
		}
	}
}

// The zero Cond is recognisable (OpNone) and matches nothing.
func TestZeroCond(t *testing.T) {
	var c keys.Cond
	if c.Op() != keys.OpNone {
		t.Fatalf("zero Cond Op = %v", c.Op())
	}
	if c.Match("") == false {
		t.Fatalf("zero Cond is no condition and matches every key")
	}
}

// Native returns a copy: changing it does not change the Cond.
func TestNativeIsACopy(t *testing.T) {
	c, err := orderSK.With2(Cancelled, july1).Le(7)
	wantErr(t, err, nil)
	n, err := c.Native()
	wantErr(t, err, nil)
	n.Equal[0] = "SHIPPED"
	again, _ := c.Native()
	if again.Equal[0] != "CANCELLED" {
		t.Fatalf("Native shares its slice: %v", again)
	}
}

func TestNativeMatch(t *testing.T) {
	n := keys.NativeCond{Equal: []string{"CANCELLED"}, Op: keys.OpGe, Lo: "2019"}
	for _, tc := range []struct {
		parts []string
		want  bool
	}{
		{[]string{"CANCELLED", "2019"}, true},
		{[]string{"CANCELLED", "2020", "x"}, true},
		{[]string{"CANCELLED", "2018"}, false},
		{[]string{"CANCELLEDX", "2020"}, false},
		{[]string{"CANCELLED"}, false}, // no attribute to compare
		{nil, false},
	} {
		if got := n.Match(tc.parts); got != tc.want {
			t.Errorf("%v.Match(%q) = %v", n, tc.parts, got)
		}
	}
	eq := keys.NativeCond{Equal: []string{"A", "B"}}
	if !eq.Match([]string{"A", "B", "C"}) || eq.Match([]string{"A"}) || eq.Match([]string{"A", "C"}) {
		t.Errorf("equality-only NativeCond matches wrongly")
	}
	if (keys.NativeCond{}).String() != "(no condition)" || !(keys.NativeCond{}).Match(nil) {
		t.Errorf("empty NativeCond is not 'no condition'")
	}
}

func TestCondFromAnchorIsNotNative(t *testing.T) {
	c, err := orderSK.At(Cancelled, july1, 1).Le()
	wantErr(t, err, nil)
	_, err = c.Native()
	if !errors.Is(err, keys.ErrNotNative) {
		t.Fatalf("Native() error = %v", err)
	}
}
