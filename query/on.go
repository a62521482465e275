package query

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
)

// from is what a query started from a pattern ([On], [CollectionOn])
// takes from it: the index, the partition key values, and the keys
// definitions a sort key condition may be built from.
type from struct {
	pattern keyfirst.PatternID
	// err is a pattern that cannot be read or, with partErr, a partition
	// key value the pattern's codec refuses.
	err     error
	partErr bool
	// sortDef is the definition the sort key condition must come from
	// (zero: none can); collection: take them from the table (every
	// pattern bound on the index).
	collection bool
	sortDef    keys.DefID
	// sortConst is the value of the pattern's constant sort key
	// ([keyfirst.Const]), which the query compares itself; nil for any
	// other sort key.
	sortConst types.AttributeValue
}

// On starts a query of entity e through access pattern p, in the item
// collection whose partition key is partition: p encodes partition as the
// entity's writes encode it, so the query finds what was written. p must
// be bound by e ([keyfirst.EntitySpec.Keys]); a sort key condition must
// be built from p's own sort key definition ([keyfirst.Pattern.SortDefinition]):
// one built from another key, even of the same Go type, is refused before
// any request ([ProblemForeignCondition]):
//
//	query.On(orders, ordersByStatus, "c_42").
//		Sort(statusDate.With1(Cancelled).HalfOpen(jul1, oct1)).Collect(ctx, client)
//
// Every item the query returns is decoded into T with
// [keyfirst.Entity.Decode]. The index read must project every attribute
// of T (see [View] for the attributes of a partial one), and an item of
// another entity type is a [*DecodeError] (choose a sort key condition
// that selects only T's items, or read a mixed collection with
// [CollectionOn]). optFns apply to every call of the query.
//
// A pattern of the table reads the table: the whole-key read of one item
// collection is On(e, tablePattern, pk).
//
// A pattern whose sort key is a [keyfirst.Const] reads the items that
// store the constant: the query adds sort = constant to its key
// condition, and refuses a sort key condition of its own
// ([ProblemSortKey]). The admins of an organization, in an index GSI1
// that also holds the organizations:
//
//	adminsOf := keyfirst.OnIndex("GSI1", keyfirst.Composite("GSI1PK", orgKey), keyfirst.Const("GSI1SK", "Admin"))
//	query.On(users, adminsOf, "berkshire") // GSI1PK = "ORG#berkshire" AND GSI1SK = "Admin"
//
// A constant partition key is queried with keyfirst.None{}.
func On[T, P, S any](e *keyfirst.Entity[T], p keyfirst.Pattern[P, S], partition P, optFns ...func(*keyfirst.Options)) Query[T] {
	q := of(e, optFns)
	f := from{pattern: p.ID(), sortDef: p.SortDefinition()}
	if e != nil && p.Err() == nil && !e.Binds(p.ID()) {
		f.err = fmt.Errorf("entity %s does not bind pattern %s: add it to EntitySpec.Keys, so that its items are written as the pattern reads them", e.Type(), p)
	}
	startFrom(&q, f, p, partition)
	return q
}

// CollectionOn starts a query of a mixed item collection of table t (a
// repo and its issues) through access pattern p, whose partition key is
// partition. Every item is decoded by [keyfirst.Table.Decode] into the Go
// type of its entity (a T, not a *T), for a type switch; an item whose
// entity type is not registered on t arrives as an [Unknown]. The index
// read must hold the entity-type attribute and every attribute of each
// entity type that can be in it; an item of another type that it holds
// anyway (written by an older definition, or by another program) arrives
// as an [Unknown] when the index does not hold every attribute of its
// type. optFns apply to every call of the query.
//
// p must be bound by an entity registered on t. A sort key condition may be built from the sort key
// definition of any pattern bound on p's index (the sort key of a single
// table holds several: REPO#<name>, ISSUE#<number>), and from no other.
func CollectionOn[P, S any](t *keyfirst.Table, p keyfirst.Pattern[P, S], partition P, optFns ...func(*keyfirst.Options)) Query[any] {
	q := collection(t, optFns)
	f := from{pattern: p.ID(), collection: true}
	if t != nil && p.Err() == nil && !t.Binds(p.ID()) {
		f.err = fmt.Errorf("no entity of table %s binds pattern %s: bind it in an EntitySpec.Keys", t.Name(), p)
	}
	startFrom(&q, f, p, partition)
	return q
}

// startFrom records the pattern's index and partition key.
func startFrom[T, P, S any](q *Query[T], f from, p keyfirst.Pattern[P, S], partition P) {
	if err := p.Err(); err != nil && f.err == nil {
		f.err = err
	}
	q.index = p.IndexName()
	if c, ok := p.SortConstant(); ok {
		f.sortConst = &types.AttributeValueMemberS{Value: c}
	}
	if f.err == nil {
		var buf [keyfirst.MaxKeyAttributes]types.AttributeValue
		avs, err := p.AppendPartition(buf[:0], partition)
		f.err, f.partErr = err, err != nil
		if len(avs) == 1 {
			q.partition1 = avs[0]
		} else {
			q.partition = make([]Value, len(avs))
			for i, av := range avs {
				q.partition[i] = Value{av: av}
			}
		}
	}
	q.from = f
}

