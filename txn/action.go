package txn

import (
	"errors"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// Action is one action of a write transaction: [Put], [Replace], [Update],
// [Delete], [Check], or the actions of a unique value ([Unique]). An
// action belongs to one call of [Write] (or one attempt of [Run]) at a
// time.
type Action interface {
	// appendSteps builds the items the action writes or checks (one for
	// an item, more with its unique markers) and appends them to out; it
	// records pos, the action's position in its transaction, for
	// [Op.Stored].
	appendSteps(b builder, out []step, pos int) ([]step, error)
	// bound is the table bound of the action's item, whose Observer sees
	// the transaction when the action is its first.
	bound() *keyfirst.Table
	// commit records the result of a transaction that succeeded.
	commit()
}

// step is one item of TransactWriteItems, and how to explain its
// failure: the action's own item (own), which carries its action, its
// identity and its size, prints its key and explains its failure itself
// (nothing is made for that while the transaction is built), or a unique
// marker (marker), which carries all of that itself.
type step struct {
	own keyfirst.TransactWrite
	// put holds the Put of own's action for a put, so that a
	// transaction's puts are made with its steps.
	put    types.Put
	marker *markerPart
	at     int // the position of the step's action in the transaction
}

// markerPart is what a step of a unique marker carries: the step of the
// action's own item takes it from its [keyfirst.TransactWrite].
type markerPart struct {
	action    types.TransactWriteItem
	id        keyfirst.ItemID
	part      string
	entity    string
	size      int
	key       string
	explainFn func(stored map[string]types.AttributeValue) error
}

// action is the step as TransactWriteItems takes it.
func (s *step) action() types.TransactWriteItem {
	if s.marker != nil {
		return s.marker.action
	}
	return s.own.Action()
}

// id is the identity of the step's item.
func (s *step) id() keyfirst.ItemID {
	if s.marker != nil {
		return s.marker.id
	}
	return s.own.ID()
}

// size is what the step counts toward the transaction's size limit.
func (s *step) size() int {
	if s.marker != nil {
		return s.marker.size
	}
	return s.own.Size()
}

// entity is the entity-type name of the step's item (of the marker's
// owner).
func (s *step) entity() string {
	if s.marker != nil {
		return s.marker.entity
	}
	return s.own.Entity()
}

// part is "" for the action's own item, else the marker it is.
func (s *step) part() string {
	if s.marker != nil {
		return s.marker.part
	}
	return ""
}

// keyText prints the step's key.
func (s *step) keyText() string {
	if s.marker != nil {
		return s.marker.key
	}
	return s.own.Key()
}

// explain says why the step's condition failed, from the item DynamoDB
// returned with the cancellation (nil: none).
func (s *step) explain(stored map[string]types.AttributeValue) error {
	if s.marker != nil {
		return s.marker.explainFn(stored)
	}
	return s.own.Explain(stored)
}

// builder carries what building a transaction knows besides its actions:
// the items [Run] read, whose write must find them unchanged.
type builder struct {
	reads map[keyfirst.ItemID]map[string]types.AttributeValue
}

// ActionOption adds to an action's [keyfirst.TransactOptions].
type ActionOption func(*keyfirst.TransactOptions)

// If adds a condition that the stored item must meet, joined with AND to
// keyfirst's own guard (entity type, version) and to the action's other
// conditions: the [keyfirst.Cond] of the partial update, on T's fields
// named as in Go (txn.If(keyfirst.Field("Stock").Ge(1))), checked as its
// values are before any request. When it alone fails, the action's error
// wraps [keyfirst.ErrConditionFailed].
func If(cond keyfirst.Cond) ActionOption {
	return func(o *keyfirst.TransactOptions) { o.Condition = keyfirst.And(o.Condition, cond) }
}

type opKind uint8

const (
	opPut opKind = iota
	opReplace
	opDelete
	opCheck
	opUpdate
)

// Op is a typed action on one item of entity type T. After a transaction
// that succeeded, [Op.Item] returns the item as written (with the version
// the write stored); after a cancellation, [Op.Stored] returns the stored
// item that DynamoDB handed back with the failure.
type Op[T any] struct {
	e    *keyfirst.Entity[T]
	kind opKind
	item T
	// keyed is the key (and the update) of a check or an update, which
	// have no item: nil for a put, a replace or a delete, whose Op is
	// smaller without them.
	keyed *keyedOp[T]
	opts  keyfirst.TransactOptions
	// stored holds the item as the last transaction that succeeded wrote
	// it (stored[cur]) and as the action built since stores it
	// (stored[cur^1]): a transaction that succeeds flips cur rather than
	// copy the item, one that fails leaves stored[cur] as it was.
	stored [2]T
	cur    uint8
	done   bool
	pos    int // the position of the action in its last transaction
}

// keyedOp is what an action on a key rather than an item holds.
type keyedOp[T any] struct {
	key    keyfirst.Key[T]
	update keyfirst.Update
}

func newOp[T any](e *keyfirst.Entity[T], kind opKind, item *T, opts []ActionOption) *Op[T] {
	op := &Op[T]{e: e, kind: kind, item: *item, pos: -1}
	for _, fn := range opts {
		if fn != nil {
			fn(&op.opts)
		}
	}
	return op
}

// Put writes item as [keyfirst.Entity.Put] does: every derived attribute,
// never over an item of another entity type, the version checked and
// incremented (version 0 creates).
func Put[T any](e *keyfirst.Entity[T], item T, opts ...ActionOption) *Op[T] {
	return newOp(e, opPut, &item, opts)
}

// Create writes item as [Put] does, only where no item has its key: the
// action fails with [keyfirst.ErrAlreadyExists] when one has (as
// [keyfirst.Entity.Put] with [keyfirst.CreateOnly]). It is an action of
// its own, not an option, so that no other action can be made create-only.
func Create[T any](e *keyfirst.Entity[T], item T, opts ...ActionOption) *Op[T] {
	op := newOp(e, opPut, &item, opts)
	op.opts.CreateOnly = true
	return op
}

// Replace replaces the stored item with item as [keyfirst.Entity.Replace]
// does: one update that SETs every attribute item has and REMOVEs the
// derived attributes of the indexes it left and the fields it leaves out,
// on an item of this entity type (with item's version). In [Run], after
// a read of the item of an unversioned entity, the update is guarded by
// every attribute as read and sends only what differs from it, as
// [keyfirst.Entity.Modify] does.
func Replace[T any](e *keyfirst.Entity[T], item T, opts ...ActionOption) *Op[T] {
	return newOp(e, opReplace, &item, opts)
}

// Delete deletes the item with item's key as [keyfirst.Entity.Delete]
// does: never an item of another entity type, only with item's version.
func Delete[T any](e *keyfirst.Entity[T], item T, opts ...ActionOption) *Op[T] {
	return newOp(e, opDelete, &item, opts)
}

// Check checks cond, a [keyfirst.Cond] on T's fields, on the item with key
// (absent, or of this entity type) without writing it: the transaction is
// cancelled when cond fails ([keyfirst.ErrConditionFailed]).
func Check[T any](e *keyfirst.Entity[T], key keyfirst.Key[T], cond keyfirst.Cond) *Op[T] {
	op := newOp(e, opCheck, new(T), []ActionOption{If(cond)})
	op.keyed = &keyedOp[T]{key: key}
	return op
}

// Update applies u to the item with key as [keyfirst.Entity.Update]
// does, in the transaction: the same checks before any request (no
// change may leave a derived key stale), the item required to exist and
// be of this entity type, the version incremented, u's condition
// ([keyfirst.Update.If]) checked by DynamoDB, with no read. Seed 004's
// purchase is one TransactWriteItems:
//
//	txn.Write(ctx, db, []txn.Action{
//		txn.Update(products, id, keyfirst.Add("Stock", -1).If(keyfirst.Field("Stock").Ge(1))),
//		txn.Create(orders, order),
//	})
//
// A failed condition cancels the transaction with the action's
// [*keyfirst.ConditionError] (Failed names the part that failed).
// TransactWriteItems returns no item: [Op.Item] gives the zero T; read
// the item after the transaction when it is needed.
func Update[T any](e *keyfirst.Entity[T], key keyfirst.Key[T], u keyfirst.Update) *Op[T] {
	op := newOp(e, opUpdate, new(T), nil)
	op.keyed = &keyedOp[T]{key: key, update: u}
	return op
}

// errNoEntity is the error of an action without entity.
var errNoEntity = errors.New("txn: an action needs an entity (nil *keyfirst.Entity)")

// appendSteps appends the step of op's own item to out, built in place
// (an Op has no other step; [UniqueOp] appends its markers' after it).
// The room past len(out) is zero (buildSteps makes it so, and a build
// that fails zeroes its step again), so the step is not zeroed first.
func (op *Op[T]) appendSteps(b builder, out []step, pos int) ([]step, error) {
	if op.e == nil {
		return out, errNoEntity
	}
	n := len(out)
	out = slices.Grow(out, 1)[:n+1]
	s := &out[n]
	o := &op.opts
	var err error
	switch op.kind {
	case opPut:
		pending := &op.stored[op.cur^1]
		*pending = op.item
		err = op.e.TransactPutTo(&s.own, &s.put, pending, o)
	case opReplace:
		o := *o
		o.Read = readOf(b, op.e, op.item)
		s.own, op.stored[op.cur^1], err = op.e.TransactReplace(op.item, o)
	case opDelete:
		o := *o
		o.Read = readOf(b, op.e, op.item)
		s.own, err = op.e.TransactDelete(op.item, o)
	case opCheck:
		s.own, err = op.e.TransactCheck(op.keyed.key, *o)
	case opUpdate:
		s.own, err = op.e.TransactUpdate(op.keyed.key, op.keyed.update)
	}
	if err != nil {
		*s = step{}
		return out[:n], err
	}
	op.pos = pos
	return out, nil
}

func (op *Op[T]) bound() *keyfirst.Table { return op.e.Table() }

func (op *Op[T]) commit() { op.cur, op.done = op.cur^1, true }

// where names op's entity type and table in the error of an action that
// could not be built (its key is what the build could not make).
func (op *Op[T]) where() (entity, table, key string) {
	if op.e == nil {
		return "", "", ""
	}
	return op.e.Type(), op.e.Table().Name(), ""
}

// Item returns the item as the transaction wrote it (a put or replace
// carries the version it stored), and whether a transaction with op
// succeeded. For a delete or a check it returns the item given; for an
// update, the zero T (TransactWriteItems returns no item).
func (op *Op[T]) Item() (T, bool) {
	if op.kind == opDelete || op.kind == opCheck {
		return op.item, op.done
	}
	return op.stored[op.cur], op.done
}

// Stored returns the item DynamoDB returned when err, the error of the
// transaction that held op, cancelled it because op's condition failed:
// the stored item as T (ReturnValuesOnConditionCheckFailure=ALL_OLD,
// which every action asks for). ok is false when err names no failed
// condition of op, or no item was stored; an item of another entity type
// is an error wrapping [keyfirst.ErrWrongEntityType].
func (op *Op[T]) Stored(err error) (v T, ok bool, decodeErr error) {
	var ce *CanceledError
	if op.pos < 0 || !errors.As(err, &ce) {
		return v, false, nil
	}
	for _, f := range ce.Failed {
		var cond *keyfirst.ConditionError
		if f.Position != op.pos || f.Part != "" || !errors.As(f.Err, &cond) || !cond.Found {
			continue
		}
		v, decodeErr = op.e.Decode(cond.Item)
		return v, decodeErr == nil, decodeErr
	}
	return v, false, nil
}

// readOf returns the item with item's key as [Run] read it, nil when it
// did not (or item has no valid key, which building the action reports).
func readOf[T any](b builder, e *keyfirst.Entity[T], item T) map[string]types.AttributeValue {
	if len(b.reads) == 0 {
		return nil
	}
	k, err := e.Key(item)
	if err != nil {
		return nil
	}
	return b.reads[e.ItemID(k)]
}
