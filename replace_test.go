package keyfirst_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
)

// writePath is one way of writing a change to an order.
type writePath struct {
	name      string
	versioned bool
	write     func(t *testing.T, client *dynamodb.Client, table *keyfirst.Table, e *keyfirst.Entity[Order], cur Order, change func(*Order)) Order
}

var writePaths = []writePath{
	{"Put", true, func(t *testing.T, client *dynamodb.Client, _ *keyfirst.Table, e *keyfirst.Entity[Order], cur Order, change func(*Order)) Order {
		change(&cur)
		out, err := e.Put(context.Background(), client, cur)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}},
	{"Replace", true, func(t *testing.T, client *dynamodb.Client, _ *keyfirst.Table, e *keyfirst.Entity[Order], cur Order, change func(*Order)) Order {
		change(&cur)
		out, err := e.Replace(context.Background(), client, cur)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}},
	{"Modify", true, func(t *testing.T, client *dynamodb.Client, _ *keyfirst.Table, e *keyfirst.Entity[Order], cur Order, change func(*Order)) Order {
		out, err := e.Modify(context.Background(), client, mustKey(t, e, cur), func(o *Order) {
			change(o)

		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}},
	{"BatchWrite", false, func(t *testing.T, client *dynamodb.Client, table *keyfirst.Table, e *keyfirst.Entity[Order], cur Order, change func(*Order)) Order {
		change(&cur)
		if err := table.BatchWrite(context.Background(), client, []keyfirst.WriteRequest{e.PutRequest(cur)}); err != nil {
			t.Fatal(err)
		}
		return cur
	}},
}

// TestDerivedKeysNeverGoStale changes, on every write path, a field an index
// key derives from and an unrelated field, and checks each index with raw
// SDK queries after each step.
func TestDerivedKeysNeverGoStale(t *testing.T) {
	t.Parallel()
	for _, path := range writePaths {
		t.Run(path.name, func(t *testing.T) {
			t.Parallel()
			client, table := localTable(t)
			spec := orderSpec()
			if !path.versioned {
				spec.Version = ""
			}
			orders, err := keyfirst.NewEntity(table, spec)
			if err != nil {
				t.Fatal(err)
			}
			name := table.Name()
			ctx := context.Background()
			cur := order("c1", "o1", Open, day)
			if path.versioned {
				cur, err = orders.Put(ctx, client, cur)
			} else {
				err = table.BatchWrite(ctx, client, []keyfirst.WriteRequest{orders.PutRequest(cur)})
			}
			if err != nil {
				t.Fatal(err)
			}
			gsi1PK := map[string]string{"GSI1PK": "CUST#c1"}
			raw := func() map[string]string {
				item := rawItem(t, client, name, map[string]typesAV{"PK": sAV("CUST#c1"), "SK": sAV("ORDER#o1")})
				out := map[string]string{}
				for k, v := range item {
					out[k] = avText(v)
				}
				return out
			}
			expect := func(step string, status Status, placed time.Time, open bool) {
				t.Helper()
				gsi1 := queryIDs(t, client, name, "GSI1", gsi1PK, "GSI1SK", string(status)+"#")
				other := Shipped
				if status == Shipped {
					other = Open
				}
				stale := queryIDs(t, client, name, "GSI1", gsi1PK, "GSI1SK", string(other)+"#")
				byStatus := queryIDs(t, client, name, "by-status", map[string]string{"customer": "c1", "status": string(status)}, "", "")
				openIDs := queryIDs(t, client, name, "open-orders", map[string]string{"openBucket": "OPEN"}, "", "")
				r := raw()
				wantOpen := []string(nil)
				if open {
					wantOpen = []string{"ORDER#o1"}
				}
				if !reflect.DeepEqual(gsi1, []string{"o1"}) || stale != nil || !reflect.DeepEqual(byStatus, []string{"o1"}) ||
					!reflect.DeepEqual(openIDs, wantOpen) {
					t.Fatalf("%s: GSI1 %s# %v, %s# %v; by-status %v; open-orders %v", step, status, gsi1, other, stale, byStatus, openIDs)
				}
				if want := string(status) + "#" + placed.UTC().Format(placedLayout); r["GSI1SK"] != want {
					t.Fatalf("%s: GSI1SK %q, want %q", step, r["GSI1SK"], want)
				}
				if _, has := r["openBucket"]; has != open {
					t.Fatalf("%s: openBucket present %v, want %v (raw %v)", step, has, open, r)
				}
			}
			expect("created open", Open, day, true)
			before := raw()["GSI1SK"]

			cur = path.write(t, client, table, orders, cur, func(o *Order) { o.Note = "gift" })
			expect("unrelated field changed", Open, day, true)
			if r := raw(); r["GSI1SK"] != before || r["note"] != "gift" {
				t.Fatalf("an unrelated change touched the index key: %q -> %q", before, r["GSI1SK"])
			}

			cur = path.write(t, client, table, orders, cur, func(o *Order) { o.Status = Shipped })
			expect("shipped", Shipped, day, false)

			later := day.Add(24 * time.Hour)
			cur = path.write(t, client, table, orders, cur, func(o *Order) { o.PlacedAt = later })
			expect("moved a day", Shipped, later, false)

			cur = path.write(t, client, table, orders, cur, func(o *Order) { o.Status = Open; o.Tags = nil })
			expect("reopened", Open, later, true)
			if _, has := raw()["tags"]; has {
				t.Fatal("a field left out (omitempty) is still stored")
			}
			got, err := orders.Get(ctx, client, mustKey(t, orders, cur), keyfirst.ConsistentRead())
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, cur) {
				t.Fatalf("stored %+v\nwant %+v", got, cur)
			}
			if path.versioned && got.Version != 5 {
				t.Fatalf("version %d after 5 writes", got.Version)
			}
		})
	}
}

func TestUpdateKeepsUnknownAttributesAndRefusesMissingItems(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	ctx := context.Background()
	c := Customer{ID: "c1", Name: "Ana"}
	if _, err := s.customers.Put(ctx, client, c); err != nil {
		t.Fatal(err)
	}
	// Another program adds an attribute keyfirst does not know.
	key := map[string]typesAV{"PK": sAV("CUST#c1"), "SK": sAV("CUST#c1")}
	item := rawItem(t, client, s.table.Name(), key)
	item["legacy"] = sAV("kept")
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: ptr(s.table.Name()), Item: item}); err != nil {
		t.Fatal(err)
	}
	c.Admin = true
	if _, err := s.customers.Replace(ctx, client, c); err != nil {
		t.Fatal(err)
	}
	after := rawItem(t, client, s.table.Name(), key)
	if avText(after["legacy"]) != "kept" || avText(after["GSI1PK"]) != "ADMIN" {
		t.Fatalf("after Replace: %v", after)
	}

	_, err := s.customers.Replace(ctx, client, Customer{ID: "nobody"})
	var ce *keyfirst.ConditionError
	if !errors.Is(err, keyfirst.ErrNotFound) || !errors.As(err, &ce) || ce.Found {
		t.Fatalf("Replace of a missing item: %v", err)
	}
	if rawItem(t, client, s.table.Name(), map[string]typesAV{"PK": sAV("CUST#nobody"), "SK": sAV("CUST#nobody")}) != nil {
		t.Fatal("Replace created an item")
	}
}

