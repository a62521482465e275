package keyfirst

import (
	"fmt"
	"reflect"
	"strconv"
	"time"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/itemsize"
)

// lifeKind tells the three lifecycle attributes apart.
type lifeKind uint8

const (
	lifeCreated lifeKind = iota
	lifeUpdated
	lifeExpires
)

var lifeSpecName = [...]string{lifeCreated: "Created", lifeUpdated: "Updated", lifeExpires: "Expires"}

// lifeField is a lifecycle field of T: a time.Time that keyfirst sets
// (Created, Updated) or stores as DynamoDB's TTL requires (Expires).
type lifeField struct {
	kind   lifeKind
	goName string
	attr   string
	offset uintptr // of the time.Time in T (the field is Fixed)
	at     int     // the field's position in the codec's values
}

// ExpiresAfter is an expiry derived from another time.Time field of T
// ([EntitySpec.ExpiresAfter]): the item expires After the time its Field
// holds. The table's TimeToLive attribute ([TableSpec.TimeToLive]) is then
// no field of T but a derived attribute, stored as a Number of epoch
// seconds and recomputed by every write from the field, as a key is: Put,
// Replace, Modify, a batch put, every transaction action and Refresh
// write it with the item; a partial update that changes the field (Set,
// Remove, or the updated time every update stamps) SETs or REMOVEs it in
// the same write. A zero Field stores no expiry (refused with
// [EntitySpec.ExpiresRequired]); an expiry before 1970 is refused
// ([ItemExpires]), before any request. With Field the created time
// ([EntitySpec.Created]), which never changes, the expiry is kept as the
// created time is (see [Entity.Put]).
type ExpiresAfter struct {
	Field string        // the Go name of a time.Time field of T
	After time.Duration // positive
}

// lifecycle is what an entity's writes do with its lifecycle fields.
type lifecycle struct {
	fields   []lifeField // those declared, in lifeKind order
	created  string      // attribute names, "" when not declared
	updated  string
	expires  string // Expires's, or the derived one of ExpiresAfter
	required bool   // EntitySpec.ExpiresRequired
	clock    func() time.Time
	// after, for ExpiresAfter, is its field (kind lifeExpires, attr the
	// field's own attribute) and duration.
	after *lifeAfter
}

// lifeAfter is a checked ExpiresAfter.
type lifeAfter struct {
	source lifeField
	after  time.Duration
}

// field returns the lifecycle field stored under attribute attr, or nil.
func (l *lifecycle) field(attr string) *lifeField {
	for i := range l.fields {
		if l.fields[i].attr == attr {
			return &l.fields[i]
		}
	}
	return nil
}

// now is the time of a write: the entity's clock, in UTC.
func (l *lifecycle) now() time.Time {
	if l.clock == nil {
		return time.Now().UTC()
	}
	return l.clock().UTC()
}

