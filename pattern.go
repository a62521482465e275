package keyfirst

import (
	"fmt"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/codec"
	"github.com/keyfirst/keyfirst/keys"
)

// Pattern is an access pattern: the table's primary key or one of its
// secondary indexes, with the Go types and encodings of its partition key
// (P) and sort key (S). It is declared once, usually at package level:
//
//	var ordersByStatus = keyfirst.OnIndex("ByStatusDate",
//		keyfirst.Str("CustomerId"), keyfirst.Composite("OrderStatusDate", statusDate))
//
// and used everywhere else by name: in [TableSpec] ([Pattern.Index],
// [TableSpec.Key]), in an [EntitySpec] to derive the index's attributes
// from fields of T ([Pattern.Fields], [Func]), and by the query package to
// read it with typed values (query.On). The value a query sends is then
// encoded by the code that wrote it, and a sort key condition built from
// another key definition is refused before any request. The index name
// is checked once, when an entity binds the pattern ([NewEntity]).
//
// A Pattern is an immutable value, safe for concurrent use; one built
// from a bad [Side] keeps its error ([Pattern.Err]), which every use
// returns.
type Pattern[P, S any] struct {
	p  *pattern
	pk Side[P]
	sk Side[S]
}

// pattern is the untyped part of a Pattern, shared by its copies; its
// address is the pattern's identity.
type pattern struct {
	index  string // "" for the table's primary key
	pk, sk *side
	err    error
	// fromFields encodes the partition (0) or sort (1) side from the fields
	// of an item at base.
	fromFields [2]func(base unsafe.Pointer, offs []uintptr, sl *codec.Slab, out []types.AttributeValue) error
	// fromField1 encodes a side of one attribute without a buffer (nil
	// for a side of several).
	fromField1 [2]func(base unsafe.Pointer, offs []uintptr, sl *codec.Slab) (types.AttributeValue, error)
	// toFields decodes the stored value of the partition (0) or sort (1)
	// side into the fields of an item; nil for a side without a decoder.
	toFields [2]func(base unsafe.Pointer, offs []uintptr, in []types.AttributeValue) error
}

// PatternID is the identity of a [Pattern], shared by its copies; the zero
// PatternID is no pattern.
type PatternID struct{ p *pattern }

// String describes the pattern (see [Pattern.String]).
func (id PatternID) String() string {
	if id.p == nil {
		return "zero Pattern"
	}
	return id.p.String()
}

// OnTable is the access pattern of the table's primary key: pk and sk are
// the sides of its partition and sort key ([NoSort] for a table without a
// sort key). Each entity type of a single table has its own: the same
// attributes, its own encodings (CUST#<id> / ORDER#<id>).
func OnTable[P, S any](pk Side[P], sk Side[S]) Pattern[P, S] {
	return newPattern("", pk, sk)
}

// OnIndex is the access pattern of the global or local secondary index
// called index: pk and sk are the sides of its partition and sort key
// ([NoSort] for an index without a sort key). A local secondary index's
// partition key is the table's: give the same side as the table's
// pattern.
func OnIndex[P, S any](index string, pk Side[P], sk Side[S]) Pattern[P, S] {
	p := newPattern(index, pk, sk)
	if p.p.err == nil && index == "" {
		p.p.err = p.fail(PatternSide, `an empty index name: use OnTable for the table's primary key`, nil)
	}
	return p
}

func newPattern[P, S any](index string, pk Side[P], sk Side[S]) Pattern[P, S] {
	p := Pattern[P, S]{p: &pattern{index: index, pk: pk.s, sk: sk.s}, pk: pk, sk: sk}
	switch {
	case pk.s == nil || sk.s == nil:
		p.p.err = p.fail(PatternSide, "a zero Side: build sides with Composite, Native, Str, Num, Bin, Const or NoSort", nil)
	case len(pk.s.attrs) == 0:
		p.p.err = p.fail(PatternSide, "NoSort as the partition key: every key has a partition key", nil)
	case pk.s.err != nil:
		p.p.err = p.fail(PatternSide, "partition key "+pk.s.desc, pk.s.err)
	case sk.s.err != nil:
		p.p.err = p.fail(PatternSide, "sort key "+sk.s.desc, sk.s.err)
	case sk.s.constant && len(sk.s.konst) > keys.MaxSortKeyBytes:
		p.p.err = p.fail(PatternSide, "sort key "+sk.s.desc, fmt.Errorf("a constant of %d bytes: a sort key value has at most %d", len(sk.s.konst), keys.MaxSortKeyBytes))
	}
	p.p.fromFields = [2]func(unsafe.Pointer, []uintptr, *codec.Slab, []types.AttributeValue) error{pk.fromFields, sk.fromFields}
	p.p.fromField1 = [2]func(unsafe.Pointer, []uintptr, *codec.Slab) (types.AttributeValue, error){pk.fromFields1(), sk.fromFields1()}
	p.p.toFields = [2]func(unsafe.Pointer, []uintptr, []types.AttributeValue) error{pk.toFields(), sk.toFields()}
	return p
}