// TestConcurrentWritersOneWins: two writers update the same version; one
// wins, the other gets ErrVersionConflict and nothing of its change is
// stored.
func TestConcurrentWritersOneWins(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	ctx := context.Background()
	base, err := s.orders.Put(ctx, client, order("c1", "o1", Open, day))
	if err != nil {
		t.Fatal(err)
	}
	results := make(chan error, 2)
	costs := make([]keyfirst.Capacity, 2)
	for i, note := range []string{"first", "second"} {
		go func() {
			o := base
			o.Note = note
			_, err := s.orders.Replace(ctx, client, o, keyfirst.WithCapacity(&costs[i]))
			results <- err
		}()
	}
	var wins, conflicts int
	reported := 0
	for range 2 {
		err := <-results
		var ce *keyfirst.ConditionError
		switch {
		case err == nil:
			wins++
		case errors.Is(err, keyfirst.ErrVersionConflict) && errors.As(err, &ce) && ce.Expected == 1 && ce.Actual == 2 && ce.Found:
			conflicts++
		default:
			t.Fatalf("unexpected %v", err)
		}
	}
	if wins != 1 || conflicts != 1 {
		t.Fatalf("%d wins, %d conflicts", wins, conflicts)
	}
	// The winner's cost is reported; the refused write's is not: DynamoDB's
	// ConditionalCheckFailedException carries no capacity figures.
	for _, c := range costs {
		if c.Requests == 1 && c.Write > 0 {
			reported++
		}
	}
	if reported != 1 {
		t.Fatalf("capacity %+v", costs)
	}
	got, err := s.orders.Get(ctx, client, mustKey(t, s.orders, base), keyfirst.ConsistentRead())
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 2 || (got.Note != "first" && got.Note != "second") {
		t.Fatalf("stored %+v", got)
	}
}
