package keyfirst_test

import (
	"context"
	"errors"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/shard"
)

// The binding kinds an update must keep fresh, beside the shop's (Fields
// of a composite GSI, fields that are index keys themselves, a time index
// key, a Const side under If, an LSI): a Func, a FuncPartition and a
// sharded index, in a table of jobs.
type Job struct {
	ID       string `dynamodbav:"id"`
	Queue    string `dynamodbav:"queue,omitempty"`
	State    string `dynamodbav:"state"`
	Priority int    `dynamodbav:"priority"`
	Note     string `dynamodbav:"note,omitempty"`
}

func jobTable(t testing.TB) *keyfirst.Table {
	t.Helper()
	return keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "jobs", Key: jobByID, GSIs: []keyfirst.Index{
		jobsByQueue.Index(), jobsByState.Index(), jobsOpen.Index()}}))
}

var (
	jobByID     = keyfirst.OnTable(keyfirst.Str("id"), keyfirst.NoSort())
	jobsByQueue = keyfirst.OnIndex("by-queue", keyfirst.Str("QPK"), keyfirst.Num[int]("QSK"))
	jobsByState = keyfirst.OnIndex("by-state", keyfirst.Str("SPK"), keyfirst.Num[int]("priority"))
	jobsOpen    = keyfirst.OnIndex("open", keyfirst.Str("OPK"), keyfirst.Num[int]("priority"))
)

// byQueue is a Func: Q#<queue> / priority while the job has a queue.
func byQueue(tk Job) (string, int, bool) { return "Q#" + tk.Queue, tk.Priority, tk.Queue != "" }

// byState is a FuncPartition's function: S#<state>.
func byState(tk Job) (string, bool, error) { return "S#" + tk.State, true, nil }

// jobEntity declares jobs with the Func of by-queue reading reads
// (declared when reads is not nil).
func jobEntity(t testing.TB, table *keyfirst.Table, queueReads []string) *keyfirst.Entity[Job] {
	t.Helper()
	open := keyfirst.Must(shard.New(jobsOpen, shard.Spec[Job, int]{Base: "OPEN", Shards: 3, Field: "ID", SortField: "Priority",
		When: func(tk Job) bool { return tk.State == "open" }, Reads: []string{"State"}}))
	queue := keyfirst.Func(jobsByQueue, byQueue)
	if queueReads != nil {
		queue = queue.Reads(queueReads...)
	}
	return keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[Job]{Type: "Job", Keys: []keyfirst.Binding{
		jobByID.Fields("ID"), queue, keyfirst.FuncPartition(jobsByState, byState, "Priority").Reads("State"), open.Binding()}}))
}

// declaredShop is the shop whose If bindings declare what they read.
func declaredShop(t testing.TB) shop {
	t.Helper()
	table := keyfirst.Must(keyfirst.NewTable(shopSpec()))
	os := orderSpec()
	os.Keys[2] = os.Keys[2].Reads("Status")
	cs := customerSpec()
	cs.Keys[1] = cs.Keys[1].Reads("Admin")
	return shop{table, keyfirst.Must(keyfirst.NewEntity(table, os)), keyfirst.Must(keyfirst.NewEntity(table, cs))}
}

// updateCase is an update of start and what it must do: store exactly
// what a Replace of apply(start) stores, or be refused with problem on
// index before any request.
type updateCase[T any] struct {
	name    string
	start   T
	update  keyfirst.Update
	apply   func(T) T
	problem keyfirst.UpdateProblem
	index   string
}

// checkUpdates runs each case: an update in one table, a Replace of the
// same result in a twin table, and the two stored items compared
// attribute by attribute, byte for byte.
func checkUpdates[T any](t *testing.T, e *keyfirst.Entity[T], cases []updateCase[T]) {
	ctx := context.Background()
	client := integration.Client(t)
	a := keyfirst.Must(e.In(integration.TableOf(t, e.Table())))
	b := keyfirst.Must(e.In(integration.TableOf(t, e.Table())))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			key := mustKey(t, e, c.start)
			if c.problem != 0 {
				_, err := a.Update(ctx, noCalls{T: t}, key, c.update)
				var ue *keyfirst.UpdateError
				if !errors.As(err, &ue) || ue.Problem != c.problem || ue.Index != c.index {
					t.Fatalf("got %v, want %v on index %q", err, c.problem, c.index)
				}
				return
			}
			if _, err := a.Put(ctx, client, c.start); err != nil {
				t.Fatal(err)
			}
			startB, err := b.Put(ctx, client, c.start)
			if err != nil {
				t.Fatal(err)
			}
			got, err := a.Update(ctx, client, key, c.update)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := b.Replace(ctx, client, c.apply(startB)); err != nil {
				t.Fatal(err)
			}
			want, err := b.Get(ctx, client, key, keyfirst.ConsistentRead())
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Update returned %+v, the Replace stored %+v", got, want)
			}
			itemA, itemB := storedItem(t, client, a, key), storedItem(t, client, b, key)
			if !reflect.DeepEqual(itemA, itemB) {
				t.Errorf("stored items differ:\n update  %s\n replace %s", describeItem(itemA), describeItem(itemB))
			}
		})
	}
}