// lifecycleFields: Created, Updated and Expires name distinct time.Time
// fields of T outside any embedded pointer, none the version nor a key of
// the table; Expires is the table's TimeToLive attribute.
func (b *entityBuilder[T]) lifecycleFields() error {
	s := b.spec
	l := &b.e.life
	l.clock, l.required = s.Clock, s.ExpiresRequired
	if s.ExpiresRequired && s.Expires == "" && s.ExpiresAfter == (ExpiresAfter{}) {
		return b.fail("", "", EntityLifecycle, "ExpiresRequired without an Expires field: name the time.Time field that holds the expiry", nil)
	}
	if s.Expires != "" && s.ExpiresAfter != (ExpiresAfter{}) {
		return b.fail("", "", EntityLifecycle, fmt.Sprintf("both Expires (%s) and ExpiresAfter (%s): one expiry per entity, "+
			"a field that holds it or a duration after another field", s.Expires, s.ExpiresAfter.Field), nil)
	}
	seen := map[string]string{}
	for kind, goName := range [...]string{lifeCreated: s.Created, lifeUpdated: s.Updated, lifeExpires: s.Expires} {
		if goName == "" {
			continue
		}
		what := lifeSpecName[kind]
		f, ok := b.e.codec.FieldByGoName(goName)
		switch {
		case !ok:
			return b.fail("", "", EntityLifecycle, fmt.Sprintf("%s names %q: no encoded field of T is called so (a Go field name: \"CreatedAt\", not \"createdAt\")", what, goName), nil)
		case f.Type != reflect.TypeFor[time.Time]():
			return b.fail("", f.Name, EntityLifecycle, fmt.Sprintf("%s field %s is %s; it must be a time.Time", what, goName, f.Type), nil)
		case !f.Fixed:
			return b.fail("", f.Name, EntityLifecycle, fmt.Sprintf("%s field %s is inside an embedded pointer; move it to T or to an embedded struct", what, goName), nil)
		case seen[goName] != "":
			return b.fail("", f.Name, EntityLifecycle, fmt.Sprintf("field %s is both %s and %s", goName, seen[goName], what), nil)
		case f.Name == s.Version:
			return b.fail("", f.Name, EntityLifecycle, fmt.Sprintf("field %s is the version", goName), nil)
		case f.Name == b.e.pk.attr.Name || b.e.hasSK && f.Name == b.e.sk.attr.Name:
			return b.fail("", f.Name, EntityLifecycle, fmt.Sprintf("%s field %s is a key of the table: each write would move the item", what, goName), nil)
		case lifeKind(kind) == lifeExpires && b.table.isKeyAttribute(f.Name):
			return b.fail("", f.Name, EntityLifecycle, fmt.Sprintf("Expires field %s is a key attribute; TTL needs a Number of epoch seconds of its own", goName), nil)
		case lifeKind(kind) == lifeExpires && b.table.ttl != f.Name:
			return b.fail("", f.Name, EntityLifecycle, fmt.Sprintf("Expires field %s is stored as %q, and the table's TimeToLive is %q: "+
				"declare TableSpec.TimeToLive %q, so that Table.Create enables it and Table.Check finds it", goName, f.Name, b.table.ttl, f.Name), nil)
		}
		seen[goName] = what
		l.fields = append(l.fields, lifeField{kind: lifeKind(kind), goName: goName, attr: f.Name, offset: b.fieldOffset(goName)})
		switch lifeKind(kind) {
		case lifeCreated:
			l.created = f.Name
		case lifeUpdated:
			l.updated = f.Name
		default:
			l.expires = f.Name
		}
	}
	if s.ExpiresAfter != (ExpiresAfter{}) {
		return b.expiresAfter()
	}
	return nil
}

// fieldOffset is the offset in T of its field goName (outside any
// embedded pointer).
func (b *entityBuilder[T]) fieldOffset(goName string) uintptr {
	sf, _ := b.goType.FieldByName(goName)
	offset := uintptr(0)
	t := b.goType
	for _, i := range sf.Index {
		offset += t.Field(i).Offset
		t = t.Field(i).Type
	}
	return offset
}

// expiresAfter: ExpiresAfter's Field is a time.Time field of T outside any
// embedded pointer, After is positive, and the table's TimeToLive is an
// attribute of its own (no field of T, no key, no other derived one),
// which the entity then derives.
func (b *entityBuilder[T]) expiresAfter() error {
	a, l := b.spec.ExpiresAfter, &b.e.life
	f, ok := b.e.codec.FieldByGoName(a.Field)
	switch {
	case !ok:
		return b.fail("", "", EntityLifecycle, fmt.Sprintf("ExpiresAfter.Field names %q: no encoded field of T is called so (a Go field name)", a.Field), nil)
	case f.Type != reflect.TypeFor[time.Time]():
		return b.fail("", f.Name, EntityLifecycle, fmt.Sprintf("ExpiresAfter.Field %s is %s; it must be a time.Time", a.Field, f.Type), nil)
	case !f.Fixed:
		return b.fail("", f.Name, EntityLifecycle, fmt.Sprintf("ExpiresAfter.Field %s is inside an embedded pointer; move it to T or to an embedded struct", a.Field), nil)
	case a.After <= 0:
		return b.fail("", f.Name, EntityLifecycle, fmt.Sprintf("ExpiresAfter.After is %s: give the positive time after %s at which the item expires", a.After, a.Field), nil)
	case b.table.ttl == "":
		return b.fail("", "", EntityLifecycle, "ExpiresAfter on a table without TimeToLive: declare TableSpec.TimeToLive, the attribute that holds the expiry", nil)
	}
	ttl := b.table.ttl
	if _, clash := b.e.codec.Field(ttl); clash || b.derivedAt[ttl] != "" || b.table.isKeyAttribute(ttl) || ttl == b.table.typeAttr {
		return b.fail("", ttl, EntityLifecycle, fmt.Sprintf("the table's TimeToLive %q, which ExpiresAfter derives, is already a field, a key or a derived attribute of the entity: "+
			"name it apart (or declare Expires, a field that holds the expiry)", ttl), nil)
	}
	b.derivedAt[ttl] = "ExpiresAfter"
	l.expires = ttl
	l.after = &lifeAfter{source: lifeField{kind: lifeExpires, goName: a.Field, attr: ttl, offset: b.fieldOffset(a.Field)}, after: a.After}
	return nil
}

