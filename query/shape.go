package query

import (
	"fmt"
	"reflect"
	"sync/atomic"
	"unsafe"
	"weak"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/attrname"
	"github.com/keyfirst/keyfirst/keys"
)

// A query's shape is what its calls share whatever their values: the
// table and index, what it decodes (and so projects), which key attributes
// it compares with which operators. Everything that depends on the shape
// alone is worked out once per shape and kept process-wide: the index's
// key schema and item key, the projection check, the expressions and their
// ExpressionAttributeNames (built by the expression package, as every
// expression of keyfirst is), the first part of the cursor binding. A call
// checks and encodes only its values.

// indexShape is what a read of one index of a table, decoding what one
// reads decodes, needs before its values: everything [Query.plan] used to
// work out on each call. It is immutable once built, except for its
// templates, each built once.
type indexShape struct {
	of                   weak.Pointer[keyfirst.Table]
	table, index         string
	tableName, indexName *string // the request's TableName and IndexName (nil: the table)
	ks                   keyfirst.KeySchema
	// readIndex is what the plans of the shape point to: the key of an
	// item in the index (see keyAttributes), what each item's decoding
	// needs to know (see reads.check), the partition key.
	readIndex
	// keyMax is the longest value of each key attribute (see keyLimits).
	keyMax []int
	// names is the projection (nil: what the index holds).
	names []string
	// registered is, for a collection read through an index that does not
	// project whole items, the number of entity types registered on the
	// table when the shape was checked: a new one can make the read
	// incomplete, so the shape is checked again. It is -1 otherwise.
	registered int
	// bind is the binding of a Query of the shape up to its sort key
	// condition (see bindingPrefix).
	bind []byte
	// templates are the request templates, by sort key shape: the number
	// of sort key terms and the operator of the last one (the others are
	// equalities), each built on first use.
	templates [keyfirst.MaxKeyAttributes + 1][opCount]atomic.Pointer[template]
}

// opCount bounds the sort key operators (keys.OpNone to keys.OpBeginsWith).
const opCount = int(keys.OpBeginsWith) + 1

// template is the part of a QueryInput that a shape fixes: the expressions
// and their names, built once by the expression package; and, for each
// operand of the key condition in order (each term's lo, then its hi for
// BETWEEN), the value placeholder the builder gave it, so that a call only
// fills a new ExpressionAttributeValues.
type template struct {
	keyCond, projection *string
	// names is shared, read only, by every request of the shape. The SDK
	// never writes an input's maps: QueryInput.SerializeMembers
	// (service/dynamodb v1.74.0, api_op_Query.go) hands it to
	// serializeExpressionAttributeNameMap (common_serde.go), which only
	// ranges over it, and no other code of the module touches the field.
	names map[string]string
	slots []string
	// terms are the comparisons (attribute, operator) of the shape, the
	// last nsort of them on the sort key; their operands are placeholders.
	terms []term
	nsort int
	// last is the binding of the last call planned with the template:
	// calls of one query, page after page, and queries of one condition
	// in many partitions have the same.
	last atomic.Pointer[lastBinding]
}

// lastBinding is the binding of a query of a template whose binding input
// ends with tail: its sort key comparisons and direction.
type lastBinding struct {
	tail, bind string
}

// shapeOf returns the shape of a read of index by src, decoding into T,
// checked: the index exists and holds what the read decodes. A problem is
// returned as the query's [*Error], and never cached.
func shapeOf[T any](src *source[T], index string) (*indexShape, error) {
	t := src.table
	k := shapeKey{table: uintptr(unsafe.Pointer(t)), index: index, kind: src.reads.kind, entity: src.reads.entity, goType: reflect.TypeFor[T]()}
	sh := lookupShape(k)
	if sh != nil && sh.of.Value() == t && (sh.registered < 0 || sh.registered == len(t.EntityTypes())) {
		return sh, nil
	}
	sh, err := newIndexShape(t, index, src.reads)
	if err != nil {
		return nil, err
	}
	shapes.Lock()
	defer shapes.Unlock()
	storeShape(k, sh)
	return sh, nil
}

// newIndexShape resolves and checks a read of index of t that decodes
// what r decodes.
func newIndexShape(t *keyfirst.Table, index string, r reads) (*indexShape, error) {
	f := failer{table: t.Name(), index: index}
	ks, err := t.Index(index)
	if err != nil {
		return nil, f.fail("", ProblemIndex, indexNames(t), err)
	}
	sh := &indexShape{of: weak.Make(t), table: t.Name(), index: index, tableName: aws.String(t.Name()), ks: ks, registered: -1}
	if index != "" {
		sh.indexName = aws.String(index)
	}
	sh.keyAttrs, sh.partition = keyAttributes(t, ks), ks.PartitionKey
	sh.keyMax = keyLimits(t.PrimaryKey(), ks, sh.keyAttrs)
	if r.kind == readCollection && !holdingsOf(ks, sh.keyAttrs).all {
		// Counted before the check: a type registered meanwhile makes the
		// shape checked again, never trusted unchecked.
		sh.registered = len(t.EntityTypes())
	}
	if sh.names, sh.decoding, err = r.check(f, t, ks, sh.keyAttrs); err != nil {
		return nil, err
	}
	sh.bind = bindingPrefix("Query", sh.table, index, ks.PartitionKey)
	return sh, nil
}

