package shard

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// MaxShards is the largest shard count [New] accepts. At the 800 WCU/s a
// shard is sized for ([Count]), 100 shards absorb 80,000 WCU/s on one
// index: twice the default per-table write quota of an on-demand table
// (40,000 WCU/s), so a count above it sizes for a rate the table cannot
// take without a quota increase. And every read of a sharded index sends
// at least one query per shard: 100 shards make every page of a read cost
// at least 100 requests and their round trips. A workload beyond that
// needs an index key of real cardinality, not more shards.
const MaxShards = 100

// maxPartitionBytes is DynamoDB's limit on a partition key value.
const maxPartitionBytes = 2048

// Spec declares how the items of T are spread over the shards of an index
// and what they store in it. Set exactly one of Field and Pick, and, for
// an index with a sort key, exactly one of SortField and Sort.
type Spec[T, S any] struct {
	// Base is the partition value the shard number suffixes: OPEN gives
	// OPEN#0 .. OPEN#<Shards-1>. It is not empty, holds no '#' and is
	// valid UTF-8.
	Base string
	// Shards is the number of shards, 1 to [MaxShards]; see [Count] and
	// [CountForItems].
	Shards int
	// Field is the Go name of a field of T of string kind (a string or a
	// named string type, exported, not behind an embedded pointer) whose
	// [Hash] picks the shard: Hash(field) mod Shards. Choose a field that
	// identifies the item and never changes (its id): a rewrite of the
	// same item then lands on the same shard, costing no extra index
	// writes, and a point read computes where it is. An empty value on an
	// item that belongs to the index fails the write ([PickEmptyField]).
	Field string
	// Pick is the caller's choice of shard instead of Field: it must
	// return 0..Shards-1 (checked on every write, [PickOutOfRange]) and
	// the same shard for every write of the same item, or each write that
	// moves it costs two index writes (a delete and an insert).
	Pick func(T) int
	// SortField is the Go name of the field of T that is the index's sort
	// key, bound to the pattern's sort side as [keyfirst.Pattern.Fields]
	// binds a field (the field's type is the side's; [keyfirst.NewEntity]
	// checks it). When the side is a [keyfirst.Str], [keyfirst.Num] or
	// [keyfirst.Bin] of the attribute the field is stored under (seed
	// 002's order_date), the sort key is that field, stored once and
	// never REMOVEd: the partition attribute alone decides membership, and
	// the field serves the table's other indexes too. An item that
	// belongs to the index with that field omitted (omitempty) fails the
	// write ([keyfirst.ItemMissingKey]). Set exactly one of SortField and
	// Sort when the index has a sort key.
	SortField string
	// Sort returns the index's sort key value of an item, encoded by the
	// pattern's sort side: a sort key derived from the item (a composite
	// of several fields, a date in another form), stored in an attribute
	// of its own and REMOVEd with the partition attribute when the item
	// leaves the index.
	Sort func(T) S
	// PreviousShards is the shard count before a change of Shards, while
	// items may still be on shards of the old count: 0 (no change under
	// way) or 1 to [MaxShards]. Writes use Shards at once; reads
	// ([Query]) cover max(Shards, PreviousShards) shards, every shard
	// that can still hold items, until [Index.Reshard] has moved them;
	// then remove it.
	PreviousShards int
	// When reports whether an item belongs to the index; nil means every
	// item does. An item for which it reports false has the index's
	// attributes removed on every write path: a sparse sharded index.
	When func(T) bool
	// Reads names, as in Go, the fields of T that When, Pick and Sort
	// read ([keyfirst.Binding.Reads]), so that a partial update
	// ([keyfirst.Entity.Update]) can recompute the index's key: an update
	// that sets them all (seed 002's close_order sets Status, which When
	// reads) moves the item in or out of the index in the same write.
	// Field needs no declaration. Without Reads, an entity whose shard
	// index has one of these functions refuses every partial update
	// ([keyfirst.UpdateUndeclared]).
	Reads []string
}

// Index is a write-sharded secondary index, declared once (usually at
// package level) with [New] and bound to an entity with [Index.Binding].
// It is immutable and safe for concurrent use.
type Index[T, S any] struct {
	p       keyfirst.Pattern[string, S]
	field   string
	index   []int // the field's index path in T, for reflect
	pick    func(T) int
	sort    func(T) S
	parts   []string // written: Shards
	read    []string // read: max(Shards, PreviousShards)
	binding keyfirst.Binding
}

