package keyfirst

import (
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/itemsize"
)

// The building blocks of transactions: the package
// [github.com/keyfirst/keyfirst/txn] sends TransactWriteItems and
// TransactGetItems built here, from the same plans as the single writes,
// so that a write inside a transaction derives every key, enters and
// leaves every sparse and sharded index, guards the entity type and checks
// and increments the version exactly as Put, Replace and Delete do.

// ErrConditionFailed: the caller's own condition of a transaction action
// ([TransactOptions.Condition]) did not hold, while keyfirst's guard of
// the item (its entity type, existence and version) did.
var ErrConditionFailed = errors.New("keyfirst: condition failed")

// ItemID identifies one item: its table and its primary key. It is
// comparable: two ItemIDs are equal exactly when DynamoDB takes them for
// one item.
type ItemID struct {
	// digest is a digest of key (keyDigest), made with the ItemID: == on
	// ItemIDs compares it before any text, so that the identities of two
	// items (a transaction's, whose duplicates package txn looks for)
	// mostly differ at once.
	digest uint64
	key    keyPair // first of the texts: where two items of one table differ
	table  string
}

// Digest returns the digest of the item's key that id keeps: equal
// ItemIDs have equal digests, and the ItemIDs of two items mostly differ
// in it. It is a first comparison, cheaper than ==, for a caller that
// looks for one item among many (package txn, for two actions on one
// item).
func (id *ItemID) Digest() uint64 { return id.digest }

// Table returns the name of the item's table.
func (id ItemID) Table() string { return id.table }

// String prints the table and the key: orders ("CUST#c1", "ORDER#o1").
func (id ItemID) String() string {
	return id.table + " " + Key[struct{}]{pk: id.key.pk, sk: id.key.sk}.String()
}

// ItemID returns the identity of the item whose primary key attributes
// are in key (a key or a whole item).
func (t *Table) ItemID(key map[string]types.AttributeValue) ItemID {
	k := t.pairOf(key)
	return ItemID{digest: keyDigest(k), table: t.name, key: k}
}

// ItemID returns the identity of the item with key k in the entity's
// table.
func (e *Entity[T]) ItemID(k Key[T]) ItemID {
	var id ItemID
	e.itemIDTo(&id, k)
	return id
}

// itemIDTo sets *id to ItemID(k), field by field.
func (e *Entity[T]) itemIDTo(id *ItemID, k Key[T]) {
	id.key.pk, id.key.sk, id.table = k.pk, k.sk, e.table.name
	id.digest = keyDigest(id.key)
}

// TransactOptions shape one action of a transaction.
type TransactOptions struct {
	// Condition, when set, must hold as well as keyfirst's own guard of the
	// item (entity type, existence, version): the two are joined with AND.
	// It is the [Cond] of the partial update, on T's fields named as in Go
	// (Field("Stock").Ge(1)), compiled by the same code; it is required for
	// [Entity.TransactCheck]. When it alone fails, the action's error
	// wraps [ErrConditionFailed]. It is checked when the action is built,
	// before any request: a field T does not have, a value of the wrong
	// type for its field, or an order on a field that does not order as
	// its values is an [*UpdateError] (as [Update.If]'s); a value DynamoDB
	// would refuse or change (a string that is not valid UTF-8, NaN, an
	// invalid set, lists nested beyond [MaxNesting]) is an [*OptionError].
	Condition Cond
	// CreateOnly makes [Entity.TransactPut] fail with [ErrAlreadyExists]
	// when an item has the key.
	CreateOnly bool
	// Read is the item as it was read (from TransactGetItems or GetItem),
	// for a read-modify-write: [Entity.TransactReplace] and
	// [Entity.TransactDelete] then require the stored item to be still the
	// one read, by its version for a versioned entity, otherwise by every
	// attribute the entity reads or writes (the guard of [Entity.Modify]);
	// a change is [ErrVersionConflict]. An image with a value no stored
	// item has (one the value check of items refuses) is an
	// [*OptionError]. Guarded by every attribute, the replace sends only
	// what differs from the item read, as Modify does.
	Read map[string]types.AttributeValue

	// moved lists the unique fields ([EntitySpec.Unique]) whose markers
	// the transaction moves (set by txn.Unique's actions only, through
	// internal/markers): their values are neither refused nor guarded.
	moved []string
}

// TransactWrite is one write action of a transaction, built by
// [Entity.TransactPut], [Entity.TransactReplace], [Entity.TransactDelete]
// or [Entity.TransactCheck], ready to send in TransactWriteItems. It
// always asks for the stored item on a failed condition
// (ReturnValuesOnConditionCheckFailure=ALL_OLD), which [TransactWrite.Explain]
// needs to tell why.
type TransactWrite struct {
	action types.TransactWriteItem
	id     ItemID
	entity string
	size   int
	// A write of a whole item explains its failure with its entity
	// (explainer), from its guard and whether a caller's condition was
	// joined to it: nothing is allocated for it when the action is built.
	explainer writeExplainer
	guard     guard
	extra     bool
	// An update sets its key text and its explanation itself.
	key     string
	explain func(stored map[string]types.AttributeValue) *ConditionError
}

