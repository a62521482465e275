package query

import (
	"context"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// Page is one page of a query: its items in sort key order (or reverse
// order with [Query.Desc]), the cursor that resumes after the last of
// them, and what it cost.
type Page[T any] struct {
	// Items are the page's items, decoded.
	Items []T
	// Next resumes the query after the last item of Items (pass it to
	// [Query.After]); it is empty when the query has no more items. When
	// the page ended exactly at the last item, DynamoDB cannot always tell,
	// and the next page may be empty with an empty Next.
	Next Cursor
	// Capacity is the capacity the page's requests consumed, the items
	// dropped as expired ([Query.WithoutExpired]) included.
	Capacity keyfirst.Capacity
	// Expired counts the items read and dropped as expired
	// ([Query.WithoutExpired]).
	Expired int

	// raw holds the items of Items as DynamoDB returned them (the SDK's
	// maps, not copied), and plan the query that read them, for Key and
	// CursorAfter.
	raw  []item
	plan *plan
}

// Key returns the key attributes of Items[i] as DynamoDB returned them:
// the table's key attributes and the index's, in a new map that is the
// caller's (the values are shared and must not be changed). A merge of
// several queries orders their items by it. It panics if i is out of
// range, as Items[i] does.
func (p Page[T]) Key(i int) map[string]types.AttributeValue {
	it := p.raw[i]
	key := make(map[string]types.AttributeValue, len(p.plan.keyAttrs))
	for _, a := range p.plan.keyAttrs {
		key[a.Name] = it[a.Name]
	}
	return key
}

// CursorAfter returns the cursor that resumes the page's query exactly
// after Items[i], as Next resumes after the last item: a merge that
// consumed the page up to Items[i] resumes there. It panics if i is out of
// range, as Items[i] does.
func (p Page[T]) CursorAfter(i int) (Cursor, error) { return p.plan.cursorAt(p.raw[i]) }

// Page reads one page: with [Query.Limit] n, exactly min(n, remaining
// items) items, over as many requests as that takes and no more; without
// a limit, one DynamoDB response (at most 1 MB). The query is checked
// first and a problem is returned as an [*Error] before any request.
//
// On a failed request or an item that cannot be decoded, the page holds the
// items read before it, Next resumes after them (with none, where the
// call started: the query's own cursor, empty from the beginning), and
// the error is a [*RequestError] or a [*DecodeError], whose Skip resumes
// after the item that could not be decoded.
func (q Query[T]) Page(ctx context.Context, client keyfirst.QueryAPI, optFns ...func(*keyfirst.Options)) (Page[T], error) {
	var page Page[T]
	p, err := q.plan(optFns)
	page.plan = p
	if err == nil {
		err = p.checkClient(client == nil)
	}
	if err != nil {
		return page, err
	}
	var decodeErr error
	pr, err := pages(ctx, p.queryFetch(client), p.start, p.limit, true,
		func(items []item, cc *types.ConsumedCapacity) (int, int, bool) {
			addCapacity(cc, &page.Capacity, p.opts.Capacity)
			if page.Items == nil && len(items) > 0 {
				page.Items = make([]T, 0, len(items))
			}
			if p.expired != nil {
				return page.addLive(q, p, items, &decodeErr)
			}
			for i, it := range items {
				var err error
				if page.Items, err = appendItem(page.Items, q.entity, q.src, it, p.decoding); err != nil {
					decodeErr = p.decodeError("Query", it, err, true)
					page.raw = keepRaw(page.raw, items[:i])
					return i, i, true
				}
			}
			page.raw = keepRaw(page.raw, items)
			return len(items), len(items), false
		})
	if err == nil {
		err = decodeErr
	}
	next, nerr := p.next(pr)
	if err == nil {
		err = nerr
	}
	page.Next = next
	if p.opts.Next != nil {
		*p.opts.Next = next
	}
	return page, err
}

// addLive adds to the page the items of one response that have not
// expired (p.expired), the handler of a query [Query.WithoutExpired]: it
// returns how many items it consumed and how many it kept.
func (page *Page[T]) addLive(q Query[T], p *plan, items []item, decodeErr *error) (int, int, bool) {
	kept := 0
	for i, it := range items {
		if p.expired(it) {
			page.Expired++
			continue
		}
		var err error
		if page.Items, err = appendItem(page.Items, q.entity, q.src, it, p.decoding); err != nil {
			*decodeErr = p.decodeError("Query", it, err, true)
			return i, kept, true
		}
		page.raw = append(page.raw, it)
		kept++
	}
	return len(items), kept, false
}

// checkClient refuses a nil client.
func (p *plan) checkClient(isNil bool) error {
	if isNil {
		return &Error{Table: p.table, Index: p.index, Problem: ProblemClient, Detail: "pass a *dynamodb.Client or another implementation"}
	}
	return nil
}

// keepRaw adds the raw items of one response to those of the page: the
// first response's slice itself (clipped, so that a later append copies
// rather than writes into the SDK's array), the others appended.
func keepRaw(raw, items []item) []item {
	if raw == nil {
		return slices.Clip(items)
	}
	return append(raw, items...)
}

// Fingerprint checks the query as its terminal calls do (its first problem
// is an [*Error], and no request is sent) and returns what binds its
// cursors: a digest of the table, the index, the names of the partition
// key attributes, the sort key condition and the direction. It does not
// depend on the partition key values, so the queries of several
// partitions of one index with one condition share it: a reader that
// merges them binds its own cursors to it.
func (q Query[T]) Fingerprint(optFns ...func(*keyfirst.Options)) (string, error) {
	p, err := q.plan(optFns)
	if err != nil {
		return "", err
	}
	return p.binding(), nil
}
