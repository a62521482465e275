package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
)

// DB is the [keyfirst.Observer] of an example's tables ([DB.Create] binds
// them to it): it records the reads and updates keyfirst sends (Query,
// Scan, GetItem, UpdateItem), for [DB.Report] to print; the other
// operations are not recorded, so that loading data stays quiet (to show
// what a write costs, pass keyfirst.WithCapacity and print the
// [keyfirst.Capacity]). It is also the example's client, the one it was
// made with, and creates and deletes the example's tables. It is safe for
// concurrent use (a parallel scan sends its segments at once).
type DB struct {
	*dynamodb.Client
	w      io.Writer
	suffix string

	mu     sync.Mutex
	tables []string          // the tables created, in order
	names  map[string]string // each table's name, to the name of its schema
	sent   []request         // since the last Report
}

// request is one recorded request: what it asked and what it cost.
type request struct {
	what           string
	read, returned int
	units          float64
	write          bool
}

var dbSeq atomic.Uint64

// New returns a DB that sends with client and prints to w.
func New(w io.Writer, client *dynamodb.Client) *DB {
	suffix := fmt.Sprintf("%x%x%d", time.Now().UnixNano()&0xffffff, os.Getpid()&0xffff, dbSeq.Add(1))
	return &DB{Client: client, w: w, suffix: suffix, names: map[string]string{}}
}

// Create creates the table of schema t under t's name and a suffix of this
// DB, waits until it and its indexes are ACTIVE ([keyfirst.Table.Create]),
// and returns t bound to it ([keyfirst.Table.Named]) and observed by db
// ([keyfirst.Table.Observed]). [DB.Close] deletes it.
func (db *DB) Create(ctx context.Context, t *keyfirst.Table) (*keyfirst.Table, error) {
	named, err := t.Named(t.Name() + "-" + db.suffix)
	if err != nil {
		return nil, err
	}
	db.mu.Lock()
	db.tables = append(db.tables, named.Name()) // deleted by Close, also if Create fails half-way
	db.names[named.Name()] = t.Name()
	db.mu.Unlock()
	if _, err := named.Create(ctx, db.Client); err != nil {
		return nil, err
	}
	return named.Observed(db), nil
}

// Close deletes the tables [DB.Create] created, and joins what fails to
// *err. In a context from [Keep] (KEEP=1) it keeps them and prints their
// names and the endpoint instead.
func (db *DB) Close(ctx context.Context, err *error) {
	db.mu.Lock()
	tables := db.tables
	db.tables = nil
	db.mu.Unlock()
	if keeps(ctx) {
		fmt.Fprintf(db.w, "KEEP=1: kept %s at %s\n", strings.Join(tables, ", "), aws.ToString(db.Client.Options().BaseEndpoint))
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), integration.TableWaitTimeout)
	defer cancel()
	for _, name := range tables {
		_, derr := db.Client.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)})
		var never *types.ResourceNotFoundException
		if derr != nil && !errors.As(derr, &never) {
			*err = errors.Join(*err, fmt.Errorf("delete table %s: %w", name, derr))
		}
	}
}

// Start is the [keyfirst.Observer]'s: DB records a request when it ends.
func (db *DB) Start(ctx context.Context, _ *keyfirst.Request) context.Context { return ctx }

// End records the reads and updates DynamoDB answered (Query, Scan,
// GetItem, a GetItem that found nothing among them, UpdateItem: the
// UpdateExpression, not the condition), as the tables from [DB.Create]
// show them to their [keyfirst.Observer].
func (db *DB) End(_ context.Context, r *keyfirst.Request, res *keyfirst.Result) {
	if res.Output == nil {
		return
	}
	sent := request{read: res.Read, returned: res.Returned, units: res.Capacity.Total}
	switch in := r.Input.(type) {
	case *dynamodb.QueryInput:
		sent.what = fmt.Sprintf("Query %s: %s", db.target(in.TableName, in.IndexName), r.KeyCondition())
		if in.FilterExpression != nil {
			sent.what += "\n    FilterExpression: " + keyfirst.RenderExpression(in.FilterExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues)
		}
		if !aws.ToBool(in.ScanIndexForward) && in.ScanIndexForward != nil {
			sent.what += ", ScanIndexForward=false"
		}
		if in.Limit != nil {
			sent.what += fmt.Sprintf(", Limit=%d", *in.Limit)
		}
	case *dynamodb.ScanInput:
		sent.what = "Scan " + db.target(in.TableName, in.IndexName)
		if in.TotalSegments != nil {
			sent.what += fmt.Sprintf(", TotalSegments=%d", *in.TotalSegments)
		}
	case *dynamodb.GetItemInput:
		sent.what = fmt.Sprintf("GetItem %s %s", db.target(in.TableName, nil), r.KeyCondition())
		if aws.ToBool(in.ConsistentRead) {
			sent.what += ", ConsistentRead"
		}
	case *dynamodb.UpdateItemInput:
		sent.what = fmt.Sprintf("UpdateItem %s %s: %s", db.target(in.TableName, nil), r.KeyCondition(),
			keyfirst.RenderExpression(in.UpdateExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues))
		sent.write = true
	default:
		return // loading data stays quiet
	}
	db.record(sent)
}

