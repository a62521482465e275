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
// of a product and create the order, both or neither. Each purchase is
// one TransactWriteItems and no read: txn.Update adds -1 to the stock if
// it is at least 1 (DynamoDB checks the condition, and the version is
// incremented in the same write) beside txn.Create of the order. Out of
// stock cancels the transaction with the update's ErrConditionFailed,
// which names the condition that failed; an order created twice cancels
// it with ErrAlreadyExists: the stock is not touched. There is no txn.Run
// here: it reads, decides in Go and writes with the version checked, for
// a decision that no condition can express, and this shop has none.
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
	Orders = keyfirst.Must(keyfirst.NewEntity(Shop, keyfirst.EntitySpec[Order]{Type: "Order", Keys: []keyfirst.Binding{orderByID.Fields("CustomerID", "ID")}}))
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
		roles.PutRequest(Role{"Tom Hanks", "Cast Away", "Chuck Noland", 2000}), roles.PutRequest(Role{"Tom Hanks", "Toy Story", "Woody", 1995}),
		roles.PutRequest(Role{"Tim Allen", "Toy Story", "Buzz Lightyear", 1995}), roles.PutRequest(Role{"Natalie Portman", "Black Swan", "Nina Sayers", 2010}),
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
		fmt.Fprintln(w)
		for r, err := range q.All(ctx, db) {
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "  %-15s  %-10s  %-14s  %d\n", r.Actor, r.Movie, r.Role, r.Year)
		}
		db.Report()
	}

	dvd, err := products.Put(ctx, db, Product{ID: "toy-story-dvd", Stock: 2})
	if err != nil {
		return err
	}
	// Seed 004's invariant: each order decrements the stock if it covers the
	// order, and creates the order. One action serves every purchase, one at
	// a time (dvd was just put: its key is valid).
	buy := txn.Update(products, keyfirst.Must(products.Key(dvd)), keyfirst.Add("Stock", -1).If(keyfirst.Field("Stock").Ge(1)))
	for _, o := range []Order{{"c_1", "o1", "toy-story-dvd"}, {"c_1", "o1", "toy-story-dvd"}, {"c_2", "o2", "toy-story-dvd"}, {"c_3", "o3", "toy-story-dvd"}} {
		var used keyfirst.Capacity
		err := txn.Write(ctx, db, []txn.Action{buy, txn.Create(orders, o)}, keyfirst.WithCapacity(&used))
		// A cancelled transaction reports no capacity: DynamoDB returns none with the cancellation.
		fmt.Fprintf(w, "\n%s buys %s (order %s): TransactWriteItems %g WCU\n", o.CustomerID, o.ProductID, o.ID, used.Write)
		if errors.Is(err, keyfirst.ErrConditionFailed) || errors.Is(err, keyfirst.ErrAlreadyExists) {
			fmt.Fprintf(w, "  cancelled, nothing written:\n    %s\n", db.Error(err))
		} else if err != nil {
			return err
		}
		if err := db.Stored(ctx, shop, "toy-story-dvd", "PRODUCT#toy-story-dvd", "PRODUCT#toy-story-dvd"); err != nil {
			return err
		}
	}
	return nil
}
