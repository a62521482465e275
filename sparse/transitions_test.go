package sparse_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/sparse"
)

// A write path of the root package, as the transitions test drives it:
// write turns the stored ticket (nil: none) into after (nil: deleted),
// adding the consumed capacity to c.
type writePath struct {
	name      string
	versioned bool // the entity has a version attribute
	creates   bool // it can write a ticket that does not exist
	deletes   bool // it can delete
	updates   bool // it can change a stored ticket
	write     func(ctx context.Context, tl *transitionTable, stored, after *Ticket, c *keyfirst.Capacity) error
}

type transitionTable struct {
	client  *dynamodb.Client
	table   *keyfirst.Table
	tickets *keyfirst.Entity[Ticket]
	est     *sparse.Estimator
}

var writePaths = []writePath{
	{name: "Put", creates: true, updates: true, write: func(ctx context.Context, tl *transitionTable, _, after *Ticket, c *keyfirst.Capacity) error {
		_, err := tl.tickets.Put(ctx, tl.client, *after, keyfirst.WithCapacity(c))
		return err
	}},
	{name: "Put versioned", versioned: true, creates: true, updates: true, write: func(ctx context.Context, tl *transitionTable, _, after *Ticket, c *keyfirst.Capacity) error {
		_, err := tl.tickets.Put(ctx, tl.client, *after, keyfirst.WithCapacity(c))
		return err
	}},
	{name: "Replace", updates: true, write: func(ctx context.Context, tl *transitionTable, _, after *Ticket, c *keyfirst.Capacity) error {
		_, err := tl.tickets.Replace(ctx, tl.client, *after, keyfirst.WithCapacity(c))
		return err
	}},
	{name: "Replace versioned", versioned: true, updates: true, write: func(ctx context.Context, tl *transitionTable, _, after *Ticket, c *keyfirst.Capacity) error {
		_, err := tl.tickets.Replace(ctx, tl.client, *after, keyfirst.WithCapacity(c))
		return err
	}},
	{name: "Modify", updates: true, write: modifyTo},
	{name: "Modify versioned", versioned: true, updates: true, write: modifyTo},
	{name: "BatchWrite", creates: true, deletes: true, updates: true, write: func(ctx context.Context, tl *transitionTable, stored, after *Ticket, c *keyfirst.Capacity) error {
		if after == nil {
			k, err := tl.tickets.Key(*stored)
			if err != nil {
				return err
			}
			return tl.table.BatchWrite(ctx, tl.client, []keyfirst.WriteRequest{tl.tickets.DeleteRequest(k)}, keyfirst.WithCapacity(c))
		}
		return tl.table.BatchWrite(ctx, tl.client, []keyfirst.WriteRequest{tl.tickets.PutRequest(*after)}, keyfirst.WithCapacity(c))
	}},
	{name: "Delete", deletes: true, write: deleteStored},
	{name: "Delete versioned", versioned: true, deletes: true, write: deleteStored},
}

// modifyTo changes the stored ticket into after with Modify.
func modifyTo(ctx context.Context, tl *transitionTable, stored, after *Ticket, c *keyfirst.Capacity) error {
	k, err := tl.tickets.Key(*stored)
	if err != nil {
		return err
	}
	_, err = tl.tickets.Modify(ctx, tl.client, k, func(tk *Ticket) {
		version := tk.Version
		*tk = *after
		tk.Version = version

	}, keyfirst.WithCapacity(c))
	return err
}

func deleteStored(ctx context.Context, tl *transitionTable, stored, _ *Ticket, c *keyfirst.Capacity) error {
	return tl.tickets.Delete(ctx, tl.client, *stored, keyfirst.WithCapacity(c))
}

// transition is one scenario: the stored ticket, the written one, and what
// the write does to open-tickets-index.
type transition struct {
	name          string
	before, after *Ticket
	want          sparse.Transition
}

