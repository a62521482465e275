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
// MovieActors inverts them. Every field is stored under its own name.
type Role struct {
	Actor, Movie, Role string
	Year               int
}

// Product is what the shop sells; Version guards its stock.
type Product struct {
	ID             string
	Stock, Version int64
}

// Order is a customer's order of one product.
type Order struct{ CustomerID, ID, ProductID string }

// ErrOutOfStock is the shop's own error: the product has no stock left.
var ErrOutOfStock = errors.New("out of stock")

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

	reqs := []keyfirst.WriteRequest{
		roles.PutRequest(Role{"Tom Hanks", "Cast Away", "Chuck Noland", 2000}),
		roles.PutRequest(Role{"Tom Hanks", "Toy Story", "Woody", 1995}),
		roles.PutRequest(Role{"Tim Allen", "Toy Story", "Buzz Lightyear", 1995}),
		roles.PutRequest(Role{"Natalie Portman", "Black Swan", "Nina Sayers", 2010}),
	}
	var wrote keyfirst.Capacity
	if err := movies.BatchWrite(ctx, db, reqs, keyfirst.WithCapacity(&wrote)); err != nil {
		return err
	}
	fmt.Fprintf(w, "batch: wrote %d roles, %g WCU (table %g, MovieActors %g)\n", len(reqs), wrote.Total, wrote.Table, wrote.Indexes["MovieActors"])
	// The item of a role: its fields and the entity type, the key attributes once.
	if err := db.Stored(ctx, movies, "Woody", "Tom Hanks", "Toy Story"); err != nil {
		return err
	}

	// Each query prints its key condition (db.Report) after the roles it found.
	for _, q := range []query.Query[Role]{
		query.On(roles, moviesOfActor, "Tom Hanks"),                                         // Tom Hanks' movies
		query.On(roles, moviesOfActor, "Tom Hanks").SortValue(movieTitle.Between("A", "M")), // ... from A to M
		query.On(roles, actorsInMovie, "Toy Story"),                                         // which actors were in Toy Story?
	} {
		found, err := q.Collect(ctx, db)
		if err != nil {
			return err
		}
		fmt.Fprintln(w)
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
	productID := keyfirst.Must(products.Key(dvd)) // dvd was just put: its key is valid
	// Seed 004's invariant: each order decrements the stock and creates the order.
	for _, o := range []Order{{"c_1", "o1", "toy-story-dvd"}, {"c_1", "o1", "toy-story-dvd"}, {"c_2", "o2", "toy-story-dvd"}, {"c_3", "o3", "toy-story-dvd"}} {
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
				return nil, fmt.Errorf("%s: %w", p.ID, ErrOutOfStock)
			}
			p.Stock--
			return []txn.Action{txn.Replace(products, p), txn.Create(orders, o)}, nil
		}, keyfirst.WithCapacity(&used))
		fmt.Fprintf(w, "\n%s buys %s (order %s): TransactGetItems %g RCU\n", o.CustomerID, o.ProductID, o.ID, used.Read)
		switch {
		case err == nil:
			fmt.Fprintf(w, "  bought: TransactWriteItems %g WCU\n", used.Write)
		case errors.Is(err, ErrOutOfStock):
			fmt.Fprintf(w, "  ErrOutOfStock %q: no TransactWriteItems sent\n", err)
		case errors.Is(err, keyfirst.ErrAlreadyExists):
			fmt.Fprintf(w, "  TransactWriteItems cancelled, nothing written (ErrAlreadyExists):\n    %s\n", db.Error(err))
		default:
			return err
		}
		if err := db.Stored(ctx, shop, "toy-story-dvd", "PRODUCT#toy-story-dvd", "PRODUCT#toy-story-dvd"); err != nil {
			return err
		}
	}
	return nil
}
