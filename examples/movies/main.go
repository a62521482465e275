// Command movies is seed 004's three kinds of item action: a batch, a
// query, a transaction.
//
// The table MoviesAndActors has the partition key Actor and the sort key
// Movie: "Tom Hanks' movies" is one Query of an item collection. Its GSI
// MovieActors has the same two attributes, inverted, so "which actors were
// in Toy Story?" is the same Query with another IndexName. The roles are
// loaded with BatchWriteItem: each item is written on its own, a batch only
// saves round trips.
//
// A transaction is for a real invariant across items: decrement the stock
// of a product and create the order, both or neither. txn.Run reads the
// product, lets the code decide (out of stock is the shop's own error, and
// nothing is written), and writes the product with its version checked
// beside the order, retrying when another buyer came first. An order
// created twice cancels the whole transaction: the stock is not touched.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/examples/internal/demo"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/txn"
)

// Role is one item of MoviesAndActors: an actor in a movie. The fields
// Actor and Movie are the table's key attributes themselves (Str sides
// bound to the fields of their names), each stored once; the GSI
// MovieActors inverts them.
type Role struct {
	Actor string `dynamodbav:"Actor"`
	Movie string `dynamodbav:"Movie"`
	Role  string `dynamodbav:"Role"`
	Year  int    `dynamodbav:"Year"`
}

// Product is what the shop sells; Version guards its stock.
type Product struct {
	ID      string `dynamodbav:"ProductId"`
	Stock   int    `dynamodbav:"Stock"`
	Version int64  `dynamodbav:"Version"`
}

// Order is a customer's order of one product.
type Order struct {
	CustomerID string `dynamodbav:"CustomerId"`
	ID         string `dynamodbav:"OrderId"`
	ProductID  string `dynamodbav:"ProductId"`
}

// OutOfStockError is the shop's own error: the product has no stock left.
type OutOfStockError struct{ ProductID string }

// Error says which product.
func (e *OutOfStockError) Error() string { return e.ProductID + " is out of stock" }

// The access patterns, the tables and the entities, declared once.
var (
	// The names and titles as they are (Str: no prefix; spaces allowed).
	movieTitle    = keyfirst.Str("Movie") // the table's sort side: its conditions are typed (movieTitle.Between)
	moviesOfActor = keyfirst.OnTable(keyfirst.Str("Actor"), movieTitle)
	actorsInMovie = keyfirst.OnIndex("MovieActors", keyfirst.Str("Movie"), keyfirst.Str("Actor"))

	MoviesAndActors = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "MoviesAndActors", Key: moviesOfActor,
		GSIs: []keyfirst.Index{actorsInMovie.Index()}}))
	Roles = keyfirst.Must(keyfirst.NewEntity(MoviesAndActors, keyfirst.EntitySpec[Role]{Type: "Role", Keys: []keyfirst.Binding{
		moviesOfActor.Fields("Actor", "Movie"), actorsInMovie.Fields("Movie", "Actor")}}))

	productKey  = keys.NewKey1(keys.ID[string](), keys.WithPrefix("PRODUCT"))
	customerKey = keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUSTOMER"))
	orderKey    = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))
	productByID = keyfirst.OnTable(keyfirst.Composite("PK", productKey), keyfirst.Composite("SK", productKey))
	orderByID   = keyfirst.OnTable(keyfirst.Composite("PK", customerKey), keyfirst.Composite("SK", orderKey))

	Shop     = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "Shop", Key: productByID}))
	Products = keyfirst.Must(keyfirst.NewEntity(Shop, keyfirst.EntitySpec[Product]{Type: "Product", Version: "Version",
		Keys: []keyfirst.Binding{productByID.Fields("ID", "ID")}}))
	Orders = keyfirst.Must(keyfirst.NewEntity(Shop, keyfirst.EntitySpec[Order]{Type: "Order",
		Keys: []keyfirst.Binding{orderByID.Fields("CustomerID", "ID")}}))
)

func main() { demo.Main(run) }

