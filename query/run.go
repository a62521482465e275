package query

import (
	"context"
	"math"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// item is one item as DynamoDB returns it.
type item = map[string]types.AttributeValue

// response is what the request loop needs of a Query or Scan response.
type response struct {
	items    []item
	last     item // LastEvaluatedKey
	capacity *types.ConsumedCapacity
}

// fetch sends request number n of a call, starting after start (nil: from
// the beginning), asking for at most limit items (0: no limit).
type fetch func(ctx context.Context, n int, start item, limit int) (response, error)

// handler receives the items of one response. It returns how many of
// them, from the first, it consumed, how many of those it returned to the
// caller (fewer when it drops expired items: [Query.WithoutExpired]), and
// whether to stop.
type handler func(items []item, capacity *types.ConsumedCapacity) (consumed, returned int, stop bool)

// progress is where a request loop stopped.
type progress struct {
	// resume is the key of the last item returned, or the key the loop
	// started from when none was: the position to resume from.
	resume item
	// done reports that no item follows resume: every item was returned.
	done bool
}

// pages is the request loop shared by queries and scan segments. It sends
// requests from start, following LastEvaluatedKey, and hands each
// response's items to h, until h stops, limit items were returned (limit
// > 0; each request asks for the items still missing, so no request is
// sent after the last one needed), the read is done, or, with onePage and
// no limit, after the first response.
func pages(ctx context.Context, send fetch, start item, limit int, onePage bool, h handler) (progress, error) {
	pr := progress{resume: start}
	remaining := limit
	for n := 1; ; n++ {
		resp, err := send(ctx, n, start, remaining)
		if err != nil {
			return pr, err
		}
		consumed, returned, stop := h(resp.items, resp.capacity)
		if consumed > 0 {
			pr.resume = resp.items[consumed-1]
		}
		pr.done = consumed == len(resp.items) && len(resp.last) == 0
		if limit > 0 {
			remaining -= returned
		}
		switch {
		case stop || consumed < len(resp.items) || pr.done:
			return pr, nil
		case limit > 0 && remaining <= 0:
			return pr, nil
		case onePage && limit == 0:
			if consumed == 0 {
				pr.resume = resp.last
			}
			return pr, nil
		}
		start = resp.last
	}
}

// The ScanIndexForward and ConsistentRead of requests, shared read only
// as their template is (see template.names).
var forward, backward, consistent = aws.Bool(true), aws.Bool(false), aws.Bool(true)

// queryRequest is the input of one Query request with the Limit it
// points to, made at once: a plan's first request is the plan's own
// (plan.first), each further one a single allocation.
type queryRequest struct {
	in    dynamodb.QueryInput
	limit int32
}

// queryInput is the plan's request starting after start (nil: from the
// beginning), asking for at most limit items (0: no limit). Each request
// has its own input; what the shape fixes is shared, read only.
func (p *plan) queryInput(start item, limit int) *dynamodb.QueryInput {
	r := &p.first
	if p.firstSent {
		r = new(queryRequest)
	}
	p.firstSent = true
	// Field by field: the input is zero, and assigning a whole composite
	// literal would copy every word of it, with a write barrier on each
	// pointer while the collector runs.
	in := &r.in
	in.TableName, in.IndexName = p.shape.tableName, p.shape.indexName
	in.KeyConditionExpression, in.ProjectionExpression = p.tmpl.keyCond, p.tmpl.projection
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = p.tmpl.names, p.exprValues
	in.ExclusiveStartKey = start
	in.ScanIndexForward = forward
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityIndexes
	if p.desc {
		in.ScanIndexForward = backward
	}
	if p.consistent {
		in.ConsistentRead = consistent
	}
	if limit > 0 {
		r.limit = int32(min(limit, math.MaxInt32))
		in.Limit = &r.limit
	}
	return in
}

// queryFetch sends the plan's Query requests with client.
func (p *plan) queryFetch(client keyfirst.QueryAPI) fetch {
	return func(ctx context.Context, n int, start item, limit int) (response, error) {
		in := p.queryInput(start, limit)
		out, err := keyfirst.SendExplained(ctx, p.bound, keyfirst.Request{Call: "query.Query", Entity: p.entity, Seq: n, Input: in},
			func(ctx context.Context) (*dynamodb.QueryOutput, error) { return client.Query(ctx, in) },
			func(_ *dynamodb.QueryOutput, err error) error {
				if err != nil {
					return &RequestError{Op: "Query", Table: p.table, Index: p.index, Request: n, Err: err}
				}
				return nil
			})
		if err != nil {
			return response{}, err
		}
		return response{items: out.Items, last: out.LastEvaluatedKey, capacity: out.ConsumedCapacity}, nil
	}
}

// next is the cursor after a request loop that stopped at pr: empty when
// the query is done.
func (p *plan) next(pr progress) (Cursor, error) {
	if pr.done || pr.resume == nil {
		return "", nil
	}
	return p.cursorAt(pr.resume)
}

// addCapacity adds one response's capacity to each non-nil target.
func addCapacity(cc *types.ConsumedCapacity, targets ...*keyfirst.Capacity) {
	if cc == nil {
		return
	}
	for _, t := range targets {
		if t != nil {
			t.AddRead(*cc)
		}
	}
}

// decodeError reports item, returned by an op request of the plan, which
// could not be decoded (err). With skip, its Skip cursor resumes after it.
func (p *plan) decodeError(op string, it item, err error, skip bool) error {
	key := make(item, len(p.keyAttrs))
	for _, a := range p.keyAttrs {
		if v, ok := it[a.Name]; ok {
			key[a.Name] = v
		}
	}
	e := &DecodeError{Op: op, Table: p.table, Index: p.index, Key: key, Err: err}
	if skip {
		e.Skip, _ = p.cursorAt(it) // items returned by DynamoDB always hold their key
	}
	return e
}
