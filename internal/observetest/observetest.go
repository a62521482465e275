// Package observetest is the tests' [keyfirst.Observer]: it records every
// request it is shown, what came back and the progress reported, and
// checks that End gets the context Start returned.
package observetest

import (
	"context"
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
