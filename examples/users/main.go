// Command users is seed 000's two forms of sparse index, where the
// filtering happens when an item is written, not when it is read.
//
// Form 1, a subset of one entity type in an overloaded index: in the table
// SaaS, Organizations and Users share GSI1, and only admins get
// GSI1SK = "Admin", so "the admins of this organization" reads admins and
// nothing else; promoting a user is one UpdateItem that writes the
// attributes (the If declares that it reads Role, so that keyfirst can
// recompute GSI1's keys from the Role the update sets).
//
// Form 2, one entity type out of a multi-entity table: in the table
// ECommerce, Customers, Orders and InventoryItems are interleaved, and only
// Customers get CustomerIndexId, so a parallel scan of CustomerIndex, an
// index declared scannable, reads every customer and nothing else.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/examples/internal/demo"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// The entity types: form 1's, then form 2's.
type Organization struct{ Name string }
type User struct{ Org, Name, Role string } // Role is "Admin" or "Member"

type Customer struct{ ID, Email string }
type Order struct{ CustomerID, ID string }
type InventoryItem struct{ SKU string }

// The keys, access patterns, tables and entities: form 1's, then form 2's.
var (
	orgKey     = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORG"))
	userKey    = keys.NewKey1(keys.ID[string](), keys.WithPrefix("USER"))
	orgByName  = keyfirst.OnTable(keyfirst.Composite("PK", orgKey), keyfirst.Composite("SK", orgKey))
	userByName = keyfirst.OnTable(keyfirst.Composite("PK", orgKey), keyfirst.Composite("SK", userKey))
	// Every organization is in GSI1 under its own name.
	orgInGSI1 = keyfirst.OnIndex("GSI1", keyfirst.Composite("GSI1PK", orgKey), keyfirst.Composite("GSI1SK", orgKey))
	// Form 1: only admins (the If of Users) are in GSI1, under GSI1PK = ORG#<org>, GSI1SK = "Admin".
	adminsOf = keyfirst.OnIndex("GSI1", keyfirst.Composite("GSI1PK", orgKey), keyfirst.Const("GSI1SK", "Admin"))

	SaaS = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "SaaS", Key: orgByName, GSIs: []keyfirst.Index{orgInGSI1.Index()}}))
	Orgs = keyfirst.Must(keyfirst.NewEntity(SaaS, keyfirst.EntitySpec[Organization]{Type: "Organization", Keys: []keyfirst.Binding{
		orgByName.Fields("Name", "Name"), orgInGSI1.Fields("Name", "Name")}}))
	Users = keyfirst.Must(keyfirst.NewEntity(SaaS, keyfirst.EntitySpec[User]{Type: "User", Keys: []keyfirst.Binding{
		userByName.Fields("Org", "Name"), keyfirst.If(adminsOf.Fields("Org"), func(u User) bool { return u.Role == "Admin" }).Reads("Role")}}))

	customerKey = keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUSTOMER"))
	orderKey    = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))
	itemKey     = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ITEM"))
	customerPK  = keyfirst.OnTable(keyfirst.Composite("PK", customerKey), keyfirst.Composite("SK", customerKey))
	orderPK     = keyfirst.OnTable(keyfirst.Composite("PK", customerKey), keyfirst.Composite("SK", orderKey))
	itemPK      = keyfirst.OnTable(keyfirst.Composite("PK", itemKey), keyfirst.Composite("SK", itemKey))
	// Form 2: only Customers bind CustomerIndex, which has no sort key.
	customerIndex = keyfirst.OnIndex("CustomerIndex", keyfirst.Str("CustomerIndexId"), keyfirst.NoSort())

	ECommerce = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "ECommerce", Key: customerPK,
		GSIs: []keyfirst.Index{scannable(customerIndex.Index())}}))
	Customers = keyfirst.Must(keyfirst.NewEntity(ECommerce, keyfirst.EntitySpec[Customer]{Type: "Customer", Keys: []keyfirst.Binding{
		customerPK.Fields("ID", "ID"), customerIndex.Fields("ID")}}))
	Orders = keyfirst.Must(keyfirst.NewEntity(ECommerce, keyfirst.EntitySpec[Order]{Type: "Order", Keys: []keyfirst.Binding{
		orderPK.Fields("CustomerID", "ID")}}))
	Inventory = keyfirst.Must(keyfirst.NewEntity(ECommerce, keyfirst.EntitySpec[InventoryItem]{Type: "InventoryItem", Keys: []keyfirst.Binding{
		itemPK.Fields("SKU", "SKU")}}))
)

