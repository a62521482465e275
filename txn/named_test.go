package txn_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/txn"
)

// shopEmails is declared once, at package level, beside the entities it
// keeps unique; each binding of the shop uses it bound to its table.
var shopEmails = keyfirst.Must(txn.NewUnique(users, "Email"))

// Two bindings of the package-level shop, used at the same time from two
// goroutines with the same keys: every kind of transaction (Put, Replace,
// Check, Delete, a unique marker, Get, Run, cancellations) reads and
// writes its own table only, and a cancellation names its table.
func TestTwoTablesOneSchema(t *testing.T) {
	t.Parallel()
	a, ctx := localShop(t)
	b, _ := localShop(t)
	if a.table.Name() == b.table.Name() || a.table.Name() == shopTable.Name() {
		t.Fatalf("bindings %q and %q of %q", a.table.Name(), b.table.Name(), shopTable.Name())
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, tw := range []twin{{a, "A"}, {b, "B"}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = tw.exercise(ctx)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	for _, tw := range []twin{{a, "A"}, {b, "B"}} {
		if got, want := tw.stored(t), tw.want(); !reflect.DeepEqual(got, want) {
			t.Errorf("table %s (%s):\ngot  %v\nwant %v", tw.table.Name(), tw.label, got, want)
		}
	}
	// Nothing went to the declared table.
	_, err := a.client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(shopTable.Name())})
	if rnf := new(types.ResourceNotFoundException); !errors.As(err, &rnf) {
		t.Fatalf("the declared table %q: %v, want ResourceNotFoundException", shopTable.Name(), err)
	}
}

// twin is a binding of the shop whose items are labelled: a product's
// and a user's name, an order's note.
type twin struct {
	shop
	label string
}

