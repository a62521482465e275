// Package errfmt formats the typed errors of the root package and sparse
// alike: `sentinel: problem (fact "value", ...): detail`, with the facts
// that are empty left out, and unwraps them to their sentinel and cause.
package errfmt

import (
	"fmt"
	"strings"
)

// Describe formats `sentinel: problem (k "v", ...): detail`; facts are
// name, value pairs, and a pair with an empty value is left out, as are
// the parentheses when every value is empty and the detail when it is
// empty.
func Describe(sentinel error, problem, detail string, facts ...string) string {
	var b strings.Builder
	b.WriteString(sentinel.Error())
	b.WriteString(": ")
	b.WriteString(problem)
	sep := " ("
	for i := 0; i+1 < len(facts); i += 2 {
		if facts[i+1] == "" {
			continue
		}
		fmt.Fprintf(&b, "%s%s %q", sep, facts[i], facts[i+1])
		sep = ", "
	}
	if sep == ", " {
		b.WriteString(")")
	}
	if detail != "" {
		b.WriteString(": ")
		b.WriteString(detail)
	}
	return b.String()
}

// ProblemText is the text of problem p in texts, or "problem N" for a
// value without one.
func ProblemText[P ~uint8](texts map[P]string, p P) string {
	if s, ok := texts[p]; ok {
		return s
	}
	return fmt.Sprintf("problem %d", uint8(p))
}

// Detail is a typed error's detail followed by its cause's text, joined
// with ": " when there are both.
func Detail(detail string, cause error) string {
	switch {
	case cause == nil:
		return detail
	case detail == "":
		return cause.Error()
	}
	return detail + ": " + cause.Error()
}

// Causes is what a typed error's Unwrap returns: its sentinel and, when
// there is one, its cause.
func Causes(sentinel, cause error) []error {
	if cause == nil {
		return []error{sentinel}
	}
	return []error{sentinel, cause}
}