// storedItem reads the item with key from e's table with a plain GetItem.
func storedItem[T any](t testing.TB, client *dynamodb.Client, e *keyfirst.Entity[T], key keyfirst.Key[T]) map[string]types.AttributeValue {
	t.Helper()
	item := mustItem(t, e, mustGet(t, client, e, key))
	k := map[string]types.AttributeValue{}
	for _, a := range e.Table().PrimaryKey().Attributes() {
		k[a.Name] = item[a.Name]
	}
	return rawItem(t, client, e.Table().Name(), k)
}

func mustGet[T any](t testing.TB, client *dynamodb.Client, e *keyfirst.Entity[T], key keyfirst.Key[T]) T {
	t.Helper()
	v, err := e.Get(context.Background(), client, key, keyfirst.ConsistentRead())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func describeItem(item map[string]types.AttributeValue) string {
	out := "{"
	for _, n := range slices.Sorted(maps.Keys(item)) {
		out += " " + n + "=" + avText(item[n])
	}
	return out + " }"
}

func TestUpdateKeepsEveryKeyAsReplaceDoes(t *testing.T) {
	s := declaredShop(t)
	// Each case writes its own item (a versioned Put of version 0 creates).
	open := func(id string) Order { return order("c1", id, Open, day) }
	shipped := func(id string) Order { return order("c1", id, Shipped, day) }
	later := day.AddDate(0, 1, 0)
	t.Run("orders", func(t *testing.T) {
		checkUpdates(t, s.orders, []updateCase[Order]{
			{name: "a field no key reads", start: open("o1"), update: keyfirst.Set("Note", "gift"),
				apply: func(o Order) Order { o.Note = "gift"; return o }},
			{name: "a counter that is an index key itself (open-orders, by-total)", start: open("o2"), update: keyfirst.Add("Total", 5),
				apply: func(o Order) Order { o.Total += 5; return o }},
			{name: "Remove of an omitempty field", start: open("o3"), update: keyfirst.Remove("Tags"),
				apply: func(o Order) Order { o.Tags = nil; return o }},
			{name: "Append", start: open("o4"), update: keyfirst.Append("Tags", []string{"b", "c"}),
				apply: func(o Order) Order { o.Tags = append(o.Tags, "b", "c"); return o }},
			{name: "status without the date GSI1SK holds", start: open("o5"), update: keyfirst.Set("Status", Shipped),
				problem: keyfirst.UpdateStaleKey, index: "GSI1"},
			{name: "status and date: GSI1 recomputed, open-orders left", start: open("o6"), update: keyfirst.Set("Status", Shipped).Set("PlacedAt", later),
				apply: func(o Order) Order { o.Status, o.PlacedAt = Shipped, later; return o }},
			{name: "into open-orders without its sort key field", start: shipped("o7"), update: keyfirst.Set("Status", Open).Set("PlacedAt", later),
				problem: keyfirst.UpdateStaleKey, index: "open-orders"},
			{name: "into open-orders with it", start: shipped("o8"), update: keyfirst.Set("Status", Open).Set("PlacedAt", later).Set("Total", 7),
				apply: func(o Order) Order { o.Status, o.PlacedAt, o.Total = Open, later, 7; return o }},
			{name: "a field of the table's key", start: open("o9"), update: keyfirst.Set("Customer", "c2"), problem: keyfirst.UpdateKeyField},
			{name: "the other field of the table's key", start: open("o10"), update: keyfirst.Set("ID", "o9"), problem: keyfirst.UpdateKeyField},
		})
	})
	t.Run("customers", func(t *testing.T) {
		checkUpdates(t, s.customers, []updateCase[Customer]{
			{name: "promote: into the admins, GSI1SK from the key's id", start: Customer{ID: "c1", Name: "Ann"}, update: keyfirst.Set("Admin", true),
				apply: func(c Customer) Customer { c.Admin = true; return c }},
			{name: "demote: out of the admins", start: Customer{ID: "c2", Name: "Bo", Admin: true}, update: keyfirst.Set("Admin", false),
				apply: func(c Customer) Customer { c.Admin = false; return c }},
		})
	})
	jobs := jobEntity(t, jobTable(t), []string{"Queue", "Priority"})
	tk := Job{ID: "t1", Queue: "ops", State: "open", Priority: 3}
	t.Run("jobs", func(t *testing.T) {
		checkUpdates(t, jobs, []updateCase[Job]{
			{name: "a Func's input without the other", start: tk, update: keyfirst.Set("Queue", "dev"), problem: keyfirst.UpdateStaleKey, index: "by-queue"},
			{name: "a Func's inputs, and fields that are keys of by-state and open", start: tk, update: keyfirst.Set("Queue", "dev").Set("Priority", 1),
				apply: func(tk Job) Job { tk.Queue, tk.Priority = "dev", 1; return tk }},
			{name: "out of a Func's index (ok=false)", start: tk, update: keyfirst.Remove("Queue").Set("Priority", 1),
				apply: func(tk Job) Job { tk.Queue, tk.Priority = "", 1; return tk }},
			{name: "a FuncPartition's input without its sort field", start: tk, update: keyfirst.Set("State", "closed"), problem: keyfirst.UpdateStaleKey, index: "by-state"},
			{name: "closed: by-state moves, the shard index is left", start: tk, update: keyfirst.Set("State", "closed").Set("Priority", 3).Set("Queue", "ops"),
				apply: func(tk Job) Job { tk.State = "closed"; return tk }},
			{name: "reopened: back on its shard, from the key's id", start: Job{ID: "t2", State: "closed", Priority: 2},
				update: keyfirst.Set("State", "open").Set("Priority", 2).Remove("Queue"), apply: func(tk Job) Job { tk.State = "open"; return tk }},
			{name: "the table's key", start: tk, update: keyfirst.Set("ID", "t9"), problem: keyfirst.UpdateKeyField},
		})
	})
}

func TestUpdateRefusesUndeclaredFunctions(t *testing.T) {
	s := newShop(t, "")
	c := Customer{ID: "c1"}
	_, err := s.customers.Update(context.Background(), noCalls{T: t}, mustKey(t, s.customers, c), keyfirst.Set("Name", "Ann"))
	var ue *keyfirst.UpdateError
	if !errors.As(err, &ue) || ue.Problem != keyfirst.UpdateUndeclared || ue.Index != "GSI1" {
		t.Fatalf("got %v, want UpdateUndeclared on GSI1", err)
	}
	jobs := jobEntity(t, jobTable(t), nil)
	_, err = jobs.Update(context.Background(), noCalls{T: t}, mustKey(t, jobs, Job{ID: "t1"}), keyfirst.Set("Note", "x"))
	if !errors.As(err, &ue) || ue.Problem != keyfirst.UpdateUndeclared || ue.Index != "by-queue" {
		t.Fatalf("got %v, want UpdateUndeclared on by-queue", err)
	}
}

// A Func that reads a field its Reads does not declare: the update leaves
// its key stale, keyfirst finds it from the item as stored, rewrites it
// and says so; the stored item is then what a Replace stores.
func TestUpdateRepairsAKeyAWrongDeclarationLeftStale(t *testing.T) {
	ctx := context.Background()
	client := integration.Client(t)
	lying := jobEntity(t, jobTable(t), []string{"Queue"}) // byQueue reads Priority too
	a := keyfirst.Must(lying.In(integration.TableOf(t, lying.Table())))
	b := keyfirst.Must(lying.In(integration.TableOf(t, lying.Table())))
	tk := Job{ID: "t1", Queue: "ops", State: "open", Priority: 3}
	for _, e := range []*keyfirst.Entity[Job]{a, b} {
		if _, err := e.Put(ctx, client, tk); err != nil {
			t.Fatal(err)
		}
	}
	key := mustKey(t, a, tk)
	got, err := a.Update(ctx, client, key, keyfirst.Set("Priority", 1).Set("State", "open"))
	var ue *keyfirst.UpdateError
	if !errors.As(err, &ue) || ue.Problem != keyfirst.UpdateUndeclaredRead || ue.Index != "by-queue" || ue.Err != nil {
		t.Fatalf("got %v, want UpdateUndeclaredRead on by-queue, repaired", err)
	}
	tk.Priority = 1
	if got != tk {
		t.Errorf("got %+v, want %+v", got, tk)
	}
	if _, err := b.Replace(ctx, client, tk); err != nil {
		t.Fatal(err)
	}
	if itemA, itemB := storedItem(t, client, a, key), storedItem(t, client, b, key); !reflect.DeepEqual(itemA, itemB) {
		t.Errorf("stored items differ:\n update  %s\n replace %s", describeItem(itemA), describeItem(itemB))
	}
}
