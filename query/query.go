package query

import (
	"errors"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
)

// Query is a read of one item collection by its key: the full partition
// key of the table or of one of its indexes, and at most one sort key
// condition. It starts from an access pattern ([On], [CollectionOn]),
// which names the index and encodes the partition key as the writes
// encode it. It has no method that adds a filter expression: what it
// returns is what it reads.
//
// A Query is a value: every method returns a modified copy and leaves its
// receiver as it was, so a partly built query can be shared, extended and
// used from several goroutines at once.
// Methods record their input; the terminal calls ([Query.Page],
// [Query.All], [Query.Collect]) check it all and return the first problem
// as an [*Error] before any request.
//
// A query decodes whole items: it has no projection of its own. To read
// only some attributes, or an index that projects only some, decode them
// into a type of their own with [View].
type Query[T any] struct {
	// entity is the entity of an entity read ([On]); src is what
	// the query reads from and how it decodes, nil for an entity read
	// without options, which reads from its entity (see Query.source):
	// starting one allocates nothing.
	entity *keyfirst.Entity[T]
	src    *source[T]
	spec
}

// spec is what a query reads, whatever it decodes into: [View] keeps it
// and changes the decoding.
type spec struct {
	index string
	// partition holds the partition key values of a pattern whose
	// partition key has several attributes; partition1 the value of one
	// of a single attribute, kept without a slice (partition is then
	// nil).
	partition  []Value
	partition1 types.AttributeValue
	sort       sortSpec
	desc       bool
	consistent bool
	limitSet   bool
	limit      int
	// dropExpired: WithoutExpired(expiredAt).
	dropExpired bool
	expiredAt   time.Time
	after       Cursor
	// from is what the query takes from its pattern ([On], [CollectionOn]).
	from from
}

// source is what a query reads from and how it decodes items. It is
// immutable and shared by the copies of a query.
type source[T any] struct {
	table *keyfirst.Table
	// entity decodes the items of an entity read; decode those of the
	// others, told what the index holds (see reads.check).
	entity *keyfirst.Entity[T]
	decode func(item map[string]types.AttributeValue, d decoding) (T, error)
	opts   []func(*keyfirst.Options)
	reads  reads
}

// entityType is the entity type read, empty for a collection.
func (s *source[T]) entityType() string {
	if s.entity == nil {
		return ""
	}
	return s.entity.Type()
}

// sortSpec is the recorded sort key condition: none, a keys.Cond or a raw
// attribute condition. The rarer raw condition is kept by pointer, so
// that the Query every builder method copies stays small.
type sortSpec struct {
	kind sortKind
	cond keys.Cond
	attr *AttrCond // set for sortAttr
	// value is the typed condition of a sort key stored as a value
	// (sortValue).
	value *keyfirst.SortCond
	err   error
}

type sortKind uint8

const (
	sortNone sortKind = iota
	sortCond
	sortAttr
	sortValue
)

// of starts an entity read of e, for [On]: every item it returns is
// decoded into T with [keyfirst.Entity.Decode].
func of[T any](e *keyfirst.Entity[T], optFns []func(*keyfirst.Options)) Query[T] {
	if e == nil {
		return Query[T]{}
	}
	if len(optFns) == 0 {
		return Query[T]{entity: e}
	}
	return Query[T]{entity: e, src: entitySource(e, optFns)}
}

// collection starts a read of a mixed item collection of table t, for
// [CollectionOn].
func collection(t *keyfirst.Table, optFns []func(*keyfirst.Options)) Query[any] {
	if t == nil {
		return Query[any]{}
	}
	return Query[any]{src: collectionSource(t, optFns)}
}

// Sort sets the sort key condition to c, built from typed values by the
// keys package. errs takes the error of its construction, so that a keys
// call passes straight in, and a condition already built passes alone:
//
//	q.Sort(orderSK.With1(Cancelled).HalfOpen(jul1, oct1))
//	q.Sort(inQ3)
//
// An error among errs is returned by the terminal call, before any
// request.
//
// On a sort key of one attribute, c compares the whole concatenated value
// (the attribute holds the key as the codec's Encode writes it). On a
// native multi-attribute sort key, c's native form applies: equality on
// the leading attributes and one condition on the next, left to right.
// Sort replaces any previous sort key condition.
func (q Query[T]) Sort(c keys.Cond, errs ...error) Query[T] {
	q.sort = sortSpec{kind: sortCond, cond: c, err: errors.Join(errs...)}
	return q
}

// SortValue sets the sort key condition to c, the typed condition of a
// sort key stored as a value ([keyfirst.ID], [keyfirst.Str],
// [keyfirst.Num], [keyfirst.Bin]) built by the pattern's own sort side:
//
//	orderDate := keyfirst.Str("order_date")
//	openByDate := keyfirst.OnIndex("OpenOrdersByDate", keyfirst.Str("open_status_shard"), orderDate)
//	q.SortValue(orderDate.BeginsWith("2024-04"))
//
// A condition built from another side, even of the same attribute name,
// is refused before any request ([ProblemForeignCondition]); on a
// collection ([CollectionOn]) it must compare the index's sort key
// attribute. A condition that could not be built returns its error
// ([ProblemSortKey]). SortValue replaces any previous sort key condition.
func (q Query[T]) SortValue(c keyfirst.SortCond) Query[T] {
	q.sort = sortSpec{kind: sortValue, value: &c, err: c.Err()}
	return q
}

