package keyfirst

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/errfmt"
)

// WriteRequest is one put or delete of [Table.BatchWrite], built by
// [Entity.PutRequest] or [Entity.DeleteRequest]. A request that could not
// be built carries its error, which BatchWrite returns before sending
// anything.
type WriteRequest struct {
	table  *Table
	entity string
	key    keyPair
	put    map[string]types.AttributeValue
	del    map[string]types.AttributeValue
	value  any
	err    error
}

// Value returns what the request was built from: the T of a put, the
// Key[T] of a delete.
func (r WriteRequest) Value() any { return r.value }

// IsDelete reports whether the request is a delete.
func (r WriteRequest) IsDelete() bool { return r.del != nil }

// Key prints the request's key, as [Key.String] does.
func (r WriteRequest) Key() string { return Key[struct{}]{pk: r.key.pk, sk: r.key.sk}.String() }

// PutRequest builds a put of item for [Table.BatchWrite], with the same
// derived attributes as [Entity.Put] (the attributes of the indexes the
// item does not belong to are left out). BatchWriteItem takes no
// condition, so unlike Put a batch put does not check that an item already
// stored under the key is of this entity type: it replaces whatever is
// there. For the same reason a versioned entity cannot be batch-written,
// nor an entity with a created time ([EntitySpec.Created]): a batch put
// would overwrite the stored one ([ItemCreated]); use Put. An updated
// time is the entity's clock's, as for every write.
func (e *Entity[T]) PutRequest(item T) WriteRequest {
	r := WriteRequest{table: e.table, entity: e.typeName, value: item}
	if e.version != "" {
		r.err = e.versionedBatch()
		return r
	}
	if err := e.uniqueRefused("BatchWrite", nil, "txn.Unique.Create or txn.Unique.Change",
		"BatchWriteItem takes no condition, so a batch put could create an item or change its value without its marker"); err != nil {
		r.err = err
		return r
	}
	if e.keepsCreated() {
		r.err = &ItemError{Entity: e.typeName, Attribute: e.life.created, Problem: ItemCreated,
			Detail: "BatchWriteItem takes neither a condition nor an update expression, so it would overwrite the stored created time; use Put (or a transaction)"}
		return r
	}
	p, err := e.plan(&item, -1)
	if err != nil {
		r.err = err
		return r
	}
	r.put = p.item
	r.key = keyPair{pk: p.key.pk, sk: p.key.sk}
	return r
}

// DeleteRequest builds a delete of the item with key for [Table.BatchWrite].
// A batch delete is unconditional: it does not check the stored item's
// entity type or version, so versioned entities are refused (use Delete).
func (e *Entity[T]) DeleteRequest(key Key[T]) WriteRequest {
	r := WriteRequest{table: e.table, entity: e.typeName, value: key}
	if e.version != "" {
		r.err = e.versionedBatch()
		return r
	}
	if err := e.uniqueRefused("BatchWrite", nil, "txn.Unique.Delete", "a batch delete drops the value and leaves its marker holding it"); err != nil {
		r.err = err
		return r
	}
	if err := e.checkKey(key); err != nil {
		r.err = err
		return r
	}
	r.del = e.keyMap(key)
	r.key = keyPair{pk: key.pk, sk: key.sk}
	return r
}

func (e *Entity[T]) versionedBatch() error {
	return &ItemError{Entity: e.typeName, Attribute: e.version, Problem: ItemVersioned,
		Detail: "BatchWriteItem cannot check versions; use Put, Replace or Delete"}
}

// BatchWriteError reports the requests of a batch write that were not
// processed: when the context ended, when a request failed, or when
// [Options.MaxAttempts] rounds left some unprocessed. The others were
// written. It wraps [ErrUnprocessed] and the cause.
type BatchWriteError struct {
	Unprocessed []WriteRequest // in no particular order
	Total       int            // the number of requests of the batch
	Err         error          // the cause; nil when MaxAttempts ran out
}

// Error describes the failure with its facts.
func (e *BatchWriteError) Error() string {
	return batchErrorText(len(e.Unprocessed), e.Total, "requests", e.Err)
}

