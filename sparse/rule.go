package sparse

import (
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// DynamoDB's limits on a key value.
const (
	maxPartitionKeyBytes = 2048
	maxSortKeyBytes      = 1024
)

// Rule says when an item of type T belongs to one sparse index, and with
// which key values: "a ticket is in open-tickets-index while it is open,
// with openBucket = "OPEN" and openedAt = its opening time".
//
// The predicate alone decides membership. While it holds, every key
// attribute of the rule is written with its value; when it stops holding,
// every one of them is removed (Replace, Modify) or left out (Put, batch
// writes) by the root package's write paths, never set to an empty string
// or a placeholder. A key attribute of the index that the rule leaves out
// is a field of T, which every write stores as it stores any field. A value computed while the predicate holds must be a
// valid key: an empty string is an error ([keyfirst.ItemEmptyKey]), never a
// way out of the index.
//
// Build a rule with [In] or [Every], add its key attributes with
// [Rule.Key] and [Rule.Fixed], and hand it to [Apply] (or
// [Rule.IndexKeys]). A Rule is a value: every method returns a copy and
// copies share nothing, so a base rule can be extended in several ways.
// A mistake made while building (a nil predicate, an empty fixed value, an
// attribute named twice) is kept and reported, with what the table adds,
// as a [*RuleError] by Apply and IndexKeys.
type Rule[T any] struct {
	index string
	when  func(T) bool
	keys  []ruleKey[T]
	err   error
}

// ruleKey is one key attribute of a rule.
type ruleKey[T any] struct {
	attr  string
	value Value[T]
}

// Value computes one key attribute of a [Rule] from an item. Build it with
// [String], [Number] or [Binary] (or use [Rule.Fixed] for a constant); its
// type (S, N or B) is checked against the attribute's when the rule is
// applied, so a mistyped key is refused before any item exists.
type Value[T any] struct {
	kind  types.ScalarAttributeType
	fixed string // the constant of Rule.Fixed
	fn    keyfirst.Derive[T]
}

// String computes a string (S) key value with f, typically a keys codec:
//
//	sparse.String(func(t Ticket) (string, error) { return openedAt.Encode(t.OpenedAt) })
func String[T any](f func(T) (string, error)) Value[T] {
	if f == nil {
		return Value[T]{}
	}
	return Value[T]{kind: types.ScalarAttributeTypeS, fn: keyfirst.DeriveString(f)}
}

// Number computes a number (N) key value with f. NaN and infinities are
// refused when an item is written.
func Number[T any, V keyfirst.Number](f func(T) (V, error)) Value[T] {
	if f == nil {
		return Value[T]{}
	}
	return Value[T]{kind: types.ScalarAttributeTypeN, fn: keyfirst.DeriveNumber(f)}
}

// Binary computes a binary (B) key value with f.
func Binary[T any](f func(T) ([]byte, error)) Value[T] {
	if f == nil {
		return Value[T]{}
	}
	return Value[T]{kind: types.ScalarAttributeTypeB, fn: keyfirst.DeriveBinary(f)}
}

// In starts a rule for the index called index: an item of type T is in it
// exactly when when(item) reports true. when is called on every write of
// every item of T (once per key attribute of the rule): it must be cheap,
// and depend only on the item.
//
// Form 1 of seed 000, a subset of one entity type in an overloaded index:
//
//	sparse.In("GSI1", User.IsAdmin).
//		Key("GSI1PK", sparse.String(User.OrgKey)).
//		Fixed("GSI1SK", "Admin")
func In[T any](index string, when func(T) bool) Rule[T] {
	r := Rule[T]{index: index, when: when}
	if when == nil {
		r.err = r.fail("", RuleNoPredicate, "pass the function that tells whether an item is in the index; use Every for all items")
	}
	return r
}

// Every starts a rule that puts every item of type T in the index called
// index: form 2 of seed 000, one entity type out of a multi-entity table
// (only Customers carry CustomerIndexId), whose index holds that type alone
// and is declared [keyfirst.Index.Scannable] so that it can be scanned.
func Every[T any](index string) Rule[T] {
	return In(index, func(T) bool { return true })
}

// Key adds the key attribute attr, computed by v while the predicate
// holds. Every key attribute of the index that the rule does not derive
// must be a field of T ([keyfirst.NewEntity] checks it), present whenever
// the predicate holds: a write of an item for which it holds and the
// field is omitted is refused before any request
// ([keyfirst.ItemMissingKey]). Leave a sort key the item has anyway to
// its field (seed 001's openedAt, seed 002's order_date): it is stored
// once, never removed, and can be the key of other indexes too; the
// attributes the rule derives decide membership.
func (r Rule[T]) Key(attr string, v Value[T]) Rule[T] {
	if v.fn == nil {
		r.setErr(r.fail(attr, RuleNoValue, "build the value with String, Number or Binary, or use Fixed"))
	}
	return r.add(attr, v)
}

// Fixed adds the key attribute attr with a constant string value while the
// predicate holds: GSI1SK = "Admin", openBucket = "OPEN". An empty value is
// refused: DynamoDB refuses "" as a key, and it would not take the item out
// of the index anyway.
func (r Rule[T]) Fixed(attr, value string) Rule[T] {
	if value == "" {
		r.setErr(r.fail(attr, RuleEmptyValue, `"" is never a key value; the predicate, not the value, decides membership`))
	}
	return r.add(attr, Value[T]{kind: types.ScalarAttributeTypeS, fixed: value})
}

// add returns r with one more key, on a fresh slice (copies share nothing).
func (r Rule[T]) add(attr string, v Value[T]) Rule[T] {
	for _, k := range r.keys {
		if k.attr == attr {
			r.setErr(r.fail(attr, RuleDuplicateKey, "each attribute gets one value"))
		}
	}
	r.keys = append(slices.Clip(r.keys), ruleKey[T]{attr: attr, value: v})
	return r
}

// Index returns the name of the rule's index.
func (r Rule[T]) Index() string { return r.index }

// Holds reports whether item is in the rule's index according to the
// predicate (false for a rule without predicate).
func (r Rule[T]) Holds(item T) bool { return r.when != nil && r.when(item) }

func (r *Rule[T]) setErr(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r Rule[T]) fail(attr string, p RuleProblem, detail string) *RuleError {
	return &RuleError{Index: r.index, Attribute: attr, Problem: p, Detail: detail}
}

// IndexKeys checks the rule against table and returns the derivations of
// its key attributes, for [keyfirst.EntitySpec.Indexes]: each one reports
// no value while the predicate does not hold, so the root package's write
// paths remove the attribute. [Apply] is the usual way to use it.
//
// The checks, each a [*RuleError]: the mistakes kept while building, a nil
// table, an index the table does not have (or none), a rule without key
// attributes, an attribute that is not a key of the index or is a key of
// the table itself, a value whose type is not the attribute's, a fixed
// value longer than DynamoDB's key limit.
func (r Rule[T]) IndexKeys(table *keyfirst.Table) (keyfirst.IndexKeys[T], error) {
	if r.err != nil {
		return nil, r.err
	}
	if table == nil {
		return nil, r.fail("", RuleNoTable, "pass the *keyfirst.Table the entity lives in")
	}
	if r.index == "" {
		return nil, r.fail("", RuleNoIndex, "name a secondary index; the table's own key is on every item")
	}
	ks, err := table.Index(r.index)
	if err != nil {
		return nil, r.fail("", RuleUnknownIndex, fmt.Sprintf("the table's indexes are %v", indexNames(table)))
	}
	if len(r.keys) == 0 {
		return nil, r.fail("", RuleNoKeys, fmt.Sprintf("add the index's key attributes %v with Key or Fixed", names(ks.Attributes())))
	}
	primary := table.PrimaryKey()
	out := make(keyfirst.IndexKeys[T], len(r.keys))
	for _, k := range r.keys {
		switch {
		case hasAttr(primary.Attributes(), k.attr):
			return nil, r.fail(k.attr, RulePrimaryKey, "every item has the table's key attributes, so they cannot make an index sparse; derive the index's other key attributes")
		case !hasAttr(ks.Attributes(), k.attr):
			return nil, r.fail(k.attr, RuleNotIndexKey, fmt.Sprintf("the index's key attributes are %v", names(ks.Attributes())))
		}
		if ty, _ := table.AttributeType(k.attr); ty != k.value.kind {
			return nil, r.fail(k.attr, RuleKeyType, fmt.Sprintf("the value is %s, the attribute is %s; use %s", k.value.kind, ty, constructorFor(ty)))
		}
		if k.value.fn == nil && len(k.value.fixed) > keyLimit(table, k.attr) {
			return nil, r.fail(k.attr, RuleValueTooLong, fmt.Sprintf("%d bytes, the limit is %d", len(k.value.fixed), keyLimit(table, k.attr)))
		}
		out[k.attr] = k.derive(r.when)
	}
	return out, nil
}

// derive is the derivation of one key: no value while the predicate does
// not hold, the value otherwise.
func (k ruleKey[T]) derive(when func(T) bool) keyfirst.Derive[T] {
	if k.value.fn == nil {
		fixed := k.value.fixed
		return func(item T) (types.AttributeValue, bool, error) {
			if !when(item) {
				return nil, false, nil
			}
			// A new value per item: the item maps handed out share nothing
			// with the rule.
			return &types.AttributeValueMemberS{Value: fixed}, true, nil
		}
	}
	fn := k.value.fn
	return func(item T) (types.AttributeValue, bool, error) {
		if !when(item) {
			return nil, false, nil
		}
		return fn(item)
	}
}

// Apply returns spec with the derivations of rules added to its Indexes
// (in a new map: spec's is not modified), ready for [keyfirst.NewEntity].
// Each rule is checked as by [Rule.IndexKeys]; besides, two rules for one
// index, and a rule for an index whose keys spec derives already, are
// [*RuleError] values.
func Apply[T any](table *keyfirst.Table, spec keyfirst.EntitySpec[T], rules ...Rule[T]) (keyfirst.EntitySpec[T], error) {
	indexes := maps.Clone(spec.Indexes)
	if indexes == nil {
		indexes = make(map[string]keyfirst.IndexKeys[T], len(rules))
	}
	seen := make(map[string]bool, len(rules))
	for _, r := range rules {
		keys, err := r.IndexKeys(table)
		if err != nil {
			return spec, err
		}
		if seen[r.index] {
			return spec, r.fail("", RuleDuplicateIndex, "put every key attribute of the index in one rule")
		}
		seen[r.index] = true
		if _, taken := spec.Indexes[r.index]; taken {
			return spec, r.fail("", RuleIndexTaken, "EntitySpec.Indexes derives this index already; move its derivations into the rule")
		}
		indexes[r.index] = keys
	}
	spec.Indexes = indexes
	return spec, nil
}

// keyLimit is the maximum size of a value of attr: 1024 bytes when it is a
// sort key anywhere in the table, 2048 otherwise.
func keyLimit(table *keyfirst.Table, attr string) int {
	for _, ks := range append(table.Indexes(), table.PrimaryKey()) {
		if hasAttr(ks.SortKey, attr) {
			return maxSortKeyBytes
		}
	}
	return maxPartitionKeyBytes
}

func constructorFor(ty types.ScalarAttributeType) string {
	switch ty {
	case types.ScalarAttributeTypeN:
		return "Number"
	case types.ScalarAttributeTypeB:
		return "Binary"
	}
	return "String or Fixed"
}

func hasAttr(attrs []keyfirst.Attribute, name string) bool {
	return slices.ContainsFunc(attrs, func(a keyfirst.Attribute) bool { return a.Name == name })
}

func names(attrs []keyfirst.Attribute) []string {
	out := make([]string, len(attrs))
	for i, a := range attrs {
		out[i] = a.Name
	}
	return out
}

func indexNames(table *keyfirst.Table) []string {
	var out []string
	for _, ks := range table.Indexes() {
		out = append(out, ks.IndexName)
	}
	return out
}
