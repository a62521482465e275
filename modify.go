package keyfirst

import (
	"context"
	"errors"

	"github.com/keyfirst/keyfirst/internal/backoff"
)

// Modify changes the stored item with key by a read-modify-write: it reads
// the item (consistently), calls fn on it, derives every key attribute from
// the modified item, and writes it with one UpdateItem, guarded by a
// condition that the stored item is still the one read: its version for a
// versioned entity, otherwise every attribute the entity reads or writes
// (T's fields, the derived attributes, the entity type). Attributes the
// entity does not know need no guard: fn never sees them and the update
// does not touch them, so another program's changes to them are kept,
// however many there are.
//
// The stored item after the write is the one [Entity.Replace] of the
// modified item stores. Without a version, the condition holds only on
// the item read, so the update sends only what changed from it: the SETs
// of the attributes whose values differ and the REMOVEs of those it
// loses, the derived attributes of the indexes it leaves included (seed
// 002's close_order is SET status REMOVE open_status_shard; a fn that
// changes nothing SETs the entity type alone). With a version, which is
// all the condition compares, the update writes the whole item as Replace
// does, so that a writer that changed an attribute without the version
// cannot leave a derived key stale.
//
// Without a version the condition compares those attributes one by one,
// and one DynamoDB condition holds at most 300 operators and 4,096 bytes:
// an entity of more than about 150 attributes (fewer when many are
// absent) cannot be guarded, and Modify refuses it after the read and
// before any write with an [*ItemError] ([ItemExpression]) that says to
// declare [EntitySpec.Version]. No cheaper guard stays correct against
// writers that are not keyfirst: they would not maintain a hidden
// revision attribute, and a condition can only compare attributes one by
// one.
//
// The condition fails when another writer's write came first: the stored
// item that DynamoDB returns with the failure differs from the one read in
// an attribute the condition compares. Modify then reads again and calls
// fn again on the fresh item (so fn must only depend on the item it
// receives), after a pause of exponential backoff with full jitter
// ([Options.RetryBaseDelay], [Options.RetryMaxDelay]). Each such failure
// means that another writer succeeded, so the writers as a whole always
// progress; but one call can lose many times in a row while new writers
// keep arriving, and no fixed number of attempts suffices for every load.
// So Modify retries for as long as the cause is contention, until it
// succeeds, the context ends (the error then wraps ctx.Err() and
// [ErrVersionConflict]) or [Options.MaxAttempts] attempts (default 100)
// were made: the error is then a [*ConditionError] wrapping
// [ErrVersionConflict] that says what happened and how many attempts were
// made. A condition that fails although the stored item is the one read
// is no contention and retrying cannot help: Modify stops at once with
// [ErrConditionUnexplained].
//
// Lifecycle fields: a change fn makes to the created time is undone (it
// never changes), and the updated time is the write's.
//
// fn must not change the primary key ([ErrKeyChanged]: to move an item,
// Put the new one and Delete the old). A missing item is [ErrNotFound]. A
// change that can refuse the item it receives (a balance too low) is
// [Entity.ModifyE].
func (e *Entity[T]) Modify(ctx context.Context, api ModifyAPI, key Key[T], fn func(*T), optFns ...func(*Options)) (T, error) {
	var change func(*T) error
	if fn != nil {
		change = func(v *T) error { fn(v); return nil }
	}
	return e.ModifyE(ctx, api, key, change, optFns...)
}

// ModifyE is [Entity.Modify] for a change that can fail: an error from fn
// ends ModifyE with that error and writes nothing (a retry after a lost
// race calls fn again, on the fresh item, and may get another answer).
func (e *Entity[T]) ModifyE(ctx context.Context, api ModifyAPI, key Key[T], fn func(*T) error, optFns ...func(*Options)) (T, error) {
	var zero T
	if fn == nil {
		return zero, &OptionError{Op: "Modify", Option: "fn", Detail: "a nil change function: pass the function that changes the item"}
	}
	o, err := buildOptions("Modify", TakesRetries, optFns)
	if err != nil {
		return zero, err
	}
	attempts := o.MaxAttempts
	if attempts == 0 {
		attempts = defaultModifyAttempts
	}
	policy := o.backoff()
	for attempt := 1; ; attempt++ {
		o.attempt = attempt
		v, old, err := e.read(ctx, api, "Modify", key, true, o)
		if err != nil {
			return zero, err
		}
		expected, next := e.versionOf(&v), int64(-1)
		if e.version != "" {
			if next, err = e.nextVersion(expected); err != nil {
				return zero, err
			}
		}
		restore := e.holdCreated(&v)
		if err := fn(&v); err != nil {
			return zero, err
		}
		restore()
		newKey, err := e.Key(v)
		if err != nil {
			return zero, err
		}
		if newKey != key {
			return zero, &KeyChangedError{Old: key.String(), New: newKey.String()}
		}
		if err := e.modifyUnique(old, v); err != nil {
			return zero, err
		}
		g := guard{kind: guardVersion, expected: expected}
		if e.version == "" {
			g = guard{kind: guardUnchanged, read: old}
		}
		written, err := e.update(ctx, api, "Modify", v, g, next, o)
		if err == nil {
			return written, nil
		}
		var ce *ConditionError
		if !errors.As(err, &ce) || !errors.Is(ce.Err, ErrVersionConflict) {
			return zero, err
		}
		ce.Attempts = attempt
		if ce.Found && sameAttributes(e.guarded, old, ce.Item) {
			ce.Err = ErrConditionUnexplained
			return zero, err
		}
		if attempt >= attempts {
			return zero, err
		}
		if err := backoff.Sleep(ctx, policy.Delay(attempt-1)); err != nil {
			return zero, e.opError("Modify", key, errors.Join(err, ce))
		}
	}
}
