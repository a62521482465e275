package query

import (
	"github.com/keyfirst/keyfirst"
)

// options are what a query's or a scan's call takes of [keyfirst.Options]:
// [keyfirst.WithCursorKey], [keyfirst.WithCapacity] and
// [keyfirst.WithNext] of a *[Cursor]. Options given to the constructor
// ([On], [CollectionOn], [ScanOn]) apply to every call; options
// given to a call apply after them, to that call only.
//
// CursorKey signs every cursor with HMAC-SHA256 and refuses cursors that
// do not verify ([ErrCursorTampered]). Capacity receives the capacity
// consumed by every request of the call, added to what it holds: the
// total cost of a query; each [Page] also reports its own. Next receives
// the cursor that resumes after the last item a call returned, when the
// call returns or its iteration stops, however it stops: at its limit, at
// the end of a page, when the loop breaks early, when ctx ends or a
// request fails (the cursor the call started from when no item was
// returned), when the loop body panics (after the last item it finished);
// a [*DecodeError] resumes at the item it reports. Resumed with
// [Query.After], the query goes on exactly after that item: no item is
// repeated or skipped. It is the empty Cursor once the query is done. A
// call refused before any request (an [*Error]) leaves it as it was. A
// [Scan] has no cursor.
type options struct {
	CursorKey []byte
	Capacity  *keyfirst.Capacity
	Next      *Cursor
}

// resolve applies base then call, in order, and refuses what a query's
// call does not take, before any request: an [*Error] (ProblemOption)
// wrapping a [*keyfirst.OptionError].
func resolve(op, table, index string, base, call []func(*keyfirst.Options)) (options, error) {
	fns := base
	if len(call) > 0 {
		fns = append(append([]func(*keyfirst.Options){}, base...), call...)
	}
	refuse := func(err error) (options, error) {
		return options{}, &Error{Table: table, Index: index, Problem: ProblemOption, Err: err}
	}
	o, err := keyfirst.Apply(op, fns)
	if err != nil {
		return refuse(err)
	}
	out := options{CursorKey: o.CursorKey, Capacity: o.Capacity}
	take := func(s keyfirst.Setting) bool {
		c, ok := s.Value.(*Cursor)
		if ok {
			out.Next = c
		}
		return ok
	}
	if err := o.Refuse(op, take, "a query takes WithNext of a *query.Cursor only"); err != nil {
		return refuse(err)
	}
	if err := o.RefuseOthers(op, keyfirst.TakesCursorKey, "a query takes WithCapacity, WithCursorKey and WithNext"); err != nil {
		return refuse(err)
	}
	return out, nil
}
