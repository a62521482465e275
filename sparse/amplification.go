package sparse

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/avequal"
	"github.com/keyfirst/keyfirst/internal/itemsize"
)

// Transition is what one write does to an item's entry in one index.
type Transition uint8

// The transitions, with the index writes each costs (seed 002).
const (
	StayOut   Transition = iota // not in the index before nor after: no index write
	Enter                       // not in the index before, in it after: 1 write (put)
	Leave                       // in the index before, not after: 1 write (delete)
	Move                        // in it before and after with another key value: 2 writes (delete, put)
	StayIn                      // in it before and after, a projected attribute changed: 1 write
	Unchanged                   // in it before and after, nothing projected changed: no index write
)

var transitionText = [...]string{
	StayOut:   "stay out",
	Enter:     "enter",
	Leave:     "leave",
	Move:      "move",
	StayIn:    "stay in",
	Unchanged: "unchanged",
}

// String returns "enter", "leave", "move", "stay in", "unchanged" or
// "stay out".
func (t Transition) String() string {
	if int(t) < len(transitionText) {
		return transitionText[t]
	}
	return fmt.Sprintf("Transition(%d)", uint8(t))
}

// Writes returns the number of index writes the transition costs: 0, 1 or
// 2.
func (t Transition) Writes() int {
	switch t {
	case Enter, Leave, StayIn:
		return 1
	case Move:
		return 2
	}
	return 0
}

// Cost is the estimated cost of one write: the base table's write and the
// write amplification on each secondary index.
type Cost struct {
	// TableWCU is what the base table's write costs: the larger of the item
	// before and after, rounded up per KB.
	TableWCU int
	// TableSize is that larger size, in bytes ([ItemSize]).
	TableSize int
	// Indexes has one entry per secondary index of the table, GSIs then
	// LSIs, in declaration order, whatever the transition.
	Indexes []IndexCost
}

// IndexCost is the estimated cost of one write on one secondary index.
type IndexCost struct {
	Index      string             // the index's name
	Kind       keyfirst.IndexKind // GSI or LSI (an LSI's writes consume the table's capacity)
	Transition Transition         // what the write does to the item's entry
	Writes     int                // index writes: Transition.Writes()
	WCU        int                // write capacity units of those writes
	// Before and After are the sizes in bytes of the item's projection into
	// the index (its key attributes, the table's, and the projected
	// attributes) before and after the write; 0 when not in the index.
	Before, After int
}

// WCU returns the estimated write capacity units of the whole write: the
// table's and every index's.
func (c Cost) WCU() int {
	n := c.TableWCU
	for _, ix := range c.Indexes {
		n += ix.WCU
	}
	return n
}

// IndexWrites returns the number of index writes of the write, over every
// index: its write amplification.
func (c Cost) IndexWrites() int {
	n := 0
	for _, ix := range c.Indexes {
		n += ix.Writes
	}
	return n
}

// Index returns the cost on the index called name.
func (c Cost) Index(name string) (IndexCost, bool) {
	for _, ix := range c.Indexes {
		if ix.Index == name {
			return ix, true
		}
	}
	return IndexCost{}, false
}

// Estimator estimates what writes cost on one table: how many index writes
// each causes (its write amplification) and how many write capacity units
// it consumes. Build it with [NewEstimator]; it holds no state besides the
// table's schema and is safe for concurrent use.
type Estimator struct {
	table   *keyfirst.Table
	primary []keyfirst.Attribute
	indexes []indexPlan
}

// indexPlan is what the estimator needs of one index.
type indexPlan struct {
	name      string
	kind      keyfirst.IndexKind
	keys      []keyfirst.Attribute // the index's key attributes
	all       bool                 // ALL projection
	projected []string             // KEYS_ONLY, INCLUDE: the table's and the index's keys, then the included attributes
	nonKey    []string             // INCLUDE: the included attributes
}

// NewEstimator returns an estimator for table.
func NewEstimator(table *keyfirst.Table) (*Estimator, error) {
	if table == nil {
		return nil, &EstimateError{Problem: EstimateNoTable, Detail: "pass the *keyfirst.Table"}
	}
	e := &Estimator{table: table, primary: table.PrimaryKey().Attributes()}
	for _, ks := range table.Indexes() {
		p := indexPlan{name: ks.IndexName, kind: ks.Kind, keys: ks.Attributes(),
			all: ks.Projection.Type == types.ProjectionTypeAll || ks.Projection.Type == ""}
		if !p.all {
			for _, a := range append(e.primary, p.keys...) {
				if !slices.Contains(p.projected, a.Name) {
					p.projected = append(p.projected, a.Name)
				}
			}
			for _, n := range ks.Projection.NonKeyAttributes {
				if !slices.Contains(p.projected, n) {
					p.projected = append(p.projected, n)
					p.nonKey = append(p.nonKey, n)
				}
			}
		}
		e.indexes = append(e.indexes, p)
	}
	return e, nil
}