func transitions(id string) []transition {
	open := ticket(id, Open, at(9, 0))
	resolved := ticket(id, Resolved, at(9, 0))
	with := func(tk Ticket, f func(*Ticket)) *Ticket { f(&tk); return &tk }
	big := strings.Repeat("x", 1500) // a projected subject over 1 KB: 2 WCU on the index
	return []transition{
		{"enter (create)", nil, &open, sparse.Enter},
		{"stay out (create)", nil, &resolved, sparse.StayOut},
		{"enter (reopen)", &resolved, &open, sparse.Enter},
		{"leave (resolve)", &open, &resolved, sparse.Leave},
		{"leave (resolve a large one)", with(open, func(t *Ticket) { t.Subject = big }), with(resolved, func(t *Ticket) { t.Subject = big }), sparse.Leave},
		{"move (openedAt)", &open, with(open, func(t *Ticket) { t.OpenedAt = at(7, 0) }), sparse.Move},
		{"stay out (subject)", &resolved, with(resolved, func(t *Ticket) { t.Subject = "new" }), sparse.StayOut},
		{"stay in (projected subject)", &open, with(open, func(t *Ticket) { t.Subject = "new" }), sparse.StayIn},
		{"stay in (subject grows past 1 KB)", &open, with(open, func(t *Ticket) { t.Subject = big }), sparse.StayIn},
		{"unchanged (unprojected customer)", &open, with(open, func(t *Ticket) { t.Customer = "other" }), sparse.Unchanged},
		{"unchanged (same ticket)", &open, &open, sparse.Unchanged},
		{"leave (delete)", &open, nil, sparse.Leave},
		{"stay out (delete)", &resolved, nil, sparse.StayOut},
	}
}

// figures collects, for the report, the estimated and measured WCUs of
// every transition on every write path.
var figures struct {
	sync.Mutex
	lines []string
}

// The five transitions of seed 002 (and the ones around them) on every write
// path of the root package: after each write, open-tickets-index holds the
// ticket exactly when it is open, and the estimate of the write's cost, per
// index and for the table, is what DynamoDB Local reports with
// ReturnConsumedCapacity=INDEXES.
func TestTransitionsOnEveryWritePath(t *testing.T) {
	t.Parallel()
	tables := map[bool]*transitionTable{}
	for _, versioned := range []bool{false, true} {
		client, table, tickets := liveTickets(t, versioned)
		tables[versioned] = &transitionTable{client: client, table: table, tickets: tickets, est: mustEstimator(t, table)}
	}
	for pi, path := range writePaths {
		t.Run(path.name, func(t *testing.T) {
			t.Parallel()
			tl := tables[path.versioned]
			for si := range transitions("") {
				tr := transitions(fmt.Sprintf("p%ds%d", pi, si))[si] // a ticket of its own
				create, del := tr.before == nil, tr.after == nil
				if create && !path.creates || del && !path.deletes || !create && !del && !path.updates {
					continue
				}
				t.Run(tr.name, func(t *testing.T) {
					t.Parallel()
					checkTransition(t, tl, path, tr)
				})
			}
		})
	}
	t.Cleanup(func() {
		figures.Lock()
		defer figures.Unlock()
		slices.Sort(figures.lines)
		t.Logf("estimated vs DynamoDB Local, WCU (table, %s, by-customer, by-status):\n%s", openTicketsIndex, strings.Join(figures.lines, "\n"))
	})
}

