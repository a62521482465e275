package stream

import (
	"context"
	"errors"
	"fmt"

	"github.com/keyfirst/keyfirst"
)

// Handler handles the changes of one entity type ([On]), or the records no
// other handler takes ([Otherwise]), in a [Router].
type Handler struct {
	table  *keyfirst.Table
	typ    string
	handle func(context.Context, Record) error
	other  func(context.Context, *TypeError) error
}

// On returns the handler of entity e's changes: each record of e's type is
// decoded ([Decode]) and passed to fn.
func On[T any](e *keyfirst.Entity[T], fn func(context.Context, Change[T]) error) Handler {
	return Handler{table: e.Table(), typ: e.Type(), handle: func(ctx context.Context, r Record) error {
		c, err := decode(e, r)
		if err != nil {
			return err
		}
		return fn(ctx, c)
	}}
}

// Otherwise returns the handler of the records that no handler of the
// router takes: of an unknown entity type ([ErrUnknownType]), of a type
// that changed between the images ([ErrTypeChanged]), or of a registered
// type without handler ([ErrUnhandled]). Without it, the router returns
// those as errors; with it, fn decides (return nil to skip the record:
// a decision, not a drop).
func Otherwise(fn func(context.Context, *TypeError) error) Handler {
	return Handler{other: fn}
}

// Router sends each record to the handler of its entity type: the
// dispatch of a table of several entity types (a customer and its
// orders), typed per handler.
type Router struct {
	table    *keyfirst.Table
	handlers map[string]Handler
	other    func(context.Context, *TypeError) error
}

// NewRouter returns the router of the table's records to handlers. Two
// handlers of one entity type, two Otherwise, or a handler of an entity
// bound to another table ([keyfirst.Table.SameSchema] and the same name)
// are refused.
func NewRouter(table *keyfirst.Table, handlers ...Handler) (*Router, error) {
	r := &Router{table: table, handlers: map[string]Handler{}}
	for _, h := range handlers {
		switch {
		case h.other != nil && r.other != nil:
			return nil, fmt.Errorf("%w: two Otherwise handlers", ErrHandlers)
		case h.other != nil:
			r.other = h.other
		case h.handle == nil:
			return nil, fmt.Errorf("%w: a zero Handler; build handlers with On or Otherwise", ErrHandlers)
		case h.table.Name() != table.Name() || !h.table.SameSchema(table):
			return nil, fmt.Errorf("%w: the handler of %q is of table %q, the router of table %q", ErrHandlers, h.typ, h.table.Name(), table.Name())
		default:
			if _, dup := r.handlers[h.typ]; dup {
				return nil, fmt.Errorf("%w: two handlers of entity type %q", ErrHandlers, h.typ)
			}
			r.handlers[h.typ] = h
		}
	}
	return r, nil
}

// Handle decodes the record and passes it to the handler of its entity
// type. A bad record is a [*RecordError]; one that no handler takes is a
// [*TypeError], or what the Otherwise handler returns.
func (r *Router) Handle(ctx context.Context, rec Record) error {
	oldType, newType, err := check(r.table, rec)
	var te *TypeError
	if errors.As(err, &te) {
		return r.otherwise(ctx, te)
	}
	if err != nil {
		return err
	}
	h, ok := r.handlers[typeOf(oldType, newType)]
	if !ok {
		return r.otherwise(ctx, &TypeError{Record: rec, Old: oldType, New: newType, Err: ErrUnhandled})
	}
	return h.handle(ctx, rec)
}

// HandleBatch handles the records in order, and stops at the first error:
// the batch function of a [Consumer].
func (r *Router) HandleBatch(ctx context.Context, records []Record) error {
	for _, rec := range records {
		if err := r.Handle(ctx, rec); err != nil {
			return err
		}
	}
	return nil
}

func (r *Router) otherwise(ctx context.Context, te *TypeError) error {
	if r.other == nil {
		return te
	}
	return r.other(ctx, te)
}
