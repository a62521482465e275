package txn

import (
	"context"
	"errors"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/backoff"
)

// RunAPI is what [Run] needs: read transactions and write transactions.
type RunAPI interface {
	WriteAPI
	GetAPI
}

// Tx is one attempt of [Run]: the items it read, which the writes of its
// transaction require unchanged.
type Tx struct {
	api   GetAPI
	o     options
	reads map[keyfirst.ItemID]map[string]types.AttributeValue
}

// Get reads reads as [Get] does, in one TransactGetItems (a consistent
// snapshot), and remembers each item: a [Replace] or [Delete] of one of
// them in the transaction fn returns is written only if the stored item is
// still the one read (its version, or for an entity without a version
// every attribute the entity reads or writes, as [keyfirst.Entity.Modify]
// guards). An item read but not written is not guarded: to depend on it,
// add a [Check].
func (tx *Tx) Get(ctx context.Context, reads ...Reader) error {
	raw, err := get(ctx, tx.api, reads, tx.o)
	if err != nil {
		return err
	}
	for i, r := range reads {
		_, id, _ := r.get()
		if raw[i] != nil {
			tx.reads[id] = raw[i]
		}
	}
	return nil
}

// Run is a read-modify-write transaction: it calls fn, which reads with
// [Tx.Get] and returns the actions to write, and writes them with one
// TransactWriteItems. When the transaction is cancelled because another
// writer came first (an item read with Tx.Get changed:
// [keyfirst.ErrVersionConflict]; a conflicting transaction; throttling) it
// calls fn again on fresh reads,
// after a pause of exponential backoff with full jitter, up to
// [keyfirst.WithMaxAttempts] attempts (default 100); the last error then wraps
// [ErrGaveUp] too. fn must depend only on what it reads: it runs once per
// attempt. An error of fn (out of stock, say) ends Run with that error,
// and nothing is written; any other cancellation ends it at once.
//
// A [Replace] or [Delete] of an item fn read is guarded by the read (the
// item must still be as read); an [Update] is not: DynamoDB checks its own
// condition ([keyfirst.Update.If]) on the item as stored when the
// transaction runs, so that a counter or a stock decrement never
// conflicts with another writer's. Write what was read with Replace.
//
// Run takes [ContentToken] (each attempt's content differs, and so does
// its token) but not [Token]: one token for attempts with other content
// would be [ErrTokenReused].
func Run(ctx context.Context, api RunAPI, fn func(ctx context.Context, tx *Tx) ([]Action, error), optFns ...func(*keyfirst.Options)) error {
	o, err := buildOptions("Run", optFns)
	if err != nil {
		return err
	}
	if o.Token != "" {
		return &keyfirst.OptionError{Op: "Run", Option: "Token",
			Detail: "each attempt of Run writes other content, which one token would refuse; use ContentToken"}
	}
	policy := backoff.Policy{Base: o.RetryBaseDelay, Max: o.RetryMaxDelay}
	attempts := o.attempts(defaultRunAttempts)
	for attempt := 1; ; attempt++ {
		tx := &Tx{api: api, o: o, reads: map[keyfirst.ItemID]map[string]types.AttributeValue{}}
		actions, err := fn(ctx, tx)
		if err == nil {
			one := o
			one.Token = "" // a fresh random token per attempt
			err = write(ctx, api, actions, builder{reads: tx.reads}, one, 1)
		}
		if err == nil || !contention(err, tx.reads) {
			return err
		}
		var ce *CanceledError
		if errors.As(err, &ce) {
			ce.Attempts = attempt
		}
		if attempt >= attempts {
			return errors.Join(ErrGaveUp, err)
		}
		if serr := backoff.Sleep(ctx, policy.Delay(attempt-1)); serr != nil {
			return errors.Join(serr, err)
		}
	}
}

// contention reports whether err is a cancellation in which every failed
// action lost to another writer: a version conflict on an item this
// attempt read (reading again will see the other writer's item), a
// conflicting transaction, throttling.
func contention(err error, reads map[keyfirst.ItemID]map[string]types.AttributeValue) bool {
	var ce *CanceledError
	if !errors.As(err, &ce) || len(ce.Failed) == 0 {
		return false
	}
	read := make(map[string]bool, len(reads))
	for id := range reads {
		read[id.String()] = true
	}
	for _, f := range ce.Failed {
		conflict := errors.Is(f.Err, keyfirst.ErrVersionConflict) && read[f.Table+" "+f.Key]
		if !conflict && f.Err != ErrTransactionConflict && f.Err != ErrThrottled {
			return false
		}
	}
	return true
}
