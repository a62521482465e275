package keyfirst

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/smithy-go"
)

// Observer sees every request keyfirst sends on a table bound with
// [Table.Observed], from every package: the table's own ([Table.Create],
// [Table.Check], [Table.AddIndex], each poll of their waits), the item
// operations, each request of a batch (its retry rounds too), each page of
// a query and of each scan segment (the shards of a fan-out each send
// their own), each attempt of a transaction, a backfill's scans and
// writes, a stream's reads; and the progress of long work ([Progress]).
//
// Start is called before the request is sent; the context it returns is
// the one the request is sent with and End receives (an OpenTelemetry span
// started in Start holds the SDK's own spans). End is called once the
// request returned, with what came back. An Observer must be safe for
// concurrent use: a parallel scan and a sharded read send at once. It must
// not change the request or the result it is shown.
type Observer interface {
	Start(ctx context.Context, r *Request) context.Context
	End(ctx context.Context, r *Request, res *Result)
	Progress(ctx context.Context, p Progress)
}

// Request is one request keyfirst sends, in terms of the model: the call
// that sends it, the table bound, the entity type, the index, the key with
// its values.
type Request struct {
	// Operation is DynamoDB's: GetItem, PutItem, UpdateItem, DeleteItem,
	// BatchGetItem, BatchWriteItem, Query, Scan, TransactWriteItems,
	// TransactGetItems; the table's CreateTable, DescribeTable (each poll
	// of a wait), UpdateTable, DescribeTimeToLive and UpdateTimeToLive;
	// or the stream's DescribeStream, GetShardIterator and GetRecords.
	Operation string
	// Call is the keyfirst call that sends it: Get, Put, Modify,
	// BatchWrite, BatchWriteSeq, BatchPut, query.Query, query.Scan, txn.Write,
	// migrate.Backfill, stream.NewConsumer, stream.Consumer, Table.Create,
	// Table.Check, Table.AddIndex, ...
	Call string
	// Table is the name of the table bound ([Table.Named]).
	Table string
	// Index is the secondary index read, empty for the table.
	Index string
	// Entity is the entity type, empty when the request holds several (a
	// batch of BatchWrite or BatchWriteSeq, a transaction, a collection
	// query, a scan of the table).
	Entity string
	// Key is the primary key of the item of an item operation (GetItem,
	// PutItem, UpdateItem, DeleteItem); a query's key condition is
	// [Request.KeyCondition].
	Key map[string]types.AttributeValue
	// Seq numbers the requests of a call that sends several, from 1: a
	// batch's requests (its retry rounds among them), a query's pages (of
	// one scan segment or shard each), a transaction's attempts, Modify's
	// attempts (its read and its write share one). It is 1 for a call of
	// one request.
	Seq int
	// Segment is the scan segment of a parallel scan, from 0.
	Segment int
	// Input is the SDK's input (*dynamodb.QueryInput, ...), as sent: with
	// an Observer, keyfirst asks every request for its consumed capacity
	// (ReturnConsumedCapacity=INDEXES). Read it; never change it.
	Input any
}

// Result is what a request came back with.
type Result struct {
	// Err is the error of the request as the call returns it: keyfirst's
	// typed error ([ErrNotFound] for a GetItem that found nothing, a
	// [*ConditionError] with the item stored for a failed condition,
	// txn's *CanceledError with the reason of each action, query's
	// *RequestError, ...), the same value the call returns or one it
	// wraps (errors.Is holds); the SDK's error for a request of your own
	// sent with [Send]. Nil when the request succeeded. An error the call
	// finds after the request succeeded (an item it cannot decode) is not
	// the request's: Err is nil.
	Err error
	// Code is DynamoDB's code of the request's error
	// (ConditionalCheckFailedException, TransactionCanceledException,
	// ProvisionedThroughputExceededException, ResourceNotFoundException,
	// ...: [smithy.APIError]'s ErrorCode), empty when it succeeded, when
	// DynamoDB did not answer (a cancelled context, a network error) and
	// when only keyfirst finds the failure ([ErrNotFound]). It is set, Err
	// nil, when the call takes the failure as its answer: a DescribeTable
	// of a table that does not exist (yet), ResourceNotFoundException.
	Code string
	// Output is the SDK's output (*dynamodb.QueryOutput, ...), nil when
	// the request failed. Read it; never change it.
	Output any
	// Read counts the items DynamoDB read (ScannedCount of a Query or
	// Scan, the items found by a GetItem, BatchGetItem or
	// TransactGetItems, the records of GetRecords), Returned those it
	// returned: they differ only when a page holds items of other types
	// or expired ones that keyfirst then drops.
	Read, Returned int
	// Unprocessed counts the requests of a batch that DynamoDB left for
	// the next round.
	Unprocessed int
	// Capacity is the capacity the request consumed, on the table and on
	// each index (its Requests is 0 or 1).
	Capacity Capacity
	// Latency is the time from sending to the response.
	Latency time.Duration
}

