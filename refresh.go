package keyfirst

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/avequal"
)

// RefreshOutcome says what [Entity.Refresh] did with a stored item, or
// what [Entity.PlanRefresh] found it would do.
type RefreshOutcome uint8

// The outcomes of a refresh.
const (
	// RefreshUnchanged: every attribute the entity derives or writes is
	// stored as the entity's definition computes it. Nothing is written.
	RefreshUnchanged RefreshOutcome = iota + 1
	// RefreshChanged: some attribute differs; Refresh wrote the item
	// (PlanRefresh: would write it).
	RefreshChanged
	// RefreshConflicted: the stored item changed between the read and
	// the write (another writer came first, or deleted it); nothing was
	// written, and the other writer's item stands. [RefreshResult.Conflict]
	// holds the item as stored now, when there is one.
	RefreshConflicted
)

var refreshOutcomeText = [...]string{
	RefreshUnchanged:  "unchanged",
	RefreshChanged:    "changed",
	RefreshConflicted: "conflicted",
}

// String returns "unchanged", "changed" or "conflicted".
func (o RefreshOutcome) String() string {
	if o > 0 && int(o) < len(refreshOutcomeText) {
		return refreshOutcomeText[o]
	}
	return fmt.Sprintf("RefreshOutcome(%d)", uint8(o))
}

// RefreshResult is what [Entity.Refresh] and [Entity.PlanRefresh] report
// about one stored item.
type RefreshResult struct {
	// Outcome says whether the item was (or would be) written.
	Outcome RefreshOutcome
	// Key is the item's primary key as [Key.String] prints it, read from
	// the stored item: set even when the item cannot be decoded.
	Key string
	// Set names the attributes the write sets because their stored value
	// differs from the computed one (or is absent), sorted. The version
	// attribute, which every write increments, is listed only when the
	// stored item has none.
	Set []string
	// Remove names the stored attributes the write removes: derived
	// attributes of indexes the item no longer belongs to, fields of T the
	// item leaves out (omitempty). Sorted.
	Remove []string
	// Before is the stored item as given; After is the item as stored
	// after the write (Before with Set and Remove applied and, for a
	// versioned entity, the next version), nil when unchanged. Both are
	// complete items, as the sparse package's estimator takes them.
	Before, After map[string]types.AttributeValue
	// Conflict, for RefreshConflicted, is the failed condition, with the
	// item stored now in its Item (nil when the item is gone).
	Conflict *ConditionError
}

// PlanRefresh is the dry run of [Entity.Refresh]: it decodes stored, an
// item of this entity type as read from the table (a Scan's or a
// GetItem's Item), rebuilds the complete item with the item plan every
// write uses, and reports whether any attribute the entity derives or
// writes is stored otherwise (RefreshChanged) or not (RefreshUnchanged),
// and which attributes a write would set and remove. It sends nothing.
//
// An item that is not of this entity type is an [*EntityTypeError]; one
// that does not decode, or whose keys cannot be derived, an [*ItemError]
// ([ItemDecode], [ItemDerive], ...); one whose primary key the
// definition now derives otherwise a [*KeyChangedError]: refreshing
// rewrites an item in place, and a new primary key is a new item (Put it
// and Delete the old one). The result's Key is set in every case.
func (e *Entity[T]) PlanRefresh(stored map[string]types.AttributeValue) (RefreshResult, error) {
	_, _, res, err := e.planRefresh(stored)
	return res, err
}