// exercise runs every kind of transaction on the twin's table, with the
// keys every twin uses, and reports the first thing that is not its own.
func (tw twin) exercise(ctx context.Context) error {
	s, label := tw.shop, tw.label
	emails, err := shopEmails.In(s.table)
	if err != nil {
		return err
	}
	o := func(id string, st Status) Order {
		return Order{Customer: "c1", ID: id, Status: st, Placed: "2026-06-23T10:00:00Z", Note: label}
	}
	ours := keyfirst.Field("Name").Eq(label)
	pkey, err := s.products.Key(Product{ID: "p1"})
	if err != nil {
		return err
	}

	// Put, and a unique marker.
	if err := txn.Write(ctx, s.client, []txn.Action{
		txn.Put(s.products, Product{ID: "p1", Name: label, Stock: 5}),
		txn.Put(s.orders, o("o1", Open)), txn.Put(s.orders, o("o2", Open)),
		emails.Create(User{ID: "u1", Email: "ann@example.com", Name: label}),
	}); err != nil {
		return fmt.Errorf("%s: Put: %w", label, err)
	}
	// Replace, Check (of this twin's label), Delete.
	if err := txn.Write(ctx, s.client, []txn.Action{
		txn.Replace(s.orders, o("o1", Closed)), txn.Check(s.products, pkey, ours), txn.Delete(s.orders, o("o2", Open)),
	}); err != nil {
		return fmt.Errorf("%s: Replace, Check, Delete: %w", label, err)
	}

	// Get.
	rp, ro1, ro2 := txn.Read(s.products, pkey), txn.Read(s.orders, mustKeyOf(s.orders, o("o1", ""))), txn.Read(s.orders, mustKeyOf(s.orders, o("o2", "")))
	ru := txn.Read(s.users, mustKeyOf(s.users, User{ID: "u1"}))
	if err := txn.Get(ctx, s.client, []txn.Reader{rp, ro1, ro2, ru}); err != nil {
		return fmt.Errorf("%s: Get: %w", label, err)
	}
	p, perr := rp.Result()
	o1, oerr := ro1.Result()
	u, uerr := ru.Result()
	if _, err := ro2.Result(); perr != nil || oerr != nil || uerr != nil || !errors.Is(err, keyfirst.ErrNotFound) ||
		p.Name != label || p.Version != 1 || o1.Note != label || o1.Status != Closed || u.Name != label {
		return fmt.Errorf("%s: Get: %+v %v, %+v %v, %+v %v, o2 %v", label, p, perr, o1, oerr, u, uerr, err)
	}

	// Run: the read-modify-write of seed 004, one attempt (the other twin
	// writes the same keys, in its own table).
	attempts := 0
	if err := txn.Run(ctx, s.client, func(ctx context.Context, tx *txn.Tx) ([]txn.Action, error) {
		attempts++
		read := txn.Read(s.products, pkey)
		if err := tx.Get(ctx, read); err != nil {
			return nil, err
		}
		p, err := read.Result()
		if err != nil || p.Name != label {
			return nil, fmt.Errorf("read %+v, %v", p, err)
		}
		p.Stock--
		return []txn.Action{txn.Replace(s.products, p), txn.Create(s.orders, o("o3", Open))}, nil
	}); err != nil || attempts != 1 {
		return fmt.Errorf("%s: Run: %d attempts, %w", label, attempts, err)
	}

	// Cancellations name the bound table, and the stored item is ours.
	again := txn.Create(s.orders, o("o1", Open))
	err = txn.Write(ctx, s.client, []txn.Action{txn.Check(s.products, pkey, ours), again})
	var ae *txn.ActionError
	if !errors.Is(err, keyfirst.ErrAlreadyExists) || !errors.As(err, &ae) || ae.Position != 1 || ae.Table != s.table.Name() ||
		!strings.Contains(err.Error(), s.table.Name()) {
		return fmt.Errorf("%s: a Put over o1: %v (%#v), want ErrAlreadyExists naming action 1 and table %s", label, err, ae, s.table.Name())
	}
	if stored, ok, derr := again.Stored(err); !ok || derr != nil || stored.Note != label || stored.Status != Closed {
		return fmt.Errorf("%s: stored %+v %v %v", label, stored, ok, derr)
	}
	theirs := keyfirst.Field("Name").Eq(label + "'s twin")
	err = txn.Write(ctx, s.client, []txn.Action{txn.Check(s.products, pkey, theirs), txn.Put(s.orders, o("o4", Open))})
	if !errors.Is(err, keyfirst.ErrConditionFailed) || !errors.As(err, &ae) || ae.Position != 0 || ae.Table != s.table.Name() {
		return fmt.Errorf("%s: a Check of another label: %v, want ErrConditionFailed on table %s", label, err, s.table.Name())
	}
	err = txn.Write(ctx, s.client, []txn.Action{emails.Create(User{ID: "u2", Email: "ann@example.com", Name: label})})
	var ue *txn.UniqueError
	if !errors.As(err, &ue) || ue.Owner != `("USER#u1", "USER")` || !errors.As(err, &ae) || ae.Table != s.table.Name() {
		return fmt.Errorf("%s: a taken email: %v, want ErrNotUnique on table %s", label, err, s.table.Name())
	}
	return nil
}

// want is what the twin's table holds after exercise: for each item, by
// its key, the attributes that say whose it is and where it stands.
func (tw twin) want() map[string]map[string]string {
	order := func(status Status) map[string]string {
		return map[string]string{"_type": "ORDER", "note": tw.label, "status": string(status)}
	}
	return map[string]map[string]string{
		"PRODUCT#p1 PRODUCT": {"_type": "PRODUCT", "name": tw.label, "stock": "4", "version": "2"},
		"CUST#c1 ORDER#o1":   order(Closed),
		"CUST#c1 ORDER#o3":   order(Open),
		"USER#u1 USER":       {"_type": "USER", "name": tw.label, "email": "ann@example.com", "version": "1"},
		"UNIQUE#USER#email#ann@example.com UNIQUE#USER#email#ann@example.com": {"_type": txn.MarkerType, "owner": `("USER#u1", "USER")`},
	}
}