// checkFrom refuses a pattern that cannot be read and a partition key
// value its codec refuses.
func (s *spec) checkFrom(f failer) error {
	switch {
	case s.from.partErr:
		return f.fail("", ProblemPartition, "", s.from.err)
	case s.from.err != nil:
		return f.fail("", ProblemPattern, "", s.from.err)
	}
	return nil
}

// constTerm appends the comparison of a pattern's constant sort key to
// the key condition's terms; a sort key condition given beside it is
// refused: the constant is the only value the pattern's items store there.
func (s *spec) constTerm(f failer, ks *keyfirst.KeySchema, out []term) ([]term, error) {
	c := s.from.sortConst
	if c == nil {
		return out, nil
	}
	attr := ks.SortKey[0].Name
	if s.sort.kind != sortNone {
		return nil, f.fail(attr, ProblemSortKey, fmt.Sprintf("a sort key condition on a query of pattern %s, whose sort key is the constant %s = %q: "+
			"the query compares it itself; drop the condition", s.from.pattern, attr, c.(*types.AttributeValueMemberS).Value), nil)
	}
	return append(out, term{attr: attr, op: keys.OpEq, lo: c}), nil
}

// checkDefs refuses a sort key condition built from a key definition that
// the index's sort key does not hold: on an entity's query, any other than
// its pattern's; on a collection's, any that no pattern bound on the
// index stores there. A raw condition is refused where the pattern's keys
// definition describes the sort key ([spec.checkRaw]).
func (s *spec) checkDefs(f failer, t *keyfirst.Table) error {
	if s.sort.kind == sortAttr {
		return s.checkRaw(f)
	}
	if s.sort.kind != sortCond || s.sort.err != nil {
		return nil
	}
	var allowed []keys.DefID
	switch {
	case !s.from.collection:
		if s.sort.cond.BuiltFrom(s.from.sortDef) {
			return nil
		}
		if !s.from.sortDef.IsZero() {
			allowed = []keys.DefID{s.from.sortDef}
		}
	default:
		allowed = t.SortDefinitions(s.index)
		if s.sort.cond.BuiltFrom(allowed...) {
			return nil
		}
	}
	if shape, ok := sameShape(s.sort.cond.Defs(), allowed); ok {
		return f.fail("", ProblemForeignCondition, fmt.Sprintf("the condition %s is built from another definition of the same shape (%s) "+
			"as the one the index's sort key holds: each NewKeyN call makes a definition of its own; build the condition from the key the pattern was declared with",
			s.sort.cond, shape), nil)
	}
	return f.fail("", ProblemForeignCondition, fmt.Sprintf("the condition %s is built from %s; the index's sort key holds %s: build it from that key",
		s.sort.cond, describeDefs(s.sort.cond.Defs()), describeDefs(allowed)), nil)
}

// sameShape returns the shape of a definition of defs that is not among
// allowed but has the shape of one that is: a look-alike, built by another
// NewKeyN call of the same arguments.
func sameShape(defs, allowed []keys.DefID) (string, bool) {
	for _, d := range defs {
		if slices.Contains(allowed, d) {
			continue
		}
		for _, a := range allowed {
			if a.String() == d.String() {
				return d.String(), true
			}
		}
	}
	return "", false
}

// checkRaw refuses a raw condition ([Query.SortAttr]) on an entity's
// query started from a pattern whose sort key holds keys of a definition
// (every item it reads stores that key): a raw value is not checked
// against the key's segments, so a misspelt one (begins_with "CANCELED#")
// would find nothing; a keys condition of that definition says what a raw
// one can (the ids that begin with "t": HalfOpen("t", "u")). A collection takes raw conditions
// as given: its index may hold, beside the patterns' keys, values that no
// pattern describes.
func (s *spec) checkRaw(f failer) error {
	if s.from.collection {
		return nil
	}
	if s.from.pattern.ValueSort() {
		return f.fail(s.sort.attr.attr, ProblemForeignCondition, fmt.Sprintf(
			"a raw condition on the sort key of pattern %s, which stores a value: build the condition from the pattern's sort side (Side.Eq, Between, BeginsWith, ...) and pass it to SortValue, "+
				"which encodes and checks its values as the writes did", s.from.pattern), nil)
	}
	if s.from.sortDef.IsZero() {
		return nil
	}
	return f.fail(s.sort.attr.attr, ProblemForeignCondition, fmt.Sprintf(
		"a raw condition on a sort key that holds keys of %s: a raw value is not checked against the key's segments, so a misspelt one finds nothing; "+
			"build the condition from that key with Sort", s.from.sortDef), nil)
}

// checkValueCond refuses a typed condition built from another side than
// the pattern's sort side (a collection checks its attribute only, as
// its index holds the sort keys of several patterns).
func (s *spec) checkValueCond(f failer) error {
	c := s.sort.value
	if c.Err() != nil || s.from.collection || c.BuiltFor(s.from.pattern) {
		return nil
	}
	return f.fail(c.Attr(), ProblemForeignCondition, fmt.Sprintf(
		"the condition %s is built from another side than the sort key of pattern %s: build it from the side the pattern was declared with", c, s.from.pattern), nil)
}

func describeDefs(defs []keys.DefID) string {
	if len(defs) == 0 {
		return "no keys definition"
	}
	parts := make([]string, len(defs))
	for i, d := range defs {
		parts[i] = d.String()
	}
	return strings.Join(parts, " or ")
}
