// Command testing is how to test your own repository code against DynamoDB
// Local with the integration harness; the program is the code under test,
// and store_test.go is the point:
//
//   - TestMain hands the tests to integration.Main, which ends the one
//     DynamoDB Local container of the test binary after the last test;
//   - the schema is declared once, at package level, as the service
//     declares it, and each test binds it to a table of its own
//     (integration.TableOf), deleted when the test ends;
//   - so every test can call t.Parallel, and none sees another's items.
//
// Run it with go test ./examples/testing (go test -short skips the tests
// that need DynamoDB Local), or as a program: go run ./examples/testing.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/examples/internal/demo"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// Line is a line of a shopping cart: a quantity of one SKU.
type Line struct {
	Cart    string `dynamodbav:"Cart"`
	SKU     string `dynamodbav:"SKU"`
	Qty     int    `dynamodbav:"Qty"`
	Version int64  `dynamodbav:"Version"` // every write checks and increments it
}

// The schema, declared once: a cart's lines are one item collection,
// PK = CART#<cart>, SK = SKU#<sku>.
var (
	lineByCart = keyfirst.OnTable(
		keyfirst.Composite("PK", keys.NewKey1(keys.ID[string](), keys.WithPrefix("CART"))),
		keyfirst.Composite("SK", keys.NewKey1(keys.ID[string](), keys.WithPrefix("SKU"))))
	Carts = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "Carts", Key: lineByCart}))
	Lines = keyfirst.Must(keyfirst.NewEntity(Carts, keyfirst.EntitySpec[Line]{
		Type: "Line", Keys: []keyfirst.Binding{lineByCart.Fields("Cart", "SKU")}, Version: "Version"}))
)

// API is the part of the DynamoDB client the store uses; *dynamodb.Client
// has it.
type API interface {
	keyfirst.ModifyAPI
	keyfirst.PutItemAPI
	keyfirst.QueryAPI
}

// Store is the repository code under test: the service's carts.
type Store struct {
	client API
	lines  *keyfirst.Entity[Line]
}

// NewStore returns the store of the carts in table, a binding of Carts
// (Carts.Named(name)).
func NewStore(client API, table *keyfirst.Table) (*Store, error) {
	lines, err := Lines.In(table)
	if err != nil {
		return nil, err
	}
	return &Store{client: client, lines: lines}, nil
}

// Add adds qty of sku to the cart: more of its line, or a new line. Adds
// may run at the same time: none is lost.
func (s *Store) Add(ctx context.Context, cart, sku string, qty int) error {
	key, err := s.lines.Key(Line{Cart: cart, SKU: sku})
	if err != nil {
		return err
	}
	for {
		// Modify reads the line and writes it back if its version is unchanged,
		// retrying when another writer came first.
		_, err := s.lines.Modify(ctx, s.client, key, func(l *Line) { l.Qty += qty })
		if !errors.Is(err, keyfirst.ErrNotFound) {
			return err
		}
		// No line yet: create it (version 0 means create only), unless another
		// Add just did, and then add to that one.
		if _, err := s.lines.Put(ctx, s.client, Line{Cart: cart, SKU: sku, Qty: qty}); !errors.Is(err, keyfirst.ErrAlreadyExists) {
			return err
		}
	}
}

// Cart returns the cart's lines, by SKU: one query of its item collection.
func (s *Store) Cart(ctx context.Context, cart string) ([]Line, error) {
	return query.On(s.lines, lineByCart, cart).Collect(ctx, s.client)
}

func main() { demo.Main(run) }

func run(ctx context.Context, w io.Writer, client *dynamodb.Client) (err error) {
	db := demo.New(w, client)
	defer db.Close(ctx, &err)
	table, err := db.Create(ctx, Carts)
	if err != nil {
		return err
	}
	store, err := NewStore(client, table)
	if err != nil {
		return err
	}
	for _, add := range []Line{{"c_42", "tea", 2, 0}, {"c_42", "cups", 6, 0}, {"c_42", "tea", 1, 0}, {"c_7", "tea", 5, 0}} {
		if err := store.Add(ctx, add.Cart, add.SKU, add.Qty); err != nil {
			return err
		}
		fmt.Fprintf(w, "added %d %s to %s\n", add.Qty, add.SKU, add.Cart)
	}
	lines, err := store.Cart(ctx, "c_42")
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "c_42's cart:")
	for _, l := range lines {
		fmt.Fprintf(w, "  %-5s %d (version %d)\n", l.SKU, l.Qty, l.Version)
	}
	return nil
}
