// Package observetest is the tests' [keyfirst.Observer]: it records every
// request it is shown, what came back and the progress reported, and
// checks that End gets the context Start returned.
package observetest

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/keyfirst/keyfirst"
)

// Seen is one request observed and what came back.
type Seen struct {
	Request keyfirst.Request
	Result  keyfirst.Result
	// SameContext reports that End got the context Start returned.
	SameContext bool
}

// Recorder records what it observes. It is safe for concurrent use.
type Recorder struct {
	mu       sync.Mutex
	seen     []Seen
	progress []keyfirst.Progress
}

type startedKey struct{}

// Start returns ctx marked with r, for End to check.
func (rec *Recorder) Start(ctx context.Context, r *keyfirst.Request) context.Context {
	return context.WithValue(ctx, startedKey{}, r)
}

// End records r and res.
func (rec *Recorder) End(ctx context.Context, r *keyfirst.Request, res *keyfirst.Result) {
	same := ctx.Value(startedKey{}) == r
	rec.mu.Lock()
	rec.seen = append(rec.seen, Seen{Request: *r, Result: *res, SameContext: same})
	rec.mu.Unlock()
}

// Progress records p.
func (rec *Recorder) Progress(_ context.Context, p keyfirst.Progress) {
	rec.mu.Lock()
	rec.progress = append(rec.progress, p)
	rec.mu.Unlock()
}

// Take returns what was observed since the last Take.
func (rec *Recorder) Take() []Seen {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	s := rec.seen
	rec.seen = nil
	return s
}

// Reports returns the progress reported since the last Reports.
func (rec *Recorder) Reports() []keyfirst.Progress {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	p := rec.progress
	rec.progress = nil
	return p
}

// Calls lists the requests of seen as "Operation Call Entity #Seq", for
// a test to compare with what it sent.
func Calls(seen []Seen) []string {
	out := make([]string, len(seen))
	for i, s := range seen {
		out[i] = fmt.Sprintf("%s %s %s #%d", s.Request.Operation, s.Request.Call, s.Request.Entity, s.Request.Seq)
	}
	return out
}

// Failed returns the last request of seen that failed (its Result.Err
// set), and whether there is one.
func Failed(seen []Seen) (Seen, bool) {
	for i := len(seen) - 1; i >= 0; i-- {
		if seen[i].Result.Err != nil {
			return seen[i], true
		}
	}
	return Seen{}, false
}

// SameError says what is wrong (empty: nothing) with the failed requests
// of seen, given the error the call returned (callErr): one of them (the
// last) must have as Result.Err that error or one it wraps (errors.Is),
// and code as Result.Code. The others (the segments a failed one
// cancelled) may fail otherwise.
func SameError(seen []Seen, callErr error, code string) string {
	if _, ok := Failed(seen); !ok {
		return fmt.Sprintf("no failed request observed among %q; the call returned %v", Calls(seen), callErr)
	}
	for i := len(seen) - 1; i >= 0; i-- {
		f := seen[i]
		if f.Result.Err == nil || callErr == nil || !errors.Is(callErr, f.Result.Err) {
			continue
		}
		if f.Result.Code != code {
			return fmt.Sprintf("%s: code %q, want %q", f.Request.Operation, f.Result.Code, code)
		}
		return ""
	}
	f, _ := Failed(seen)
	return fmt.Sprintf("%s: observed %v (%T), the call returned %v (%T)", f.Request.Operation, f.Result.Err, f.Result.Err, callErr, callErr)
}
