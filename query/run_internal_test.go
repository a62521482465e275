package query

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// script is a fetch that answers request n with pages[n-1] and records the
// limits asked for.
type script struct {
	pages  []response
	limits []int
	starts []item
}

func (s *script) fetch(_ context.Context, n int, start item, limit int) (response, error) {
	s.limits = append(s.limits, limit)
	s.starts = append(s.starts, start)
	if n > len(s.pages) {
		return response{}, fmt.Errorf("request %d: the script has %d pages", n, len(s.pages))
	}
	return s.pages[n-1], nil
}

func keyed(v string) item { return item{"k": &types.AttributeValueMemberS{Value: v}} }

func items(vs ...string) []item {
	out := make([]item, len(vs))
	for i, v := range vs {
		out[i] = keyed(v)
	}
	return out
}

func val(it item) string {
	if it == nil {
		return "<nil>"
	}
	return it["k"].(*types.AttributeValueMemberS).Value
}

// The request loop: exact limits, the limit asked for on each request,
// where it resumes, and when it knows the read is done.
func TestPages(t *testing.T) {
	tests := []struct {
		name     string
		pages    []response
		limit    int
		onePage  bool
		stopAt   int // the handler stops after this many items in all; 0: never
		limits   []int
		resume   string
		done     bool
		returned int
	}{
		{name: "limit reached within the first page",
			pages: []response{{items: items("a", "b", "c"), last: keyed("c")}}, limit: 3,
			limits: []int{3}, resume: "c", done: false, returned: 3},
		{name: "limit across short pages (1 MB)",
			pages: []response{{items: items("a", "b"), last: keyed("b")}, {items: items("c"), last: keyed("c")}, {items: items("d", "e"), last: keyed("e")}},
			limit: 5, limits: []int{5, 3, 2}, resume: "e", returned: 5},
		{name: "limit above the items: done without an empty page",
			pages: []response{{items: items("a", "b")}}, limit: 10,
			limits: []int{10}, resume: "b", done: true, returned: 2},
		{name: "limit equal to the items, DynamoDB unsure",
			pages: []response{{items: items("a", "b"), last: keyed("b")}}, limit: 2,
			limits: []int{2}, resume: "b", returned: 2},
		{name: "no limit reads to the end",
			pages:  []response{{items: items("a"), last: keyed("a")}, {items: items("b")}},
			limits: []int{0, 0}, resume: "b", done: true, returned: 2},
		{name: "one page without limit",
			pages: []response{{items: items("a"), last: keyed("a")}, {items: items("b")}}, onePage: true,
			limits: []int{0}, resume: "a", returned: 1},
		{name: "one page with a limit reads until the limit",
			pages: []response{{items: items("a"), last: keyed("a")}, {items: items("b"), last: keyed("b")}}, onePage: true, limit: 2,
			limits: []int{2, 1}, resume: "b", returned: 2},
		{name: "an empty page with a LastEvaluatedKey resumes from it",
			pages: []response{{items: nil, last: keyed("z")}}, onePage: true,
			limits: []int{0}, resume: "z", returned: 0},
		{name: "the handler stops in the middle of a page",
			pages: []response{{items: items("a", "b", "c"), last: keyed("c")}}, stopAt: 2,
			limits: []int{0}, resume: "b", returned: 2},
		{name: "the handler stops at the last item of the last page",
			pages: []response{{items: items("a", "b")}}, stopAt: 2,
			limits: []int{0}, resume: "b", done: true, returned: 2},
		{name: "empty result",
			pages: []response{{}}, limit: 4,
			limits: []int{4}, resume: "<nil>", done: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &script{pages: tt.pages}
			returned := 0
			pr, err := pages(context.Background(), s.fetch, nil, tt.limit, tt.onePage, func(its []item, _ *types.ConsumedCapacity) (int, int, bool) {
				for i := range its {
					returned++
					if returned == tt.stopAt {
						return i + 1, i + 1, true
					}
				}
				return len(its), len(its), false
			})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(s.limits) != fmt.Sprint(tt.limits) || val(pr.resume) != tt.resume || pr.done != tt.done || returned != tt.returned {
				t.Fatalf("limits %v resume %s done %t returned %d; want %v %s %t %d",
					s.limits, val(pr.resume), pr.done, returned, tt.limits, tt.resume, tt.done, tt.returned)
			}
			for i := 1; i < len(s.starts); i++ {
				if val(s.starts[i]) != val(tt.pages[i-1].last) {
					t.Fatalf("request %d started at %s, want the LastEvaluatedKey %s", i+1, val(s.starts[i]), val(tt.pages[i-1].last))
				}
			}
		})
	}
}

// A failed request ends the loop with its error and the position of the
// last item returned before it.
func TestPagesError(t *testing.T) {
	boom := errors.New("boom")
	calls := 0
	pr, err := pages(context.Background(), func(_ context.Context, n int, _ item, _ int) (response, error) {
		calls++
		if n == 2 {
			return response{}, boom
		}
		return response{items: items("a"), last: keyed("a")}, nil
	}, keyed("start"), 0, false, func(its []item, _ *types.ConsumedCapacity) (int, int, bool) { return len(its), len(its), false })
	if !errors.Is(err, boom) || calls != 2 || val(pr.resume) != "a" || pr.done {
		t.Fatalf("err %v calls %d resume %s done %t", err, calls, val(pr.resume), pr.done)
	}
}
