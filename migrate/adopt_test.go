package migrate_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/migrate"
)

// skPrefix is an Adopt function: the items whose table sort key starts
// with prefix.
func skPrefix(prefix string) func(pk, sk types.AttributeValue) bool {
	return func(_, sk types.AttributeValue) bool {
		s, ok := sk.(*types.AttributeValueMemberS)
		return ok && strings.HasPrefix(s.Value, prefix)
	}
}

// adopting declares seed 000's shop (its current design) on the table
// called name, with entities that adopt the untyped items by their sort
// key's prefix.
func adopting(t testing.TB, name string, orderPrefix, customerPrefix string) shop {
	t.Helper()
	table := keyfirst.Must(keyfirst.Must(keyfirst.NewTable(shopSpec())).Named(name))
	orders := keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[Order]{Type: "Order", Adopt: skPrefix(orderPrefix),
		Keys: []keyfirst.Binding{orderByID.Fields("CustomerID", "ID"), byDateStatus.Fields("CustomerID", "Date", "Status")}}))
	customers := keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[Customer]{Type: "Customer", Adopt: skPrefix(customerPrefix),
		Keys: []keyfirst.Binding{customerByID.Fields("ID", "ID")}}))
	return shop{table, orders, customers}
}

// seedDate is the date of the i-th seeded order.
func seedDate(i int) time.Time {
	return time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour)
}

// legacyWrite stores the items as another program would: with the raw
// SDK, in the seed's shapes, and without the entity-type attribute.
func legacyWrite(t testing.TB, client *dynamodb.Client, s shop, items []map[string]types.AttributeValue) {
	t.Helper()
	ctx, cancel := integration.Context(t)
	defer cancel()
	for _, item := range items {
		delete(item, s.table.TypeAttribute())
		if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table.Name()), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAdoptWhileWriting adopts a table another program wrote (seed 000's
// orders and customers, no entity-type attribute) while 4 writers write:
// 2 of the service, through keyfirst (Modify of the untyped orders, Put
// of new ones), 2 of the old program, with the raw SDK (an UpdateItem of
// Total, which keeps no type). The dry run counts every item and writes
// nothing; the run stores the type attribute on every item, nothing the
// writers wrote is lost, and every item is of the type its key says.
func TestAdoptWhileWriting(t *testing.T) {
	t.Parallel()
	client, name := liveShop(t)
	s := adopting(t, name, "ORDER#", "CUSTOMER#")
	const n = 300
	var seeded []Order
	var items []map[string]types.AttributeValue
	keyOf := map[string]map[string]types.AttributeValue{}
	for i := range n {
		o := Order{CustomerID: fmt.Sprintf("c%d", i%10), ID: fmt.Sprintf("o%04d", i), Status: statuses[i%3],
			Date: seedDate(i), Total: i}
		seeded = append(seeded, o)
		item := keyfirst.Must(s.orders.Item(o))
		items = append(items, item)
		keyOf[o.ID] = map[string]types.AttributeValue{"PK": item["PK"], "SK": item["SK"]}
	}
	for i := range 10 {
		items = append(items, keyfirst.Must(s.customers.Item(Customer{ID: fmt.Sprintf("c%d", i), Name: "n"})))
	}
	legacyWrite(t, client, s, items)
	ctx, cancel := integration.Context(t)
	defer cancel()

	// Read through keyfirst before any adoption: by key.
	got, err := s.orders.Get(ctx, client, keyfirst.Must(s.orders.Key(seeded[7])))
	if err != nil || got != seeded[7] {
		t.Fatalf("Get of an untyped order = %+v, %v", got, err)
	}

	dry := &migrate.Backfill{Name: "adopt-shop", Table: s.table, Entities: []migrate.Target{migrate.Entity(s.orders), migrate.Entity(s.customers)},
		WCU: 400, Segments: 4, PageSize: 25, DryRun: true}
	report, err := dry.Run(ctx, client)
	if err != nil {
		t.Fatal(err)
	}
	if report.Changed != n+10 || report.Adopted != n+10 || report.Failed != 0 ||
		report.Entities["Order"].Adopted != n || report.Entities["Customer"].Adopted != 10 {
		t.Fatalf("dry run: %+v, orders %+v, customers %+v", report.Counts, report.Entities["Order"].Counts, report.Entities["Customer"].Counts)
	}
	for _, item := range scanAll(t, client, name, "") {
		if _, typed := item[s.table.TypeAttribute()]; typed {
			t.Fatalf("the dry run wrote %v", item)
		}
	}

	done := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	want := map[string]Order{}
	for _, o := range seeded {
		want[o.ID] = o
	}
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 27))
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				o := seeded[4*r.IntN(n/4)+w] // the writer's own orders
				var written Order
				var err error
				switch {
				case w >= 2: // the old program
					mu.Lock()
					written = want[o.ID]
					mu.Unlock()
					written.Total = 10000*w + i
					_, err = client.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(name),
						Key:                       keyOf[o.ID],
						UpdateExpression:          aws.String("SET #t = :t"),
						ExpressionAttributeNames:  map[string]string{"#t": "Total"},
						ExpressionAttributeValues: map[string]types.AttributeValue{":t": &types.AttributeValueMemberN{Value: strconv.Itoa(written.Total)}}})
				case i%5 == 4:
					written, err = s.orders.Put(ctx, client, Order{CustomerID: "c1", ID: fmt.Sprintf("w%d-%d", w, i), Status: Pending, Date: seedDate(i), Total: i})
				default:
					written, err = s.orders.Modify(ctx, client, keyfirst.Must(s.orders.Key(o)), func(o *Order) { o.Total += 1000 })
				}
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				want[written.ID] = written
				mu.Unlock()
			}
		}()
	}
	run := *dry
	run.DryRun = false
	report, err = run.Run(ctx, client)
	close(done)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("run: %+v", report.Counts)
	if report.Failed != 0 || report.Adopted == 0 || report.Adopted > n+10 {
		t.Fatalf("run: %+v", report.Counts)
	}

	// Every item typed, of the type its key says, as last written.
	stored := scanAll(t, client, name, "")
	if len(stored) != len(want)+10 {
		t.Fatalf("%d items stored, want %d", len(stored), len(want)+10)
	}
	for _, item := range stored {
		typ, typed := item[s.table.TypeAttribute()].(*types.AttributeValueMemberS)
		byKey := "Customer"
		if skPrefix("ORDER#")(nil, item["SK"]) {
			byKey = "Order"
		}
		if !typed || typ.Value != byKey {
			t.Fatalf("item %v: type %v, its key says %s", item["SK"], item[s.table.TypeAttribute()], byKey)
		}
	}
	if got := ordersIn(t, s, stored); len(got) != len(want) {
		t.Fatalf("%d orders, want %d", len(got), len(want))
	} else {
		for id, o := range want {
			if !got[id].Date.Equal(o.Date) || got[id].Total != o.Total || got[id].Status != o.Status {
				t.Errorf("order %s = %+v, want %+v", id, got[id], o)
			}
		}
	}
	upToDate(t, client, s)
}

