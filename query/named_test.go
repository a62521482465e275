package query_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/query"
)

// A schema declared once, at package level, as a service declares it.
var (
	twins = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "twins", Key: orderByID,
		GSIs: []keyfirst.Index{byStatusDate.Index(), scannable(customerIndex.Index())}}))
	twinOrders = keyfirst.Must(keyfirst.NewEntity(twins, keyfirst.EntitySpec[Order]{Type: "ORDER",
		Keys: []keyfirst.Binding{orderByID.Fields("CustomerID", "ID"), byStatusDate.Fields("CustomerID", "Status", "Date")}}))
	twinCustomers = keyfirst.Must(keyfirst.NewEntity(twins, keyfirst.EntitySpec[Customer]{Type: "CUSTOMER",
		Keys: []keyfirst.Binding{customerByID.Fields("ID", "ID"), customerIndex.Fields("ID")}}))
)

func scannable(ix keyfirst.Index) keyfirst.Index {
	ix.Scannable = true
	return ix
}

// twin is the package-level schema bound to a table of its own.
type twin struct {
	label     string
	table     *keyfirst.Table
	orders    *keyfirst.Entity[Order]
	customers *keyfirst.Entity[Customer]
}

func bindTwin(t *testing.T, label string) twin {
	t.Helper()
	table := integration.TableOf(t, twins)
	orders, err := twinOrders.In(table)
	noErr(t, err)
	customers, err := twinCustomers.In(table)
	noErr(t, err)
	return twin{label, table, orders, customers}
}

// Two bindings of one package-level schema, used at the same time from two
// goroutines with the same keys, each see only their own table's items,
// through every kind of operation; a cursor of one is refused by the other.
func TestTwoTablesOneSchema(t *testing.T) {
	t.Parallel()
	client := integrationClient(t)
	a, b := bindTwin(t, "A"), bindTwin(t, "B")
	if a.table.Name() == b.table.Name() || !a.table.SameSchema(b.table) || a.table.Name() == twins.Name() {
		t.Fatalf("bindings %q and %q of %q", a.table.Name(), b.table.Name(), twins.Name())
	}
	ctx, cancel := integration.Context(t) // the test binary's deadline bounds the waits for the GSIs
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, tw := range []twin{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = tw.exercise(ctx, client)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}

	// A cursor made on one table is refused on the other.
	page, err := query.On(a.orders, orderByID, "c1").Sort(orderSK.Range().BeginsWith()).Limit(1).Page(ctx, client)
	if err != nil || page.Next == "" {
		t.Fatalf("page of A: %v %q", err, page.Next)
	}
	_, err = query.On(b.orders, orderByID, "c1").Sort(orderSK.Range().BeginsWith()).After(page.Next).Page(ctx, noCalls{T: t})
	if !errors.Is(err, query.ErrCursorMismatch) {
		t.Fatalf("A's cursor on B: %v", err)
	}
	// An entity of another description is refused.
	other := newShop(t, "other")
	if _, err := twinOrders.In(other.table); !errors.Is(err, keyfirst.ErrInvalidEntity) {
		t.Fatalf("In(another schema): %v", err)
	}
	if _, err := twins.Named("x"); !errors.Is(err, keyfirst.ErrInvalidSchema) {
		t.Fatalf("Named(x): %v", err)
	}
	var oe *keyfirst.OptionError
	if err := a.table.BatchWrite(ctx, client, []keyfirst.WriteRequest{other.orders.PutRequest(Order{CustomerID: "c1", ID: "o9", Status: Pending})}); !errors.As(err, &oe) {
		t.Fatalf("a request of another schema: %v", err)
	}
}