// template returns the request template of terms, the partition key's
// equalities then the sort key's terms (nsort of them), building it on
// first use.
func (sh *indexShape) template(terms []term, nsort int) (*template, error) {
	op := keys.OpNone
	if nsort > 0 {
		op = terms[len(terms)-1].op
	}
	if nsort >= len(sh.templates) || int(op) >= opCount {
		return newTemplate(terms, nsort, sh.names) // unreachable with checked terms
	}
	slot := &sh.templates[nsort][op]
	if tp := slot.Load(); tp != nil {
		return tp, nil
	}
	tp, err := newTemplate(terms, nsort, sh.names)
	if err != nil {
		return nil, err
	}
	slot.CompareAndSwap(nil, tp)
	return slot.Load(), nil
}

// newTemplate builds the expressions of terms, projecting names (nil:
// no projection), with the expression package: each operand is a
// placeholder value of its type that names its position, by which the
// value placeholder the builder gave it is found.
func newTemplate(terms []term, nsort int, names []string) (*template, error) {
	marked := make([]term, len(terms))
	position := map[string]int{}
	n := 0
	mark := func(like types.AttributeValue) types.AttributeValue {
		var av types.AttributeValue
		switch like.(type) {
		case *types.AttributeValueMemberN:
			av = &types.AttributeValueMemberN{Value: fmt.Sprint(n)}
		case *types.AttributeValueMemberB:
			av = &types.AttributeValueMemberB{Value: []byte(fmt.Sprint(n))}
		default:
			av = &types.AttributeValueMemberS{Value: fmt.Sprint(n)}
		}
		position[avString(av)] = n
		n++
		return av
	}
	for i, t := range terms {
		marked[i] = term{attr: t.attr, op: t.op, lo: mark(t.lo)}
		if t.op == keys.OpBetween {
			marked[i].hi = mark(t.hi)
		}
	}
	x, err := buildExpression(marked, names)
	if err != nil {
		return nil, err
	}
	tp := &template{keyCond: x.KeyCondition(), projection: x.Projection(), names: attrname.Names(x), slots: make([]string, n),
		terms: marked, nsort: nsort}
	for placeholder, av := range x.Values() {
		i, ok := position[avString(av)]
		if !ok || tp.slots[i] != "" {
			return nil, fmt.Errorf("the expression package gave the value %s the placeholder %s", avString(av), placeholder)
		}
		tp.slots[i] = placeholder
	}
	if len(x.Values()) != n {
		return nil, fmt.Errorf("the expression package gave %d value placeholders to %d operands", len(x.Values()), n)
	}
	return tp, nil
}

// buildExpression builds the key condition of terms, projecting names
// (nil: no projection), with the expression package.
func buildExpression(terms []term, names []string) (expression.Expression, error) {
	conds := make([]expression.KeyConditionBuilder, len(terms))
	for i, t := range terms {
		conds[i] = t.keyCondition()
	}
	kc := conds[0]
	if len(conds) > 1 {
		kc = expression.KeyAnd(conds...)
	}
	b := expression.NewBuilder().WithKeyCondition(kc)
	if names != nil {
		b = b.WithProjection(attrname.Projection(names))
	}
	return b.Build()
}

// values is the ExpressionAttributeValues of terms, which have the shape
// of the template.
func (tp *template) values(terms []term) map[string]types.AttributeValue {
	out := make(map[string]types.AttributeValue, len(tp.slots))
	i := 0
	for k := range terms {
		t := &terms[k] // not copied: a term is seven words
		out[tp.slots[i]] = t.lo
		i++
		if t.op == keys.OpBetween {
			out[tp.slots[i]] = t.hi
			i++
		}
	}
	return out
}

// sortTerms appends to out the sort key comparisons of a query of the
// template whose ExpressionAttributeValues are values (see values).
func (tp *template) sortTerms(values map[string]types.AttributeValue, out []term) []term {
	i := 0
	for k, t := range tp.terms {
		lo := values[tp.slots[i]]
		i++
		var hi types.AttributeValue
		if t.op == keys.OpBetween {
			hi = values[tp.slots[i]]
			i++
		}
		if k >= len(tp.terms)-tp.nsort {
			out = append(out, term{attr: t.attr, op: t.op, lo: lo, hi: hi})
		}
	}
	return out
}

// binding is the binding of a query of the template (see binding) whose
// sort key terms are sortTerms, prefix being its shape's part. The last
// one is kept: a query planned again with the same operands and
// direction, as every page of a query is, hashes nothing.
func (tp *template) binding(prefix []byte, sortTerms []term, desc bool) *lastBinding {
	var scratch [256]byte
	in := bindingInput(scratch[:0], prefix, sortTerms, desc)
	tail := in[len(prefix):]
	if l := tp.last.Load(); l != nil && l.tail == string(tail) {
		return l
	}
	l := &lastBinding{tail: string(tail), bind: digest(in)}
	tp.last.Store(l)
	return l
}