// Table returns the estimator's table.
func (e *Estimator) Table() *keyfirst.Table { return e.table }

// Estimate returns the cost of a write that turns the stored item before
// into after: before nil is a create (a put of a new item), after nil a
// delete. Both are complete items as stored, such as
// [keyfirst.Entity.Item] returns, or a GetItem's Item.
//
// Per index, the item is in it when it has every key attribute of the
// index. The index writes are those of seed 002 ([Transition.Writes]); each
// costs the size of the item's projection into the index (the table's and
// the index's key attributes and the projected attributes: all of them for
// ALL, none for KEYS_ONLY), rounded up per KB, at least 1: an entering item
// its new projection, a leaving item its old one, a moving item both, and a
// changed item the larger of the two. A write that changes only attributes
// the index does not project costs that index nothing. The base table's
// write costs the larger of the two items, rounded up per KB.
//
// These are the rules DynamoDB Local 3.3 applies to
// ReturnConsumedCapacity=INDEXES, for PutItem, UpdateItem, DeleteItem and
// BatchWriteItem (the package's tests compare every transition). A
// transactional write costs twice as much on AWS. The sizes are exact
// ([ItemSize]); the 100 bytes of overhead AWS documents per index entry are
// for storage, and count neither here nor in DynamoDB Local's capacity.
//
// Images that are not a write DynamoDB would accept are an [*EstimateError]:
// both nil, a missing or mistyped primary key, two different items, a key
// attribute of an index with the wrong type or an empty value (DynamoDB
// refuses the write), an invalid number, an item over 400 KB.
func (e *Estimator) Estimate(before, after map[string]types.AttributeValue) (Cost, error) {
	var c Cost
	if before == nil && after == nil {
		return c, &EstimateError{Problem: EstimateNoImage, Detail: "pass the stored item (before), the written item (after), or both"}
	}
	sizeBefore, err := e.check("before", before)
	if err != nil {
		return c, err
	}
	sizeAfter, err := e.check("after", after)
	if err != nil {
		return c, err
	}
	if before != nil && after != nil {
		for _, a := range e.primary {
			if !avequal.Equal(before[a.Name], after[a.Name]) {
				return c, &EstimateError{Attribute: a.Name, Problem: EstimateKeyMismatch,
					Detail: "a write changes one item; a new key is a delete and a create"}
			}
		}
	}
	c.TableSize = max(sizeBefore, sizeAfter)
	c.TableWCU = units(c.TableSize)
	c.Indexes = make([]IndexCost, len(e.indexes))
	for i := range e.indexes {
		c.Indexes[i] = e.indexes[i].cost(before, after, sizeBefore, sizeAfter)
	}
	return c, nil
}

// check validates one image (nil is valid) and returns its size.
func (e *Estimator) check(which string, item map[string]types.AttributeValue) (int, error) {
	if item == nil {
		return 0, nil
	}
	for _, a := range e.primary {
		av, ok := item[a.Name]
		if !ok {
			return 0, &EstimateError{Image: which, Attribute: a.Name, Problem: EstimateMissingKey,
				Detail: "every item has the table's key attributes"}
		}
		if err := checkKey(which, "", a, av); err != nil {
			return 0, err
		}
	}
	for _, ix := range e.indexes {
		for _, a := range ix.keys {
			if av, ok := item[a.Name]; ok {
				if err := checkKey(which, ix.name, a, av); err != nil {
					return 0, err
				}
			}
		}
	}
	size := 0
	for name, av := range item {
		n, err := itemsize.Check(name, av)
		if err != nil {
			return 0, invalidValue(which, err)
		}
		size += n
	}
	if size > MaxItemSize {
		return 0, &EstimateError{Image: which, Problem: EstimateTooLarge,
			Detail: fmt.Sprintf("%d bytes, the limit is %d", size, MaxItemSize)}
	}
	return size, nil
}

// checkKey refuses a key attribute value DynamoDB would refuse.
func checkKey(which, index string, a keyfirst.Attribute, av types.AttributeValue) error {
	fail := func(p EstimateProblem, detail string) error {
		return &EstimateError{Image: which, Index: index, Attribute: a.Name, Problem: p, Detail: detail}
	}
	empty := false
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		if a.Type != types.ScalarAttributeTypeS {
			return fail(EstimateKeyType, "got S, the attribute is "+string(a.Type))
		}
		empty = x.Value == ""
	case *types.AttributeValueMemberN:
		if a.Type != types.ScalarAttributeTypeN {
			return fail(EstimateKeyType, "got N, the attribute is "+string(a.Type))
		}
	case *types.AttributeValueMemberB:
		if a.Type != types.ScalarAttributeTypeB {
			return fail(EstimateKeyType, "got B, the attribute is "+string(a.Type))
		}
		empty = len(x.Value) == 0
	default:
		return fail(EstimateKeyType, fmt.Sprintf("got %T, the attribute is %s", av, a.Type))
	}
	if empty {
		return fail(EstimateEmptyKey, "DynamoDB refuses an empty key value; an item leaves an index when the attribute is removed")
	}
	return nil
}

