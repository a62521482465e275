// Package resumecheck stops a read in every way a call can stop and
// resumes it from the cursor the call handed out, call after call, for
// the tests of the packages whose reads hand out cursors (query, shard):
// resumed however it stopped, a read neither repeats nor skips an item.
package resumecheck

import (
	"context"
	"errors"
	"iter"
	"testing"
)

// Read is a read as the stops call it: from cursor cur through client
// api, up to limit items (0: no limit), storing the cursor the call hands
// out in next.
type Read[C ~string, T, A any] struct {
	All     func(ctx context.Context, api A, cur C, limit int, next *C) iter.Seq2[T, error]
	Collect func(ctx context.Context, api A, cur C, limit int, next *C) ([]T, error)
}

// reader is a read of the query or shard package: a value whose After
// and Limit return a modified copy, with All and Collect, whose option
// type is O.
type reader[R any, C ~string, T, A, O any] interface {
	After(C) R
	Limit(int) R
	All(context.Context, A, ...func(*O)) iter.Seq2[T, error]
	Collect(context.Context, A, ...func(*O)) ([]T, error)
}

// Of is r as the stops read it; next is the package's option that stores
// the cursor a call hands out (keyfirst.WithNext, keyfirst.WithNext).
func Of[T, A any, R reader[R, C, T, A, O], C ~string, O any](r R, next func(*C) func(*O)) Read[C, T, A] {
	at := func(cur C, limit int) R {
		if limit > 0 {
			return r.After(cur).Limit(limit)
		}
		return r.After(cur)
	}
	return Read[C, T, A]{
		All: func(ctx context.Context, api A, cur C, limit int, c *C) iter.Seq2[T, error] {
			return at(cur, limit).All(ctx, api, next(c))
		},
		Collect: func(ctx context.Context, api A, cur C, limit int, c *C) ([]T, error) {
			return at(cur, limit).Collect(ctx, api, next(c))
		},
	}
}

// Stop is one way a call of a read stops before the end: Call reads r
// from cur and returns the items the call returned, the cursor it handed
// out and its error; Want is the error of a call that stopped early (nil:
// none).
type Stop[C ~string, T, A any] struct {
	Name string
	Call func(ctx context.Context, r Read[C, T, A], cur C) ([]T, C, error)
	Want error
}

// Stops are the ways a call stops: a request fails (each call of failing
// returns a new client that fails one with failure; through Collect, and
// through All with the cursor read in the loop, where the error is
// handled); ctx is cancelled after k items; the loop breaks after k
// items; the loop body panics on item k+1 (the item it panics on is not
// finished); Limit k. plain returns the client of the calls without a
// failure.
func Stops[C ~string, T, A any](k int, plain, failing func() A, failure error) []Stop[C, T, A] {
	type stop = Stop[C, T, A]
	type read = Read[C, T, A]
	return []stop{
		{"Collect: a request fails", func(ctx context.Context, r read, cur C) ([]T, C, error) {
			var next C
			got, err := r.Collect(ctx, failing(), cur, 0, &next)
			return got, next, err
		}, failure},
		{"All: a request fails", func(ctx context.Context, r read, cur C) (got []T, next C, err error) {
			var atErr C
			for v, e := range r.All(ctx, failing(), cur, 0, &next) {
				if e != nil {
					err, atErr = e, next
					continue // the error ends the iteration
				}
				got = append(got, v)
			}
			if err != nil && atErr != next {
				return got, atErr, errors.New("resumecheck: the loop saw another cursor at the error than after the loop")
			}
			return got, next, err
		}, failure},
		{"the context is cancelled", func(ctx context.Context, r read, cur C) (got []T, next C, err error) {
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			for v, e := range r.All(ctx, plain(), cur, 0, &next) {
				if e != nil {
					err = e
					continue
				}
				if got = append(got, v); len(got) == k {
					cancel()
				}
			}
			return got, next, err
		}, context.Canceled},
		{"the loop breaks", func(ctx context.Context, r read, cur C) (got []T, next C, err error) {
			for v, e := range r.All(ctx, plain(), cur, 0, &next) {
				if e != nil {
					return got, next, e
				}
				if got = append(got, v); len(got) == k {
					break
				}
			}
			return got, next, nil
		}, nil},
		{"the loop body panics", func(ctx context.Context, r read, cur C) (got []T, next C, err error) {
			const msg = "resumecheck: in the loop body"
			defer func() {
				if p := recover(); p != nil && p != msg {
					panic(p)
				}
			}()
			for v, e := range r.All(ctx, plain(), cur, 0, &next) {
				if e != nil {
					return got, next, e
				}
				if len(got) == k {
					panic(msg)
				}
				got = append(got, v)
			}
			return got, next, nil
		}, nil},
		{"Limit", func(ctx context.Context, r read, cur C) ([]T, C, error) {
			var next C
			got, err := r.Collect(ctx, plain(), cur, k, &next)
			return got, next, err
		}, nil},
	}
}

// Chain reads r through api call after call, each stopped by s and
// resumed from the cursor the last one handed out, until a call hands out
// the empty cursor, and returns the ids of every item returned, in order.
// The first call reads 5 items, so that every stopped call starts from a
// cursor. It fails t at once when a call returns an item returned before,
// returns another error than s.Want, ends on an error with the empty
// cursor or hands out its own cursor without an item; and when the chain
// ends in fewer than 3 calls, or with none that returned s.Want: the test
// did not stop the read.
func Chain[C ~string, T, A any](t testing.TB, ctx context.Context, r Read[C, T, A], api A, s Stop[C, T, A], id func(T) string) []string {
	t.Helper()
	var cur C
	first, err := r.Collect(ctx, api, "", 5, &cur)
	if err != nil || cur == "" {
		t.Fatalf("the first 5 items: %v, next %q", err, cur)
	}
	var out []string
	seen := map[string]bool{}
	add := func(vs []T) (repeated int) {
		for _, v := range vs {
			k := id(v)
			if seen[k] {
				repeated++
			}
			seen[k] = true
			out = append(out, k)
		}
		return repeated
	}
	add(first)
	stopped := 0
	for n := 1; ; n++ {
		got, next, err := s.Call(ctx, r, cur)
		if err != nil && (s.Want == nil || !errors.Is(err, s.Want)) {
			t.Fatalf("call %d: %v", n, err)
		}
		if rep := add(got); rep > 0 {
			t.Fatalf("call %d (from a cursor after %d items): %d of its %d items were returned before", n, len(out)-len(got), rep, len(got))
		}
		if err != nil {
			stopped++
		}
		if next == "" {
			if err != nil {
				t.Fatalf("call %d: %v and the empty cursor after %d items", n, err, len(out))
			}
			if (s.Want != nil && stopped == 0) || n < 3 {
				t.Fatalf("%d calls, %d stopped by %v: the test does not stop the read", n, stopped, s.Want)
			}
			return out
		}
		if len(got) == 0 && next == cur {
			t.Fatalf("call %d: no item and the same cursor: the chain does not progress", n)
		}
		cur = next
	}
}
