package txn

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/backoff"
)

// DynamoDB's limits on one transaction.
const (
	// MaxActions is the most items one TransactWriteItems or
	// TransactGetItems takes.
	MaxActions = 100
	// MaxBytes is the most the items of one transaction may add up to:
	// 4 MB.
	MaxBytes = 4 * 1024 * 1024
)

// WriteAPI is the TransactWriteItems operation, which *dynamodb.Client
// satisfies.
type WriteAPI interface {
	TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error)
}

var _ WriteAPI = (*dynamodb.Client)(nil)

// options are what [Write], [Get] and [Run] take of [keyfirst.Options]:
// [keyfirst.WithCapacity] (the consumed capacity of every request,
// ReturnConsumedCapacity=INDEXES), [keyfirst.WithMaxAttempts] (the
// attempts of Write, default 5, while DynamoDB cancels the transaction
// only for conflicts with other transactions or throttling, and of Run,
// default 100, while other writers change what it read), the retry delays
// RetryBaseDelay and RetryMaxDelay (the exponential backoff with full
// jitter between attempts, defaults 25ms and 2s), and the package's own
// [Token] and [ContentToken].
type options struct {
	// Token is the client request token of a write transaction: DynamoDB
	// applies a transaction sent again with the same token (within 10
	// minutes) once, and refuses the token with another transaction
	// ([ErrTokenReused]). At most 36 characters of a-z, A-Z, 0-9 and '-'.
	Token string
	// ContentToken derives the token from the transaction's content: a
	// hash of the request as sent, its maps in sorted order. Sending the
	// same transaction again is then a no-op within the idempotency
	// window, even from another process; see the package documentation
	// for when that is wrong.
	ContentToken bool
	Capacity     *keyfirst.Capacity
	MaxAttempts  int

	RetryBaseDelay, RetryMaxDelay time.Duration
}

// token and contentToken are the values of the settings Token and
// ContentToken.
type (
	token        string
	contentToken struct{}
)

// Token sets the client request token of a write transaction: DynamoDB
// applies a transaction sent again with the same token (within 10
// minutes) once, and refuses the token with another transaction
// ([ErrTokenReused]). At most 36 characters of a-z, A-Z, 0-9 and '-'.
func Token(t string) func(*keyfirst.Options) { return keyfirst.WithSetting("Token", token(t)) }

// ContentToken derives the token of a write transaction from its content:
// a hash of the request as sent, its maps in sorted order. Sending the
// same transaction again is then a no-op within the idempotency window,
// even from another process; see the package documentation for when that
// is wrong.
func ContentToken() func(*keyfirst.Options) {
	return keyfirst.WithSetting("ContentToken", contentToken{})
}

// Default attempts of Write (conflicts and throttling only) and Run.
const (
	defaultWriteAttempts = 5
	defaultRunAttempts   = 100
)

func buildOptions(op string, fns []func(*keyfirst.Options)) (options, error) {
	ko, err := keyfirst.Apply(op, fns)
	if err != nil {
		return options{}, err
	}
	o := options{Capacity: ko.Capacity, MaxAttempts: ko.MaxAttempts, RetryBaseDelay: ko.RetryBaseDelay, RetryMaxDelay: ko.RetryMaxDelay}
	take := func(s keyfirst.Setting) bool {
		switch v := s.Value.(type) {
		case token:
			o.Token = string(v)
		case contentToken:
			o.ContentToken = true
		default:
			return false
		}
		return true
	}
	if err := ko.Refuse(op, take, "a transaction takes Token and ContentToken of package txn only"); err != nil {
		return o, err
	}
	refuse := func(option, detail string) (options, error) {
		return o, &keyfirst.OptionError{Op: op, Option: option, Detail: detail}
	}
	if err := ko.RefuseOthers(op, keyfirst.TakesRetries, "a transaction takes WithCapacity, WithMaxAttempts, the retry delays, Token and ContentToken"); err != nil {
		return o, err
	}
	switch {
	case o.Token != "" && o.ContentToken:
		return refuse("Token/ContentToken", "set one or the other")
	case o.Token != "" && !validToken(o.Token):
		return refuse("Token", fmt.Sprintf("%q: DynamoDB takes 1 to 36 characters of a-z, A-Z, 0-9 and '-'", o.Token))
	}
	return o, nil
}