// invalidValue turns itemsize's report of a value DynamoDB would refuse
// or change into an [*EstimateError].
func invalidValue(which string, err error) error {
	var ie *itemsize.InvalidError
	if !errors.As(err, &ie) {
		return err
	}
	p := EstimateBadNumber
	switch ie.Reason {
	case itemsize.BadUTF8:
		p = EstimateBadString
	case itemsize.BadSet:
		p = EstimateBadSet
	}
	return &EstimateError{Image: which, Attribute: ie.Attribute, Problem: p, Detail: ie.Error()}
}

// cost is the cost of one write on index p. sizeBefore and sizeAfter are
// the images' full sizes, the projections' sizes under ALL.
func (p *indexPlan) cost(before, after map[string]types.AttributeValue, sizeBefore, sizeAfter int) IndexCost {
	c := IndexCost{Index: p.name, Kind: p.kind}
	in, was := p.holds(after), p.holds(before)
	if was {
		c.Before = p.size(before, sizeBefore)
	}
	if in {
		c.After = p.size(after, sizeAfter)
	}
	switch {
	case !was && !in:
		c.Transition = StayOut
	case !was:
		c.Transition = Enter
		c.WCU = units(c.After)
	case !in:
		c.Transition = Leave
		c.WCU = units(c.Before)
	case p.keyChanged(before, after):
		c.Transition = Move
		c.WCU = units(c.Before) + units(c.After)
	case p.projectionChanged(before, after):
		c.Transition = StayIn
		c.WCU = units(max(c.Before, c.After))
	default:
		c.Transition = Unchanged
	}
	c.Writes = c.Transition.Writes()
	return c
}

// holds reports whether item has every key attribute of the index.
func (p *indexPlan) holds(item map[string]types.AttributeValue) bool {
	if item == nil {
		return false
	}
	for _, a := range p.keys {
		if _, ok := item[a.Name]; !ok {
			return false
		}
	}
	return true
}

// size is the size of item's projection into the index.
func (p *indexPlan) size(item map[string]types.AttributeValue, full int) int {
	if p.all {
		return full
	}
	n := 0
	for _, name := range p.projected {
		if av, ok := item[name]; ok {
			n += itemsize.Size(name, av)
		}
	}
	return n
}

func (p *indexPlan) keyChanged(before, after map[string]types.AttributeValue) bool {
	for _, a := range p.keys {
		if !avequal.Equal(before[a.Name], after[a.Name]) {
			return true
		}
	}
	return false
}

// projectionChanged reports whether a projected attribute other than the
// keys differs (the keys are equal when it is asked).
func (p *indexPlan) projectionChanged(before, after map[string]types.AttributeValue) bool {
	if p.all {
		return !avequal.EqualMaps(before, after)
	}
	for _, name := range p.nonKey {
		if !avequal.Equal(before[name], after[name]) {
			return true
		}
	}
	return false
}

// units is the WCUs of writing size bytes: rounded up per KB, at least 1.
func units(size int) int {
	return max(1, (size+WriteUnit-1)/WriteUnit)
}

// EstimateItems returns the cost of a write of entity values, by
// [Estimator.Estimate] on the items ent builds ([keyfirst.Entity.Item]):
// before is the stored value (nil for a create), after the value written
// (nil for a delete). For a versioned entity, after is the value passed to
// Put or Replace: its version is counted as the one keyfirst stores, one
// more. Attributes that neither T nor ent's derivations know (which Replace
// keeps) are not counted; estimate the stored images for them.
func EstimateItems[T any](e *Estimator, ent *keyfirst.Entity[T], before, after *T) (Cost, error) {
	if ent == nil || !e.table.SameSchema(ent.Table()) {
		return Cost{}, &EstimateError{Problem: EstimateOtherTable, Detail: "the entity must live in the estimator's table (a binding of its description)"}
	}
	var b, a map[string]types.AttributeValue
	var err error
	if before != nil {
		if b, err = ent.Item(*before); err != nil {
			return Cost{}, &EstimateError{Image: "before", Problem: EstimateItem, Err: err}
		}
	}
	if after != nil {
		if a, err = ent.Item(*after); err != nil {
			return Cost{}, &EstimateError{Image: "after", Problem: EstimateItem, Err: err}
		}
		if v := ent.VersionAttribute(); v != "" {
			cur := int64(0) // absent: a zero version left out (omitempty)
			if n, ok := a[v].(*types.AttributeValueMemberN); ok {
				cur, _ = strconv.ParseInt(n.Value, 10, 64)
			}
			a[v] = &types.AttributeValueMemberN{Value: strconv.FormatInt(cur+1, 10)}
		}
	}
	return e.Estimate(b, a)
}