// writeExplainer is the entity of a write of a whole item, which says why
// its condition failed.
type writeExplainer interface {
	explainWrite(stored map[string]types.AttributeValue, g guard, extra bool) *ConditionError
}

// Action returns the action as TransactWriteItems takes it. Its maps and
// strings are shared (with w; the condition's and the table name with
// other writes of the entity): do not modify them.
func (w *TransactWrite) Action() types.TransactWriteItem { return w.action }

// ID returns the identity of the item the action writes or checks.
func (w *TransactWrite) ID() ItemID { return w.id }

// Entity returns the entity-type name of the item.
func (w *TransactWrite) Entity() string { return w.entity }

// Key prints the item's key, as [Key.String] does.
func (w *TransactWrite) Key() string {
	if w.key != "" {
		return w.key
	}
	return Key[struct{}]{pk: w.id.key.pk, sk: w.id.key.sk}.String()
}

// Size returns the bytes the action counts toward a transaction's size
// limit: the whole item for a put or an update, its key for a delete or a
// condition check.
func (w *TransactWrite) Size() int { return w.size }

// Explain says why the action's condition failed, from stored, the item as
// DynamoDB returned it in the cancellation reason (nil: none stored): a
// [*ConditionError] wrapping [ErrAlreadyExists], [ErrNotFound],
// [ErrWrongEntityType], [ErrVersionConflict] (with the stored version), or
// [ErrConditionFailed] when keyfirst's guard holds on stored and the
// caller's condition is what failed.
func (w *TransactWrite) Explain(stored map[string]types.AttributeValue) *ConditionError {
	if w.explain != nil {
		return w.explain(stored)
	}
	return w.explainer.explainWrite(stored, w.guard, w.extra)
}

// transactWrite wraps planned write w as an action of one item.
func (e *Entity[T]) transactWrite(w *plannedWrite[T], action types.TransactWriteItem, size int) TransactWrite {
	tw := TransactWrite{id: e.ItemID(w.plan.key)}
	e.transactWriteTo(&tw, w, action, size)
	return tw
}

// transactWriteTo is transactWrite into *dst, each field set in place
// rather than a whole TransactWrite made and copied, but for the ID of
// w's item, which the caller sets.
func (e *Entity[T]) transactWriteTo(dst *TransactWrite, w *plannedWrite[T], action types.TransactWriteItem, size int) {
	dst.action, dst.entity, dst.size = action, e.typeName, size
	dst.explainer, dst.guard, dst.extra = e, w.guard, w.extra
	dst.key, dst.explain = "", nil
}

// explainWrite says why the condition of a write of a whole item failed
// on stored: keyfirst's guard g, or, with extra, the caller's condition
// when g holds.
func (e *Entity[T]) explainWrite(stored map[string]types.AttributeValue, g guard, extra bool) *ConditionError {
	ce := e.conditionError(stored, g)
	if extra && e.holds(g, stored) {
		ce.Err = ErrConditionFailed
	}
	return ce
}

// TransactPut builds the action that writes item as [Entity.Put] does
// (every derived attribute, the entity-type guard, the version checked and
// incremented, [TransactOptions.CreateOnly] as [CreateOnly]), and returns
// item as the action stores it (with its next version). Invalid items are
// refused as Put refuses them. For an entity with a created time
// ([EntitySpec.Created]) the action is an Update, as Put's request is,
// which keeps a stored created time; the returned item then carries the
// created time of a new item (TransactWriteItems returns no item: read
// it to learn the one stored).
func (e *Entity[T]) TransactPut(item T, o TransactOptions) (TransactWrite, T, error) {
	var w TransactWrite
	err := e.TransactPutTo(&w, nil, &item, &o)
	return w, item, err
}

// TransactPutTo is [Entity.TransactPut] for a caller that keeps the action
// and the item anyway (package txn, in its steps and its actions): it
// builds the action into *w and stamps *item, in place, as the action
// stores it (with its next version), and leaves *w unchanged on an error.
// Neither is copied, and the item, already the caller's, is not moved to
// the heap for the item plan. The action's Put is built in *put, which
// the action then refers to (nil: one is made), so that a transaction's
// puts can be made together; it is not used for an entity with a created
// time, whose action is an Update. o is only read.
func (e *Entity[T]) TransactPutTo(w *TransactWrite, put *types.Put, item *T, o *TransactOptions) error {
	if o.Read != nil {
		return e.transactOption("Put", "Read", "a put does not depend on the stored item; use TransactReplace")
	}
	cond, err := e.checkTransactOptions("Put", o)
	if err != nil {
		return err
	}
	pw, err := e.planPut("TransactPut", item, o.CreateOnly, cond, o.moved)
	if err != nil {
		return err
	}
	pw.stamp(e, item)
	e.itemIDTo(&w.id, pw.plan.key)
	if e.keepsCreated() {
		e.transactWriteTo(w, &pw, types.TransactWriteItem{Update: pw.update(e)}, pw.plan.size)
		return nil
	}
	if put == nil {
		put = new(types.Put)
	}
	*put = pw.put(e)
	e.transactWriteTo(w, &pw, types.TransactWriteItem{Put: put}, pw.plan.size)
	return nil
}

