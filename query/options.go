package query

import (
	"bytes"

	"github.com/keyfirst/keyfirst"
)

// MinCursorKey is the shortest [Options.CursorKey] accepted, in bytes.
const MinCursorKey = 16

// Options configure the calls of a query or scan, set with functions as in
// the AWS SDK. Functions given to the constructor ([Of], [Collection],
// [ScanIndex]) apply to every call; functions given to a call apply after
// them, to that call only. The zero value is valid.
type Options struct {
	// CursorKey, when set, signs every cursor with HMAC-SHA256 and
	// refuses cursors that do not verify ([ErrCursorTampered]). Use a
	// random secret of at least [MinCursorKey] bytes, the same for the
	// query that makes a cursor and the one that resumes from it.
	CursorKey []byte
	// Capacity, when set, receives the capacity consumed by every request
	// of the call, added to what it holds: the total cost of a query.
	// Each [Page] also reports its own.
	Capacity *keyfirst.Capacity
	// Next, when set, receives the cursor that resumes after the last item
	// a call returned, when the call returns or its iteration stops,
	// however it stops: at its limit, at the end of a page, when the loop
	// breaks early, when ctx ends or a request fails (the cursor the call
	// started from when no item was returned), when the loop body panics
	// (after the last item it finished); a [*DecodeError] resumes at the
	// item it reports. Resumed with [Query.After], the query goes on
	// exactly after that item: no item is repeated or skipped. It is the
	// empty Cursor once the query is done. A call refused before any
	// request (an [*Error]) leaves it as it was. A [Scan] has no cursor.
	Next *Cursor
}

// WithCursorKey sets [Options.CursorKey]; key is copied.
func WithCursorKey(key []byte) func(*Options) {
	key = bytes.Clone(key)
	return func(o *Options) { o.CursorKey = key }
}

// TotalCapacity adds the capacity consumed by the call's requests to c
// (keyfirst.WithCapacity is its twin for item operations; the two option
// types differ, so the names do too).
func TotalCapacity(c *keyfirst.Capacity) func(*Options) {
	return func(o *Options) { o.Capacity = c }
}

// WithNext stores in c the cursor that resumes after the last item the call
// returned (see [Options.Next]).
func WithNext(c *Cursor) func(*Options) {
	return func(o *Options) { o.Next = c }
}

// resolve applies base then call, in order, to the zero Options.
func resolve(base, call []func(*Options)) Options {
	var o Options
	for _, fns := range [2][]func(*Options){base, call} {
		for _, fn := range fns {
			if fn != nil {
				fn(&o)
			}
		}
	}
	return o
}

// check refuses invalid option values.
func (o Options) check(table, index string) error {
	if len(o.CursorKey) > 0 && len(o.CursorKey) < MinCursorKey {
		return &Error{Table: table, Index: index, Problem: ProblemOption,
			Detail: "CursorKey has fewer than 16 bytes; use a random secret of 32 bytes"}
	}
	return nil
}
