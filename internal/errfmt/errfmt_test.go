package errfmt

import (
	"errors"
	"slices"
	"testing"
)

var errSentinel = errors.New("pkg: refused")

func TestDescribe(t *testing.T) {
	tests := []struct {
		name, problem, detail string
		facts                 []string
		want                  string
	}{
		{"problem only", "bad", "", nil, "pkg: refused: bad"},
		{"facts", "bad", "", []string{"index", "GSI1", "attribute", "a"}, `pkg: refused: bad (index "GSI1", attribute "a")`},
		{"empty facts left out", "bad", "", []string{"index", "", "attribute", "a"}, `pkg: refused: bad (attribute "a")`},
		{"every fact empty", "bad", "d", []string{"index", "", "attribute", ""}, "pkg: refused: bad: d"},
		{"detail", "bad", "do this instead", []string{"table", `t"1`}, `pkg: refused: bad (table "t\"1"): do this instead`},
		{"odd fact without value ignored", "bad", "", []string{"index", "GSI1", "dangling"}, `pkg: refused: bad (index "GSI1")`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Describe(errSentinel, tc.problem, tc.detail, tc.facts...); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestProblemText(t *testing.T) {
	type problem uint8
	texts := map[problem]string{1: "one"}
	if got := ProblemText(texts, 1); got != "one" {
		t.Errorf("known problem: %q", got)
	}
	if got := ProblemText(texts, 7); got != "problem 7" {
		t.Errorf("unknown problem: %q", got)
	}
}

func TestDetail(t *testing.T) {
	cause := errors.New("cause")
	tests := []struct {
		name, detail string
		cause        error
		want         string
	}{
		{"neither", "", nil, ""},
		{"detail only", "d", nil, "d"},
		{"cause only", "", cause, "cause"},
		{"both", "d", cause, "d: cause"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Detail(tc.detail, tc.cause); got != tc.want {
				t.Errorf("Detail = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCauses(t *testing.T) {
	cause := errors.New("cause")
	if got := Causes(errSentinel, nil); !slices.Equal(got, []error{errSentinel}) {
		t.Errorf("no cause: %v", got)
	}
	if got := Causes(errSentinel, cause); !slices.Equal(got, []error{errSentinel, cause}) {
		t.Errorf("cause: %v", got)
	}
}
