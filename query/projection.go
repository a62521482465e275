package query

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/codec"
)

// Unknown is an item of a mixed collection ([CollectionOn]) that does not
// decode into the Go type of an entity registered on the table: its
// entity-type attribute names no registered type (an item of a retired
// type, or one that keyfirst did not write), or names one of which the
// index read does not hold every attribute. The latter is an item that,
// by its type's current definition, cannot be in the index (written by an
// older definition, or tagged by another program): decoded, it would be a
// T with the attributes the index lacks left zero, which a write would
// take for the whole item. It is delivered as stored (as the index
// projects it, on an index) instead of being dropped or stopping the read:
// it counts as an item for [Query.Limit], and the cursor after it moves
// past it. A type switch over a collection's items handles it like any
// other type:
//
//	case query.Unknown:
//		log.Printf("legacy %q item %v", v.Type, v.Item["SK"])
//
// To read an Unknown of a registered type whole, get it from the table by
// its key (Item holds the table's key attributes).
type Unknown struct {
	// Type is the item's entity-type attribute; empty when it has none.
	// It names a registered entity type only when the index read does not
	// hold every attribute of that type.
	Type string
	// Item is the item's attributes.
	Item map[string]types.AttributeValue
}

// View reads the items of q into P, a struct of the caller's that holds
// the attributes an access pattern needs: the way to read an index that
// projects only some attributes (INCLUDE, KEYS_ONLY), or to read fewer
// attributes of whole items. The query is the same (index, key condition,
// order, limit and cursors: a cursor of q resumes its view, and the
// reverse); only the decoding changes.
//
// P's fields, named and decoded as an entity's are (dynamodbav tags),
// are what the view reads: the request projects exactly them, the key
// attributes of the table and the index, and, for a view of an entity's
// query, the entity-type attribute when the index holds it. Every field of
// P must be an attribute the index holds (a key attribute of the table or
// of the index, or one the projection includes), or the view is refused
// with [ProblemProjection] before any request: a field the index lacks
// would always read as its zero value. Key attributes and the entity-type
// attribute may be fields of P.
//
// A P is not the entity's T, so a partial item can never be passed to a
// write that takes a whole one. To write, read the item whole
// ([keyfirst.Entity.Get] with a key made from P's fields, or
// [keyfirst.Entity.Modify]).
//
// A view of an entity's query ([On]) refuses an item of another entity
// type ([*DecodeError]) when the index holds the entity-type attribute;
// on a KEYS_ONLY index it cannot tell, and the key condition alone must
// select the entity's items. A view of a [CollectionOn] query decodes every item
// into P, whatever its type.
func View[P, T any](q Query[T]) Query[P] {
	return Query[P]{src: viewSource[P](q.source()), spec: q.spec}
}

// ScanView reads the items of s into P, as [View] does for a query: the
// way to scan an index that projects only some of the attributes of its
// entity.
func ScanView[P, T any](s Scan[T]) Scan[P] {
	return Scan[P]{src: viewSource[P](s.src), scanSpec: s.scanSpec}
}

// readKind says what a read decodes items into.
type readKind uint8

const (
	readEntity     readKind = iota // a whole T of one entity type
	readCollection                 // a whole item of any registered type, or an Unknown
	readView                       // a caller's struct P of some attributes
)

// reads is what a read decodes, which decides what the index it reads
// must project.
type reads struct {
	kind readKind
	// entity is the entity type of an entity read and of a view of one;
	// empty for a collection and its views.
	entity string
	// attrs are the attributes decoded by a view (P's fields); fields
	// gives those of an entity read (T's), asked only when a shape is
	// built.
	attrs  []string
	fields interface{ Attributes() []string }
	// err is why P cannot be decoded into (a view of a type that is not a
	// struct).
	err error
}

// attributes returns the attributes the read decodes, in a slice of the
// caller's.
func (r reads) attributes() []string {
	if r.fields != nil {
		return r.fields.Attributes()
	}
	return slices.Clone(r.attrs)
}

