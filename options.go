package keyfirst

import (
	"bytes"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/backoff"
)

// Options are the per-call options of every operation of every keyfirst
// package: the item and batch operations here, the queries, scans and
// shard reads of packages query and shard, the transactions of package
// txn, a backfill of package migrate. They are set with functions as in
// the AWS SDK, defaults first, then each function in order, and a concept
// has one option wherever it applies: [WithCapacity], [WithMaxAttempts],
// [WithCursorKey], [WithNext]. The zero value is valid. An option that
// does not apply to the operation is refused with an [*OptionError]
// before any request is sent.
type Options struct {
	// ConsistentRead asks for a strongly consistent read (Get, BatchGet).
	ConsistentRead bool
	// CreateOnly makes Put fail with [ErrAlreadyExists] when an item with
	// the key exists.
	CreateOnly bool
	// Capacity, when set, receives the consumed capacity of every request
	// the call sends (ReturnConsumedCapacity=INDEXES), added to what it
	// holds. A write refused by its condition reports nothing: DynamoDB's
	// ConditionalCheckFailedException carries no capacity figures (AWS
	// still bills the attempt).
	Capacity *Capacity
	// MaxAttempts bounds the attempts of Modify (default 100: it retries
	// while other writers' writes come first, see [Entity.Modify]) and the
	// rounds of a batch that leave items unprocessed (default 0: retry until
	// done or until the context ends).
	MaxAttempts int
	// RetryBaseDelay and RetryMaxDelay shape the exponential backoff with
	// full jitter between retries of Modify, of batches and of
	// transactions (defaults 25ms and 2s).
	RetryBaseDelay, RetryMaxDelay time.Duration
	// CursorKey, when set, signs every cursor and checkpoint a query,
	// shard read, re-shard pass or backfill makes with HMAC-SHA256, and
	// refuses those that do not verify: a random secret of at least
	// [MinCursorKey] bytes, the same for the call that makes a cursor and
	// the one that resumes from it. The item operations take none.
	CursorKey []byte
	// Settings are the settings that only one package's calls take, set
	// by that package's option functions (query's and shard's cursor with
	// [WithNext], txn.Token, shard.WithCost, ...); a call of another
	// package refuses them.
	Settings []Setting

	attempt int // Modify's attempt, for Request.Seq (0: a call of one request)
}

// Setting is a setting that only one package's calls take, kept in
// [Options.Settings]: Name is its option function, for an [*OptionError],
// and Value holds it, of a type of the package that takes it.
type Setting struct {
	Name  string
	Value any
}

// MinCursorKey is the shortest [Options.CursorKey] accepted, in bytes.
const MinCursorKey = 16

// ConsistentRead asks Get and BatchGet for a strongly consistent read.
func ConsistentRead() func(*Options) { return func(o *Options) { o.ConsistentRead = true } }

// CreateOnly makes Put fail with [ErrAlreadyExists] instead of replacing an
// existing item.
func CreateOnly() func(*Options) { return func(o *Options) { o.CreateOnly = true } }

// WithCapacity adds the capacity consumed by the call's requests to c.
func WithCapacity(c *Capacity) func(*Options) { return func(o *Options) { o.Capacity = c } }

// WithMaxAttempts sets [Options.MaxAttempts] of the calls that retry:
// Modify, BatchGet, BatchWrite, txn.Write and txn.Run.
func WithMaxAttempts(n int) func(*Options) { return func(o *Options) { o.MaxAttempts = n } }

// WithCursorKey sets [Options.CursorKey]; key is copied.
func WithCursorKey(key []byte) func(*Options) {
	key = bytes.Clone(key)
	return func(o *Options) { o.CursorKey = key }
}

// WithNext stores in c the cursor that resumes after the last item the
// call returned, however it stopped: a *query.Cursor for a query's calls,
// a *shard.Cursor for a shard read's (see query.Query.All and
// shard.Reader.All). A cursor of another kind is refused with an
// [*OptionError] before any request.
func WithNext[C ~string](c *C) func(*Options) { return WithSetting("WithNext", c) }

// WithSetting is the option function of a setting that only one package's
// calls take (see [Options.Settings]): the packages declare their own
// options with it.
func WithSetting(name string, value any) func(*Options) {
	return func(o *Options) { o.Settings = append(o.Settings, Setting{Name: name, Value: value}) }
}

// Apply applies fns in order to the zero Options, for the packages whose
// calls take them. It refuses, with an [*OptionError] naming op, a
// negative MaxAttempts or delay and a CursorKey shorter than
// [MinCursorKey]; each call then refuses the settings it does not take.
func Apply(op string, fns []func(*Options)) (Options, error) {
	if len(fns) == 0 {
		return Options{}, nil // the zero Options, valid; not made on the heap
	}
	return apply(op, fns)
}

