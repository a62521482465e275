package keyfirst_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/avequal"
	"github.com/keyfirst/keyfirst/keys"
)

// The shop as a previous release defined it: GSI1's sort key date first
// (seed 000's mistake), no open-orders rule, no admin index on customers.
func oldShop(t testing.TB, table *keyfirst.Table) shop {
	t.Helper()
	desc, err := keyfirst.NewTable(shopSpec())
	if err != nil {
		t.Fatal(err)
	}
	bound := keyfirst.Must(desc.Named(table.Name()))
	placedStatus := keys.NewKey2(keys.Time(keys.Micro, keys.WithZ), keys.ID[Status]())
	dateFirst := keyfirst.OnIndex("GSI1", keyfirst.Composite("GSI1PK", shopCustomer), keyfirst.Composite("GSI1SK", placedStatus))
	spec := orderSpec()
	spec.Keys = []keyfirst.Binding{spec.Keys[0], dateFirst.Fields("Customer", "PlacedAt", "Status")}
	cspec := customerSpec()
	cspec.Keys = cspec.Keys[:1]
	return shop{bound, keyfirst.Must(keyfirst.NewEntity(bound, spec)), keyfirst.Must(keyfirst.NewEntity(bound, cspec))}
}

// storedOf reads the item of key v as stored.
func storedOf[T any](t testing.TB, client *dynamodb.Client, e *keyfirst.Entity[T], v T) map[string]types.AttributeValue {
	t.Helper()
	key := mustItem(t, e, v)
	pk := map[string]types.AttributeValue{"PK": key["PK"], "SK": key["SK"]}
	item := rawItem(t, client, e.Table().Name(), pk)
	if item == nil {
		t.Fatalf("no item stored at %v", pk)
	}
	return item
}

// TestRefreshBringsItemsUpToDate: items written by the previous release
// are rewritten so that each is what a write of the current release
// stores (the enum-first GSI1SK, the open-orders membership SET or
// REMOVEd, the admin index), with the next version; an item already up to
// date sends nothing; PlanRefresh sends nothing and says the same.
func TestRefreshBringsItemsUpToDate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	client, s := localShop(t)
	old := oldShop(t, s.table)

	open := mustPut(t, client, old.orders, order("c1", "o1", Open, day))
	shipped := order("c1", "o2", Shipped, day)
	shipped.Note = "kept"
	shipped = mustPut(t, client, old.orders, shipped)
	admin := mustPut(t, client, old.customers, Customer{ID: "c1", Name: "Ada", Admin: true})
	// Written by the current release: up to date already.
	current := mustPut(t, client, s.orders, order("c1", "o3", Cancelled, day))
	// An item that left the open-orders index in a release that set it
	// on every order: the refresh removes the attribute.
	stale := mustPut(t, client, s.orders, order("c1", "o4", Shipped, day))
	staleKey := mustItem(t, s.orders, stale)
	if _, err := client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: ptr(s.table.Name()), Key: map[string]types.AttributeValue{"PK": staleKey["PK"], "SK": staleKey["SK"]},
		UpdateExpression:          ptr("SET openBucket = :o"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":o": sAV("OPEN")},
	}); err != nil {
		t.Fatal(err)
	}

	type check struct {
		name        string
		refresh     func(map[string]types.AttributeValue) (keyfirst.RefreshResult, error)
		plan        func(map[string]types.AttributeValue) (keyfirst.RefreshResult, error)
		stored      map[string]types.AttributeValue
		want        map[string]types.AttributeValue // the item a write of the current release stores
		set, remove []string
	}
	orderRefresh := func(item map[string]types.AttributeValue) (keyfirst.RefreshResult, error) {
		return s.orders.Refresh(ctx, client, item)
	}
	next := func(o Order) Order { o.Version++; return o }
	checks := []check{
		{name: "open order", refresh: orderRefresh, plan: s.orders.PlanRefresh, stored: storedOf(t, client, s.orders, open),
			want: mustItem(t, s.orders, next(open)), set: []string{"GSI1SK", "openBucket"}},
		{name: "shipped order", refresh: orderRefresh, plan: s.orders.PlanRefresh, stored: storedOf(t, client, s.orders, shipped),
			want: mustItem(t, s.orders, next(shipped)), set: []string{"GSI1SK"}},
		{name: "order that left open-orders", refresh: orderRefresh, plan: s.orders.PlanRefresh, stored: storedOf(t, client, s.orders, stale),
			want: mustItem(t, s.orders, next(stale)), remove: []string{"openBucket"}},
		{name: "admin", refresh: func(item map[string]types.AttributeValue) (keyfirst.RefreshResult, error) {
			return s.customers.Refresh(ctx, client, item)
		}, plan: s.customers.PlanRefresh, stored: storedOf(t, client, s.customers, admin),
			want: mustItem(t, s.customers, admin), set: []string{"GSI1PK", "GSI1SK"}},
	}
	for _, c := range checks {
		planned, err := c.plan(c.stored)
		if err != nil {
			t.Fatalf("%s: PlanRefresh: %v", c.name, err)
		}
		res, err := c.refresh(c.stored)
		if err != nil {
			t.Fatalf("%s: Refresh: %v", c.name, err)
		}
		if res.Outcome != keyfirst.RefreshChanged || !slices.Equal(res.Set, c.set) || !slices.Equal(res.Remove, c.remove) {
			t.Errorf("%s: %v set %v remove %v, want changed set %v remove %v", c.name, res.Outcome, res.Set, res.Remove, c.set, c.remove)
		}
		if planned.Outcome != res.Outcome || !slices.Equal(planned.Set, res.Set) || !slices.Equal(planned.Remove, res.Remove) ||
			!avequal.EqualMaps(planned.After, res.After) {
			t.Errorf("%s: PlanRefresh %+v differs from Refresh %+v", c.name, planned, res)
		}
		got := rawItem(t, client, s.table.Name(), map[string]types.AttributeValue{"PK": c.stored["PK"], "SK": c.stored["SK"]})
		if !avequal.EqualMaps(got, c.want) || !avequal.EqualMaps(got, res.After) {
			t.Errorf("%s: stored\n%v\nwant what a write stores\n%v\nAfter\n%v", c.name, got, c.want, res.After)
		}
	}
	// Up to date: nothing sent, by Refresh or PlanRefresh.
	for _, item := range []map[string]types.AttributeValue{storedOf(t, client, s.orders, current), storedOf(t, client, s.orders, open)} {
		res, err := s.orders.Refresh(ctx, noCalls{T: t}, item)
		if err != nil || res.Outcome != keyfirst.RefreshUnchanged || res.After != nil || res.Key == "" {
			t.Errorf("up-to-date item: %+v, %v", res, err)
		}
	}
	// The index answers the current design: enum first.
	if ids := queryIDs(t, client, s.table.Name(), "GSI1", map[string]string{"GSI1PK": "CUST#c1"}, "GSI1SK", "SHIPPED#"); len(ids) != 2 {
		t.Errorf("SHIPPED# in GSI1: %v, want o2 and o4", ids)
	}
}

