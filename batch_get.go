package keyfirst

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/codec"
	"github.com/keyfirst/keyfirst/internal/errfmt"
)

// BatchGetError reports a batch read that did not return every item it
// found: the keys that were not read (when the context ended, when a
// request failed, or when [Options.MaxAttempts] rounds left some
// unprocessed), and the items that were read but could not be decoded,
// each an [*OpError] with its key in Err. Each key is reported once: as
// returned, as unprocessed, or in Err. It wraps [ErrUnprocessed] when
// some keys are unprocessed, and the cause.
type BatchGetError[T any] struct {
	Unprocessed []Key[T] // in no particular order
	Total       int      // the number of keys of the batch
	Err         error    // the cause (and decode errors); nil when MaxAttempts ran out
}

// Error describes the failure with its facts.
func (e *BatchGetError[T]) Error() string {
	if len(e.Unprocessed) == 0 && e.Err != nil {
		return fmt.Sprintf("keyfirst: BatchGet of %d keys: %v", e.Total, e.Err)
	}
	return batchErrorText(len(e.Unprocessed), e.Total, "keys", e.Err)
}

// Unwrap returns [ErrUnprocessed] (when some keys are unprocessed) and the
// cause.
func (e *BatchGetError[T]) Unwrap() []error {
	if len(e.Unprocessed) == 0 && e.Err != nil {
		return []error{e.Err}
	}
	return errfmt.Causes(ErrUnprocessed, e.Err)
}

// BatchGet reads the items with the given keys with BatchGetItem, in
// requests of at most 100 keys, retrying the keys DynamoDB leaves
// unprocessed as [Table.BatchWrite] does. It returns the items found, in
// the order of keys; a key without an item is skipped (compare with
// [Entity.Key] to find which). A zero or duplicate key is refused before
// any request. An item that cannot be decoded does not stop the batch: the
// others are returned, with a [*BatchGetError] whose Err names it. On a
// [*BatchGetError] the items read so far are returned with it.
// [ConsistentRead] asks for strongly consistent reads.
func (e *Entity[T]) BatchGet(ctx context.Context, api BatchGetItemAPI, keys []Key[T], optFns ...func(*Options)) ([]T, error) {
	o, err := buildOptions("BatchGet", TakesConsistentRead|TakesRetries, optFns)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		if err := e.checkKey(k); err != nil {
			return nil, err
		}
	}
	if j, i, dup := firstDuplicate(keys, func(k *Key[T]) (pk, sk *keyPart) { return &k.pk, &k.sk }); dup {
		return nil, &DuplicateKeyError{Key: keys[i].String(), First: j, Second: i}
	}
	found := make([]T, len(keys))
	have := make([]bool, len(keys))
	var undecodable []error
	sent := make(map[keyPair]int, min(MaxBatchGet, len(keys))) // the keys of the chunk sent, by pair
	var ats []int
	seq := 0
	left, err := drain(ctx, o, len(keys), MaxBatchGet, nil, func(ctx context.Context, chunk, unprocessed []int) ([]int, error) {
		ka := types.KeysAndAttributes{Keys: make([]map[string]types.AttributeValue, len(chunk))}
		var sl codec.Slab // the request's key values, together
		sl.Reset(e.keyValues()*len(chunk), 0)
		for i, at := range chunk {
			ka.Keys[i] = e.keyMapIn(keys[at], &sl)
		}
		if o.ConsistentRead {
			ka.ConsistentRead = aws.Bool(true)
		}
		in := &dynamodb.BatchGetItemInput{
			RequestItems:           map[string]types.KeysAndAttributes{e.table.name: ka},
			ReturnConsumedCapacity: o.returnCapacity(),
		}
		seq++
		out, err := Send(ctx, e.table, Request{Call: "BatchGet", Entity: e.typeName, Seq: seq, Input: in},
			func(ctx context.Context) (*dynamodb.BatchGetItemOutput, error) { return api.BatchGetItem(ctx, in) })
		if out != nil {
			o.Capacity.AddRead(out.ConsumedCapacity...)
		}
		if err != nil {
			return nil, err
		}
		// Match the whole response before taking anything from it: a
		// response refused is the chunk unprocessed, nothing else.
		clear(sent)
		for _, at := range chunk {
			sent[keyPair{pk: keys[at].pk, sk: keys[at].sk}] = at
		}
		items := out.Responses[e.table.name]
		ats = ats[:0]
		for _, item := range items {
			at, ok := sent[e.table.pairOf(item)]
			if !ok {
				return nil, fmt.Errorf("keyfirst: BatchGetItem returned an item that was not asked for: %v", e.keyOfItem(item))
			}
			ats = append(ats, at)
		}
		for _, k := range out.UnprocessedKeys[e.table.name].Keys {
			at, ok := sent[e.table.pairOf(k)]
			if !ok {
				return nil, fmt.Errorf("keyfirst: BatchGetItem returned an unprocessed key that was not sent: %v", e.keyOfItem(k))
			}
			unprocessed = append(unprocessed, at)
		}
		for i, item := range items {
			// In place: no copy of T.
			if err := e.DecodeTo(item, &found[ats[i]]); err != nil {
				undecodable = append(undecodable, e.opError("BatchGet", keys[ats[i]], err))
				continue
			}
			have[ats[i]] = true
		}
		return unprocessed, nil
	})
	items := found[:0] // the items found, moved to the front in place
	for i := range found {
		if have[i] {
			items = append(items, found[i])
		}
	}
	clear(found[len(items):])
	if len(left) == 0 && err == nil && undecodable == nil {
		return items, nil
	}
	be := &BatchGetError[T]{Total: len(keys), Err: errors.Join(append([]error{err}, undecodable...)...)}
	for _, at := range left {
		be.Unprocessed = append(be.Unprocessed, keys[at])
	}
	return items, be
}
