package keyfirst_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/keyfirst/keyfirst"
)

// TestErrorMessages: every typed error says what happened, names its facts,
// and unwraps to its sentinels.
func TestErrorMessages(t *testing.T) {
	cause := errors.New("cause")
	tests := []struct {
		name      string
		err       error
		sentinels []error
		contains  []string
	}{
		{"schema", &keyfirst.SchemaError{Table: "shop", Index: "GSI1", Attribute: "a", Problem: keyfirst.SchemaTypeConflict, Detail: "S and N"},
			[]error{keyfirst.ErrInvalidSchema}, []string{"keyfirst: invalid table schema: attribute declared with two types", `table "shop"`, `index "GSI1"`, `attribute "a"`, "S and N"}},
		{"entity with cause", &keyfirst.EntityError{Entity: "ORDER", GoType: "Order", Problem: keyfirst.EntityGoType, Err: cause},
			[]error{keyfirst.ErrInvalidEntity, cause}, []string{"unsupported Go type", `entity "ORDER"`, ": cause"}},
		{"item", &keyfirst.ItemError{Entity: "ORDER", Attribute: "PK", Problem: keyfirst.ItemDerive, Detail: "d", Err: cause},
			[]error{keyfirst.ErrInvalidItem, cause}, []string{"key derivation failed", `attribute "PK"`, "d: cause"}},
		{"item without cause", &keyfirst.ItemError{Problem: keyfirst.ItemTooLarge},
			[]error{keyfirst.ErrInvalidItem}, []string{"keyfirst: invalid item: item larger than 400 KB"}},
		{"option", &keyfirst.OptionError{Op: "Put", Option: "ConsistentRead", Detail: "no"},
			[]error{keyfirst.ErrInvalidOption}, []string{"ConsistentRead", `op "Put"`}},
		{"unknown type", &keyfirst.EntityTypeError{Got: "X"}, []error{keyfirst.ErrUnknownEntityType}, []string{`"X"`}},
		{"missing type", &keyfirst.EntityTypeError{}, []error{keyfirst.ErrUnknownEntityType}, []string{"no entity-type attribute"}},
		{"wrong type", &keyfirst.EntityTypeError{Want: "A", Got: "B"}, []error{keyfirst.ErrWrongEntityType}, []string{`got "B", want "A"`}},
		{"version conflict", &keyfirst.ConditionError{Err: keyfirst.ErrVersionConflict, Versioned: true, Expected: 1, Actual: 2, Found: true},
			[]error{keyfirst.ErrVersionConflict}, []string{"expected version 1, stored version 2"}},
		{"version conflict, gone", &keyfirst.ConditionError{Err: keyfirst.ErrVersionConflict, Versioned: true, Expected: 3, Attempts: 1},
			[]error{keyfirst.ErrVersionConflict}, []string{"expected version 3, no item stored (1 attempt)"}},
		{"changed since read", &keyfirst.ConditionError{Err: keyfirst.ErrVersionConflict, Found: true, Attempts: 100},
			[]error{keyfirst.ErrVersionConflict}, []string{"version conflict: the stored item changed since it was read (100 attempts)"}},
		{"unexplained, versioned", &keyfirst.ConditionError{Err: keyfirst.ErrConditionUnexplained, Versioned: true, Expected: 4, Actual: 4, Found: true},
			[]error{keyfirst.ErrConditionUnexplained}, []string{"unchanged item: the stored item has the version read (4)"}},
		{"unexplained", &keyfirst.ConditionError{Err: keyfirst.ErrConditionUnexplained, Found: true, Attempts: 1},
			[]error{keyfirst.ErrConditionUnexplained}, []string{"every attribute the condition compares is as read, so no other writer caused it (1 attempt)"}},
		{"stored type", &keyfirst.ConditionError{Err: keyfirst.ErrWrongEntityType, Found: true, FoundType: "GHOST"},
			[]error{keyfirst.ErrWrongEntityType}, []string{`stored item is a "GHOST"`}},
		{"exists", &keyfirst.ConditionError{Err: keyfirst.ErrAlreadyExists, Found: true}, []error{keyfirst.ErrAlreadyExists}, []string{"already exists"}},
		{"key changed", &keyfirst.KeyChangedError{Old: "(a)", New: "(b)"}, []error{keyfirst.ErrKeyChanged}, []string{"from (a) to (b)"}},
		{"duplicate", &keyfirst.DuplicateKeyError{Key: "(a)", First: 1, Second: 4}, []error{keyfirst.ErrDuplicateKey}, []string{"(a) at positions 1 and 4"}},
		{"op", &keyfirst.OpError{Op: "Get", Entity: "ORDER", Key: "(a)", Err: keyfirst.ErrNotFound},
			[]error{keyfirst.ErrNotFound}, []string{"keyfirst: Get ORDER (a): keyfirst: item not found"}},
		{"batch write", &keyfirst.BatchWriteError{Unprocessed: make([]keyfirst.WriteRequest, 3), Total: 9, Err: context.Canceled},
			[]error{keyfirst.ErrUnprocessed, context.Canceled}, []string{"3 of 9 requests: context canceled"}},
		{"batch get", &keyfirst.BatchGetError[Order]{Unprocessed: make([]keyfirst.Key[Order], 2), Total: 5},
			[]error{keyfirst.ErrUnprocessed}, []string{"2 of 5 keys: MaxAttempts rounds left them unprocessed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, s := range tt.sentinels {
				if !errors.Is(tt.err, s) {
					t.Errorf("does not wrap %v", s)
				}
			}
			for _, c := range tt.contains {
				if !strings.Contains(tt.err.Error(), c) {
					t.Errorf("%q lacks %q", tt.err.Error(), c)
				}
			}
		})
	}
	if s := keyfirst.SchemaProblem(200).String(); s != "problem 200" {
		t.Fatalf("unknown problem: %q", s)
	}
	if keyfirst.EntityVersion.String() != "invalid version attribute" || keyfirst.ItemVersioned.String() != "versioned entity in a batch write" {
		t.Fatal("problem texts")
	}
}
