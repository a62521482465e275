package keyfirst_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// Loose is an order type whose derivations do not validate: what a careless
// caller writes. The library must still refuse what DynamoDB would refuse,
// before any request.
type Loose struct {
	Customer string    `dynamodbav:"customer"`
	ID       string    `dynamodbav:"id"`
	Status   string    `dynamodbav:"status,omitempty"`
	PlacedAt *string   `dynamodbav:"placedAt"`
	Bucket   string    `dynamodbav:"-"`
	Sort     any       `dynamodbav:"-"`
	Note     string    `dynamodbav:"note,omitempty"`
	Total    any       `dynamodbav:"total,omitempty"`
	Blob     []byte    `dynamodbav:"blob,omitempty"`
	Primary  *struct{} `dynamodbav:"-"`
}

func looseEntity(t *testing.T, table *keyfirst.Table) *keyfirst.Entity[Loose] {
	t.Helper()
	e, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Loose]{
		Type: "LOOSE",
		PartitionKey: keyfirst.DeriveStringIf(func(l Loose) (string, bool, error) {
			return l.Customer, l.Primary == nil, nil
		}),
		SortKey: keyfirst.DeriveString(func(l Loose) (string, error) { return l.ID, nil }),
		Indexes: map[string]keyfirst.IndexKeys[Loose]{
			"GSI1": {
				"GSI1PK": keyfirst.DeriveString(func(l Loose) (string, error) { return "C#" + l.Customer, nil }),
				"GSI1SK": func(l Loose) (types.AttributeValue, bool, error) {
					if l.Sort != nil {
						return l.Sort.(types.AttributeValue), true, nil
					}
					return &types.AttributeValueMemberS{Value: "S#" + l.ID}, true, nil
				},
			},
			"open-orders": {
				"openBucket": keyfirst.DeriveStringIf(func(l Loose) (string, bool, error) { return l.Bucket, l.Bucket != "-", nil }),
			},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestBadItemsAreRefusedBeforeAnyRequest(t *testing.T) {
	// The shop's table without its entities: LOOSE can be in open-orders,
	// a Scannable index that ORDER would hold already.
	table, err := keyfirst.NewTable(shopSpec())
	if err != nil {
		t.Fatal(err)
	}
	loose := looseEntity(t, table)
	placed := "2019-07-01"
	good := Loose{Customer: "c1", ID: "o1", Status: "OPEN", PlacedAt: &placed, Bucket: "-"}
	with := func(edit func(*Loose)) Loose {
		l := good
		edit(&l)
		return l
	}
	tests := []struct {
		name    string
		item    Loose
		problem keyfirst.ItemProblem
		index   string
		attr    string
	}{
		{"missing partition key field", with(func(l *Loose) { l.Customer = "" }), keyfirst.ItemEmptyKey, "", "PK"},
		{"missing sort key field", with(func(l *Loose) { l.ID = "" }), keyfirst.ItemEmptyKey, "", "SK"},
		{"primary key derivation with no value", with(func(l *Loose) { l.Primary = &struct{}{} }), keyfirst.ItemMissingKey, "", "PK"},
		{"partition key over 2048 bytes", with(func(l *Loose) { l.Customer = strings.Repeat("c", 2049) }), keyfirst.ItemKeyTooLong, "", "PK"},
		{"sort key over 1024 bytes", with(func(l *Loose) { l.ID = strings.Repeat("i", 1025) }), keyfirst.ItemKeyTooLong, "", "SK"},
		{"empty string for a sparse index key", with(func(l *Loose) { l.Bucket = "" }), keyfirst.ItemEmptyKey, "open-orders", "openBucket"},
		{"number for a string index key", with(func(l *Loose) { l.Sort = &types.AttributeValueMemberN{Value: "1"} }), keyfirst.ItemKeyType, "GSI1", "GSI1SK"},
		{"NULL for an index key field", with(func(l *Loose) { l.PlacedAt = nil }), keyfirst.ItemKeyType, "by-status", "placedAt"},
		{"string in a number index key field", with(func(l *Loose) { l.Total = "12" }), keyfirst.ItemKeyType, "by-total", "total"},
		{"empty string in an index key field", with(func(l *Loose) { l.PlacedAt = new(string) }), keyfirst.ItemEmptyKey, "by-status", "placedAt"},
		{"number index key field above 1E+126", with(func(l *Loose) { l.Total = 1e200 }), keyfirst.ItemBadNumber, "by-total", "total"},
		{"number index key field below 1E-130", with(func(l *Loose) { l.Total = -1e-200 }), keyfirst.ItemBadNumber, "by-total", "total"},
		{"over-sized item", with(func(l *Loose) { l.Note = strings.Repeat("n", keyfirst.MaxItemSize) }), keyfirst.ItemTooLarge, "", ""},
	}
	ctx := context.Background()
	client := noCalls{T: t}
	paths := map[string]func(Loose) error{
		"Item":    func(l Loose) error { _, err := loose.Item(l); return err },
		"Put":     func(l Loose) error { _, err := loose.Put(ctx, client, l); return err },
		"Replace": func(l Loose) error { _, err := loose.Replace(ctx, client, l); return err },
		"BatchWrite": func(l Loose) error {
			return table.BatchWrite(ctx, client, []keyfirst.WriteRequest{loose.PutRequest(good), loose.PutRequest(l)})
		},
	}
	for _, tt := range tests {
		for path, write := range paths {
			t.Run(tt.name+"/"+path, func(t *testing.T) {
				err := write(tt.item)
				var ie *keyfirst.ItemError
				if !errors.As(err, &ie) || !errors.Is(err, keyfirst.ErrInvalidItem) {
					t.Fatalf("err = %v, want an *ItemError", err)
				}
				if ie.Problem != tt.problem || ie.Index != tt.index || ie.Attribute != tt.attr {
					t.Fatalf("got %q index %q attribute %q, want %q %q %q (%v)", ie.Problem, ie.Index, ie.Attribute,
						tt.problem, tt.index, tt.attr, err)
				}
			})
		}
	}
	if _, err := loose.Item(good); err != nil {
		t.Fatalf("the good item is refused: %v", err)
	}
}

func TestDerivationErrorsAreWrapped(t *testing.T) {
	s := newShop(t, "")
	_, err := s.orders.Put(context.Background(), noCalls{T: t}, Order{Customer: "c#1", ID: "o1", Status: Open, PlacedAt: day})
	var ie *keyfirst.ItemError
	if !errors.As(err, &ie) || ie.Problem != keyfirst.ItemDerive || ie.Attribute != "PK" ||
		!errors.Is(err, errBadID) || !errors.Is(err, keyfirst.ErrInvalidItem) {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(err.Error(), `"c#1"`) || !strings.Contains(err.Error(), `attribute "PK"`) {
		t.Fatalf("the message should name the value and the attribute: %v", err)
	}
}