// derivedExpiry is the expiry ExpiresAfter derives from src, the time its
// field holds (zero: none).
func (a *lifeAfter) derivedExpiry(src time.Time) time.Time {
	if src.IsZero() {
		return src
	}
	return src.Add(a.after)
}

// timeAt is the lifecycle field f of *v.
func (f *lifeField) timeAt(v unsafe.Pointer) *time.Time {
	return (*time.Time)(unsafe.Add(v, f.offset))
}

// stampTimes sets, in *v, what a write at now stores: Updated is now, and
// a zero Created is now (the stored one, when the item exists, is kept
// by the write: see [Entity.updateExpression]).
func (e *Entity[T]) stampTimes(v *T, now time.Time) {
	for i := range e.life.fields {
		f := &e.life.fields[i]
		t := f.timeAt(unsafe.Pointer(v))
		switch {
		case f.kind == lifeUpdated, f.kind == lifeCreated && t.IsZero():
			*t = now
		}
	}
}

// lifeValues replaces, in the item's field values, the encoding of each
// lifecycle field of *v with the one keyfirst stores, adds the derived
// expiry to its derived attributes (returned), and returns the change of
// the item's size: Created and Updated in [TimeKeyLayout] (left out when
// zero, which only a plan without a clock reading has), Expires as a
// Number of epoch seconds (left out when zero: the item never expires).
func (e *Entity[T]) lifeValues(v *T, p *itemPlan[T], fields []types.AttributeValue, derived []namedValue) ([]namedValue, int, error) {
	size := 0
	for i := range e.life.fields {
		f := &e.life.fields[i]
		av, err := e.lifeValue(f, *f.timeAt(unsafe.Pointer(v)))
		if err != nil {
			return derived, 0, err
		}
		if old := fields[f.at]; old != nil {
			size -= itemsize.Size(f.attr, old)
		}
		fields[f.at] = av // nil: the item has none
		if av != nil {
			size += itemsize.Size(f.attr, av)
		}
	}
	if a := e.life.after; a != nil {
		// The derived expiry, which no field holds: removed when absent,
		// as a derived key is.
		av, err := e.lifeValue(&a.source, a.derivedExpiry(*a.source.timeAt(unsafe.Pointer(v))))
		if err != nil {
			return derived, 0, err
		}
		if av == nil {
			p.remove = append(p.remove, a.source.attr)
		} else {
			derived = append(derived, namedValue{name: a.source.attr, av: av})
			size += itemsize.Size(a.source.attr, av)
		}
	}
	return derived, size, nil
}

// storeExpiry adds to a partial update that stores the source field of
// ExpiresAfter (its value in p.values) the SET or REMOVE of the derived
// expiry, so that it never goes stale.
func (p *partialPlan[T]) storeExpiry() error {
	e, a := p.e, p.e.life.after
	av, err := e.lifeValue(&a.source, a.derivedExpiry(*a.source.timeAt(p.values.Addr().UnsafePointer())))
	switch {
	case err != nil:
		return err
	case av == nil:
		p.act(actRemove, a.source.attr, nil)
	default:
		p.size += itemsize.Size(a.source.attr, av)
		p.act(actSet, a.source.attr, av)
	}
	return nil
}

// fromCreated reports whether the entity's expiry is derived from its
// created time, and then kept as the created time is.
func (l *lifecycle) fromCreated() bool {
	return l.after != nil && l.created != "" && l.after.source.goName == l.field(l.created).goName
}

// keptExpiry is the value an update SETs the derived expiry to when it
// comes from the created time (see [Entity.setValue]): the one of the
// created time stored in read, if_not_exists(expiry, av) with no image.
func (e *Entity[T]) keptExpiry(av types.AttributeValue, read map[string]types.AttributeValue) expression.OperandBuilder {
	a := e.life.after
	s, ok := read[e.life.created].(*types.AttributeValueMemberS)
	if read == nil || !ok {
		return expression.IfNotExists(name(a.source.attr), expression.Value(av))
	}
	t, err := time.Parse(time.RFC3339Nano, s.Value)
	if err != nil {
		return expression.Value(av)
	}
	if kept, err := e.lifeValue(&a.source, a.derivedExpiry(t)); err == nil && kept != nil {
		return expression.Value(kept)
	}
	return expression.Value(av)
}