// scannable declares an index that may be scanned: a sparse index of one
// entity type, where reading it all is the access pattern.
func scannable(ix keyfirst.Index) keyfirst.Index {
	ix.Scannable = true
	return ix
}

func main() { demo.Main(run) }

func run(ctx context.Context, w io.Writer, client *dynamodb.Client) (err error) {
	db := demo.New(w, client)
	defer db.Close(ctx, &err)
	saas, err1 := db.Create(ctx, SaaS)
	shop, err2 := db.Create(ctx, ECommerce)
	if err := errors.Join(err1, err2); err != nil {
		return err
	}
	// Bindings of their own schemas: In cannot fail.
	orgs, users := keyfirst.Must(Orgs.In(saas)), keyfirst.Must(Users.In(saas))
	customers, orders, inventory := keyfirst.Must(Customers.In(shop)), keyfirst.Must(Orders.In(shop)), keyfirst.Must(Inventory.In(shop))

	inSaaS := []keyfirst.WriteRequest{orgs.PutRequest(Organization{"berkshire"}), orgs.PutRequest(Organization{"acme"}),
		users.PutRequest(User{"berkshire", "warren", "Admin"}), users.PutRequest(User{"berkshire", "charlie", "Member"}),
		users.PutRequest(User{"berkshire", "ajit", "Admin"}), users.PutRequest(User{"berkshire", "greg", "Member"}),
		users.PutRequest(User{"acme", "wile", "Admin"})}
	inShop := []keyfirst.WriteRequest{inventory.PutRequest(InventoryItem{"sku-1"}), inventory.PutRequest(InventoryItem{"sku-2"})}
	for _, c := range []string{"c_42", "c_7", "c_13", "c_99", "c_5"} {
		inShop = append(inShop, customers.PutRequest(Customer{c, c + "@example.com"}), orders.PutRequest(Order{c, "o1"}), orders.PutRequest(Order{c, "o2"}))
	}
	if err := errors.Join(saas.BatchWrite(ctx, db, inSaaS), shop.BatchWrite(ctx, db, inShop)); err != nil {
		return err
	}

	fmt.Fprintln(w, "form 1: promote charlie, a member of berkshire (Update: one write, no read; GSI1's keys recomputed from the Role it sets):")
	charlie := keyfirst.Must(users.Key(User{Org: "berkshire", Name: "charlie"})) // two ids: Key cannot fail
	// WithCapacity asks DynamoDB for the capacity, which db prints.
	if _, err := users.Update(ctx, db, charlie, keyfirst.Set("Role", "Admin"), keyfirst.WithCapacity(&keyfirst.Capacity{})); err != nil {
		return err
	}
	db.Report()
	// GSI1PK = "ORG#berkshire" AND GSI1SK = "Admin": the pattern adds its constant.
	admins, err := query.On(users, adminsOf, "berkshire").Collect(ctx, db)
	if err := printSorted(w, db, "berkshire's admins, of its 4 users:", admins, err); err != nil {
		return err
	}

	all, err := query.ScanOn(customers, customerIndex).Segments(4).Collect(ctx, db)
	return printSorted(w, db, "\nform 2: every customer, of the 17 items of ECommerce, by a parallel scan of CustomerIndex:", all, err)
}

// printSorted prints title, then each item (%v) in the order of these lines
// (items of equal index keys, and the segments of a parallel scan, come in
// no defined order), then what the read sent and cost; or returns err, the
// read's error.
func printSorted[T any](w io.Writer, db *demo.DB, title string, items []T, err error) error {
	if err != nil {
		return err
	}
	slices.SortFunc(items, func(a, b T) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
	fmt.Fprintln(w, title)
	for _, v := range items {
		fmt.Fprintf(w, "  %v\n", v)
	}
	db.Report()
	return nil
}