// TestAdoptRefusesAmbiguousAndUnclaimed: an untyped item that two
// entities claim, or that none does, is a failure with its key; the
// backfill writes neither.
func TestAdoptRefusesAmbiguousAndUnclaimed(t *testing.T) {
	t.Parallel()
	client, name := liveShop(t)
	s := adopting(t, name, "ORDER#", "") // the customers' Adopt claims every key
	legacyWrite(t, client, s, []map[string]types.AttributeValue{
		keyfirst.Must(s.orders.Item(Order{CustomerID: "c1", ID: "o1", Status: Pending, Date: seedDate(1)})),
		{"PK": &types.AttributeValueMemberS{Value: "CUSTOMER#c1"}, "SK": &types.AttributeValueMemberS{Value: "INVOICE#i1"}},
	})
	s2 := adopting(t, name, "ORDER#", "CUSTOMER#")
	for _, tc := range []struct {
		s        shop
		sentinel error
		sk       string
		claims   []string
	}{
		{s, keyfirst.ErrAmbiguousEntityType, "ORDER#o1", []string{"Order", "Customer"}},
		{s2, keyfirst.ErrUnknownEntityType, "INVOICE#i1", nil},
	} {
		ctx, cancel := integration.Context(t)
		defer cancel()
		b := &migrate.Backfill{Name: "adopt", Table: tc.s.table, Entities: []migrate.Target{migrate.Entity(tc.s.orders), migrate.Entity(tc.s.customers)}, WCU: 100}
		report, err := b.Run(ctx, client)
		if err != nil {
			t.Fatal(err)
		}
		var found bool
		for _, f := range report.Failures {
			var ce *keyfirst.ClaimError
			if errors.As(f, &ce) && errors.Is(f, tc.sentinel) && ce.Key["SK"].(*types.AttributeValueMemberS).Value == tc.sk &&
				strings.Join(ce.Claims, ",") == strings.Join(tc.claims, ",") {
				found = true
			}
		}
		if !found {
			t.Fatalf("failures %v, want %v for %s claimed by %v", report.Failures, tc.sentinel, tc.sk, tc.claims)
		}
	}
	for _, item := range scanAll(t, client, name, "") {
		if item["SK"].(*types.AttributeValueMemberS).Value == "INVOICE#i1" && item[s.table.TypeAttribute()] != nil {
			t.Fatalf("the unclaimed item was written: %v", item)
		}
	}
}
