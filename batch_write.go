package keyfirst

import (
	"context"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/errfmt"
)

// WriteRequest is one put or delete of [Table.BatchWrite], built by
// [Entity.PutRequest] or [Entity.DeleteRequest]. A request that could not
// be built carries its error, which BatchWrite returns before sending
// anything. It holds the encoded item of a put (the key of a delete), and
// the put's T.
type WriteRequest struct {
	table *Table
	of    batchEntity
	// key is the request's key: zero in a request of BatchPut, whose
	// item holds it (Table.requestKey), so that BatchPut stores one pointer
	// per request it reuses rather than three (each a write barrier
	// while the collector marks).
	key  keyPair
	item map[string]types.AttributeValue // the put's item, or the delete's key
	put  any                             // the put's *T, nil for a delete
	err  error
}

// batchEntity is the entity that built a WriteRequest.
type batchEntity interface {
	requestValue(r *WriteRequest) any
}

// requestValue is r's T, or its Key[T] for a delete.
func (e *Entity[T]) requestValue(r *WriteRequest) any {
	if r.put == nil {
		return Key[T]{pk: r.key.pk, sk: r.key.sk, typ: e.typeName}
	}
	return *r.put.(*T)
}

// Value returns what the request was built from: the T of a put (with
// the lifecycle times it is written with, [EntitySpec.Updated]), the
// Key[T] of a delete. It is nil for the zero WriteRequest.
func (r WriteRequest) Value() any {
	if r.of == nil {
		return nil
	}
	return r.of.requestValue(&r)
}

// IsDelete reports whether the request is a delete.
func (r WriteRequest) IsDelete() bool { return r.item != nil && r.put == nil }

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
	r := WriteRequest{table: e.table, of: e, put: &item}
	if r.err = e.batchPutRefused("BatchWrite"); r.err != nil {
		return r
	}
	p, err := e.plan(&item, -1)
	if r.err = err; err == nil {
		r.item, r.key = p.item, keyPair{pk: p.key.pk, sk: p.key.sk}
	}
	return r
}

// batchPutRefused is the refusal of a batch put of any item of the entity:
// BatchWriteItem takes no condition, which a version, a unique field and
// a created time need.
func (e *Entity[T]) batchPutRefused(op string) error {
	if e.version != "" {
		return e.versionedBatch()
	}
	if err := e.uniqueRefused(op, nil, "txn.Unique.Create or txn.Unique.Change",
		"BatchWriteItem takes no condition, so a batch put could create an item or change its value without its marker"); err != nil {
		return err
	}
	if e.keepsCreated() {
		return &ItemError{Entity: e.typeName, Attribute: e.life.created, Problem: ItemCreated,
			Detail: "BatchWriteItem takes neither a condition nor an update expression, so it would overwrite the stored created time; use Put (or a transaction)"}
	}
	return nil
}

