package keyfirst

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/codec"
)

// Key is the primary key of an item of entity type T. Get one from
// [Entity.Key], which derives it from a T whose key fields are set, and pass
// it to [Entity.Get], [Entity.BatchGet] or [Entity.Modify]. A Key is a small
// comparable value: use it as a map key. Its number values are held in the
// canonical form DynamoDB stores them in ("-0" is "0", "1.50e2" is "150"),
// so two Keys of one entity type are equal exactly when DynamoDB takes them
// for one key. Its type parameter keeps the key of one entity type from
// being used with another, and so does, for two entity types of one Go
// type, the entity-type name it carries: every operation refuses a key of
// another entity type before any request ([ErrWrongEntityType]).
type Key[T any] struct {
	pk, sk keyPart
	typ    string // the entity type that derived it
	_      [0]*T
}

// keyPart is one key attribute value in comparable form.
type keyPart struct {
	val string   // the S or N text, or the B bytes; first, where parts differ
	typ partType // a byte, so that parts are small and compare fast
}

// partType is a keyPart's attribute type; 0 for no value.
type partType uint8

const (
	partS partType = iota + 1
	partN
	partB
)

// scalarType is t as DynamoDB names it ("" for no value).
func (t partType) scalarType() types.ScalarAttributeType {
	switch t {
	case partS:
		return types.ScalarAttributeTypeS
	case partN:
		return types.ScalarAttributeTypeN
	case partB:
		return types.ScalarAttributeTypeB
	}
	return ""
}

// IsZero reports whether k is the zero Key (not derived from an item).
func (k Key[T]) IsZero() bool { return k.pk.typ == 0 }

// String prints the key's values: ("CUST#c1", "ORDER#o1").
func (k Key[T]) String() string {
	var b strings.Builder
	b.WriteByte('(')
	k.pk.write(&b)
	if k.sk.typ != 0 {
		b.WriteString(", ")
		k.sk.write(&b)
	}
	b.WriteByte(')')
	return b.String()
}

// text prints the value as String does.
func (p keyPart) text() string {
	var b strings.Builder
	p.write(&b)
	return b.String()
}

func (p keyPart) write(b *strings.Builder) {
	switch p.typ {
	case partS:
		b.WriteString(strconv.Quote(p.val))
	case partB:
		b.WriteString("0x")
		b.WriteString(hex.EncodeToString([]byte(p.val)))
	default:
		b.WriteString(p.val)
	}
}

func partOf(av types.AttributeValue) keyPart {
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		return keyPart{val: x.Value, typ: partS}
	case *types.AttributeValueMemberN:
		return keyPart{val: x.Value, typ: partN}
	case *types.AttributeValueMemberB:
		return keyPart{val: string(x.Value), typ: partB}
	}
	return keyPart{}
}

func (p keyPart) value() types.AttributeValue { return p.valueIn(nil) }

// valueIn is value, a string or number taken from sl (nil: allocated on
// its own).
func (p keyPart) valueIn(sl *codec.Slab) types.AttributeValue {
	switch p.typ {
	case partS:
		return sl.Str(p.val)
	case partN:
		return sl.Num(p.val)
	}
	return &types.AttributeValueMemberB{Value: []byte(p.val)}
}

// Key derives the primary key of item, running only the primary key
// derivations: item needs only the fields they read. A derivation error, or
// an empty or mistyped value, is an [*ItemError].
func (e *Entity[T]) Key(item T) (Key[T], error) {
	k := Key[T]{typ: e.typeName}
	var fr funcResults[T]
	av, _, err := e.derivePrimary(&e.pk, &item, &fr)
	if err != nil {
		return k, err
	}
	k.pk = partOf(av)
	if e.hasSK {
		av, _, err := e.derivePrimary(&e.sk, &item, &fr)
		if err != nil {
			return Key[T]{}, err
		}
		k.sk = partOf(av)
	}
	return k, nil
}

// keyMap is the Key attribute map of a request, its values allocated
// together.
func (e *Entity[T]) keyMap(k Key[T]) map[string]types.AttributeValue {
	var sl codec.Slab
	sl.Reset(e.keyValues(), 0)
	return e.keyMapIn(k, &sl)
}

// keyValues is the number of values of a key map: one per key attribute.
func (e *Entity[T]) keyValues() int {
	if e.hasSK {
		return 2
	}
	return 1
}

// keyMapIn is keyMap with the values taken from sl: the keys of one
// request share one.
func (e *Entity[T]) keyMapIn(k Key[T], sl *codec.Slab) map[string]types.AttributeValue {
	m := make(map[string]types.AttributeValue, 2)
	m[e.pk.attr.Name] = k.pk.valueIn(sl)
	if e.hasSK {
		m[e.sk.attr.Name] = k.sk.valueIn(sl)
	}
	return m
}

// keyOfItem reads the primary key of a stored item.
func (e *Entity[T]) keyOfItem(item map[string]types.AttributeValue) Key[T] {
	k := Key[T]{pk: partOf(item[e.pk.attr.Name]), typ: e.typeName}
	if e.hasSK {
		k.sk = partOf(item[e.sk.attr.Name])
	}
	return k
}

// KeyOf returns the primary key of a stored item of the entity from its
// table key attributes, which every read returns (a KEYS_ONLY index
// included): the key [Entity.Get] and [Entity.BatchGet] read the whole
// item by. An item without one of them, or with a value of another type
// than the table's, is an [*ItemError] ([ItemMissingKey], [ItemKeyType]).
func (e *Entity[T]) KeyOf(item map[string]types.AttributeValue) (Key[T], error) {
	ds := []derivation[T]{e.pk}
	if e.hasSK {
		ds = append(ds, e.sk)
	}
	for _, d := range ds {
		switch av, ok := item[d.attr.Name]; {
		case !ok:
			return Key[T]{}, e.itemError(&d, ItemMissingKey, "the item lacks the table key attribute", nil)
		case partOf(av).typ.scalarType() != d.attr.Type:
			return Key[T]{}, e.itemError(&d, ItemKeyType, fmt.Sprintf("got %s, the attribute is %s", avTypeName(av), d.attr.Type), nil)
		}
	}
	return e.keyOfItem(item), nil
}