// Observed returns t bound to the same table and description with o as
// its [Observer] (nil: none). [Table.Named] keeps it, and an entity bound
// with [Entity.In] to the result, every query of it and every package
// (query, shard, txn, migrate, stream) sends through o. t is unchanged.
//
//	table = table.Observed(keyfirst.SlogObserver(slog.Default()))
//	orders := keyfirst.Must(Orders.In(table))
func (t *Table) Observed(o Observer) *Table {
	c := *t
	c.observer = o
	return &c
}

// Observer returns the table's [Observer] (nil when it has none).
func (t *Table) Observer() Observer {
	if t == nil {
		return nil
	}
	return t.observer
}

// Send sends one request of a call on table t with send, through t's
// [Observer]: a request of your own (the raw SDK) is observed like
// keyfirst's. r says what is sent (Operation, Table and Index are filled
// from r.Input); send sends it with the context it is given. The
// Observer is shown the error send returned ([Result.Err]). Without an
// Observer, Send is send(ctx) and nothing else: no allocation, no clock.
func Send[Out any](ctx context.Context, t *Table, r Request, send func(context.Context) (Out, error)) (Out, error) {
	return SendExplained(ctx, t, r, send, nil)
}

// SendExplained is [Send] for a call whose error is its own, not the
// SDK's: explain (nil: none) turns what send returned, its output and its
// error, into the error the call returns, and that error is the one Send
// returns and the Observer is shown ([Result.Err]), with the code of the
// SDK's error beside it ([Result.Code]). The packages of keyfirst send
// every request with it: a GetItem that found nothing is [ErrNotFound], a
// failed condition a [*ConditionError] with the item stored, a cancelled
// transaction txn's *CanceledError with the reason of each action. explain
// is called on every request, observed or not, and also when send
// succeeded (its error nil).
func SendExplained[Out any](ctx context.Context, t *Table, r Request, send func(context.Context) (Out, error), explain func(Out, error) error) (Out, error) {
	if t == nil || t.observer == nil {
		out, err := send(ctx)
		if explain != nil {
			err = explain(out, err)
		}
		return out, err
	}
	return sendObserved(ctx, t, r, send, explain)
}

func sendObserved[Out any](ctx context.Context, t *Table, r Request, send func(context.Context) (Out, error), explain func(Out, error) error) (Out, error) {
	req := &r
	req.Table = t.name
	if req.Seq == 0 {
		req.Seq = 1
	}
	t.describe(req)
	o := t.observer
	ctx = o.Start(ctx, req)
	began := time.Now()
	out, err := send(ctx)
	res := &Result{Latency: time.Since(began), Code: errorCode(err)}
	if err == nil {
		res.Output = out
		outcome(res, any(out))
	}
	if explain != nil {
		err = explain(out, err)
	}
	res.Err = err
	o.End(ctx, req, res)
	return out, err
}

// errorCode is DynamoDB's code of err ([smithy.APIError]), found through
// the errors it wraps; empty when it has none.
func errorCode(err error) string {
	if err == nil {
		return "" // before ae, which errors.As moves to the heap
	}
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	return ""
}