// TransactReplace builds the action that replaces the stored item with item
// as [Entity.Replace] does (one update that SETs every attribute item has
// and REMOVEs every derived attribute of the indexes it left; only what
// differs from [TransactOptions.Read] for an unversioned entity), and
// returns item as the action stores it (with its next version).
func (e *Entity[T]) TransactReplace(item T, o TransactOptions) (TransactWrite, T, error) {
	if o.CreateOnly {
		return TransactWrite{}, item, e.transactOption("Replace", "CreateOnly", "only TransactPut takes it")
	}
	cond, err := e.checkTransactOptions("Replace", &o)
	if err != nil {
		return TransactWrite{}, item, err
	}
	g, next, err := e.replaceGuard(&item)
	if err != nil {
		return TransactWrite{}, item, err
	}
	if o.Read != nil && e.version == "" {
		g = guard{kind: guardUnchanged, read: o.Read}
	}
	w, err := e.planUpdate("Replace", &item, g, next, cond, o.moved)
	if err != nil {
		return TransactWrite{}, item, err
	}
	w.stamp(e, &item)
	return e.transactWrite(&w, types.TransactWriteItem{Update: w.update(e)}, w.plan.size), item, nil
}

// TransactDelete builds the action that deletes the item with item's key
// as [Entity.Delete] does: never an item of another entity type, and for
// a versioned entity only the stored item with item's version.
func (e *Entity[T]) TransactDelete(item T, o TransactOptions) (TransactWrite, error) {
	if o.CreateOnly {
		return TransactWrite{}, e.transactOption("Delete", "CreateOnly", "only TransactPut takes it")
	}
	cond, err := e.checkTransactOptions("Delete", &o)
	if err != nil {
		return TransactWrite{}, err
	}
	w, err := e.planDelete("TransactDelete", &item, cond, o.moved)
	if err != nil {
		return TransactWrite{}, err
	}
	if o.Read != nil && e.version == "" {
		w.guard = guard{kind: guardUnchanged, read: o.Read}
		if w.x, err = e.guardExpression(w.guard, cond); err != nil {
			return TransactWrite{}, err
		}
	}
	return e.transactWrite(&w, types.TransactWriteItem{Delete: w.delete(e)}, e.keySize(w.plan.key)), nil
}

// TransactCheck builds the action that checks [TransactOptions.Condition]
// (required) on the item with key, which must be absent or of this entity
// type, without writing it: the transaction is cancelled when it fails.
func (e *Entity[T]) TransactCheck(key Key[T], o TransactOptions) (TransactWrite, error) {
	switch {
	case o.Condition.IsZero():
		return TransactWrite{}, e.transactOption("Check", "Condition", "a condition check needs a condition")
	case o.CreateOnly || o.Read != nil:
		return TransactWrite{}, e.transactOption("Check", "CreateOnly/Read", "a condition check takes only a Condition")
	}
	cond, err := e.checkTransactOptions("Check", &o)
	if err != nil {
		return TransactWrite{}, err
	}
	if err := e.checkKey(key); err != nil {
		return TransactWrite{}, err
	}
	w := plannedWrite[T]{plan: itemPlan[T]{key: key}, next: -1, extra: true}
	if w.x, err = e.guardExpression(w.guard, cond); err != nil {
		return TransactWrite{}, err
	}
	check := &types.ConditionCheck{
		TableName:                           e.table.tableName(),
		Key:                                 e.keyMap(key),
		ConditionExpression:                 w.x.Condition(),
		ExpressionAttributeNames:            w.x.Names(),
		ExpressionAttributeValues:           w.x.Values(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}
	return e.transactWrite(&w, types.TransactWriteItem{ConditionCheck: check}, e.keySize(key)), nil
}

// TransactGet builds the read of the item with key for TransactGetItems,
// and returns the item's identity. Decode what it returns with
// [Entity.Decode].
func (e *Entity[T]) TransactGet(key Key[T]) (types.TransactGetItem, ItemID, error) {
	if err := e.checkKey(key); err != nil {
		return types.TransactGetItem{}, ItemID{}, err
	}
	get := &types.Get{TableName: e.table.tableName(), Key: e.keyMap(key)}
	return types.TransactGetItem{Get: get}, e.ItemID(key), nil
}

// keySize is the size of key's attributes, as DynamoDB counts them.
func (e *Entity[T]) keySize(k Key[T]) int {
	n := 0
	for name, av := range e.keyMap(k) {
		n += itemsize.Size(name, av)
	}
	return n
}

func (e *Entity[T]) transactOption(op, option, detail string) error {
	return &OptionError{Op: "Transact" + op, Option: option, Detail: fmt.Sprintf("%s (entity %s)", detail, e.typeName)}
}
