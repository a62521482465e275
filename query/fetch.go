package query

import (
	"context"
	"slices"

	"github.com/keyfirst/keyfirst"
)

// KeysQuery is the first step of a two-step read ([Keys]): a query that
// reads only the primary keys of its items, through an index that does
// not project them whole (KEYS_ONLY or INCLUDE), before [KeysQuery.Fetch]
// reads the whole items from the table.
type KeysQuery[T any] struct{ q Query[T] }

// Keys makes q, an entity read ([On]), a read of its items' keys, to be
// followed by a fetch of the items: the explicit form of the read that
// [On] refuses on an index that projects less than T ([ProblemProjection]).
// A KEYS_ONLY or INCLUDE index costs a write a fraction of what an ALL
// index costs (seed 002: a GSI's WCUs are by the size of what it
// projects); the read then costs the index's Query plus a BatchGetItem of
// the table (see the measurements in the package documentation).
func Keys[T any](q Query[T]) KeysQuery[T] { return KeysQuery[T]{q} }

// FetchAPI is what [KeysQuery.Fetch] sends: the index's Query, then the
// table's BatchGetItem. *dynamodb.Client implements it.
type FetchAPI interface {
	keyfirst.QueryAPI
	keyfirst.BatchGetItemAPI
}

// Fetched is one page of a two-step read: the items, in the query's
// order, what each step cost, and the keys found by the first step whose
// items were gone by the second.
type Fetched[T any] struct {
	// Items are the whole items, read from the table, in the order the
	// index returned their keys.
	Items []T
	// Missing are the keys the index returned whose items the table no
	// longer had when they were fetched: deleted between the two reads.
	// len(Items)+len(Missing) is the page's number of keys: with a Limit
	// n, exactly min(n, remaining).
	Missing []keyfirst.Key[T]
	// Next resumes the query after the last key read (pass it to
	// [Query.After]); empty when the query has no more items.
	Next Cursor
	// QueryCapacity is what the index's Query consumed, FetchCapacity
	// what the table's BatchGetItem consumed.
	QueryCapacity, FetchCapacity keyfirst.Capacity
}

// Fetch reads one page of the query's keys (as [Query.Page] does: with a
// Limit n, exactly min(n, remaining) keys), then the whole items from
// the table with [keyfirst.Entity.BatchGet]: in requests of at most 100
// keys, the keys DynamoDB leaves unprocessed retried, the items returned
// in the order of their keys. optFns are the query's (see [Query.Page]);
// a [keyfirst.WithCapacity] target among them also receives the fetch's
// cost, which Fetched reports apart.
//
// The fetch reads eventually consistently, as a GSI itself does, unless
// optFns hold [keyfirst.ConsistentRead]: the BatchGetItem then reads
// strongly consistently (ConsistentRead on its keys), which DynamoDB
// allows on the table whatever the first step read, at twice the read
// capacity. The option is the fetch's alone: the keys' read is the
// query's, consistent only by [Query.ConsistentRead], which a GSI refuses
// ([ProblemConsistentRead]) as DynamoDB does. A consistent fetch sees
// every write acknowledged before it, so an item the index listed and a
// writer deleted since is in Missing, never returned stale.
//
// The two steps are two reads, not one snapshot: an item changed between
// them is returned as the table holds it at the fetch (its index key may
// no longer match the query), and one deleted between them is reported
// in Missing, never silently dropped.
//
// Errors: before any request, the query's own ([*Error]; a query that is
// not an entity read is [ProblemSource]); a failed Query, as Page
// returns it, with no fetch; a failed fetch, as BatchGet returns it (a
// [*keyfirst.BatchGetError] with the keys not read), with the items read.
func (k KeysQuery[T]) Fetch(ctx context.Context, client FetchAPI, optFns ...func(*keyfirst.Options)) (Fetched[T], error) {
	var out Fetched[T]
	e := k.q.entity
	if e == nil && k.q.src != nil {
		e = k.q.src.entity
	}
	if e == nil {
		return out, &Error{Problem: ProblemSource, Detail: "query.Keys takes an entity read: start it from query.On"}
	}
	queryFns, fetchFns := optFns, []func(*keyfirst.Options){keyfirst.WithCapacity(&out.FetchCapacity)}
	if o, err := keyfirst.Apply("Fetch", optFns); err == nil && o.ConsistentRead { // Page reports a bad option
		queryFns = append(slices.Clip(optFns), func(o *keyfirst.Options) { o.ConsistentRead = false })
		fetchFns = append(fetchFns, keyfirst.ConsistentRead())
	}
	var page Page[struct{}]
	var err error
	if client == nil {
		page, err = View[struct{}](k.q).Page(ctx, nil, queryFns...) // refused before any request
	} else {
		page, err = View[struct{}](k.q).Page(ctx, client, queryFns...)
	}
	out.Next, out.QueryCapacity = page.Next, page.Capacity
	if err != nil {
		return out, err
	}
	found := make([]keyfirst.Key[T], len(page.Items))
	for i := range page.Items {
		if found[i], err = e.KeyOf(page.Key(i)); err != nil {
			return out, err
		}
	}
	if len(found) == 0 {
		return out, nil
	}
	items, err := e.BatchGet(ctx, client, found, fetchFns...)
	if o, _ := keyfirst.Apply("Fetch", optFns); o.Capacity != nil { // checked by Page
		o.Capacity.Add(out.FetchCapacity)
	}
	out.Items = items
	j := 0
	for _, key := range found {
		if j < len(items) && keyOrZero(e, items[j]) == key { // BatchGet keeps the keys' order
			j++
			continue
		}
		out.Missing = append(out.Missing, key)
	}
	return out, err
}

// keyOrZero is the key of v, the zero Key when it cannot be derived
// (never for an item BatchGet decoded: its key was derived by a write).
func keyOrZero[T any](e *keyfirst.Entity[T], v T) keyfirst.Key[T] {
	k, _ := e.Key(v)
	return k
}
