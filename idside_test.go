package keyfirst_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// An order keyed by ids stored as they are: the table's key is the field
// id itself; the index ByCustomer derives CustomerId from Customer and
// OrderRef (at most 12 bytes) from ID.
type idOrder struct {
	ID       string `dynamodbav:"id"`
	Customer string `dynamodbav:"customer"`
}

var (
	idByID       = keyfirst.OnTable(keyfirst.ID("id"), keyfirst.NoSort())
	idByCustomer = keyfirst.OnIndex("ByCustomer", keyfirst.ID("CustomerId"), keyfirst.ID("OrderRef", keys.MaxLen(12)))
)

func idOrders(t testing.TB) *keyfirst.Entity[idOrder] {
	t.Helper()
	table := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "ids", Key: idByID, GSIs: []keyfirst.Index{idByCustomer.Index()}}))
	return keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[idOrder]{Type: "Order",
		Keys: []keyfirst.Binding{idByID.Fields("ID"), idByCustomer.Fields("Customer", "ID")}}))
}

// An ID side refuses, on every write path and in a query, what an id
// cannot hold, with the keys package's sentinel in the chain: a key
// encoded by hand ("CUSTOMER#c_42", which a Str side stores and queries as
// it is, so that the query finds nothing), the empty string, a reserved
// character, invalid UTF-8, a value over its maximum length.
func TestIDSideRefusesWhatAnIDCannotHold(t *testing.T) {
	t.Parallel()
	orders := idOrders(t)
	ctx := context.Background()
	client := noCalls{T: t}
	tests := []struct {
		name   string
		order  idOrder
		is     error
		attr   string // the attribute the error names
		reason string // what the query of a customer of that id says
	}{
		{"a key encoded by hand as the table's key", idOrder{ID: "ORDER#o1", Customer: "c_42"}, keys.ErrSeparator, "id", ""},
		{"a key encoded by hand as the index's", idOrder{ID: "o1", Customer: "CUSTOMER#c_42"}, keys.ErrSeparator, "CustomerId", "separator"},
		{"an empty id", idOrder{ID: "o1", Customer: ""}, keys.ErrEmpty, "CustomerId", "empty"},
		{"a space", idOrder{ID: "o1", Customer: "c 42"}, keys.ErrReserved, "CustomerId", "reserved"},
		{"a control character", idOrder{ID: "o\x01", Customer: "c_42"}, keys.ErrReserved, "id", ""},
		{"invalid UTF-8", idOrder{ID: "o1", Customer: "c\xff"}, keys.ErrMalformed, "CustomerId", "malformed"},
		{"over the default maximum", idOrder{ID: "o1", Customer: strings.Repeat("c", keys.MaxKeyBytes+1)}, keys.ErrTooLong, "CustomerId", "too long"},
		{"over the side's MaxLen", idOrder{ID: "o-12345678901", Customer: "c_42"}, keys.ErrTooLong, "OrderRef", ""},
	}
	for _, tt := range tests {
		for _, path := range keyFieldPaths {
			if tt.attr != "id" && (path == "Key" || path == "Delete" || path == "TransactDelete") {
				continue // the key is valid: these paths derive no index attribute
			}
			t.Run(tt.name+"/"+path, func(t *testing.T) {
				err := castWrite(ctx, client, orders, tt.order)(path)
				var ie *keyfirst.ItemError
				if !errors.As(err, &ie) || !errors.Is(err, keyfirst.ErrInvalidItem) || !errors.Is(err, tt.is) {
					t.Fatalf("err = %v, want an *ItemError wrapping %v", err, tt.is)
				}
				if ie.Attribute != tt.attr {
					t.Fatalf("the error names %q, want %q: %v", ie.Attribute, tt.attr, err)
				}
			})
		}
		if tt.reason == "" {
			continue
		}
		// The same value as a partition key to read: refused by the
		// pattern and by the query, before any request.
		t.Run(tt.name+"/query", func(t *testing.T) {
			if _, err := idByCustomer.PartitionValues(tt.order.Customer); !errors.Is(err, tt.is) || !errors.Is(err, keyfirst.ErrInvalidPattern) {
				t.Fatalf("PartitionValues: %v, want %v", err, tt.is)
			}
			_, err := query.On(orders, idByCustomer, tt.order.Customer).Collect(ctx, client)
			var qe *query.Error
			if !errors.As(err, &qe) || qe.Problem != query.ProblemPartition || !errors.Is(err, tt.is) {
				t.Fatalf("query: %v, want ProblemPartition wrapping %v", err, tt.is)
			}
			if !strings.Contains(err.Error(), tt.reason) {
				t.Fatalf("%q does not say %q", err, tt.reason)
			}
		})
	}
}

// An ID side stores the id as it is, and a table key of the field's own
// attribute name is the field, stored once, as with Str.
func TestIDSideStoresTheID(t *testing.T) {
	t.Parallel()
	orders := idOrders(t)
	item := mustItem(t, orders, idOrder{ID: "o-1.a:b@c/d", Customer: "c_42"})
	want := map[string]string{"id": "o-1.a:b@c/d", "customer": "c_42", "CustomerId": "c_42", "OrderRef": "o-1.a:b@c/d"}
	for attr, v := range want {
		if s, ok := item[attr].(*types.AttributeValueMemberS); !ok || s.Value != v {
			t.Errorf("%s = %v, want %q", attr, item[attr], v)
		}
	}
	if len(item) != len(want)+1 { // and the entity type
		t.Errorf("item %v, want the attributes %v and the type", item, want)
	}
	avs, err := idByCustomer.PartitionValues("c_42")
	if err != nil || len(avs) != 1 || avs[0].(*types.AttributeValueMemberS).Value != "c_42" {
		t.Fatalf("PartitionValues(c_42) = %v, %v", avs, err)
	}
	// An option keys.ID refuses is the side's error, kept by the pattern.
	if err := keyfirst.OnTable(keyfirst.ID("id", keys.MaxLen(-1)), keyfirst.NoSort()).Err(); !errors.Is(err, keys.ErrDefinition) || !errors.Is(err, keyfirst.ErrInvalidPattern) {
		t.Fatalf("MaxLen(-1): %v", err)
	}
}