// stored reads the whole table with the SDK, and returns for each item
// the attributes [twin.want] names.
func (tw twin) stored(t *testing.T) map[string]map[string]string {
	t.Helper()
	got := map[string]map[string]string{}
	p := dynamodb.NewScanPaginator(tw.client, &dynamodb.ScanInput{TableName: aws.String(tw.table.Name()), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		out, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, item := range out.Items {
			seen := map[string]string{}
			for _, name := range []string{"_type", "name", "note", "status", "stock", "version", "email", "owner"} {
				switch v := item[name].(type) {
				case *types.AttributeValueMemberS:
					seen[name] = v.Value
				case *types.AttributeValueMemberN:
					seen[name] = v.Value
				}
			}
			got[text(item["PK"])+" "+text(item["SK"])] = seen
		}
	}
	return got
}

// mustKeyOf is the key of v, which the test builds valid.
func mustKeyOf[T any](e *keyfirst.Entity[T], v T) keyfirst.Key[T] {
	return keyfirst.Must(e.Key(v))
}

// A transaction may span two bindings of one schema, as TransactWriteItems
// spans tables: one item key in each table is two items (not ErrSameItem),
// each action writes and reads its own table, a cancellation names the
// table of the action that failed, and Run guards what it read in each.
func TestTransactionAcrossBindings(t *testing.T) {
	t.Parallel()
	a, ctx := localShop(t)
	b, _ := localShop(t)
	client := a.client
	o := func(id, note string) Order {
		return Order{Customer: "c1", ID: id, Status: Open, Placed: "2026-06-23T10:00:00Z", Note: note}
	}
	mustWrite(t, ctx, client,
		txn.Put(a.orders, o("o1", "A")), txn.Put(b.orders, o("o1", "B")),
		txn.Put(a.products, Product{ID: "p1", Name: "A", Stock: 5}), txn.Put(b.products, Product{ID: "p1", Name: "B", Stock: 0}))
	k1 := mustKey(t, a.orders, o("o1", ""))
	ra, rb := txn.Read(a.orders, k1), txn.Read(b.orders, k1)
	if err := txn.Get(ctx, client, []txn.Reader{ra, rb}); err != nil {
		t.Fatal(err)
	}
	if x, _ := ra.Result(); x.Note != "A" {
		t.Fatalf("A's o1: %+v", x)
	}
	if x, _ := rb.Result(); x.Note != "B" {
		t.Fatalf("B's o1: %+v", x)
	}

	// The action that fails is told apart by its table: the same key, the
	// same entity type, in A then in B.
	for _, c := range []struct {
		fails  shop
		writes shop
	}{{a, b}, {b, a}} {
		err := txn.Write(ctx, client, []txn.Action{txn.Put(c.writes.orders, o("o2", "new")), txn.Create(c.fails.orders, o("o1", "again"))})
		var ae *txn.ActionError
		if !errors.Is(err, keyfirst.ErrAlreadyExists) || !errors.As(err, &ae) || ae.Table != c.fails.table.Name() || !strings.Contains(err.Error(), c.fails.table.Name()) {
			t.Fatalf("o1 again in %s: %v, want ErrAlreadyExists naming that table", c.fails.table.Name(), err)
		}
		if c.writes.raw(t, "CUST#c1", "ORDER#o2") != nil {
			t.Fatalf("the cancelled transaction wrote o2 in %s", c.writes.table.Name())
		}
	}

	// Move stock from A's p1 to B's p1: Run reads both, guards both.
	pk := mustKey(t, a.products, Product{ID: "p1"})
	for range 2 {
		if err := txn.Run(ctx, client, func(ctx context.Context, tx *txn.Tx) ([]txn.Action, error) {
			from, to := txn.Read(a.products, pk), txn.Read(b.products, pk)
			if err := tx.Get(ctx, from, to); err != nil {
				return nil, err
			}
			pf, err1 := from.Result()
			pt, err2 := to.Result()
			if err := errors.Join(err1, err2); err != nil {
				return nil, err
			}
			pf.Stock--
			pt.Stock++
			return []txn.Action{txn.Replace(a.products, pf), txn.Replace(b.products, pt)}, nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]Product{"A": {ID: "p1", Name: "A", Stock: 3, Version: 3}, "B": {ID: "p1", Name: "B", Stock: 2, Version: 3}}
	got := map[string]Product{}
	for _, s := range []shop{a, b} {
		p, err := s.products.Get(ctx, client, pk, keyfirst.ConsistentRead())
		if err != nil {
			t.Fatal(err)
		}
		got[p.Name] = p
	}
	if !maps.Equal(got, want) {
		t.Fatalf("after the moves: %v, want %v", got, want)
	}
}