// entitySource reads whole items of e.
func entitySource[T any](e *keyfirst.Entity[T], optFns []func(*keyfirst.Options)) *source[T] {
	return &source[T]{table: e.Table(), entity: e, opts: slices.Clone(optFns), reads: entityReads(e)}
}

// entityReads is what a read of whole items of e decodes.
func entityReads[T any](e *keyfirst.Entity[T]) reads {
	return reads{kind: readEntity, entity: e.Type(), fields: e}
}

// collectionSource reads whole items of every entity type registered on
// t; an item of another type is an Unknown.
func collectionSource(t *keyfirst.Table, optFns []func(*keyfirst.Options)) *source[any] {
	decode := func(item map[string]types.AttributeValue, d decoding) (any, error) {
		name, err := t.Classify(item) // an untyped item: by its key (EntitySpec.Adopt)
		if errors.Is(err, keyfirst.ErrUnknownEntityType) || err == nil && d.partial && !d.whole[name] {
			return Unknown{Type: name, Item: item}, nil
		}
		if err != nil {
			return nil, err
		}
		v, err := t.Decode(item)
		if errors.Is(err, keyfirst.ErrUnknownEntityType) {
			return Unknown{Type: name, Item: item}, nil
		}
		return v, err
	}
	return &source[any]{table: t, decode: decode, opts: slices.Clone(optFns), reads: reads{kind: readCollection}}
}

// viewSource reads into P what src reads.
func viewSource[P, T any](src *source[T]) *source[P] {
	if src == nil {
		return nil
	}
	c, err := codec.For(reflect.TypeFor[P]())
	r := reads{kind: readView, entity: src.reads.entity, err: err}
	if err == nil {
		r.attrs = c.Names()
	}
	t := src.table
	decode := func(item map[string]types.AttributeValue, d decoding) (P, error) {
		var out P
		if d.typed {
			got, err := t.Classify(item) // an untyped item: by its key (EntitySpec.Adopt)
			var te *keyfirst.EntityTypeError
			var ce *keyfirst.ClaimError
			switch {
			case errors.As(err, &ce):
				ce.Want = r.entity
				return out, ce
			case errors.As(err, &te) || err == nil && got != r.entity:
				return out, &keyfirst.EntityTypeError{Want: r.entity, Got: got}
			}
		}
		if err := c.Decode(item, reflect.ValueOf(&out).Elem()); err != nil {
			return out, &keyfirst.ItemError{Entity: r.entity, Problem: keyfirst.ItemDecode, Err: err}
		}
		return out, nil
	}
	return &source[P]{table: t, decode: decode, opts: src.opts, reads: r}
}

// holdings is what a read of an index returns of an item.
type holdings struct {
	all  bool            // every attribute: the table, or an ALL projection
	held map[string]bool // otherwise: the key attributes and the projected ones
	// what describes the projection, for messages.
	what string
}

// holdingsOf is what index ks returns, keyAttrs being the key attributes
// of the table and the index. keyfirst adds the entity-type attribute to
// every INCLUDE projection; KEYS_ONLY holds it only if it is a key.
func holdingsOf(ks keyfirst.KeySchema, keyAttrs []keyfirst.Attribute) holdings {
	if ks.Kind == keyfirst.PrimaryIndex || ks.Projection.Type == types.ProjectionTypeAll {
		return holdings{all: true}
	}
	h := holdings{held: map[string]bool{}}
	names := make([]string, 0, len(keyAttrs)+len(ks.Projection.NonKeyAttributes))
	for _, a := range keyAttrs {
		names = append(names, a.Name)
	}
	names = append(names, ks.Projection.NonKeyAttributes...)
	for _, n := range names {
		h.held[n] = true
	}
	h.what = fmt.Sprintf("the %s projects %s: %s", ks.Kind, ks.Projection.Type, strings.Join(quoted(names), ", "))
	return h
}

// has reports whether the read returns attribute name.
func (h holdings) has(name string) bool { return h.all || h.held[name] }

// missing returns the attributes of names that the read does not return.
func (h holdings) missing(names []string) []string {
	var out []string
	for _, n := range names {
		if !h.has(n) {
			out = append(out, n)
		}
	}
	return out
}

