package sparse_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
)

// Seed 000, form 1: only admins get GSI1SK = "Admin" (a Const side, bound
// with If), in an index that organizations use too. "All admins of this organization" is one query
// that reads admins and nothing else; demoting or promoting a user moves it
// out of or into the index.
func TestAdminsInOverloadedIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	table, orgs, users := newSaaS(t, "saas")
	client, table := liveTable(t, table)
	orgs, users = keyfirst.Must(orgs.In(table)), keyfirst.Must(users.In(table))
	name := table.Name()

	for _, o := range []Organization{{"acme"}, {"globex"}} {
		if _, err := orgs.Put(ctx, client, o); err != nil {
			t.Fatal(err)
		}
	}
	var reqs []keyfirst.WriteRequest
	for _, u := range []User{
		{"acme", "warren", Admin}, {"acme", "charlie", Member}, {"acme", "ann", Admin}, {"acme", "dora", Member},
		{"globex", "bob", Member}, {"globex", "eve", Admin},
	} {
		reqs = append(reqs, users.PutRequest(u))
	}
	if err := table.BatchWrite(ctx, client, reqs); err != nil {
		t.Fatal(err)
	}

	// adminsIn reads the access pattern through adminsOf: GSI1PK = ORG#org
	// AND GSI1SK = "Admin", the constant added by the query.
	adminsIn := func(org string) []string {
		t.Helper()
		found, err := query.On(users, adminsOf, org).Collect(ctx, client)
		if err != nil {
			t.Fatalf("the admins of %s: %v (an item that is not a User fails to decode)", org, err)
		}
		var names []string
		for _, u := range found {
			if u.Role != Admin {
				t.Errorf("%s is in the admin index as a %s", u.Name, u.Role)
			}
			names = append(names, u.Name)
		}
		slices.Sort(names)
		return names
	}
	// wholePartition is everything of org in GSI1, read with the raw SDK:
	// the organization and its admins, never a member.
	wholePartition := func(org string) []string {
		t.Helper()
		items := queryIndex(t, client, name, "GSI1", expression.KeyEqual(expression.Key("GSI1PK"), expression.Value("ORG#"+org)))
		var out []string
		for _, item := range items {
			v, err := table.Decode(item)
			if err != nil {
				t.Fatal(err)
			}
			switch v := v.(type) {
			case Organization:
				out = append(out, "org:"+v.Name)
			case User:
				out = append(out, string(v.Role)+":"+v.Name)
			}
		}
		slices.Sort(out)
		return out
	}
	expect := func(step string, got, want []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", step, got, want)
		}
	}
	expect("acme admins", adminsIn("acme"), []string{"ann", "warren"})
	expect("globex admins", adminsIn("globex"), []string{"eve"})
	expect("acme in GSI1", wholePartition("acme"), []string{"Admin:ann", "Admin:warren", "org:acme"})

	// Demote warren (Modify), promote charlie (Replace).
	warren, err := users.Key(User{Org: "acme", Name: "warren"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := users.Modify(ctx, client, warren, func(u *User) { u.Role = Member }); err != nil {
		t.Fatal(err)
	}
	if _, err := users.Replace(ctx, client, User{"acme", "charlie", Admin}); err != nil {
		t.Fatal(err)
	}
	expect("acme admins after the changes", adminsIn("acme"), []string{"ann", "charlie"})
	expect("acme in GSI1 after the changes", wholePartition("acme"), []string{"Admin:ann", "Admin:charlie", "org:acme"})
	raw := rawItem(t, client, name, map[string]types.AttributeValue{"PK": sv("ORG#acme"), "SK": sv("USER#warren")})
	for _, attr := range []string{"GSI1PK", "GSI1SK"} {
		if v, ok := raw[attr]; ok {
			t.Errorf("demoted warren still has %s = %v", attr, v)
		}
	}
	if str(raw["role"]) != string(Member) {
		t.Errorf("warren's stored role is %v", raw["role"])
	}
}

// Seed 000, form 2: Customers, Orders and InventoryItems interleaved in one
// table; only Customers carry CustomerIndexId (the only entity that binds
// the customers pattern). A parallel scan of the
// (scannable) customers index returns every Customer and nothing else.
func TestCustomersOnlyIndexScan(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newShop(t, "shop")
	client, table := liveTable(t, s.table)
	s = s.in(table)
	name := table.Name()

	const nCustomers = 60
	var reqs []keyfirst.WriteRequest
	want := map[string]Customer{}
	for i := range nCustomers {
		c := Customer{ID: fmt.Sprintf("c%03d", i), Email: fmt.Sprintf("c%03d@example.com", i)}
		want[c.ID] = c
		reqs = append(reqs, s.customers.PutRequest(c))
		for j := range i % 4 { // orders in the customer's partition
			reqs = append(reqs, s.orders.PutRequest(Order{Customer: c.ID, ID: fmt.Sprintf("o%d", j), Total: 10 * j}))
		}
		if i%3 == 0 {
			reqs = append(reqs, s.inventory.PutRequest(InventoryItem{SKU: fmt.Sprintf("sku%03d", i), Stock: i}))
		}
	}
	if err := s.table.BatchWrite(ctx, client, reqs); err != nil {
		t.Fatal(err)
	}
	// A deleted customer leaves the index.
	gone, err := s.customers.Key(Customer{ID: "c007"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.table.BatchWrite(ctx, client, []keyfirst.WriteRequest{s.customers.DeleteRequest(gone)}); err != nil {
		t.Fatal(err)
	}
	delete(want, "c007")

	for _, segments := range []int{1, 4} {
		t.Run(fmt.Sprintf("%d segments", segments), func(t *testing.T) {
			var c keyfirst.Capacity
			got, err := query.ScanOn(s.customers, customers).Segments(segments).Collect(ctx, client, keyfirst.WithCapacity(&c))
			if err != nil {
				t.Fatalf("scan: %v (an item that is not a Customer fails to decode)", err)
			}
			if len(got) != len(want) {
				t.Errorf("the scan returned %d items, want the %d customers", len(got), len(want))
			}
			seen := map[string]bool{}
			for _, c := range got {
				if want[c.ID] != c || seen[c.ID] {
					t.Errorf("scanned %+v: not a stored customer, or twice", c)
				}
				seen[c.ID] = true
			}
			if c.Read <= 0 {
				t.Errorf("no read capacity reported: %+v", c)
			}
		})
	}

	// The check can fail: an Order written with CustomerIndexId, the
	// write-path bug seed 000 warns of, makes the scan fail.
	bug := map[string]types.AttributeValue{"PK": sv("CUST#c001"), "SK": sv("ORDER#bug"), "_type": sv("Order"), "CustomerIndexId": sv("bug")}
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: bug}); err != nil {
		t.Fatal(err)
	}
	if got, err := query.ScanOn(s.customers, customers).Segments(4).Collect(ctx, client); !errors.Is(err, keyfirst.ErrWrongEntityType) {
		t.Errorf("a scan of an index holding an Order: %d items, %v; want ErrWrongEntityType", len(got), err)
	}
}
