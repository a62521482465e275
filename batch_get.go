package keyfirst

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/errfmt"
)

// BatchGetError reports the keys of a batch read that were not read: when
// the context ended, when a request failed, or when [Options.MaxAttempts]
// rounds left some unprocessed. It wraps [ErrUnprocessed] and the cause.
type BatchGetError[T any] struct {
	Unprocessed []Key[T] // in no particular order
	Total       int      // the number of keys of the batch
	Err         error    // the cause; nil when MaxAttempts ran out
}

// Error describes the failure with its facts.
func (e *BatchGetError[T]) Error() string {
	return batchErrorText(len(e.Unprocessed), e.Total, "keys", e.Err)
}

// Unwrap returns [ErrUnprocessed] and the cause.
func (e *BatchGetError[T]) Unwrap() []error { return errfmt.Causes(ErrUnprocessed, e.Err) }

// BatchGet reads the items with the given keys with BatchGetItem, in
// requests of at most 100 keys, retrying the keys DynamoDB leaves
// unprocessed as [Table.BatchWrite] does. It returns the items found, in
// the order of keys; a key without an item is skipped (compare with
// [Entity.Key] to find which). A zero or duplicate key is refused before
// any request. On a [*BatchGetError] the items read so far are returned
// with it. [ConsistentRead] asks for strongly consistent reads.
func (e *Entity[T]) BatchGet(ctx context.Context, api BatchGetItemAPI, keys []Key[T], optFns ...func(*Options)) ([]T, error) {
	o, err := buildOptions("BatchGet", acceptConsistentRead|acceptRetry, optFns)
	if err != nil {
		return nil, err
	}
	index := make(map[keyPair]int, len(keys))
	for i, k := range keys {
		if err := e.checkKey(k); err != nil {
			return nil, err
		}
		p := keyPair{pk: k.pk, sk: k.sk}
		if j, dup := index[p]; dup {
			return nil, &DuplicateKeyError{Key: k.String(), First: j, Second: i}
		}
		index[p] = i
	}
	found := make([]T, len(keys))
	have := make([]bool, len(keys))
	left, err := drain(ctx, o, len(keys), MaxBatchGet, func(ctx context.Context, chunk []int) ([]int, error) {
		ka := types.KeysAndAttributes{Keys: make([]map[string]types.AttributeValue, len(chunk))}
		for i, at := range chunk {
			ka.Keys[i] = e.keyMap(keys[at])
		}
		if o.ConsistentRead {
			ka.ConsistentRead = aws.Bool(true)
		}
		out, err := api.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{
			RequestItems:           map[string]types.KeysAndAttributes{e.table.name: ka},
			ReturnConsumedCapacity: o.returnCapacity(),
		})
		if out != nil {
			o.Capacity.AddRead(out.ConsumedCapacity...)
		}
		if err != nil {
			return nil, err
		}
		for _, item := range out.Responses[e.table.name] {
			at, ok := index[e.table.pairOf(item)]
			if !ok {
				return nil, fmt.Errorf("keyfirst: BatchGetItem returned an item that was not asked for: %v", e.keyOfItem(item))
			}
			v, err := e.decode(item)
			if err != nil {
				return nil, e.opError("BatchGet", keys[at], err)
			}
			found[at], have[at] = v, true
		}
		var unprocessed []int
		for _, k := range out.UnprocessedKeys[e.table.name].Keys {
			at, ok := index[e.table.pairOf(k)]
			if !ok {
				return nil, fmt.Errorf("keyfirst: BatchGetItem returned an unprocessed key that was not sent: %v", e.keyOfItem(k))
			}
			unprocessed = append(unprocessed, at)
		}
		return unprocessed, nil
	})
	items := make([]T, 0, len(keys))
	for i := range found {
		if have[i] {
			items = append(items, found[i])
		}
	}
	if len(left) == 0 && err == nil {
		return items, nil
	}
	be := &BatchGetError[T]{Total: len(keys), Err: err}
	for _, at := range left {
		be.Unprocessed = append(be.Unprocessed, keys[at])
	}
	return items, be
}