// Progress prints nothing: the long work of most examples runs beside
// writers, and what an example prints must not depend on how their
// requests interleave. [DB.ProgressOnly] prints it.
func (db *DB) Progress(context.Context, keyfirst.Progress) {}

// ProgressOnly returns an [keyfirst.Observer] that prints the last report
// of long work (a re-shard pass, a backfill, a stream's catch-up) on a
// table observed by it, by the table's schema name: "> shard.Reshard
// orders: 5 done" (" of 5" when the work knew its total), and nothing of
// its requests. An example observes with it the work whose count does
// not depend on timing.
func (db *DB) ProgressOnly() keyfirst.Observer { return progressOnly{db} }

type progressOnly struct{ db *DB }

func (progressOnly) Start(ctx context.Context, _ *keyfirst.Request) context.Context { return ctx }
func (progressOnly) End(context.Context, *keyfirst.Request, *keyfirst.Result)       {}

func (p progressOnly) Progress(_ context.Context, r keyfirst.Progress) {
	if !r.Finished {
		return
	}
	line := fmt.Sprintf("  > %s %s: %d done", r.Work, p.db.target(&r.Table, nil), r.Done)
	if r.Total > 0 {
		line += fmt.Sprintf(" of %d", r.Total)
	}
	p.db.mu.Lock()
	fmt.Fprintln(p.db.w, line)
	p.db.mu.Unlock()
}

// Stored prints the item of table whose primary key holds the string
// values key (the partition key's, then the sort key's), as stored: read
// with a consistent GetItem of the raw SDK, not recorded, and printed
// after label: "  77de as stored: {PK: "TICKET#77de", ...}".
func (db *DB) Stored(ctx context.Context, table *keyfirst.Table, label string, key ...string) error {
	attrs := table.PrimaryKey().Attributes()
	if len(key) != len(attrs) {
		return fmt.Errorf("table %s: %d key values for the key attributes %v", table.Name(), len(key), attrs)
	}
	in := &dynamodb.GetItemInput{TableName: aws.String(table.Name()), ConsistentRead: aws.Bool(true), Key: map[string]types.AttributeValue{}}
	for i, a := range attrs {
		in.Key[a.Name] = &types.AttributeValueMemberS{Value: key[i]}
	}
	out, err := db.Client.GetItem(ctx, in)
	if err == nil {
		fmt.Fprintf(db.w, "  %s as stored: %s\n", label, keyfirst.RenderItem(out.Item))
	}
	return err
}

// Error is err's text with the name of each table this DB created shown
// as its schema's, as the requests print (Shop, not Shop-<suffix>): what
// an example prints does not change from run to run.
func (db *DB) Error(err error) string {
	db.mu.Lock()
	defer db.mu.Unlock()
	text := err.Error()
	for physical, declared := range db.names {
		text = strings.ReplaceAll(text, physical, declared)
	}
	return text
}

// target names a table by its schema's name, and its index.
func (db *DB) target(table, index *string) string {
	db.mu.Lock()
	name, ok := db.names[aws.ToString(table)]
	db.mu.Unlock()
	if !ok {
		name = aws.ToString(table)
	}
	if index != nil {
		name += " index " + *index
	}
	return name
}

func (db *DB) record(r request) {
	db.mu.Lock()
	db.sent = append(db.sent, r)
	db.mu.Unlock()
}

// Cost is what the requests of a [DB.Report] read and cost.
type Cost struct {
	// Requests counts the requests, Writes those that wrote.
	Requests, Writes int
	// Read counts the items DynamoDB read (ScannedCount), Returned those
	// it returned (Count): they differ only under a FilterExpression.
	Read, Returned int
	// RCU and WCU are the capacity units consumed.
	RCU, WCU float64
}

// Report prints the requests recorded since the last Report, each
// followed by what it read and cost, and returns the total. Requests that
// differ only in their start key or segment (the pages of a query, the
// segments of a parallel scan) print once, with their sum. They print in
// the order of their descriptions, not of their sending, so that requests
// sent at the same time (a parallel scan, a fan-out) print the same way
// every run; a Modify's GetItem comes before its UpdateItem either way.
func (db *DB) Report() Cost {
	db.mu.Lock()
	sent := db.sent
	db.sent = nil
	db.mu.Unlock()
	var order []string
	per := map[string]*Cost{}
	var total Cost
	for _, r := range sent {
		c := per[r.what]
		if c == nil {
			c = &Cost{}
			per[r.what] = c
			order = append(order, r.what)
		}
		for _, c := range []*Cost{c, &total} {
			c.Requests++
			c.Read += r.read
			c.Returned += r.returned
			if r.write {
				c.Writes++
				c.WCU += r.units
			} else {
				c.RCU += r.units
			}
		}
	}
	slices.Sort(order)
	for _, what := range order {
		fmt.Fprintf(db.w, "  > %s\n    %s\n", what, per[what])
	}
	return total
}

// String describes c: 1 request, 4 items read, 4 returned, 0.5 RCU.
func (c Cost) String() string {
	s := fmt.Sprintf("%d request%s", c.Requests, plural(c.Requests))
	if c.Writes == c.Requests {
		return s + fmt.Sprintf(", %g WCU", c.WCU)
	}
	return s + fmt.Sprintf(", %d item%s read, %d returned, %g RCU", c.Read, plural(c.Read), c.Returned, c.RCU)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