// decoding is what the decoding of each item of a checked read needs to
// know of the index it reads.
type decoding struct {
	// typed reports that the index holds the entity-type attribute.
	typed bool
	// partial reports that the index does not hold every attribute of
	// every item (an INCLUDE or KEYS_ONLY projection); whole then names,
	// for a collection, the entity types of which it holds every
	// attribute by their current definitions: only their items decode
	// into their T.
	partial bool
	whole   map[string]bool
}

// check refuses a read of index ks that cannot decode what r decodes: an
// entity read of a T the index does not project whole, a collection of
// which an entity type that can be in the index is not projected whole,
// a view with a field the index does not hold. It returns the attributes
// to project (nil: all that the index holds) and what decoding each item
// needs to know.
//
// Whether an item is whole is decided by the projection, never by the
// item: where the index holds every attribute of T, one the item lacks is
// one it lacks in the table too (an omitempty field left empty); where it
// does not, nothing in the item tells an attribute not projected from one
// absent. A collection's item of a type the index does not hold whole (a
// type that, by its current definition, cannot be in the index: written
// by an older definition, or tagged by another program) is an Unknown.
func (r reads) check(f failer, t *keyfirst.Table, ks keyfirst.KeySchema, keyAttrs []keyfirst.Attribute) (names []string, d decoding, err error) {
	h := holdingsOf(ks, keyAttrs)
	typeAttr := t.TypeAttribute()
	d = decoding{typed: h.has(typeAttr), partial: !h.all}
	const advice = "read the attributes it holds into a struct of your own with query.View[P](q) (query.ScanView for a scan), " +
		"project ALL (or INCLUDE every attribute) on the index, or read the table"
	switch r.kind {
	case readEntity:
		if h.all {
			break
		}
		if miss := h.missing(append(r.attributes(), typeAttr)); len(miss) > 0 {
			return nil, d, f.fail(miss[0], ProblemProjection, fmt.Sprintf(
				"%s; an item of %q read through it lacks %s, so it would decode into a partial value that a write "+
					"would take for a whole item (erasing what it lacks): %s", h.what, r.entity, strings.Join(quoted(miss), ", "), advice), nil)
		}
	case readCollection:
		if !d.typed {
			return nil, d, f.fail(typeAttr, ProblemProjection, fmt.Sprintf(
				"%s; without the entity-type attribute a collection cannot tell the types of its items: %s", h.what, advice), nil)
		}
		if h.all {
			break
		}
		in := t.EntitiesIn(ks.IndexName)
		d.whole = map[string]bool{}
		for _, name := range t.EntityTypes() {
			attrs, _ := t.EntityAttributes(name)
			miss := h.missing(attrs)
			if _, can := in[name]; can && len(miss) > 0 {
				return nil, d, f.fail(miss[0], ProblemProjection, fmt.Sprintf(
					"%s; items of %q can be in the index and would lack %s, so they would decode into partial values that a "+
						"write would take for whole items: %s", h.what, name, strings.Join(quoted(miss), ", "), advice), nil)
			}
			if len(miss) == 0 {
				d.whole[name] = true
			}
		}
	case readView:
		if r.err != nil {
			return nil, d, f.fail("", ProblemProjection, "a view decodes into a struct type: declare P as a struct of the attributes to read", r.err)
		}
		if miss := h.missing(r.attributes()); len(miss) > 0 {
			return nil, d, f.fail(miss[0], ProblemProjection, fmt.Sprintf(
				"%s; the view's fields %s are not among them and would always read as zero values: drop them from P, or add them "+
					"to the index's projection", h.what, strings.Join(quoted(miss), ", ")), nil)
		}
		names = r.attributes()
		for _, a := range keyAttrs {
			names = append(names, a.Name)
		}
		d.typed = d.typed && r.entity != ""
		if d.typed {
			names = append(names, typeAttr)
		}
		return dedupe(names), d, nil
	}
	return nil, d, nil
}

// dedupe drops the repeats of names, keeping the first of each.
func dedupe(names []string) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// quoted quotes each name, for messages.
func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strconv.Quote(n)
	}
	return out
}
