package keyfirst

import (
	"fmt"
	"reflect"
	"strconv"
	"time"
	"unsafe"

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
}

// lifecycle is what an entity's writes do with its lifecycle fields.
type lifecycle struct {
	fields   []lifeField // those declared, in lifeKind order
	created  string      // attribute names, "" when not declared
	updated  string
	expires  string
	required bool // EntitySpec.ExpiresRequired
	clock    func() time.Time
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
	if s.ExpiresRequired && s.Expires == "" {
		return b.fail("", "", EntityLifecycle, "ExpiresRequired without an Expires field: name the time.Time field that holds the expiry", nil)
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
		sf, _ := b.goType.FieldByName(goName)
		offset := uintptr(0)
		t := b.goType
		for _, i := range sf.Index {
			offset += t.Field(i).Offset
			t = t.Field(i).Type
		}
		l.fields = append(l.fields, lifeField{kind: lifeKind(kind), goName: goName, attr: f.Name, offset: offset})
		switch lifeKind(kind) {
		case lifeCreated:
			l.created = f.Name
		case lifeUpdated:
			l.updated = f.Name
		default:
			l.expires = f.Name
		}
	}
	return nil
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

// lifeValues replaces, in item, the encoding of each lifecycle field of *v
// with the one keyfirst stores, and returns the change of the item's
// size: Created and Updated in [TimeKeyLayout] (left out when zero, which
// only a plan without a clock reading has), Expires as a Number of epoch
// seconds (left out when zero: the item never expires).
func (e *Entity[T]) lifeValues(v *T, item map[string]types.AttributeValue) (int, error) {
	size := 0
	for i := range e.life.fields {
		f := &e.life.fields[i]
		av, err := e.lifeValue(f, *f.timeAt(unsafe.Pointer(v)))
		if err != nil {
			return 0, err
		}
		if old, ok := item[f.attr]; ok {
			size -= itemsize.Size(f.attr, old)
		}
		if av == nil {
			delete(item, f.attr)
			continue
		}
		item[f.attr] = av
		size += itemsize.Size(f.attr, av)
	}
	return size, nil
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
