package keyfirst_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/internal/observetest"
)

// observedShop is the shop in DynamoDB Local, bound to a table observed
// by a Recorder.
func observedShop(t *testing.T) (*dynamodb.Client, shop, *observetest.Recorder) {
	t.Helper()
	client, s := localShop(t)
	rec := &observetest.Recorder{}
	return client, s.in(s.table.Observed(rec)), rec
}

// Every item operation and batch of the root package is seen by the
// table's Observer, in terms of the model, with what came back, and the
// request is sent with the context Start returned.
func TestObserverSeesEveryItemOperation(t *testing.T) {
	client, s, rec := observedShop(t)
	ctx, cancel := integration.Context(t)
	defer cancel()
	o := order("c1", "o1", Open, day)

	o, err := s.orders.Put(ctx, client, o)
	if err != nil {
		t.Fatal(err)
	}
	key := mustKey(t, s.orders, o)
	if _, err := s.orders.Get(ctx, client, key); err != nil {
		t.Fatal(err)
	}
	o, err = s.orders.Modify(ctx, client, key, func(o *Order) { o.Total++ })
	if err != nil {
		t.Fatal(err)
	}
	if o, err = s.orders.Replace(ctx, client, o); err != nil {
		t.Fatal(err)
	}
	if err := s.table.BatchWrite(ctx, client, []keyfirst.WriteRequest{s.customers.PutRequest(Customer{ID: "c1", Name: "Ann"})}); err != nil {
		t.Fatal(err)
	}
	if err := s.table.BatchWriteSeq(ctx, client, slices.Values([]keyfirst.WriteRequest{s.customers.PutRequest(Customer{ID: "c2", Name: "Bo"})})); err != nil {
		t.Fatal(err)
	}
	if err := s.customers.BatchPut(ctx, client, slices.Values([]Customer{{ID: "c3", Name: "Cy"}})); err != nil {
		t.Fatal(err)
	}
	if _, err := s.orders.BatchGet(ctx, client, []keyfirst.Key[Order]{key}); err != nil {
		t.Fatal(err)
	}
	if err := s.orders.Delete(ctx, client, o); err != nil {
		t.Fatal(err)
	}
	seen := rec.Take()
	want := []string{
		"PutItem Put ORDER #1", "GetItem Get ORDER #1",
		"GetItem Modify ORDER #1", "UpdateItem Modify ORDER #1", "UpdateItem Replace ORDER #1",
		"BatchWriteItem BatchWrite  #1", "BatchWriteItem BatchWriteSeq  #1", "BatchWriteItem BatchPut CUSTOMER #1", "BatchGetItem BatchGet ORDER #1", "DeleteItem Delete ORDER #1",
	}
	if got := observetest.Calls(seen); !slices.Equal(got, want) {
		t.Fatalf("observed\n\t%q\nwant\n\t%q", got, want)
	}
	orderKey := `{PK: "CUST#c1", SK: "ORDER#o1"}`
	for _, x := range seen {
		r, res := x.Request, x.Result
		switch {
		case !x.SameContext:
			t.Errorf("%s: End did not get the context Start returned", r.Operation)
		case r.Table != s.table.Name():
			t.Errorf("%s: table %q, want %q", r.Operation, r.Table, s.table.Name())
		case res.Err != nil || res.Output == nil:
			t.Errorf("%s: result %v, output %T", r.Operation, res.Err, res.Output)
		case res.Capacity.Requests != 1 || res.Capacity.Total <= 0:
			t.Errorf("%s: capacity %+v, want the request's (asked for, though no WithCapacity)", r.Operation, res.Capacity)
		case res.Latency <= 0:
			t.Errorf("%s: latency %v", r.Operation, res.Latency)
		case r.Input == nil:
			t.Errorf("%s: no input", r.Operation)
		}
		if strings.HasSuffix(r.Operation, "Item") && !strings.HasPrefix(r.Operation, "Batch") && r.KeyCondition() != orderKey {
			t.Errorf("%s: key %s, want %s", r.Operation, r.KeyCondition(), orderKey)
		}
	}
	// The open order's Put writes GSI1 and open-orders too: capacity per index.
	if put := seen[0].Result.Capacity; put.Indexes["GSI1"] <= 0 || put.Indexes["open-orders"] <= 0 || put.Table <= 0 {
		t.Errorf("the Put's capacity %+v, want the table's, GSI1's and open-orders'", put)
	}
	if get := seen[1].Result; get.Read != 1 || get.Returned != 1 {
		t.Errorf("the Get read %d, returned %d; want 1, 1", get.Read, get.Returned)
	}

	// Update, of an entity whose keys a partial update cannot stale.
	acc := accounts(t)
	acc = keyfirst.Must(acc.In(acc.Table().Observed(rec)))
	a, err := acc.Put(ctx, client, Account{ID: "a1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := acc.Update(ctx, client, mustKey(t, acc, a), keyfirst.Add("Balance", 5)); err != nil {
		t.Fatal(err)
	}
	seen = rec.Take()
	if got, want := observetest.Calls(seen), []string{"PutItem Put Account #1", "UpdateItem Update Account #1"}; !slices.Equal(got, want) {
		t.Fatalf("observed\n\t%q\nwant\n\t%q", got, want)
	}
	if k := seen[1].Request.KeyCondition(); k != `{PK: "ACCT#a1"}` || seen[1].Result.Capacity.Write <= 0 {
		t.Errorf("the Update: key %s, capacity %+v", k, seen[1].Result.Capacity)
	}
}

// A request that fails is seen with the call's typed error and
// DynamoDB's code, and Modify's attempts are numbered.
func TestObserverSeesFailuresAndAttempts(t *testing.T) {
	client, s, rec := observedShop(t)
	ctx, cancel := integration.Context(t)
	defer cancel()
	c := Customer{ID: "c9", Name: "Bo"}
	if _, err := s.customers.Put(ctx, client, c, keyfirst.CreateOnly()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.customers.Put(ctx, client, c, keyfirst.CreateOnly()); !errors.Is(err, keyfirst.ErrAlreadyExists) {
		t.Fatalf("second create: %v", err)
	}
	seen := rec.Take()
	if len(seen) != 2 || !errors.Is(seen[1].Result.Err, keyfirst.ErrAlreadyExists) || seen[1].Result.Output != nil ||
		seen[1].Result.Code != "ConditionalCheckFailedException" {
		t.Fatalf("observed %+v, want the second Put with ErrAlreadyExists, code ConditionalCheckFailedException", seen)
	}

	// Another writer's write between Modify's read and write: a second attempt.
	key := mustKey(t, s.customers, c)
	other := true
	if _, err := s.customers.Modify(ctx, client, key, func(c *Customer) {
		if other {
			other = false
			if _, err := s.customers.Replace(ctx, client, Customer{ID: "c9", Name: "Other"}); err != nil {
				t.Error(err)
			}
		}
		c.Admin = true
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{"GetItem Modify CUSTOMER #1", "UpdateItem Replace CUSTOMER #1", "UpdateItem Modify CUSTOMER #1",
		"GetItem Modify CUSTOMER #2", "UpdateItem Modify CUSTOMER #2"}
	if got := observetest.Calls(rec.Take()); !slices.Equal(got, want) {
		t.Fatalf("observed\n\t%q\nwant\n\t%q", got, want)
	}
}

// Named keeps the Observer; the description's other bindings and the
// table Observed was called on have none.
func TestObservedKeptByNamed(t *testing.T) {
	s := newShop(t, "")
	rec := &observetest.Recorder{}
	observed := s.table.Observed(rec)
	named := keyfirst.Must(observed.Named("other"))
	switch {
	case named.Observer() != rec:
		t.Error("Named dropped the Observer")
	case s.table.Observer() != nil:
		t.Error("Observed changed the table it was called on")
	case !named.SameSchema(s.table) || observed.Name() != s.table.Name():
		t.Error("Observed is not a binding of the same table")
	case keyfirst.Must(s.orders.In(named)).Table().Observer() != rec:
		t.Error("Entity.In did not bind the observed table")
	case observed.Observed(nil).Observer() != nil:
		t.Error("Observed(nil) kept the Observer")
	}
}

// The slog adapter logs each request with the model's terms and its cost.
func TestSlogObserver(t *testing.T) {
	client, s := localShop(t)
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	s = s.in(s.table.Observed(keyfirst.SlogObserver(log)))
	ctx, cancel := integration.Context(t)
	defer cancel()
	if _, err := s.orders.Put(ctx, client, order("c1", "o1", Open, day)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.orders.Put(ctx, client, order("c1", "o1", Open, day), keyfirst.CreateOnly()); err == nil {
		t.Fatal("second create succeeded")
	}
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		lines = append(lines, m)
	}
	if len(lines) != 2 {
		t.Fatalf("logged %d lines, want 2:\n%s", len(lines), buf.String())
	}
	ok, failed := lines[0], lines[1]
	capacity, _ := ok["capacity"].(map[string]any)
	switch {
	case ok["msg"] != "keyfirst request" || ok["level"] != "DEBUG" || ok["op"] != "PutItem" || ok["call"] != "Put" ||
		ok["entity"] != "ORDER" || ok["table"] != s.table.Name() || ok["key"] != `{PK: "CUST#c1", SK: "ORDER#o1"}`:
		t.Errorf("logged %v", ok)
	case capacity == nil || capacity["total"].(float64) <= 0 || capacity["GSI1"].(float64) <= 0:
		t.Errorf("capacity %v", ok["capacity"])
	case failed["level"] != "WARN" || failed["code"] != "ConditionalCheckFailedException" ||
		!strings.Contains(failed["err"].(string), keyfirst.ErrAlreadyExists.Error()):
		t.Errorf("the failed Put logged %v", failed)
	}
}

// Without an Observer, Send is the send and nothing else: no allocation.
func TestSendUnobservedAllocatesNothing(t *testing.T) {
	table := newShop(t, "").table
	in := &dynamodb.GetItemInput{}
	out := &dynamodb.GetItemOutput{}
	ctx := t.Context()
	allocs := testing.AllocsPerRun(100, func() {
		_, _ = keyfirst.Send(ctx, table, keyfirst.Request{Call: "Get", Entity: "ORDER", Seq: 1, Input: in},
			func(context.Context) (*dynamodb.GetItemOutput, error) { return out, nil })
	})
	if allocs != 0 {
		t.Errorf("Send without Observer allocates %v times a call", allocs)
	}
	op := "Get"
	allocs = testing.AllocsPerRun(100, func() {
		_, _ = keyfirst.SendExplained(ctx, table, keyfirst.Request{Call: op, Entity: "ORDER", Seq: 1, Input: in},
			func(context.Context) (*dynamodb.GetItemOutput, error) { return out, nil },
			func(out *dynamodb.GetItemOutput, err error) error {
				if err != nil || len(out.Item) > 0 {
					return fmt.Errorf("%s: %w", op, err)
				}
				return nil
			})
	})
	if allocs != 0 {
		t.Errorf("SendExplained without Observer allocates %v times a call", allocs)
	}
}