// lifeValue is how lifecycle field f stores t; nil: the item has no such
// attribute.
func (e *Entity[T]) lifeValue(f *lifeField, t time.Time) (types.AttributeValue, error) {
	if f.kind != lifeExpires {
		if t.IsZero() {
			return nil, nil
		}
		s, err := FormatTimeKey(t)
		if err != nil {
			return nil, &ItemError{Entity: e.typeName, Attribute: f.attr, Problem: ItemTime, Detail: lifeSpecName[f.kind] + " field " + f.goName, Err: err}
		}
		return &types.AttributeValueMemberS{Value: s}, nil
	}
	switch {
	case t.IsZero() && e.life.required:
		return nil, &ItemError{Entity: e.typeName, Attribute: f.attr, Problem: ItemExpires,
			Detail: fmt.Sprintf("field %s is zero and EntitySpec.ExpiresRequired: give every item its expiry", f.goName)}
	case t.IsZero():
		return nil, nil
	case t.Before(time.Unix(0, 0)):
		return nil, &ItemError{Entity: e.typeName, Attribute: f.attr, Problem: ItemExpires,
			Detail: fmt.Sprintf("field %s is %s, before 1970: DynamoDB's TTL holds epoch seconds, and ignores a negative number (the item would never expire)", f.goName, t.UTC().Format(time.RFC3339))}
	}
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(t.Unix(), 10)}, nil
}

// storedCreated sets the Created field of *v from attrs, the attributes
// an UpdateItem returned (UPDATED_NEW): the created time the item keeps.
func (e *Entity[T]) storedCreated(v *T, attrs map[string]types.AttributeValue) {
	f := e.life.field(e.life.created)
	if f == nil {
		return
	}
	if s, ok := attrs[f.attr].(*types.AttributeValueMemberS); ok {
		if t, err := time.Parse(time.RFC3339Nano, s.Value); err == nil {
			*f.timeAt(unsafe.Pointer(v)) = t
		}
	}
}

// keepsCreated reports whether a put of the entity must keep a stored
// created time: it is then an UpdateItem, never a PutItem.
func (e *Entity[T]) keepsCreated() bool { return e.life.created != "" }

// holdCreated saves the created time of *v, read from the table, and
// returns what puts it back: a change function (Modify's) cannot change
// it.
func (e *Entity[T]) holdCreated(v *T) (restore func()) {
	f := e.life.field(e.life.created)
	if f == nil {
		return func() {}
	}
	t := *f.timeAt(unsafe.Pointer(v))
	return func() { *f.timeAt(unsafe.Pointer(v)) = t }
}

// ExpiresAttribute returns the attribute that holds the entity's expiry
// ([EntitySpec.Expires]), or "" when it has none.
func (e *Entity[T]) ExpiresAttribute() string { return e.life.expires }

// Expired reports whether item, an item of this entity as read, has
// expired at now: its expiry ([EntitySpec.Expires], epoch seconds) is at
// or before now. DynamoDB deletes such an item some time later (up to a
// few days), and reads return it until then; an item without expiry
// never expires.
func (e *Entity[T]) Expired(item map[string]types.AttributeValue, now time.Time) bool {
	return expiredAt(item, e.life.expires, now)
}

// Expired reports whether item, an item of any entity of the table as
// read, has expired at now: the entity it is ([Table.Classify]) declares
// an expiry ([EntitySpec.Expires]) and item's is at or before now, as
// [Entity.Expired] says. An item of an entity without expiry, or of no
// entity the table knows, never expires. It is how a read of several
// entity types (a collection) tells the expired ones.
func (t *Table) Expired(item map[string]types.AttributeValue, now time.Time) bool {
	name, err := t.Classify(item)
	if err != nil {
		return false
	}
	t.mu.RLock()
	attr := t.entities[name].expires
	t.mu.RUnlock()
	return expiredAt(item, attr, now)
}

// expiredAt reports whether item's expiry attribute attr ("" for none)
// holds epoch seconds at or before now.
func expiredAt(item map[string]types.AttributeValue, attr string, now time.Time) bool {
	n, ok := item[attr].(*types.AttributeValueMemberN)
	if attr == "" || !ok {
		return false
	}
	sec, err := strconv.ParseInt(n.Value, 10, 64)
	return err == nil && sec <= now.Unix()
}