// apply is Apply of at least one option function, whose Options escape to
// the heap: the functions are given their address.
func apply(op string, fns []func(*Options)) (Options, error) {
	var o Options
	for _, fn := range fns {
		if fn != nil {
			fn(&o)
		}
	}
	refuse := func(option, detail string) (Options, error) {
		return o, &OptionError{Op: op, Option: option, Detail: detail}
	}
	switch {
	case o.MaxAttempts < 0:
		return refuse("MaxAttempts", fmt.Sprintf("%d; use a positive number, or 0 for the default", o.MaxAttempts))
	case o.RetryBaseDelay < 0 || o.RetryMaxDelay < 0:
		return refuse("RetryBaseDelay/RetryMaxDelay", "delays cannot be negative")
	case len(o.CursorKey) > 0 && len(o.CursorKey) < MinCursorKey:
		return refuse("CursorKey", fmt.Sprintf("%d bytes; use a random secret of 32 bytes (at least %d)", len(o.CursorKey), MinCursorKey))
	}
	return o, nil
}

// Retries reports whether o sets MaxAttempts or a retry delay.
func (o Options) Retries() bool {
	return o.MaxAttempts != 0 || o.RetryBaseDelay != 0 || o.RetryMaxDelay != 0
}

// Refuse is the [*OptionError] of op for the first of o's [Options.Settings]
// that take does not accept (nil when it accepts every one).
func (o Options) Refuse(op string, take func(Setting) bool, detail string) error {
	for _, s := range o.Settings {
		if !take(s) {
			return &OptionError{Op: op, Option: s.Name, Detail: fmt.Sprintf("%s (a %T)", detail, s.Value)}
		}
	}
	return nil
}

// defaultModifyAttempts is Modify's attempt budget when MaxAttempts is 0.
// Each failed attempt is another writer's success. Measured with 8 writers
// making 25 increments each of one item on DynamoDB Local
// (TestModifyConcurrentIncrements under -race on a loaded 2-core machine):
// 330 to 470 attempts for the 200 calls, at most 9 to 17 for one call; the
// former budget of 10 let 1 to 6 calls of 200 give up. 100 leaves a wide
// margin; with the default delays the pauses of 99 retries last at most
// 187 s (94 s on average), and the context bounds them too.
const defaultModifyAttempts = 100

// Takes lists the options of [Options] besides Capacity and the Settings
// that a call takes: [Options.RefuseOthers] refuses the others.
type Takes uint8

// The options a call may take.
const (
	TakesConsistentRead Takes = 1 << iota
	TakesCreateOnly
	TakesRetries // MaxAttempts, RetryBaseDelay, RetryMaxDelay
	TakesCursorKey
)

// RefuseOthers is the [*OptionError] of op for the first option of o that
// takes does not list (nil when o sets none of them): ConsistentRead,
// CreateOnly, the retry options, CursorKey. detail says what op takes;
// the error adds which calls take the option refused.
func (o Options) RefuseOthers(op string, takes Takes, detail string) error {
	for _, c := range []struct {
		set          bool
		take         Takes
		option, hint string
	}{
		{o.ConsistentRead, TakesConsistentRead, "ConsistentRead", "Get and BatchGet take it (Modify and transactions always read consistently)"},
		{o.CreateOnly, TakesCreateOnly, "CreateOnly", "only Put takes it (txn.Create in a transaction)"},
		{o.Retries(), TakesRetries, "MaxAttempts/RetryBaseDelay/RetryMaxDelay", "Modify, the batches, transactions and re-shard passes retry"},
		{o.CursorKey != nil, TakesCursorKey, "CursorKey", "queries, shard reads, re-shard passes and backfills take it"},
	} {
		if c.set && takes&c.take == 0 {
			return &OptionError{Op: op, Option: c.option, Detail: c.hint + "; " + detail}
		}
	}
	return nil
}

func buildOptions(op string, takes Takes, fns []func(*Options)) (Options, error) {
	if len(fns) == 0 {
		return Options{}, nil // the zero Options sets nothing to refuse
	}
	o, err := Apply(op, fns)
	if err != nil {
		return o, err
	}
	if err := o.Refuse(op, func(Setting) bool { return false }, "an option of another package's calls"); err != nil {
		return o, err
	}
	return o, o.RefuseOthers(op, takes, op+" does not take it")
}

func (o Options) backoff() backoff.Policy {
	return backoff.Policy{Base: o.RetryBaseDelay, Max: o.RetryMaxDelay}
}

// returnCapacity is the ReturnConsumedCapacity setting of a request.
func (o Options) returnCapacity() types.ReturnConsumedCapacity {
	if o.Capacity == nil {
		return ""
	}
	return types.ReturnConsumedCapacityIndexes
}