// Refresh brings one stored item up to the entity's current definition:
// the per-item step of a backfill after a change of key design (a new
// index, a composite key in another order, a new membership condition (If), another
// shard count). It decides as [Entity.PlanRefresh] does; an item already
// up to date is left alone, and any other is written with one UpdateItem,
// so that the stored item becomes exactly what a write of its T would
// store, plus the attributes the entity does not know, which are kept.
// Without a version the update sends the result's Set and Remove alone
// (the condition compares every attribute as stored, as Modify's does);
// with one, the whole item as [Entity.Replace] writes it (SET for every
// attribute of the item, REMOVE for the derived attributes of the
// indexes it left).
//
// The write never overwrites a concurrent writer's item with stale data:
// it is guarded by the condition [Entity.Modify] uses, on the image
// stored: for a versioned entity the stored version (and the item is
// stored with the next one, as by every write), otherwise every
// attribute the entity reads or writes as stored. When the condition
// fails the result is RefreshConflicted with nil error; its Conflict
// holds the item as stored now, which can be refreshed in turn (another
// keyfirst writer has stored a complete item already). A condition that
// fails on an unchanged item is an error wrapping
// [ErrConditionUnexplained].
//
// The lifecycle times ([EntitySpec.Updated], Created) play no part in
// the decision; an item that is rewritten gets the updated time of the
// write, and keeps its created time.
//
// Errors: those of PlanRefresh, before any request; an [*OptionError]
// for an option other than [WithCapacity]; an [*OpError] for a failed
// request.
func (e *Entity[T]) Refresh(ctx context.Context, api UpdateItemAPI, stored map[string]types.AttributeValue, optFns ...func(*Options)) (RefreshResult, error) {
	o, err := buildOptions("Refresh", 0, optFns)
	if err != nil {
		return RefreshResult{Key: e.keyOfItem(stored).String()}, err
	}
	v, p, res, err := e.planRefresh(stored)
	if err != nil || res.Outcome == RefreshUnchanged {
		return res, err
	}
	_, err = e.writePlan(ctx, api, "Refresh", p, guard{kind: guardUnchanged, expected: e.versionOf(&v), read: stored}, o)
	var ce *ConditionError
	if !errors.As(err, &ce) {
		return res, err
	}
	if ce.Found && sameAttributes(e.guarded, stored, ce.Item) {
		ce.Err = ErrConditionUnexplained
		return res, err
	}
	res.Outcome, res.After, res.Conflict = RefreshConflicted, nil, ce
	return res, nil
}

// planRefresh decodes stored and plans its write: T, the plan (with the
// next version for a versioned entity) and the result.
func (e *Entity[T]) planRefresh(stored map[string]types.AttributeValue) (T, itemPlan[T], RefreshResult, error) {
	key := e.keyOfItem(stored)
	res := RefreshResult{Key: key.String(), Before: stored}
	var p itemPlan[T]
	v, err := e.decode(stored)
	if err != nil {
		return v, p, res, err
	}
	next := int64(-1)
	if e.version != "" {
		if next, err = e.nextVersion(e.versionOf(&v)); err != nil {
			return v, p, res, err
		}
	}
	// Whether the item changes is decided without the lifecycle times,
	// which a write sets: an item up to date stays untouched.
	if p, err = e.planAt(&v, next, false); err != nil {
		return v, p, res, err
	}
	if p.key != key {
		return v, p, res, &KeyChangedError{Old: key.String(), New: p.key.String()}
	}
	res = e.refreshResult(stored, p, res)
	if res.Outcome == RefreshChanged && len(e.life.fields) > 0 {
		if p, err = e.plan(&v, next); err != nil {
			return v, p, res, err
		}
		res = e.refreshResult(stored, p, RefreshResult{Key: res.Key, Before: stored})
	}
	return v, p, res, nil
}

// refreshResult is res with what writing plan p over stored changes.
func (e *Entity[T]) refreshResult(stored map[string]types.AttributeValue, p itemPlan[T], res RefreshResult) RefreshResult {
	for n, av := range p.item {
		if n != e.version && !avequal.Equal(stored[n], av) {
			res.Set = append(res.Set, n)
		}
	}
	if _, ok := stored[e.version]; e.version != "" && !ok {
		res.Set = append(res.Set, e.version) // no keyfirst write stores none
	}
	for _, n := range slices.Concat(p.remove, e.fieldNames) {
		if _, planned := p.item[n]; !planned {
			if _, ok := stored[n]; ok {
				res.Remove = append(res.Remove, n)
			}
		}
	}
	if len(res.Set) == 0 && len(res.Remove) == 0 {
		res.Outcome = RefreshUnchanged
		return res
	}
	sort.Strings(res.Set)
	sort.Strings(res.Remove)
	res.Outcome = RefreshChanged
	res.After = maps.Clone(stored)
	for _, n := range res.Set {
		res.After[n] = p.item[n]
	}
	if e.version != "" {
		res.After[e.version] = p.item[e.version]
	}
	for _, n := range res.Remove {
		delete(res.After, n)
	}
	return res
}