// TestRefreshNeverOverwritesAConcurrentWrite: an item written by another
// writer between the read and the refresh is not overwritten: the result
// is RefreshConflicted with the item stored now, with and without a
// version attribute, and the other writer's change stands.
func TestRefreshNeverOverwritesAConcurrentWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	client, s := localShop(t)
	old := oldShop(t, s.table)

	t.Run("versioned", func(t *testing.T) {
		o := mustPut(t, client, old.orders, order("c2", "o1", Open, day))
		read := storedOf(t, client, s.orders, o)
		// The service (old release) writes meanwhile.
		o.Total = 7
		mustPut(t, client, old.orders, o)
		res, err := s.orders.Refresh(ctx, client, read)
		if err != nil || res.Outcome != keyfirst.RefreshConflicted || res.Conflict == nil || !res.Conflict.Found {
			t.Fatalf("Refresh of a stale image: %+v, %v", res, err)
		}
		if !errors.Is(res.Conflict, keyfirst.ErrVersionConflict) || res.Conflict.Actual != 2 {
			t.Errorf("conflict %v, want a version conflict with stored version 2", res.Conflict)
		}
		got, err := s.orders.Get(ctx, client, mustKey(t, s.orders, o), keyfirst.ConsistentRead())
		if err != nil || got.Total != 7 || got.Version != 2 {
			t.Fatalf("after the conflict: %+v, %v; want the service's write (total 7, version 2)", got, err)
		}
		// The item as stored now refreshes.
		res, err = s.orders.Refresh(ctx, client, res.Conflict.Item)
		if err != nil || res.Outcome != keyfirst.RefreshChanged {
			t.Fatalf("Refresh of the current image: %+v, %v", res, err)
		}
		if got, err := s.orders.Get(ctx, client, mustKey(t, s.orders, o), keyfirst.ConsistentRead()); err != nil || got.Total != 7 || got.Version != 3 {
			t.Fatalf("after the refresh: %+v, %v", got, err)
		}
	})
	t.Run("unversioned", func(t *testing.T) {
		c := mustPut(t, client, old.customers, Customer{ID: "c9", Name: "Ada", Admin: true})
		read := storedOf(t, client, s.customers, c)
		c.Name = "Grace"
		mustPut(t, client, old.customers, c)
		res, err := s.customers.Refresh(ctx, client, read)
		if err != nil || res.Outcome != keyfirst.RefreshConflicted || res.Conflict == nil {
			t.Fatalf("Refresh of a stale image: %+v, %v", res, err)
		}
		got, err := s.customers.Get(ctx, client, mustKey(t, s.customers, c), keyfirst.ConsistentRead())
		if err != nil || got.Name != "Grace" {
			t.Fatalf("after the conflict: %+v, %v; want the service's write", got, err)
		}
		// Deleted meanwhile: a conflict too, and nothing is recreated.
		if err := s.customers.Delete(ctx, client, c); err != nil {
			t.Fatal(err)
		}
		res, err = s.customers.Refresh(ctx, client, res.Conflict.Item)
		if err != nil || res.Outcome != keyfirst.RefreshConflicted || res.Conflict.Found || !errors.Is(res.Conflict, keyfirst.ErrNotFound) {
			t.Fatalf("Refresh of a deleted item: %+v, %v", res, err)
		}
		if item := storedOf0(t, client, s.customers, c); item != nil {
			t.Fatalf("the refresh recreated a deleted item: %v", item)
		}
	})
}