// New declares a sharded index: p is the index's pattern ([keyfirst.OnIndex]
// of a global secondary index), whose partition side is one
// [keyfirst.Str] attribute, which holds <Base>#<n> (n in decimal without
// padding, 0 to Shards-1); spec says how an item picks its shard and what
// it stores. A pattern or spec that cannot work is refused with a
// [*SpecError] wrapping [ErrInvalidSpec], before anything is written.
func New[T, S any](p keyfirst.Pattern[string, S], spec Spec[T, S]) (*Index[T, S], error) {
	x := &Index[T, S]{p: p, field: spec.Field, pick: spec.Pick, sort: spec.Sort}
	name := p.IndexName()
	fail := func(problem SpecProblem, detail string, err error) (*Index[T, S], error) {
		return nil, &SpecError{Index: name, Field: spec.Field, Problem: problem, Detail: detail, Err: err}
	}
	if err := p.Err(); err != nil {
		return fail(SpecPattern, "", err)
	}
	if name == "" {
		return fail(SpecPattern, "the table's primary key cannot be sharded: declare the index with keyfirst.OnIndex", nil)
	}
	ix := p.Index()
	if len(ix.PartitionKey) != 1 || ix.PartitionKey[0].Type != types.ScalarAttributeTypeS {
		return fail(SpecPattern, fmt.Sprintf("pattern %s: the partition key must be one string attribute (keyfirst.Str)", p), nil)
	}
	switch {
	case spec.Base == "":
		return fail(SpecBase, "an empty base: name the partition the shards split (OPEN)", nil)
	case strings.Contains(spec.Base, "#"):
		return fail(SpecBase, fmt.Sprintf("base %q holds '#', the separator of the shard number", spec.Base), nil)
	case !utf8.ValidString(spec.Base):
		return fail(SpecBase, fmt.Sprintf("base %q is not valid UTF-8", spec.Base), nil)
	case spec.Shards < 1 || spec.Shards > MaxShards:
		return fail(SpecShards, fmt.Sprintf("%d shards, the range is 1 to %d (see shard.Count)", spec.Shards, MaxShards), nil)
	case spec.PreviousShards < 0 || spec.PreviousShards > MaxShards:
		return fail(SpecShards, fmt.Sprintf("%d previous shards, the range is 0 (none) or 1 to %d", spec.PreviousShards, MaxShards), nil)
	case len(spec.Base)+1+len(strconv.Itoa(max(spec.Shards, spec.PreviousShards)-1)) > maxPartitionBytes:
		return fail(SpecBase, fmt.Sprintf("a base of %d bytes makes partition values longer than DynamoDB's %d", len(spec.Base), maxPartitionBytes), nil)
	case (spec.Field == "") == (spec.Pick == nil):
		return fail(SpecChoice, "set exactly one: Field (the default, a hash of the item's id) or Pick", nil)
	case (spec.Sort != nil || spec.SortField != "") && len(ix.SortKey) == 0:
		return fail(SpecSort, fmt.Sprintf("pattern %s has no sort key: remove Sort and SortField", p), nil)
	case (spec.Sort == nil) == (spec.SortField == "") && len(ix.SortKey) > 0:
		return fail(SpecSort, fmt.Sprintf("pattern %s has a sort key: set exactly one of SortField (the field of T that is the sort key) and Sort (a value derived from the item)", p), nil)
	}
	if spec.Field != "" {
		index, err := stringField(reflect.TypeFor[T](), spec.Field)
		if err != nil {
			return fail(SpecField, err.Error(), nil)
		}
		x.index = index
	}
	x.read = make([]string, max(spec.Shards, spec.PreviousShards))
	for n := range x.read {
		x.read[n] = spec.Base + "#" + strconv.Itoa(n)
		// The partition side must store the value as it is (a Str),
		// not through a keys definition that would prefix or refuse it.
		av, err := p.PartitionValues(x.read[n])
		if err != nil {
			return fail(SpecPattern, "", err)
		}
		if s, ok := av[0].(*types.AttributeValueMemberS); !ok || s.Value != x.read[n] {
			return fail(SpecPattern, fmt.Sprintf("pattern %s stores partition %s as another value: its partition side must be keyfirst.Str", p, x.read[n]), nil)
		}
	}
	x.parts = x.read[:spec.Shards:spec.Shards]
	b := keyfirst.FuncE(p, x.derive)
	if spec.SortField != "" {
		b = keyfirst.FuncPartition(p, x.partition, spec.SortField)
	}
	var fieldReads []string
	if spec.Field != "" {
		fieldReads = []string{spec.Field}
	}
	if spec.Reads != nil || spec.Pick == nil && spec.Sort == nil {
		b = b.Reads(append(fieldReads, spec.Reads...)...)
	}
	if spec.When != nil {
		b = keyfirst.If(b, spec.When)
		if spec.Reads != nil {
			b = b.Reads(spec.Reads...)
		}
	}
	x.binding = b
	return x, nil
}