// SortAttr sets a raw condition on the first attribute of a tuple sort key
// ([keyfirst.Tuple2] .. Tuple4), the one sort key no typed condition
// describes whole (see [Attr]). On a query whose pattern's sort key holds
// keys of a definition (use [Query.Sort]) or is stored as a value (use
// [Query.SortValue]) it is refused ([ProblemForeignCondition]): a raw
// value is not checked as the writes checked theirs, and an attribute
// name can be misspelt. SortAttr replaces any previous sort key
// condition.
func (q Query[T]) SortAttr(c AttrCond) Query[T] {
	q.sort = sortSpec{kind: sortAttr, attr: &c}
	return q
}

// Desc reads in descending sort key order (ScanIndexForward=false): newest
// first, at the same cost, without reversed timestamps.
func (q Query[T]) Desc() Query[T] {
	q.desc = true
	return q
}

// Asc reads in ascending sort key order, the default.
func (q Query[T]) Asc() Query[T] {
	q.desc = false
	return q
}

// ConsistentRead asks for a strongly consistent read: allowed on the table
// and on local secondary indexes, refused on a global secondary index
// ([ProblemConsistentRead]), which DynamoDB keeps eventually consistent.
func (q Query[T]) ConsistentRead() Query[T] {
	q.consistent = true
	return q
}

// Limit returns at most n items in all: exactly min(n, matching items),
// over as many requests as needed, each asking DynamoDB for the items
// still missing, and no request after the n-th item. n must be positive
// ([ProblemLimit]). Without Limit, [Query.Page] returns one DynamoDB page
// and [Query.All] reads to the end.
func (q Query[T]) Limit(n int) Query[T] {
	q.limit, q.limitSet = n, true
	return q
}

// WithoutExpired drops, after the read, the items that have expired at
// now ([keyfirst.Entity.Expired]: their [keyfirst.EntitySpec.Expires] is
// at or before now), which DynamoDB deletes only some time later (up to a
// few days). By default a query returns them, as DynamoDB does: what it
// returns is what it reads. With WithoutExpired, [Query.Limit] stays
// exact (the read goes on to further pages for the items still missing),
// no filter expression is sent, and the dropped items cost what any item
// read costs: the capacity reported includes them ([Page.Expired] counts
// them). Pass the clock's time (time.Now(), or a test's). It needs a read
// of one entity that declares an expiry, decoded whole, or a collection
// ([CollectionOn]) of an index that projects every attribute: each item
// is then dropped by its own entity's expiry ([keyfirst.Table.Expired]),
// and the items of an entity without expiry are never dropped
// ([ProblemExpired] otherwise).
func (q Query[T]) WithoutExpired(now time.Time) Query[T] {
	q.dropExpired, q.expiredAt = true, now
	return q
}

// After resumes the query after the item at which c was made ([Page.Next]
// or [keyfirst.WithNext]). The empty Cursor starts from the beginning. A cursor
// of another query, a changed one, or one whose key lies outside the
// query's partition or sort key condition is refused before any request
// (see [Cursor]).
func (q Query[T]) After(c Cursor) Query[T] {
	q.after = c
	return q
}

// source returns what the query reads from: its src, or, for an entity
// read without options, the entity's source, built (on the caller's
// stack) on each call. It is nil for a query started from nothing.
func (q *Query[T]) source() *source[T] {
	if q.src == nil && q.entity != nil {
		return &source[T]{table: q.entity.Table(), entity: q.entity, reads: entityReads(q.entity)}
	}
	return q.src
}

// decodeInto decodes it, one item read, into *dst, every field of which
// it writes: an item of an entity (e, or src's) in place, without a copy
// of T; any other by src's decode.
func decodeInto[T any](dst *T, e *keyfirst.Entity[T], src *source[T], it item, d decoding) error {
	if e == nil {
		e = src.entity
	}
	if e != nil {
		return e.DecodeTo(it, dst)
	}
	v, err := src.decode(it, d)
	*dst = v
	return err
}

// appendItem appends it, one item read, decoded into out's new element
// (decodeInto), to out. On an error it returns out as it was.
func appendItem[T any](out []T, e *keyfirst.Entity[T], src *source[T], it item, d decoding) ([]T, error) {
	out = slices.Grow(out, 1)[:len(out)+1]
	if err := decodeInto(&out[len(out)-1], e, src, it, d); err != nil {
		var zero T
		out[len(out)-1] = zero
		return out[:len(out)-1], err
	}
	return out, nil
}