func run(ctx context.Context, w io.Writer, client *dynamodb.Client) (err error) {
	db := demo.New(w, client)
	defer db.Close(ctx, &err)
	movies, err := db.Create(ctx, MoviesAndActors)
	if err != nil {
		return err
	}
	shop, err := db.Create(ctx, Shop)
	if err != nil {
		return err
	}
	// Bindings of their own schemas: In cannot fail.
	roles, products, orders := keyfirst.Must(Roles.In(movies)), keyfirst.Must(Products.In(shop)), keyfirst.Must(Orders.In(shop))

	// The item of a role: its fields and the entity type, the key
	// attributes once.
	woody, err := roles.Item(Role{"Tom Hanks", "Toy Story", "Woody", 1995})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "a role's item: %s\n", strings.Join(slices.Sorted(maps.Keys(woody)), ", "))

	var reqs []keyfirst.WriteRequest
	for _, r := range []Role{
		{"Tom Hanks", "Cast Away", "Chuck Noland", 2000},
		{"Tom Hanks", "Toy Story", "Woody", 1995},
		{"Tim Allen", "Toy Story", "Buzz Lightyear", 1995},
		{"Natalie Portman", "Black Swan", "Nina Sayers", 2010},
	} {
		reqs = append(reqs, roles.PutRequest(r))
	}
	var wrote keyfirst.Capacity
	if err := movies.BatchWrite(ctx, db, reqs, keyfirst.WithCapacity(&wrote)); err != nil {
		return err
	}
	fmt.Fprintf(w, "batch: wrote %d roles, %g WCU (table %g, MovieActors %g)\n", len(reqs), wrote.Total, wrote.Table, wrote.Indexes["MovieActors"])

	for _, q := range []struct {
		title string
		q     query.Query[Role]
	}{
		{"Tom Hanks' movies", query.On(roles, moviesOfActor, "Tom Hanks")},
		{"Tom Hanks' movies from A to M", query.On(roles, moviesOfActor, "Tom Hanks").SortValue(movieTitle.Between("A", "M"))},
		{"which actors were in Toy Story?", query.On(roles, actorsInMovie, "Toy Story")},
	} {
		found, err := q.q.Collect(ctx, db)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "\n%s\n", q.title)
		for _, r := range found {
			fmt.Fprintf(w, "  %-15s  %-10s  %-14s  %d\n", r.Actor, r.Movie, r.Role, r.Year)
		}
		db.Report()
	}

	dvd, err := products.Put(ctx, db, Product{ID: "toy-story-dvd", Stock: 2})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nput %s: stock %d (version %d)\n", dvd.ID, dvd.Stock, dvd.Version)
	productID, err := products.Key(Product{ID: "toy-story-dvd"})
	if err != nil {
		return err
	}
	// buy is seed 004's invariant: decrement the stock and create the order.
	buy := func(o Order) error {
		var used keyfirst.Capacity
		err := txn.Run(ctx, db, func(ctx context.Context, tx *txn.Tx) ([]txn.Action, error) {
			read := txn.Read(products, productID)
			if err := tx.Get(ctx, read); err != nil {
				return nil, err
			}
			p, err := read.Result()
			if err != nil {
				return nil, err
			}
			if p.Stock < 1 {
				return nil, &OutOfStockError{p.ID}
			}
			p.Stock--
			return []txn.Action{txn.Replace(products, p), txn.Create(orders, o)}, nil
		}, keyfirst.WithCapacity(&used))
		fmt.Fprintf(w, "\n%s buys %s (order %s): TransactGetItems %g RCU\n", o.CustomerID, o.ProductID, o.ID, used.Read)
		var out *OutOfStockError
		switch {
		case err == nil:
			fmt.Fprintf(w, "  bought: TransactWriteItems %g WCU\n", used.Write)
		case errors.As(err, &out):
			fmt.Fprintf(w, "  *OutOfStockError %q: no TransactWriteItems sent\n", out)
		case errors.Is(err, keyfirst.ErrAlreadyExists):
			fmt.Fprintf(w, "  TransactWriteItems cancelled, nothing written (ErrAlreadyExists):\n    %s\n", db.Error(err))
		default:
			return err
		}
		stored, err := products.Get(ctx, client, productID, keyfirst.ConsistentRead())
		fmt.Fprintf(w, "  toy-story-dvd: stock %d (version %d)\n", stored.Stock, stored.Version)
		return err
	}
	for _, o := range []Order{{"c_1", "o1", "toy-story-dvd"}, {"c_1", "o1", "toy-story-dvd"}, {"c_2", "o2", "toy-story-dvd"}, {"c_3", "o3", "toy-story-dvd"}} {
		if err := buy(o); err != nil {
			return err
		}
	}
	return nil
}
