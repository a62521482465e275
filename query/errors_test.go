package query_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/keyfirst/keyfirst/query"
)

func TestErrorText(t *testing.T) {
	cause := errors.New("cause")
	e := &query.Error{Table: "t", Index: "i", Attribute: "a", Problem: query.ProblemLimit, Detail: "d", Err: cause}
	if got, want := e.Error(), `query: invalid query: limit (table "t", index "i", attribute "a"): d: cause`; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if !errors.Is(e, query.ErrInvalidQuery) || !errors.Is(e, cause) {
		t.Fatal("Unwrap")
	}
	if got := (&query.Error{Table: "t", Problem: query.ProblemClient}).Error(); got != `query: invalid query: client (table "t")` {
		t.Fatalf("got %q", got)
	}
	if got := query.Problem(200).String(); got != "Problem(200)" {
		t.Fatalf("got %q", got)
	}
	for p := query.ProblemIndex; p <= query.ProblemSource; p++ {
		if strings.HasPrefix(p.String(), "Problem(") {
			t.Fatalf("problem %d has no text", p)
		}
	}
	re := &query.RequestError{Op: "Scan", Table: "t", Index: "i", Segment: 3, Request: 2, Err: context.Canceled}
	if got, want := re.Error(), `query: Scan request 2 on table "t", index "i", segment 3: context canceled`; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if !errors.Is(re, context.Canceled) {
		t.Fatal("RequestError.Unwrap")
	}
}