func (p Pattern[P, S]) fail(problem PatternProblem, detail string, err error) error {
	return &PatternError{Index: p.p.index, Problem: problem, Detail: detail, Err: err}
}

// Err returns the error the pattern was built with (a [*PatternError]), or
// nil; a zero Pattern reports [PatternZero].
func (p Pattern[P, S]) Err() error {
	if p.p == nil {
		return &PatternError{Problem: PatternZero, Detail: "build patterns with OnTable or OnIndex"}
	}
	return p.p.err
}

// ID returns the pattern's identity.
func (p Pattern[P, S]) ID() PatternID { return PatternID{p.p} }

// IndexName returns the index's name, "" for the table's primary key.
func (p Pattern[P, S]) IndexName() string {
	if p.p == nil {
		return ""
	}
	return p.p.index
}

// Index returns the secondary index the pattern reads, for
// [TableSpec.GSIs] or [TableSpec.LSIs]: its name and key attributes, with
// ALL attributes projected. Set the other fields of the result
// (Projection, Scannable) as needed.
func (p Pattern[P, S]) Index() Index {
	if err := p.Err(); err != nil {
		return Index{err: err}
	}
	if p.p.index == "" {
		return Index{err: p.fail(PatternSide, "Index of an OnTable pattern: give it to TableSpec.Key", nil)}
	}
	return Index{Name: p.p.index, PartitionKey: cloneAttrs(p.p.pk.attrs), SortKey: cloneAttrs(p.p.sk.attrs)}
}

// SortDefinition returns the keys definition of the sort key, zero when
// the sort key holds values as they are or there is none: the definition
// every sort key condition of the pattern is built from.
func (p Pattern[P, S]) SortDefinition() keys.DefID {
	if p.p == nil || p.p.err != nil {
		return keys.DefID{}
	}
	return p.p.sk.def
}

// SortConstant returns the value of the pattern's sort key when it is a
// [Const] side, and whether it is one: the value every item of the
// pattern stores there, which a query of the pattern compares itself.
func (p Pattern[P, S]) SortConstant() (string, bool) {
	if p.p == nil || p.p.err != nil || !p.p.sk.constant {
		return "", false
	}
	return p.p.sk.konst, true
}

// PartitionValues returns the attribute values of partition key v, one per
// partition key attribute, encoded as the entities that bind the pattern
// write them. An error is a [*PatternError] ([PatternValue]) that wraps
// the codec's.
func (p Pattern[P, S]) PartitionValues(v P) ([]types.AttributeValue, error) {
	return p.AppendPartition(nil, v)
}

// AppendPartition appends the values of [Pattern.PartitionValues] to dst;
// on error dst comes back unchanged. dst may be a buffer on the caller's
// stack (AppendPartition keeps no reference to it): with room for the
// value of a partition key of one attribute, that saves an allocation (a
// key of several attributes is encoded into a slice of its own first).
func (p Pattern[P, S]) AppendPartition(dst []types.AttributeValue, v P) ([]types.AttributeValue, error) {
	if err := p.Err(); err != nil {
		return dst, err
	}
	// dst goes to no function value, so that a caller's buffer on the
	// stack stays there: a side of one attribute returns its value, the
	// others encode into a buffer of their own.
	var err error
	if p.pk.one != nil {
		var av types.AttributeValue
		if av, err = p.pk.one(v, nil); err == nil {
			return append(dst, av), nil
		}
	} else {
		out := make([]types.AttributeValue, len(p.p.pk.attrs))
		if err = p.pk.enc(v, nil, out); err == nil {
			if dst == nil {
				return out, nil
			}
			return append(dst, out...), nil
		}
	}
	return dst, p.fail(PatternValue, fmt.Sprintf("partition key value %v for %s", v, p.p.pk.desc), err)
}

// String describes the pattern: ByStatusDate(CustomerId = a S value as it
// is; OrderStatusDate = <enum>#<time>).
func (p Pattern[P, S]) String() string {
	if p.p == nil {
		return "zero Pattern"
	}
	return p.p.String()
}

func (p *pattern) String() string {
	name := p.index
	if name == "" {
		name = "table"
	}
	sk := "no sort key"
	if p.sk != nil {
		sk = p.sk.desc
	}
	pk := ""
	if p.pk != nil {
		pk = p.pk.desc
	}
	return fmt.Sprintf("%s(%s; %s)", name, pk, sk)
}

func cloneAttrs(a []Attribute) []Attribute {
	if len(a) == 0 {
		return nil
	}
	return append([]Attribute(nil), a...)
}