// storedOf0 is storedOf that returns nil for a missing item.
func storedOf0[T any](t testing.TB, client *dynamodb.Client, e *keyfirst.Entity[T], v T) map[string]types.AttributeValue {
	t.Helper()
	key := mustItem(t, e, v)
	return rawItem(t, client, e.Table().Name(), map[string]types.AttributeValue{"PK": key["PK"], "SK": key["SK"]})
}

// TestRefreshRefusals: items that cannot be brought up to date are typed
// errors that name the item's key, before any request.
func TestRefreshRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newShop(t, "")
	item := mustItem(t, s.orders, order("c1", "o1", Open, day))
	with := func(name string, av types.AttributeValue) map[string]types.AttributeValue {
		m := map[string]types.AttributeValue{}
		for k, v := range item {
			m[k] = v
		}
		if av == nil {
			delete(m, name)
		} else {
			m[name] = av
		}
		return m
	}
	cases := []struct {
		name  string
		item  map[string]types.AttributeValue
		check func(error) bool
	}{
		{"other entity type", mustItem(t, s.customers, Customer{ID: "c1"}), func(err error) bool {
			var te *keyfirst.EntityTypeError
			return errors.As(err, &te) && errors.Is(err, keyfirst.ErrWrongEntityType) && te.Got == "CUSTOMER"
		}},
		{"no entity type", with("_type", nil), func(err error) bool { return errors.Is(err, keyfirst.ErrWrongEntityType) }},
		{"undecodable", with("total", sAV("lots")), func(err error) bool {
			var ie *keyfirst.ItemError
			return errors.As(err, &ie) && ie.Problem == keyfirst.ItemDecode
		}},
		{"derivation error", with("customer", sAV("c#1")), func(err error) bool {
			var ie *keyfirst.ItemError
			return errors.As(err, &ie) && ie.Problem == keyfirst.ItemDerive && errors.Is(err, keys.ErrSeparator)
		}},
		{"primary key derived otherwise", with("id", sAV("o2")), func(err error) bool {
			var kc *keyfirst.KeyChangedError
			return errors.As(err, &kc) && kc.Old == `("CUST#c1", "ORDER#o1")` && kc.New == `("CUST#c1", "ORDER#o2")`
		}},
	}
	for _, c := range cases {
		for op, f := range map[string]func(map[string]types.AttributeValue) (keyfirst.RefreshResult, error){
			"Refresh": func(m map[string]types.AttributeValue) (keyfirst.RefreshResult, error) {
				return s.orders.Refresh(ctx, noCalls{T: t}, m)
			},
			"PlanRefresh": s.orders.PlanRefresh,
		} {
			res, err := f(c.item)
			if !c.check(err) {
				t.Errorf("%s: %s: %v", c.name, op, err)
			}
			if res.Key != `("CUST#c1", "ORDER#o1")` && c.name != "other entity type" {
				t.Errorf("%s: %s: key %q", c.name, op, res.Key)
			}
		}
	}
	if _, err := s.orders.Refresh(ctx, noCalls{T: t}, item, keyfirst.CreateOnly()); !errors.Is(err, keyfirst.ErrInvalidOption) {
		t.Errorf("Refresh with CreateOnly: %v", err)
	}
}
