package keyfirst

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/backoff"
)

// Options are the per-call options of the item and batch operations, set
// with functions as in the AWS SDK: defaults first, then each function in
// order. The zero value is valid. An option that does not apply to the
// operation is refused with an [*OptionError] before any request is sent.
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
	// full jitter between retries of Modify and of batches (defaults 25ms
	// and 2s).
	RetryBaseDelay, RetryMaxDelay time.Duration
}

// ConsistentRead asks Get and BatchGet for a strongly consistent read.
func ConsistentRead() func(*Options) { return func(o *Options) { o.ConsistentRead = true } }

// CreateOnly makes Put fail with [ErrAlreadyExists] instead of replacing an
// existing item.
func CreateOnly() func(*Options) { return func(o *Options) { o.CreateOnly = true } }

// WithCapacity adds the capacity consumed by the call's requests to c.
func WithCapacity(c *Capacity) func(*Options) { return func(o *Options) { o.Capacity = c } }

// WithMaxAttempts sets [Options.MaxAttempts].
func WithMaxAttempts(n int) func(*Options) { return func(o *Options) { o.MaxAttempts = n } }

// defaultModifyAttempts is Modify's attempt budget when MaxAttempts is 0.
// Each failed attempt is another writer's success. Measured with 8 writers
// making 25 increments each of one item on DynamoDB Local
// (TestModifyConcurrentIncrements under -race on a loaded 2-core machine):
// 330 to 470 attempts for the 200 calls, at most 9 to 17 for one call; the
// former budget of 10 let 1 to 6 calls of 200 give up. 100 leaves a wide
// margin; with the default delays the pauses of 99 retries last at most
// 187 s (94 s on average), and the context bounds them too.
const defaultModifyAttempts = 100

// optionSet lists the options an operation accepts besides Capacity.
type optionSet uint8

const (
	acceptConsistentRead optionSet = 1 << iota
	acceptCreateOnly
	acceptRetry
)

func buildOptions(op string, accepts optionSet, fns []func(*Options)) (Options, error) {
	var o Options
	for _, fn := range fns {
		if fn != nil {
			fn(&o)
		}
	}
	refuse := func(option, detail string) (Options, error) {
		return o, &OptionError{Op: op, Option: option, Detail: detail}
	}
	if o.ConsistentRead && accepts&acceptConsistentRead == 0 {
		return refuse("ConsistentRead", "only Get and BatchGet take it (Modify always reads consistently)")
	}
	if o.CreateOnly && accepts&acceptCreateOnly == 0 {
		return refuse("CreateOnly", "only Put takes it")
	}
	retry := o.MaxAttempts != 0 || o.RetryBaseDelay != 0 || o.RetryMaxDelay != 0
	if retry && accepts&acceptRetry == 0 {
		return refuse("MaxAttempts/RetryBaseDelay/RetryMaxDelay", "only Modify, BatchGet and BatchWrite retry")
	}
	if o.MaxAttempts < 0 {
		return refuse("MaxAttempts", fmt.Sprintf("%d; use a positive number, or 0 for the default", o.MaxAttempts))
	}
	if o.RetryBaseDelay < 0 || o.RetryMaxDelay < 0 {
		return refuse("RetryBaseDelay/RetryMaxDelay", "delays cannot be negative")
	}
	return o, nil
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