func checkTransition(t *testing.T, tl *transitionTable, path writePath, tr transition) {
	ctx := context.Background()
	var stored *Ticket
	if tr.before != nil {
		s, err := tl.tickets.Put(ctx, tl.client, *tr.before)
		if err != nil {
			t.Fatal(err)
		}
		stored = &s
	}
	var after *Ticket
	if tr.after != nil {
		a := *tr.after
		if stored != nil {
			a.Version = stored.Version // the write expects the stored version
		}
		after = &a
	}
	cost, err := sparse.EstimateItems(tl.est, tl.tickets, stored, after)
	if err != nil {
		t.Fatal(err)
	}
	if ix, _ := cost.Index(openTicketsIndex); ix.Transition != tr.want {
		t.Fatalf("estimated %v on %s, want %v", ix.Transition, openTicketsIndex, tr.want)
	}

	var c keyfirst.Capacity
	if err := path.write(ctx, tl, stored, after, &c); err != nil {
		t.Fatal(err)
	}

	// The index holds the ticket exactly when it is open, with its key.
	id := tr.before
	if id == nil {
		id = tr.after
	}
	var inIndex *openIndex
	for _, e := range openTicketsInIndex(t, tl.client, tl.table.Name()) {
		if e.ID == id.ID {
			if inIndex != nil {
				t.Errorf("ticket %s is in the index twice", id.ID)
			}
			inIndex = &e
		}
	}
	raw := rawItem(t, tl.client, tl.table.Name(), storedTicketKey(id.ID))
	_, hasBucket := raw["openBucket"]
	switch open := after != nil && after.IsOpen(); {
	case open && inIndex == nil:
		t.Errorf("the open ticket is not in the index")
	case open:
		if want := openedAt(after.OpenedAt); inIndex.OpenedAt != want || inIndex.Subject != after.Subject {
			t.Errorf("the index has openedAt %q, subject %.10q; want %q, %.10q", inIndex.OpenedAt, inIndex.Subject, want, after.Subject)
		}
	case inIndex != nil:
		t.Errorf("the ticket is in the index, but it is not open: %+v", *inIndex)
	case hasBucket:
		t.Errorf("the stored item still has openBucket: %v", raw["openBucket"])
	}

	// The estimate is what DynamoDB Local reports.
	measured := map[string]float64{}
	indexes := 0.0
	for name, units := range c.Indexes {
		measured[name] = units
		indexes += units
	}
	measuredTable := c.Write - indexes
	line := fmt.Sprintf("%-17s %-34s est %d", path.name, tr.name, cost.TableWCU)
	lineLocal := fmt.Sprintf("local %g", measuredTable)
	if float64(cost.TableWCU) != measuredTable {
		t.Errorf("table: estimated %d WCU, DynamoDB Local reports %g", cost.TableWCU, measuredTable)
	}
	for _, ix := range cost.Indexes {
		got := measured[ix.Index]
		line += fmt.Sprintf(" %d", ix.WCU)
		lineLocal += fmt.Sprintf(" %g", got)
		if float64(ix.WCU) != got {
			t.Errorf("%s (%v): estimated %d WCU, DynamoDB Local reports %g", ix.Index, ix.Transition, ix.WCU, got)
		}
		delete(measured, ix.Index)
	}
	if len(measured) > 0 {
		t.Errorf("DynamoDB Local reports indexes the estimate does not have: %v", measured)
	}
	if float64(cost.WCU()) != c.Write {
		t.Errorf("the write: estimated %d WCU, DynamoDB Local reports %g", cost.WCU(), c.Write)
	}
	figures.Lock()
	figures.lines = append(figures.lines, line+" | "+lineLocal)
	figures.Unlock()
}

// Seed 002's example against DynamoDB Local: the 3 KB item with three GSIs
// costs 9 WCU to put, 3 on the table and 1, 2 and 3 on the indexes, as
// estimated.
func TestSeed002ExampleOnDynamoDBLocal(t *testing.T) {
	t.Parallel()
	table := mustTable(t, seed002Spec)
	client, live := liveTable(t, table)
	name := live.Name()
	est := mustEstimator(t, table)
	item := seed002Item()
	cost, err := est.Estimate(nil, item)
	if err != nil {
		t.Fatal(err)
	}
	out, err := client.PutItem(context.Background(), &dynamodb.PutItemInput{
		TableName: aws.String(name), Item: item, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
	})
	if err != nil {
		t.Fatal(err)
	}
	var c keyfirst.Capacity
	c.AddWrite(*out.ConsumedCapacity)
	if c.Total != 9 || c.Table != 3 || c.Indexes["keys-only"] != 1 || c.Indexes["include"] != 2 || c.Indexes["all"] != 3 {
		t.Errorf("DynamoDB Local: %g WCU, table %g, indexes %v; the seed says 9, 3, keys-only 1, include 2, all 3", c.Total, c.Table, c.Indexes)
	}
	if float64(cost.WCU()) != c.Total {
		t.Errorf("estimated %d WCU, DynamoDB Local reports %g", cost.WCU(), c.Total)
	}
	for _, ix := range cost.Indexes {
		if float64(ix.WCU) != c.Indexes[ix.Index] {
			t.Errorf("%s: estimated %d WCU, DynamoDB Local reports %g", ix.Index, ix.WCU, c.Indexes[ix.Index])
		}
	}
}