func (o options) attempts(def int) int {
	if o.MaxAttempts == 0 {
		return def
	}
	return o.MaxAttempts
}

func (o options) returnCapacity() types.ReturnConsumedCapacity {
	if o.Capacity == nil {
		return ""
	}
	return types.ReturnConsumedCapacityIndexes
}

// Write writes actions in one TransactWriteItems: all of them or none.
// Each action is built by the same item plan as the single writes, so a
// transaction derives every key, enters and leaves every sparse and
// sharded index, guards the entity type and checks and increments the
// version as Put, Replace and Delete do.
//
// Before any request Write refuses an action that cannot be built (an
// [*ActionError] naming it), an empty transaction, more than [MaxActions]
// items, more than [MaxBytes], and two actions on one item
// ([*LimitError]). When DynamoDB cancels the transaction the error is a
// [*CanceledError] naming each failed action and why; errors.Is(err,
// keyfirst.ErrVersionConflict) and friends hold on it. A cancellation due
// only to conflicts with other transactions or to throttling is retried,
// with the same token, up to [keyfirst.WithMaxAttempts] attempts (default 5).
//
// Every request carries a client request token: [Token], one
// derived from the content ([ContentToken]), or else a random one
// made for this call and kept for its retries. The SDK never fills in a
// token of its own, so nothing of the caller's is ever modified.
func Write(ctx context.Context, api WriteAPI, actions []Action, optFns ...func(*keyfirst.Options)) error {
	o, err := buildOptions("Write", optFns)
	if err != nil {
		return err
	}
	return write(ctx, api, actions, builder{}, o, o.attempts(defaultWriteAttempts))
}

// write builds the transaction of actions and sends it.
func write(ctx context.Context, api WriteAPI, actions []Action, b builder, o options, attempts int) error {
	steps, err := buildSteps(actions, b)
	if err != nil {
		return err
	}
	// A token the caller set or derives may be sent again, by another
	// call: its body must be the same bytes. A random token is sent again
	// only by the SDK's retries, which resend the serialized body.
	canonical := o.Token != "" || o.ContentToken
	if err := o.tokenize(); err != nil {
		return err
	}
	var items []types.TransactWriteItem // made with the first attempt's request
	policy := backoff.Policy{Base: o.RetryBaseDelay, Max: o.RetryMaxDelay}
	for attempt := 1; ; attempt++ {
		r := &request{in: dynamodb.TransactWriteItemsInput{ReturnConsumedCapacity: o.returnCapacity()}}
		if items == nil {
			items = r.itemsOf(steps)
		}
		r.in.TransactItems = items
		var canon *canonicalBody
		if canonical {
			r.canon = canonicalBody{derive: o.ContentToken}
			canon = &r.canon
		}
		r.opts[0] = sdkOptions(canon)
		if o.Token != "" {
			r.token = o.Token
			r.in.ClientRequestToken = &r.token
		}
		in := &r.in
		var ce *CanceledError
		var retry bool
		out, err := keyfirst.SendExplained(ctx, actions[0].bound(), keyfirst.Request{Call: "txn.Write", Seq: attempt, Input: in},
			func(ctx context.Context) (*dynamodb.TransactWriteItemsOutput, error) {
				return api.TransactWriteItems(ctx, in, r.opts[:]...)
			},
			func(_ *dynamodb.TransactWriteItemsOutput, err error) error {
				if err == nil {
					return nil
				}
				ce, retry, err = explain(err, steps, o.Token+canon.derived())
				if ce != nil {
					ce.Attempts = attempt
				}
				return err
			})
		if out != nil {
			o.Capacity.AddWrite(out.ConsumedCapacity...)
		}
		if err == nil {
			for _, a := range actions {
				a.commit()
			}
			return nil
		}
		if ce == nil || !retry || attempt >= attempts {
			return err
		}
		if err := backoff.Sleep(ctx, policy.Delay(attempt-1)); err != nil {
			return errors.Join(err, ce)
		}
	}
}