// exercise writes and reads the twin's own items, labelled in Pad, with
// every operation kind, and reports any item of the other twin it sees.
func (tw twin) exercise(ctx context.Context, client *dynamodb.Client) error {
	date := micro("2019-08-01T00:00:00")
	o := func(id string, s Status) Order {
		return Order{CustomerID: "c1", ID: id, Status: s, Date: date, Pad: tw.label}
	}
	mine := func(what string, orders ...Order) error {
		for _, x := range orders {
			if x.Pad != tw.label {
				return fmt.Errorf("%s: %s saw %+v", what, tw.label, x)
			}
		}
		return nil
	}
	for _, x := range []Order{o("o1", Pending), o("o2", Pending), o("o3", Pending)} {
		if _, err := tw.orders.Put(ctx, client, x); err != nil {
			return err
		}
	}
	if _, err := tw.customers.Put(ctx, client, Customer{ID: "c1", Name: tw.label}); err != nil {
		return err
	}
	if _, err := tw.orders.Replace(ctx, client, o("o1", Shipped)); err != nil {
		return err
	}
	k2, err := tw.orders.Key(o("o2", Pending))
	if err != nil {
		return err
	}
	if _, err := tw.orders.ModifyE(ctx, client, k2, func(x *Order) error { x.Status = Cancelled; return mine("Modify", *x) }); err != nil {
		return err
	}
	if err := tw.orders.Delete(ctx, client, o("o3", Pending)); err != nil {
		return err
	}
	if err := tw.table.BatchWrite(ctx, client, []keyfirst.WriteRequest{tw.orders.PutRequest(o("o4", Shipped)), tw.orders.PutRequest(o("o5", Shipped))}); err != nil {
		return err
	}
	k1, err := tw.orders.Key(o("o1", Pending))
	if err != nil {
		return err
	}
	got, err := tw.orders.Get(ctx, client, k1, keyfirst.ConsistentRead())
	if err != nil || got.Status != Shipped {
		return fmt.Errorf("Get: %+v %v", got, err)
	}
	var ks []keyfirst.Key[Order]
	for _, id := range []string{"o1", "o2", "o4", "o5"} {
		k, err := tw.orders.Key(o(id, Pending))
		if err != nil {
			return err
		}
		ks = append(ks, k)
	}
	batch, err := tw.orders.BatchGet(ctx, client, ks, keyfirst.ConsistentRead())
	if err != nil || len(batch) != 4 {
		return fmt.Errorf("BatchGet: %d items, %v", len(batch), err)
	}
	if err := mine("BatchGet", batch...); err != nil {
		return err
	}
	all, err := query.On(tw.orders, orderByID, "c1").Sort(orderSK.Range().BeginsWith()).ConsistentRead().Collect(ctx, client)
	if err != nil {
		return err
	}
	if ids := orderIDs(all); !slices.Equal(ids, []string{"o1", "o2", "o4", "o5"}) {
		return fmt.Errorf("Query on %s: %v", tw.label, ids)
	}
	if err := mine("Query", all...); err != nil {
		return err
	}
	// The GSI is eventually consistent: read until the writes show (the
	// test's own deadline bounds it), then check every item is ours.
	shipped, err := eventually(ctx, func() ([]Order, error) {
		return query.On(tw.orders, byStatusDate, "c1").Sort(statusDate.With1(Shipped).BeginsWith()).Collect(ctx, client)
	}, 3)
	if err != nil {
		return err
	}
	if err := mine("GSI query", shipped...); err != nil {
		return err
	}
	items, err := query.CollectionOn(tw.table, orderByID, "c1").ConsistentRead().Collect(ctx, client)
	if err != nil || len(items) != 5 {
		return fmt.Errorf("Collection: %d items, %v", len(items), err)
	}
	for _, it := range items {
		switch v := it.(type) {
		case Order:
			if err := mine("Collection", v); err != nil {
				return err
			}
		case Customer:
			if v.Name != tw.label {
				return fmt.Errorf("Collection: %s saw customer %+v", tw.label, v)
			}
		}
	}
	customers, err := eventually(ctx, func() ([]Customer, error) {
		return query.ScanOn(tw.customers, customerIndex).Collect(ctx, client)
	}, 1)
	if err != nil || customers[0].Name != tw.label {
		return fmt.Errorf("Scan: %+v %v", customers, err)
	}
	return nil
}

// eventually reads until read returns n items, within ctx.
func eventually[T any](ctx context.Context, read func() ([]T, error), n int) ([]T, error) {
	for {
		got, err := read()
		if err != nil || len(got) >= n {
			return got, err
		}
		select {
		case <-ctx.Done():
			return got, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}
