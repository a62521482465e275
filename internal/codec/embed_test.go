package codec

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Money marshals itself as a number of cents.
type Money struct{ Cents int }

func (m Money) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberN{Value: strconv.Itoa(m.Cents)}, nil
}

// Cents only unmarshals itself (a pointer method).
type Cents struct{ N int }

func (c *Cents) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	n, ok := av.(*types.AttributeValueMemberN)
	if !ok {
		return errors.New("not a number")
	}
	var err error
	c.N, err = strconv.Atoi(n.Value)
	return err
}

type hidden struct {
	A      string `dynamodbav:"a"`
	N      int
	secret string
}

// label is embedded, unexported, in the structs the codec must refuse.
type label string

// TestPromotedMarshalerIsRefused: a method promoted from an embedded type
// makes the whole struct a Marshaler (or Unmarshaler), and attributevalue
// then encodes the item with it alone: MarshalMap of withMoney is an
// empty map (the method returns a number, not a map). The codec cannot
// match that and refuses the type; naming the field keeps the method on
// the field.
func TestPromotedMarshalerIsRefused(t *testing.T) {
	type withMoney struct {
		Money
		Note string
	}
	type withTaggedMoney struct {
		Money `dynamodbav:"money"`
		Note  string
	}
	type withMoneyPointer struct {
		*Money
		Note string
	}
	type withCents struct {
		Cents
		Note string
	}
	type deeper struct {
		withMoney
		Other string
	}
	if m, err := attributevalue.MarshalMap(&withMoney{Money{5}, "n"}); err != nil || len(m) != 0 {
		t.Fatalf("attributevalue no longer drops the fields: %v, %v", m, err)
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[withMoney](), reflect.TypeFor[withTaggedMoney](),
		reflect.TypeFor[withMoneyPointer](), reflect.TypeFor[withCents](), reflect.TypeFor[deeper]()} {
		_, err := For(typ)
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "DynamoDBAttributeValue") {
			t.Errorf("%s: err = %v, want ErrUnsupported naming the method", typ, err)
		}
	}

	type named struct {
		Money Money `dynamodbav:"money"`
		Note  string
	}
	c := mustCodec(t, reflect.TypeFor[named]())
	v := named{Money{5}, "n"}
	want, err := attributevalue.MarshalMap(&v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := encode(t, c, &v)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("named field: %v, %v; attributevalue %v", dump(got), err, dump(want))
	}
}

// TestUnexportedEmbeddedStructMatchesAttributeValue: the exported fields
// of an unexported embedded struct are promoted, as attributevalue (and
// encoding/json) promote them.
func TestUnexportedEmbeddedStructMatchesAttributeValue(t *testing.T) {
	type embedsHidden struct {
		hidden
		B string
	}
	c := mustCodec(t, reflect.TypeFor[embedsHidden]())
	v := embedsHidden{hidden{A: "a", N: 7, secret: "s"}, "b"}
	want, err := attributevalue.MarshalMap(&v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := encode(t, c, &v)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("encode %v, %v; attributevalue %v", dump(got), err, dump(want))
	}
	var mine, theirs embedsHidden
	if err := c.Decode(want, reflect.ValueOf(&mine).Elem()); err != nil {
		t.Fatal(err)
	}
	if err := attributevalue.UnmarshalMap(want, &theirs); err != nil {
		t.Fatal(err)
	}
	if mine != theirs || mine.A != "a" || mine.N != 7 {
		t.Fatalf("decode %+v, attributevalue %+v", mine, theirs)
	}
}

// TestUnexportedEmbeddedFieldsAttributeValueCannotHandle: attributevalue
// panics on these (it sets a field through an unexported embedded
// pointer, or reads an unexported embedded non-struct), so the codec
// refuses them.
func TestUnexportedEmbeddedFieldsAttributeValueCannotHandle(t *testing.T) {
	type embedsHiddenPointer struct {
		*hidden
		B string
	}
	type embedsLabel struct {
		label
		B string
	}
	type embedsNamedHidden struct {
		hidden `dynamodbav:"h"`
		B      string
	}
	type ignoresThem struct {
		label   `dynamodbav:"-"`
		*hidden `dynamodbav:"-"`
		B       string
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[embedsHiddenPointer](), reflect.TypeFor[embedsLabel](),
		reflect.TypeFor[embedsNamedHidden]()} {
		if _, err := For(typ); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: err = %v, want ErrUnsupported", typ, err)
		}
	}
	mustCodec(t, reflect.TypeFor[ignoresThem]())
	_ = []label{embedsLabel{}.label, ignoresThem{}.label} // the types are only read by reflection
}