// request is one attempt's TransactWriteItems, made at once: its input,
// the token the input points to, the SDK options of the call and the
// canonical body they may set, and room for the items of a small
// transaction (the first attempt's, which later attempts send again).
type request struct {
	in    dynamodb.TransactWriteItemsInput
	token string
	opts  [1]func(*dynamodb.Options)
	canon canonicalBody
	room  [requestRoom]types.TransactWriteItem
}

// requestRoom is the most items a [request] holds itself.
const requestRoom = 16

// itemsOf returns the items of steps as TransactWriteItems takes them, in
// r's room when they fit.
func (r *request) itemsOf(steps []step) []types.TransactWriteItem {
	var items []types.TransactWriteItem
	if len(steps) <= requestRoom {
		items = r.room[:len(steps)]
	} else {
		items = make([]types.TransactWriteItem, len(steps))
	}
	for i := range steps {
		items[i] = steps[i].action()
	}
	return items
}

// buildSteps builds every action, and refuses before any request what
// DynamoDB would refuse; each step records the position of its action.
func buildSteps(actions []Action, b builder) ([]step, error) {
	if len(actions) == 0 {
		return nil, &LimitError{Err: ErrEmpty}
	}
	steps := make([]step, 0, len(actions))
	size := 0
	var seen seenItems
	idOf := func(k int) keyfirst.ItemID { return steps[k].id() } // each step is added in order
	for i, a := range actions {
		if a == nil {
			return nil, &ActionError{Position: i, Err: errNilAction}
		}
		n := len(steps)
		var err error
		if steps, err = a.appendSteps(b, steps, i); err != nil {
			return nil, actionError(i, a, "", err)
		}
		for k := n; k < len(steps); k++ {
			s := &steps[k]
			id := s.id()
			if j, dup := seen.add(&id, i, idOf); dup {
				return nil, &LimitError{Err: ErrSameItem, First: j, Second: i, Item: id.String()}
			}
			size += s.size()
			s.at = i
		}
	}
	switch {
	case len(steps) > MaxActions:
		return nil, &LimitError{Err: ErrTooManyActions, Count: len(steps), Limit: MaxActions}
	case size > MaxBytes:
		return nil, &LimitError{Err: ErrTooLarge, Count: size, Limit: MaxBytes}
	}
	return steps, nil
}

var errNilAction = errors.New("txn: nil action")

// explain turns the error of TransactWriteItems into the package's: a
// cancellation into a [*CanceledError] (and whether every reason is worth
// a retry: conflicts and throttling), a reused token into a [*TokenError].
func explain(err error, steps []step, token string) (*CanceledError, bool, error) {
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		var mismatch *types.IdempotentParameterMismatchException
		if errors.As(err, &mismatch) {
			return nil, false, &TokenError{Token: token, Err: err}
		}
		return nil, false, fmt.Errorf("txn: TransactWriteItems: %w", err)
	}
	ce := &CanceledError{}
	retry := true
	for i, r := range tce.CancellationReasons {
		code := reasonCode(r)
		if code == "" || i >= len(steps) {
			continue
		}
		s := &steps[i]
		ae := &ActionError{Position: s.at, Part: s.part(), Table: s.id().Table(), Entity: s.entity(), Key: s.keyText(),
			Reason: code, Message: aws.ToString(r.Message), Err: reasonError(code)}
		if code == "ConditionalCheckFailed" {
			ae.Err = s.explain(r.Item)
		}
		retry = retry && (ae.Err == ErrTransactionConflict || ae.Err == ErrThrottled)
		ce.Failed = append(ce.Failed, ae)
	}
	if len(ce.Failed) == 0 {
		return ce, false, errors.Join(ce, err) // no reason given: keep the SDK's error
	}
	return ce, retry, ce
}

// reasonCode is the code of a cancellation reason, "" for None.
func reasonCode(r types.CancellationReason) string {
	if c := aws.ToString(r.Code); c != "None" {
		return c
	}
	return ""
}

// reasonError is the sentinel of a cancellation reason other than a
// failed condition.
func reasonError(code string) error {
	switch code {
	case "TransactionConflict":
		return ErrTransactionConflict
	case "ThrottlingError", "ProvisionedThroughputExceeded", "RequestLimitExceeded":
		return ErrThrottled
	case "ItemCollectionSizeLimitExceeded":
		return ErrItemCollectionTooLarge
	}
	return ErrValidation
}
