package keyfirst_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/keyfirst/keyfirst"
)

// FuncE: an error of the function fails every write path before any
// request, as an ItemError (ItemDerive) that wraps it; ok=false keeps the
// item out; a value is encoded by the pattern as Func's is.
func TestPatternFuncE(t *testing.T) {
	t.Parallel()
	errNoCustomer := errors.New("no customer")
	table := patternTable(t, "shop")
	orders, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Order]{
		Type: "ORDER",
		Keys: []keyfirst.Binding{
			orderByID.Fields("Customer", "ID"),
			keyfirst.FuncE(openOrders, func(o Order) (string, time.Time, bool, error) {
				if o.Total < 0 {
					return "", time.Time{}, false, errNoCustomer
				}
				return "OPEN-" + o.Customer, o.PlacedAt, o.Status == Open, nil
			}),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	placed := time.Date(2019, 7, 1, 9, 30, 0, 0, time.UTC)
	item := mustItem(t, orders, order("c1", "o1", Open, placed))
	if avText(item["OpenCustomer"]) != "OPEN-c1" || avText(item["OpenSince"]) != "2019-07-01T09:30:00.000000" {
		t.Fatalf("item %v", item)
	}
	if _, ok := mustItem(t, orders, order("c1", "o1", Cancelled, placed))["OpenCustomer"]; ok {
		t.Fatal("a cancelled order is in the open index")
	}

	bad := order("c1", "o1", Open, placed)
	bad.Total = -1
	ctx, client := context.Background(), noCalls{T: t}
	writes := map[string]func() error{
		"Put":     func() error { _, err := orders.Put(ctx, client, bad); return err },
		"Replace": func() error { _, err := orders.Replace(ctx, client, bad); return err },
		"BatchWrite": func() error {
			return table.BatchWrite(ctx, client, []keyfirst.WriteRequest{orders.PutRequest(bad)})
		},
	}
	for name, write := range writes {
		err := write()
		var ie *keyfirst.ItemError
		if !errors.As(err, &ie) || ie.Problem != keyfirst.ItemDerive || !errors.Is(err, errNoCustomer) {
			t.Errorf("%s: %v, want an ItemError (ItemDerive) wrapping the function's error", name, err)
		}
	}

	if _, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Order]{
		Type: "ORDER2",
		Keys: []keyfirst.Binding{orderByID.Fields("Customer", "ID"), keyfirst.FuncE[Order](openOrders, nil)},
	}); !errors.Is(err, keyfirst.ErrInvalidEntity) {
		t.Errorf("a nil FuncE: %v, want ErrInvalidEntity", err)
	}
}