// describe fills the Operation, the Index and the Key of r from its
// input, and asks the input for its consumed capacity.
func (t *Table) describe(r *Request) {
	const indexes = types.ReturnConsumedCapacityIndexes
	switch in := r.Input.(type) {
	case *dynamodb.GetItemInput:
		r.Operation, r.Key = "GetItem", in.Key
		in.ReturnConsumedCapacity = indexes
	case *dynamodb.PutItemInput:
		r.Operation, r.Key = "PutItem", t.keyOf(in.Item)
		in.ReturnConsumedCapacity = indexes
	case *dynamodb.UpdateItemInput:
		r.Operation, r.Key = "UpdateItem", in.Key
		in.ReturnConsumedCapacity = indexes
	case *dynamodb.DeleteItemInput:
		r.Operation, r.Key = "DeleteItem", in.Key
		in.ReturnConsumedCapacity = indexes
	case *dynamodb.BatchGetItemInput:
		r.Operation = "BatchGetItem"
		in.ReturnConsumedCapacity = indexes
	case *dynamodb.BatchWriteItemInput:
		r.Operation = "BatchWriteItem"
		in.ReturnConsumedCapacity = indexes
	case *dynamodb.QueryInput:
		r.Operation, r.Index = "Query", aws.ToString(in.IndexName)
		in.ReturnConsumedCapacity = indexes
	case *dynamodb.ScanInput:
		r.Operation, r.Index = "Scan", aws.ToString(in.IndexName)
		in.ReturnConsumedCapacity = indexes
	case *dynamodb.TransactWriteItemsInput:
		r.Operation = "TransactWriteItems"
		in.ReturnConsumedCapacity = indexes
	case *dynamodb.TransactGetItemsInput:
		r.Operation = "TransactGetItems"
		in.ReturnConsumedCapacity = indexes
	case *dynamodb.CreateTableInput:
		r.Operation = "CreateTable"
	case *dynamodb.DescribeTableInput:
		r.Operation = "DescribeTable"
	case *dynamodb.UpdateTableInput:
		r.Operation = "UpdateTable"
	case *dynamodb.DescribeTimeToLiveInput:
		r.Operation = "DescribeTimeToLive"
	case *dynamodb.UpdateTimeToLiveInput:
		r.Operation = "UpdateTimeToLive"
	case *dynamodbstreams.DescribeStreamInput:
		r.Operation = "DescribeStream"
	case *dynamodbstreams.GetShardIteratorInput:
		r.Operation = "GetShardIterator"
	case *dynamodbstreams.GetRecordsInput:
		r.Operation = "GetRecords"
	}
}

// outcome fills res from the SDK's output out.
func outcome(res *Result, out any) {
	switch out := out.(type) {
	case *dynamodb.GetItemOutput:
		if len(out.Item) > 0 {
			res.Read, res.Returned = 1, 1
		}
		res.Capacity.addOne(false, out.ConsumedCapacity)
	case *dynamodb.PutItemOutput:
		res.Capacity.addOne(true, out.ConsumedCapacity)
	case *dynamodb.UpdateItemOutput:
		res.Capacity.addOne(true, out.ConsumedCapacity)
	case *dynamodb.DeleteItemOutput:
		res.Capacity.addOne(true, out.ConsumedCapacity)
	case *dynamodb.BatchGetItemOutput:
		for _, items := range out.Responses {
			res.Read += len(items)
		}
		res.Returned = res.Read
		for _, ka := range out.UnprocessedKeys {
			res.Unprocessed += len(ka.Keys)
		}
		res.Capacity.AddRead(out.ConsumedCapacity...)
	case *dynamodb.BatchWriteItemOutput:
		for _, w := range out.UnprocessedItems {
			res.Unprocessed += len(w)
		}
		res.Capacity.AddWrite(out.ConsumedCapacity...)
	case *dynamodb.QueryOutput:
		res.Read, res.Returned = int(out.ScannedCount), int(out.Count)
		res.Capacity.addOne(false, out.ConsumedCapacity)
	case *dynamodb.ScanOutput:
		res.Read, res.Returned = int(out.ScannedCount), int(out.Count)
		res.Capacity.addOne(false, out.ConsumedCapacity)
	case *dynamodb.TransactWriteItemsOutput:
		res.Capacity.AddWrite(out.ConsumedCapacity...)
	case *dynamodb.TransactGetItemsOutput:
		for _, r := range out.Responses {
			if len(r.Item) > 0 {
				res.Read++
			}
		}
		res.Returned = res.Read
		res.Capacity.AddRead(out.ConsumedCapacity...)
	case *dynamodbstreams.GetRecordsOutput:
		res.Read, res.Returned = len(out.Records), len(out.Records)
	}
}

// KeyCondition is what r asks for, its values in place of the
// placeholders: a Query's key condition ((PK = "ORG#acme") AND
// (begins_with(SK, "USER#"))), the key of an item operation ({PK:
// "ORG#acme", SK: "USER#ann"}), empty for the others.
func (r *Request) KeyCondition() string {
	if q, ok := r.Input.(*dynamodb.QueryInput); ok {
		return RenderExpression(q.KeyConditionExpression, q.ExpressionAttributeNames, q.ExpressionAttributeValues)
	}
	if r.Key != nil {
		return RenderItem(r.Key)
	}
	return ""
}
