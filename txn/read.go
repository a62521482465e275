package txn

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// GetAPI is the TransactGetItems operation, which *dynamodb.Client
// satisfies.
type GetAPI interface {
	TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error)
}

var _ GetAPI = (*dynamodb.Client)(nil)

// Reader is one read of a read transaction: a [*ReadOp].
type Reader interface {
	get() (types.TransactGetItem, keyfirst.ItemID, error)
	set(item map[string]types.AttributeValue) error
	// bound is the table of the read's entity (nil without entity).
	bound() *keyfirst.Table
	named
}

// ReadOp reads the item of entity type T with one key in a read
// transaction ([Get]); after it, [ReadOp.Result] returns the item.
type ReadOp[T any] struct {
	e     *keyfirst.Entity[T]
	key   keyfirst.Key[T]
	done  bool
	found bool
	item  T
	raw   map[string]types.AttributeValue
}

// Read reads the item with key of entity e.
func Read[T any](e *keyfirst.Entity[T], key keyfirst.Key[T]) *ReadOp[T] {
	return &ReadOp[T]{e: e, key: key}
}

func (r *ReadOp[T]) get() (types.TransactGetItem, keyfirst.ItemID, error) {
	if r.e == nil {
		return types.TransactGetItem{}, keyfirst.ItemID{}, errNoEntity
	}
	return r.e.TransactGet(r.key)
}

func (r *ReadOp[T]) bound() *keyfirst.Table {
	if r.e == nil {
		return nil
	}
	return r.e.Table()
}

func (r *ReadOp[T]) where() (entity, table, key string) {
	if r.e == nil {
		return "", "", ""
	}
	return r.e.Type(), r.e.Table().Name(), r.key.String()
}

func (r *ReadOp[T]) set(item map[string]types.AttributeValue) error {
	var zero T
	r.done, r.found, r.item, r.raw = true, len(item) > 0, zero, item
	if !r.found {
		return nil
	}
	v, err := r.e.Decode(item)
	if err != nil {
		return err
	}
	r.item = v
	return nil
}

// Result returns the item read. A missing item is an [*keyfirst.OpError]
// wrapping [keyfirst.ErrNotFound]; before a successful [Get] it wraps
// [ErrNotRead].
func (r *ReadOp[T]) Result() (T, error) {
	var zero T
	switch {
	case !r.done:
		return zero, r.opError(ErrNotRead)
	case !r.found:
		return zero, r.opError(keyfirst.ErrNotFound)
	}
	return r.item, nil
}

// Found reports whether the item exists (after a successful [Get]).
func (r *ReadOp[T]) Found() bool { return r.found }

func (r *ReadOp[T]) opError(err error) error {
	op := &keyfirst.OpError{Op: "TransactGet", Key: r.key.String(), Err: err}
	if r.e != nil {
		op.Entity = r.e.Type()
	}
	return op
}

// ErrNotRead: the result of a [ReadOp] asked for before a successful
// [Get].
var ErrNotRead = errors.New("txn: not read yet")

// Get reads every item of reads in one TransactGetItems: a consistent
// snapshot of items of several entity types and tables, each decoded into
// its type ([ReadOp.Result]); a missing item is no error of Get, its
// Result is [keyfirst.ErrNotFound]. Before any request Get refuses an
// empty read, more than [MaxActions] items, two reads of one item
// ([*LimitError]) and a read that cannot be built, such as a key of
// another entity type ([*ActionError]). An item stored under a key with
// another entity type is an [*ActionError] wrapping
// [keyfirst.ErrWrongEntityType].
func Get(ctx context.Context, api GetAPI, reads []Reader, optFns ...func(*keyfirst.Options)) error {
	o, err := buildOptions("Get", optFns)
	if err != nil {
		return err
	}
	if o.Token != "" || o.ContentToken || o.MaxAttempts != 0 || o.RetryBaseDelay != 0 || o.RetryMaxDelay != 0 {
		return &keyfirst.OptionError{Op: "Get", Option: "Token/ContentToken/MaxAttempts/RetryBaseDelay/RetryMaxDelay", Detail: "only Write and Run take them"}
	}
	_, err = get(ctx, api, reads, o)
	return err
}

// get reads reads and returns the items as stored, by position.
func get(ctx context.Context, api GetAPI, reads []Reader, o options) ([]map[string]types.AttributeValue, error) {
	if len(reads) == 0 {
		return nil, &LimitError{Err: ErrEmpty}
	}
	if len(reads) > MaxActions {
		return nil, &LimitError{Err: ErrTooManyActions, Count: len(reads), Limit: MaxActions}
	}
	items := make([]types.TransactGetItem, len(reads))
	var seen seenItems
	ids := make([]keyfirst.ItemID, len(reads))
	idOf := func(k int) keyfirst.ItemID { return ids[k] }
	for i, r := range reads {
		if r == nil {
			return nil, &ActionError{Position: i, Err: errNilAction}
		}
		item, id, err := r.get()
		if err != nil {
			return nil, actionError(i, r, "", err)
		}
		if j, dup := seen.add(&id, i, idOf); dup {
			return nil, &LimitError{Err: ErrSameItem, First: j, Second: i, Item: id.String()}
		}
		items[i], ids[i] = item, id
	}
	in := &dynamodb.TransactGetItemsInput{
		TransactItems:          items,
		ReturnConsumedCapacity: o.returnCapacity(),
	}
	out, err := keyfirst.SendExplained(ctx, reads[0].bound(), keyfirst.Request{Call: "txn.Get", Input: in},
		func(ctx context.Context) (*dynamodb.TransactGetItemsOutput, error) {
			return api.TransactGetItems(ctx, in)
		},
		func(_ *dynamodb.TransactGetItemsOutput, err error) error {
			if err == nil {
				return nil
			}
			if ce, _, _ := explainGet(err, reads); ce != nil {
				return ce
			}
			return fmt.Errorf("txn: TransactGetItems: %w", err)
		})
	if out != nil && o.Capacity != nil {
		o.Capacity.AddRead(out.ConsumedCapacity...)
	}
	if err != nil {
		return nil, err
	}
	if len(out.Responses) != len(reads) {
		return nil, fmt.Errorf("txn: TransactGetItems returned %d responses for %d reads", len(out.Responses), len(reads))
	}
	raw := make([]map[string]types.AttributeValue, len(reads))
	for i, r := range reads {
		raw[i] = out.Responses[i].Item
		if err := r.set(raw[i]); err != nil {
			return nil, actionError(i, r, "", err)
		}
	}
	return raw, nil
}

// explainGet turns a cancelled TransactGetItems (a conflict with a write
// transaction, throttling) into a [*CanceledError].
func explainGet(err error, reads []Reader) (*CanceledError, bool, error) {
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		return nil, false, err
	}
	ce := &CanceledError{}
	for i, r := range tce.CancellationReasons {
		code := reasonCode(r)
		if code == "" || i >= len(reads) {
			continue
		}
		ce.Failed = append(ce.Failed, actionError(i, reads[i], code, reasonError(code)))
	}
	return ce, true, ce
}