// Unwrap returns [ErrUnprocessed] and the cause.
func (e *BatchWriteError) Unwrap() []error { return errfmt.Causes(ErrUnprocessed, e.Err) }

// BatchWrite writes reqs with BatchWriteItem, in requests of at most 25,
// and retries the items DynamoDB leaves unprocessed (under throttling) with
// exponential backoff and full jitter until every one is written, the
// context ends, or [Options.MaxAttempts] consecutive responses leave items
// unprocessed; what is left is reported in a [*BatchWriteError].
//
// Before sending anything it refuses a request that could not be built,
// an empty request, a request of another table, and two requests with the
// same key ([*DuplicateKeyError]). Each item is written on its own: a batch
// is not a transaction.
func (t *Table) BatchWrite(ctx context.Context, api BatchWriteItemAPI, reqs []WriteRequest, optFns ...func(*Options)) error {
	o, err := buildOptions("BatchWrite", TakesRetries, optFns)
	if err != nil {
		return err
	}
	index := make(map[keyPair]int, len(reqs))
	for i, r := range reqs {
		switch {
		case r.err != nil:
			return r.err
		case r.put == nil && r.del == nil:
			return &OptionError{Op: "BatchWrite", Option: fmt.Sprintf("request %d", i),
				Detail: "the zero WriteRequest; build requests with Entity.PutRequest or Entity.DeleteRequest"}
		case !t.SameSchema(r.table):
			return &OptionError{Op: "BatchWrite", Option: fmt.Sprintf("request %d", i),
				Detail: fmt.Sprintf("it belongs to table %q, whose description is not that of %q", r.table.name, t.name)}
		}
		if j, dup := index[r.key]; dup {
			return &DuplicateKeyError{Key: r.Key(), First: j, Second: i}
		}
		index[r.key] = i
	}
	seq := 0
	left, err := drain(ctx, o, len(reqs), MaxBatchWrite, func(ctx context.Context, chunk []int) ([]int, error) {
		wrs := make([]types.WriteRequest, len(chunk))
		for i, at := range chunk {
			if r := reqs[at]; r.put != nil {
				wrs[i].PutRequest = &types.PutRequest{Item: r.put}
			} else {
				wrs[i].DeleteRequest = &types.DeleteRequest{Key: r.del}
			}
		}
		in := &dynamodb.BatchWriteItemInput{
			RequestItems:           map[string][]types.WriteRequest{t.name: wrs},
			ReturnConsumedCapacity: o.returnCapacity(),
		}
		seq++
		out, err := Send(ctx, t, Request{Call: "BatchWrite", Seq: seq, Input: in},
			func(ctx context.Context) (*dynamodb.BatchWriteItemOutput, error) { return api.BatchWriteItem(ctx, in) })
		if out != nil {
			o.Capacity.AddWrite(out.ConsumedCapacity...)
		}
		if err != nil {
			return nil, err
		}
		var unprocessed []int
		for _, w := range out.UnprocessedItems[t.name] {
			var m map[string]types.AttributeValue
			switch {
			case w.PutRequest != nil:
				m = w.PutRequest.Item
			case w.DeleteRequest != nil:
				m = w.DeleteRequest.Key
			}
			at, ok := index[t.pairOf(m)]
			if !ok {
				return nil, fmt.Errorf("keyfirst: BatchWriteItem returned an unprocessed item that was not sent: %v", t.pairOf(m))
			}
			unprocessed = append(unprocessed, at)
		}
		return unprocessed, nil
	})
	if len(left) == 0 && err == nil {
		return nil
	}
	be := &BatchWriteError{Total: len(reqs), Err: err}
	for _, at := range left {
		be.Unprocessed = append(be.Unprocessed, reqs[at])
	}
	return be
}

func batchErrorText(left, total int, what string, cause error) string {
	s := fmt.Sprintf("%v: %d of %d %s", ErrUnprocessed, left, total, what)
	if cause != nil {
		return s + ": " + cause.Error()
	}
	return s + ": MaxAttempts rounds left them unprocessed"
}
