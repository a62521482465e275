package keyfirst_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
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
	Note     string    `dynamodbav:"note,omitempty"`
	Total    any       `dynamodbav:"total,omitempty"`
	Blob     []byte    `dynamodbav:"blob,omitempty"`
	Primary  *struct{} `dynamodbav:"-"`
}

// looseGSI1 is GSI1 with raw sides: LOOSE's function writes what it
// likes there.
var looseGSI1 = keyfirst.OnIndex("GSI1", keyfirst.Str("GSI1PK"), keyfirst.Str("GSI1SK"))

func looseEntity(t *testing.T, table *keyfirst.Table) *keyfirst.Entity[Loose] {
	t.Helper()
	e, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Loose]{
		Type: "LOOSE",
		Keys: []keyfirst.Binding{
			keyfirst.Func(rawShop, func(l Loose) (string, string, bool) { return l.Customer, l.ID, l.Primary == nil }),
			keyfirst.Func(looseGSI1, func(l Loose) (string, string, bool) { return l.Bucket, "S#" + l.ID, l.Bucket != "-" }),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestBadItemsAreRefusedBeforeAnyRequest(t *testing.T) {
	// The shop's table without its entities.
	table, err := keyfirst.NewTable(shopSpec())
	if err != nil {
		t.Fatal(err)
	}
	loose := looseEntity(t, table)
	placed := "2019-07-01"
	good := Loose{Customer: "c1", ID: "o1", Status: "OPEN", PlacedAt: &placed, Bucket: "C#c1"}
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
		{"empty string for a sparse index key", with(func(l *Loose) { l.Bucket = "" }), keyfirst.ItemEmptyKey, "GSI1", "GSI1PK"},
		{"index key over 2048 bytes", with(func(l *Loose) { l.Bucket = strings.Repeat("b", 2049) }), keyfirst.ItemKeyTooLong, "GSI1", "GSI1PK"},
		{"NULL for an index key field", with(func(l *Loose) { l.PlacedAt = nil }), keyfirst.ItemKeyType, "by-status", "placedAt"},
		{"string in a number index key field", with(func(l *Loose) { l.Total = "12" }), keyfirst.ItemKeyType, "open-orders", "total"},
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
		!errors.Is(err, keys.ErrSeparator) || !errors.Is(err, keyfirst.ErrInvalidItem) {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(err.Error(), `"c#1"`) || !strings.Contains(err.Error(), `attribute "PK"`) {
		t.Fatalf("the message should name the value and the attribute: %v", err)
	}
}
