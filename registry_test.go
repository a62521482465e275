package keyfirst_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

func TestDecode(t *testing.T) {
	s := newShop(t, "")
	o := order("c1", "o1", Open, day)
	c := Customer{ID: "c1", Name: "Ana"}
	orderItem := mustItem(t, s.orders, o)
	customerItem := mustItem(t, s.customers, c)

	// A mixed item collection decodes into the right types.
	for _, item := range []map[string]types.AttributeValue{customerItem, orderItem} {
		v, err := s.table.Decode(item)
		if err != nil {
			t.Fatal(err)
		}
		switch v := v.(type) {
		case Order:
			if !reflect.DeepEqual(v, o) {
				t.Fatalf("order %+v", v)
			}
		case Customer:
			if v != c {
				t.Fatalf("customer %+v", v)
			}
		default:
			t.Fatalf("decoded a %T", v)
		}
	}
	if got := s.table.EntityType(orderItem); got != "ORDER" {
		t.Fatalf("EntityType = %q", got)
	}

	unknown := map[string]types.AttributeValue{"_type": &types.AttributeValueMemberS{Value: "INVOICE"}}
	untyped := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "x"}}
	badField := mustItem(t, s.orders, o)
	badField["total"] = &types.AttributeValueMemberS{Value: "lots"}
	tests := []struct {
		name     string
		decode   func() error
		sentinel error
		want     keyfirst.EntityTypeError
	}{
		{"unknown type", func() error { _, err := s.table.Decode(unknown); return err }, keyfirst.ErrUnknownEntityType, keyfirst.EntityTypeError{Got: "INVOICE"}},
		{"no type attribute", func() error { _, err := s.table.Decode(untyped); return err }, keyfirst.ErrUnknownEntityType, keyfirst.EntityTypeError{}},
		{"a customer as an order", func() error { _, err := s.orders.Decode(customerItem); return err }, keyfirst.ErrWrongEntityType, keyfirst.EntityTypeError{Want: "ORDER", Got: "CUSTOMER"}},
		{"no type attribute as an order", func() error { _, err := s.orders.Decode(untyped); return err }, keyfirst.ErrWrongEntityType, keyfirst.EntityTypeError{Want: "ORDER"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.decode()
			var te *keyfirst.EntityTypeError
			if !errors.Is(err, tt.sentinel) || !errors.As(err, &te) || *te != tt.want {
				t.Fatalf("err = %v", err)
			}
		})
	}
	t.Run("field of the wrong type", func(t *testing.T) {
		_, err := s.table.Decode(badField)
		var ie *keyfirst.ItemError
		if !errors.As(err, &ie) || ie.Problem != keyfirst.ItemDecode || !strings.Contains(err.Error(), "total") {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestEntityTypesInRegistrationOrder(t *testing.T) {
	s := newShop(t, "")
	if got := s.table.EntityTypes(); !reflect.DeepEqual(got, []string{"ORDER", "CUSTOMER"}) {
		t.Fatalf("EntityTypes() = %v", got)
	}
}

// EntitiesIn lists the entity types whose items can be in an index: those
// that derive its key attributes or have them as fields.
func TestEntitiesIn(t *testing.T) {
	s := newShop(t, "")
	orderAttrs := strings.Join(s.orders.Attributes(), " ")
	customerAttrs := strings.Join(s.customers.Attributes(), " ")
	for index, want := range map[string]map[string]string{
		"":            {"ORDER": orderAttrs, "CUSTOMER": customerAttrs},
		"GSI1":        {"ORDER": orderAttrs, "CUSTOMER": customerAttrs},
		"by-status":   {"ORDER": orderAttrs}, // fields of Order
		"open-orders": {"ORDER": orderAttrs}, // derived and a field
		"by-total":    {"ORDER": orderAttrs}, // an LSI over a field
		"nope":        {},
	} {
		got := map[string]string{}
		for name, attrs := range s.table.EntitiesIn(index) {
			got[name] = strings.Join(attrs, " ")
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("index %q: got %v, want %v", index, got, want)
		}
	}
}

// EntityAttributes gives the attributes of every registered entity type,
// whatever index its items can be in, and nothing for another name.
func TestEntityAttributes(t *testing.T) {
	s := newShop(t, "")
	for name, want := range map[string][]string{"ORDER": s.orders.Attributes(), "CUSTOMER": s.customers.Attributes()} {
		got, ok := s.table.EntityAttributes(name)
		if !ok || !reflect.DeepEqual(got, want) || len(got) == 0 {
			t.Errorf("%s: got %v, %v, want %v", name, got, ok, want)
		}
		got[0] = "changed" // a copy of the caller's
		if again, _ := s.table.EntityAttributes(name); again[0] == "changed" {
			t.Errorf("%s: the result shares the registry's slice", name)
		}
	}
	if got, ok := s.table.EntityAttributes("RETIRED"); ok || got != nil {
		t.Errorf("RETIRED: got %v, %v", got, ok)
	}
}