// DeleteRequest builds a delete of the item with key for [Table.BatchWrite].
// A batch delete is unconditional: it does not check the stored item's
// entity type or version, so versioned entities are refused (use Delete).
func (e *Entity[T]) DeleteRequest(key Key[T]) WriteRequest {
	r := WriteRequest{table: e.table, of: e}
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
	r.item = e.keyMap(key)
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
//
// Memory: BatchWrite holds its batch. Every request holds its item
// encoded, once, by PutRequest: a bad item is then refused before the
// first request, and no item is encoded twice (which would call its Func
// keys and its clock twice, and doubles the allocations of the write:
// measured 245,601 against 123,405 for 10,000 items); that is about 690
// bytes per item of six short attributes, the request included
// (BenchmarkBatchWrite's live-B: 6.9 MB at 10,000 items).
// BatchWrite adds 16 bytes per request for the duplicate check and, while
// sending, one BatchWriteItem request of 25. A stream of items, millions
// of them, is written with [Table.BatchWriteSeq], which holds one request
// of 25 and checks each before sending it.
func (t *Table) BatchWrite(ctx context.Context, api BatchWriteItemAPI, reqs []WriteRequest, optFns ...func(*Options)) error {
	o, err := buildOptions("BatchWrite", TakesRetries, optFns)
	if err != nil {
		return err
	}
	for i := range reqs {
		if err := t.checkWrite(&reqs[i], i); err != nil {
			return err
		}
	}
	if j, i, dup := firstDuplicate(reqs, func(r *WriteRequest) (pk, sk *keyPart) { return &r.key.pk, &r.key.sk }); dup {
		return &DuplicateKeyError{Key: reqs[i].Key(), First: j, Second: i}
	}
	w := batchWriter{t: t, api: api, o: o, call: "BatchWrite"}
	left, err := w.write(ctx, reqs)
	if len(left) == 0 && err == nil {
		return nil
	}
	return t.batchWriteError(reqs, left, len(reqs), err)
}

// batchWriteError reports the requests of reqs at the positions left as
// unprocessed, of total taken.
func (t *Table) batchWriteError(reqs []WriteRequest, left []int, total int, err error) *BatchWriteError {
	be := &BatchWriteError{Total: total, Err: err, Unprocessed: make([]WriteRequest, len(left))}
	for i, at := range left {
		be.Unprocessed[i] = reqs[at]
	}
	t.keyed(be.Unprocessed)
	return be
}

// checkWrite refuses request i of a batch when it could not be built, is
// the zero request, or is of another table.
func (t *Table) checkWrite(r *WriteRequest, i int) error {
	switch {
	case r.err != nil:
		return r.err
	case r.item == nil:
		return &OptionError{Op: "BatchWrite", Option: fmt.Sprintf("request %d", i),
			Detail: "the zero WriteRequest; build requests with Entity.PutRequest or Entity.DeleteRequest"}
	case !t.SameSchema(r.table):
		return &OptionError{Op: "BatchWrite", Option: fmt.Sprintf("request %d", i),
			Detail: fmt.Sprintf("it belongs to table %q, whose description is not that of %q", r.table.name, t.name)}
	}
	return nil
}

// batchWriter sends checked requests of one table with BatchWriteItem for
// the keyfirst call named call (of the entity type entity, "" for a batch
// of any), numbering the requests it sends across its calls
// (Request.Seq).
type batchWriter struct {
	t      *Table
	api    BatchWriteItemAPI
	o      Options
	call   string
	entity string
	seq    int
	// chunk is the memory of the positions drain sends (nil: drain
	// makes its own): a stream's, which writes a request of 25 at a time.
	chunk []int
}

// write sends reqs in requests of at most 25 until each is processed (see
// drain) and returns the positions of those that are not, and why.
func (w *batchWriter) write(ctx context.Context, reqs []WriteRequest) ([]int, error) {
	t, o := w.t, w.o
	return drain(ctx, o, len(reqs), MaxBatchWrite, w.chunk, func(ctx context.Context, chunk, unprocessed []int) ([]int, error) {
		in := t.writeInput(reqs, chunk, o.returnCapacity())
		w.seq++
		out, err := Send(ctx, t, Request{Call: w.call, Entity: w.entity, Seq: w.seq, Input: in},
			func(ctx context.Context) (*dynamodb.BatchWriteItemOutput, error) {
				return w.api.BatchWriteItem(ctx, in)
			})
		if out != nil {
			o.Capacity.AddWrite(out.ConsumedCapacity...)
		}
		if err != nil {
			return nil, err
		}
		return t.unprocessedWrites(reqs, chunk, out.UnprocessedItems[t.name], unprocessed)
	})
}

// writeInput is the BatchWriteItem request of the requests at chunk, its
// puts and deletes each allocated as one block.
func (t *Table) writeInput(reqs []WriteRequest, chunk []int, capacity types.ReturnConsumedCapacity) *dynamodb.BatchWriteItemInput {
	nPut := 0
	for _, at := range chunk {
		if reqs[at].put != nil {
			nPut++
		}
	}
	wrs := make([]types.WriteRequest, len(chunk))
	puts := make([]types.PutRequest, nPut)
	var dels []types.DeleteRequest
	if nPut < len(chunk) {
		dels = make([]types.DeleteRequest, len(chunk)-nPut)
	}
	for i, at := range chunk {
		if r := &reqs[at]; r.put != nil {
			puts[0].Item = r.item
			wrs[i].PutRequest, puts = &puts[0], puts[1:]
		} else {
			dels[0].Key = r.item
			wrs[i].DeleteRequest, dels = &dels[0], dels[1:]
		}
	}
	return &dynamodb.BatchWriteItemInput{
		RequestItems:           map[string][]types.WriteRequest{t.name: wrs},
		ReturnConsumedCapacity: capacity,
	}
}

// unprocessedWrites appends to unprocessed the positions of the requests
// DynamoDB left unprocessed, each found in the chunk sent.
func (t *Table) unprocessedWrites(reqs []WriteRequest, chunk []int, left []types.WriteRequest, unprocessed []int) ([]int, error) {
	for _, w := range left {
		var m map[string]types.AttributeValue
		switch {
		case w.PutRequest != nil:
			m = w.PutRequest.Item
		case w.DeleteRequest != nil:
			m = w.DeleteRequest.Key
		}
		p := t.pairOf(m)
		i := slices.IndexFunc(chunk, func(at int) bool { return t.requestKey(&reqs[at]) == p })
		if i < 0 {
			return nil, fmt.Errorf("keyfirst: BatchWriteItem returned an unprocessed item that was not sent: %v", p)
		}
		unprocessed = append(unprocessed, chunk[i])
	}
	return unprocessed, nil
}

func batchErrorText(left, total int, what string, cause error) string {
	s := fmt.Sprintf("%v: %d of %d %s", ErrUnprocessed, left, total, what)
	if cause != nil {
		return s + ": " + cause.Error()
	}
	return s + ": MaxAttempts rounds left them unprocessed"
}
