package main

import (
	"testing"

	"github.com/keyfirst/keyfirst/examples/internal/demotest"
	"github.com/keyfirst/keyfirst/integration"
)

func TestMain(m *testing.M) { integration.Main(m) }

// The example prints exactly this against DynamoDB Local: the batch's
// cost, a role's item as stored (the key attributes Actor and Movie are
// its fields, stored once), the two queries of the table and the one of
// the inverted GSI with their key conditions, and four purchases, each
// one TransactWriteItems without a read, with the product as stored after
// it: two bought (the stock decremented, the version incremented), one
// cancelled whole because its order exists (the stock untouched), one
// cancelled because the stock condition failed (Stock >= 1, named).
func TestRun(t *testing.T) { demotest.Check(t, run, want) }

const want = `batch: wrote 4 roles, 8 WCU (table 4, MovieActors 4)
  Woody as stored: {Actor: "Tom Hanks", Movie: "Toy Story", Role: "Woody", Year: 1995, _type: "Role"}

  Tom Hanks        Cast Away   Chuck Noland    2000
  Tom Hanks        Toy Story   Woody           1995
  > Query MoviesAndActors: Actor = "Tom Hanks"
    1 request, 2 items read, 2 returned, 0.5 RCU

  Tom Hanks        Cast Away   Chuck Noland    2000
  > Query MoviesAndActors: (Actor = "Tom Hanks") AND (Movie BETWEEN "A" AND "M")
    1 request, 1 item read, 1 returned, 0.5 RCU

  Tim Allen        Toy Story   Buzz Lightyear  1995
  Tom Hanks        Toy Story   Woody           1995
  > Query MoviesAndActors index MovieActors: Movie = "Toy Story"
    1 request, 2 items read, 2 returned, 0.5 RCU

c_1 buys toy-story-dvd (order o1): TransactWriteItems 2 WCU
  toy-story-dvd as stored: {ID: "toy-story-dvd", PK: "PRODUCT#toy-story-dvd", SK: "PRODUCT#toy-story-dvd", Stock: 1, Version: 2, _type: "Product"}

c_1 buys toy-story-dvd (order o1): TransactWriteItems 0 WCU
  cancelled, nothing written:
    txn: transaction cancelled: txn: action 1 Order ("CUSTOMER#c_1", "ORDER#o1") in Shop [ConditionalCheckFailed]: keyfirst: item already exists
  toy-story-dvd as stored: {ID: "toy-story-dvd", PK: "PRODUCT#toy-story-dvd", SK: "PRODUCT#toy-story-dvd", Stock: 1, Version: 2, _type: "Product"}

c_2 buys toy-story-dvd (order o2): TransactWriteItems 2 WCU
  toy-story-dvd as stored: {ID: "toy-story-dvd", PK: "PRODUCT#toy-story-dvd", SK: "PRODUCT#toy-story-dvd", Stock: 0, Version: 3, _type: "Product"}

c_3 buys toy-story-dvd (order o3): TransactWriteItems 0 WCU
  cancelled, nothing written:
    txn: transaction cancelled: txn: action 0 Product ("PRODUCT#toy-story-dvd", "PRODUCT#toy-story-dvd") in Shop [ConditionalCheckFailed]: keyfirst: condition failed: Stock >= 1 does not hold on the stored item
  toy-story-dvd as stored: {ID: "toy-story-dvd", PK: "PRODUCT#toy-story-dvd", SK: "PRODUCT#toy-story-dvd", Stock: 0, Version: 3, _type: "Product"}
`