// stringField finds the exported field called name of struct type t, of
// string kind and not behind an embedded pointer, and returns its index
// path.
func stringField(t reflect.Type, name string) ([]int, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("%s is not a struct: use Pick", t)
	}
	f, ok := t.FieldByName(name)
	switch {
	case !ok || !f.IsExported():
		return nil, fmt.Errorf("%s has no exported field %s", t, name)
	case f.Type.Kind() != reflect.String:
		return nil, fmt.Errorf("field %s of %s is %s, not of string kind: use Pick to shard on another type", name, t, f.Type)
	}
	cur := t
	for _, i := range f.Index[:len(f.Index)-1] {
		sf := cur.Field(i)
		if sf.Type.Kind() != reflect.Struct {
			return nil, fmt.Errorf("field %s of %s is behind the embedded pointer %s: move it to T or embed the struct by value", name, t, sf.Name)
		}
		cur = sf.Type
	}
	return f.Index, nil
}

// partition is the function of a binding with a SortField: the item's
// partition (its shard's), or the error that leaves it without a shard.
func (x *Index[T, S]) partition(v T) (string, bool, error) {
	n, err := x.Shard(v)
	if err != nil {
		return "", false, err
	}
	return x.parts[n], true, nil
}

// derive is the function of a binding with Sort (or no sort key): the
// item's partition and sort key values.
func (x *Index[T, S]) derive(v T) (string, S, bool, error) {
	var sk S
	part, ok, err := x.partition(v)
	if err == nil && x.sort != nil {
		sk = x.sort(v)
	}
	return part, sk, ok, err
}

// Binding returns the index's binding for [keyfirst.EntitySpec.Keys]. It
// plugs into the root package's one write mechanism, so every write path
// (Put, Replace, Modify, the puts of BatchWrite, transactions, Refresh
// and backfills) SETs the partition attribute (<Base>#<shard>) when the
// item belongs to the index and REMOVEs it when it does not (Spec.When),
// and fails before any request, with a [keyfirst.ItemError]
// ([keyfirst.ItemDerive]) wrapping a [*PickError], when an item that
// belongs has no valid shard. The sort key is the field of
// Spec.SortField, which every write stores as a field, or the value of
// Spec.Sort, SET and REMOVEd with the partition attribute
// ([keyfirst.FuncPartition] or [keyfirst.FuncE] around the shard pick).
func (x *Index[T, S]) Binding() keyfirst.Binding { return x.binding }

// Shard returns the shard item v is written to while it belongs to the
// index (Spec.When is not consulted): [Hash] of its Field mod Shards, or
// what Pick returns. An empty or invalid field, or a Pick result out of
// range, is a [*PickError].
func (x *Index[T, S]) Shard(v T) (int, error) {
	if x.pick != nil {
		n := x.pick(v)
		if n < 0 || n >= len(x.parts) {
			return 0, &PickError{Index: x.p.IndexName(), Problem: PickOutOfRange, Shard: n, Shards: len(x.parts)}
		}
		return n, nil
	}
	n, problem := hashShard(reflect.ValueOf(v).FieldByIndex(x.index).String(), len(x.parts))
	if problem != 0 {
		return 0, &PickError{Index: x.p.IndexName(), Field: x.field, Problem: problem, Shards: len(x.parts)}
	}
	return n, nil
}

// Partitions returns the index's partition values, one per shard, in
// shard order: <Base>#0 .. <Base>#<Shards-1>. The slice is the caller's.
func (x *Index[T, S]) Partitions() []string { return slices.Clone(x.parts) }

// ReadPartitions returns the partition values a read covers: those of
// max(Shards, PreviousShards) shards, in shard order. The slice is the
// caller's.
func (x *Index[T, S]) ReadPartitions() []string { return slices.Clone(x.read) }

// Pattern returns the index's access pattern, as given to [New].
func (x *Index[T, S]) Pattern() keyfirst.Pattern[string, S] { return x.p }
