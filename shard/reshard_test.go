package shard_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/shard"
)

// ---- the re-shard table: seed 002's open orders, from 3 shards to 8 ----
//
// One physical table, three descriptions of it: before the change (3
// shards), during it (written on 8, read on 8 while items may still be
// on the 3 old ones) and after it (8 shards). The service's deployment
// switches from one to the next, each reading through the declaration
// its entity binds; the tests bind all three to the same table.

func openSpec(shards, previous int) *shard.Index[Order, string] {
	return keyfirst.Must(shard.New(openByDate, shard.Spec[Order, string]{
		Base: "OPEN", Shards: shards, PreviousShards: previous, Field: "ID",
		Sort: func(o Order) string { return o.Date }, When: Order.isOpen,
	}))
}

var (
	open3, open8, open8Done = openSpec(3, 0), openSpec(8, 3), openSpec(8, 0)
)

// reshardSchema is the table described with ix as its open-orders index.
func reshardSchema(ix *shard.Index[Order, string]) (*keyfirst.Table, *keyfirst.Entity[Order]) {
	table := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "reshard", Key: orderByID, GSIs: []keyfirst.Index{openByDate.Index()}}))
	return table, keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[Order]{
		Type: "ORDER", Keys: []keyfirst.Binding{orderByID.Fields("ID"), ix.Binding()},
	}))
}

// resharding is the table in DynamoDB Local, with the entity of each
// description bound to it.
type resharding struct {
	client   *dynamodb.Client
	before   *keyfirst.Entity[Order] // 3 shards
	during   *keyfirst.Entity[Order] // 8 shards, 3 before
	after    *keyfirst.Entity[Order] // 8 shards, once the pass is done
	orders   []Order
	newest   []string // the orders' ids newest first: by date, then id, both descending
	expected int      // the orders whose shard differs between 3 and 8
}

// localResharding creates the table and writes n open orders on 3 shards,
// 25 dates, so many equal sort values.
func localResharding(t *testing.T, n int) (resharding, context.Context) {
	t.Helper()
	schema3, e3 := reshardSchema(open3)
	schema8, e8 := reshardSchema(open8)
	schemaDone, eDone := reshardSchema(open8Done)
	table, ctx := localTable(t, schema3)
	r := resharding{
		client: integration.Client(t),
		before: keyfirst.Must(e3.In(table)),
		during: keyfirst.Must(e8.In(keyfirst.Must(schema8.Named(table.Name())))),
		after:  keyfirst.Must(eDone.In(keyfirst.Must(schemaDone.Named(table.Name())))),
	}
	reqs := make([]keyfirst.WriteRequest, n)
	for i := range n {
		o := order(fmt.Sprintf("o-%04d", i), open, fmt.Sprintf("2026-06-%02dT10:00:00Z", 1+i%25))
		r.orders = append(r.orders, o)
		reqs[i] = r.before.PutRequest(o)
		if wantShard(o.ID, 3) != wantShard(o.ID, 8) {
			r.expected++
		}
	}
	if err := table.BatchWrite(ctx, r.client, reqs); err != nil {
		t.Fatal(err)
	}
	r.newest = inKeyOrder(r.orders, func(o Order) string { return o.Date }, func(o Order) string { return o.ID }, true)
	return r, ctx
}

// Re-shard from 3 to 8 while a reader pages through, newest first, 7 at a
// time: its first page is read on 3 shards, the next ones on 8 with the
// cursor of the first, and between every two pages the pass moves the
// next 40 items. The chain is every order once, in order, with no gap
// and no repeat; then every order is on its 8-shard partition, the pass
// moved exactly the orders whose shard changed, and the read without
// PreviousShards returns them all.
func TestReshardWhileReading(t *testing.T) {
	t.Parallel()
	r, ctx := localResharding(t, 300)
	key := keyfirst.WithCursorKey([]byte("0123456789abcdef0123456789abcdef"))
	page, err := shard.Query(r.before, open3, key).Desc().Limit(7).Page(ctx, r.client)
	if err != nil {
		t.Fatal(err)
	}
	chain := orderIDs(page.Items)
	reader := shard.Query(r.during, open8, key).Desc().Limit(7)
	var cp shard.Checkpoint
	var moved, passes int
	for cur := page.Next; cur != ""; cur = page.Next {
		if passes == 0 || cp != "" {
			st, err := open8.Reshard(ctx, r.during, r.client, shard.WithCheckpoint(cp), shard.WithItems(40))
			if err != nil {
				t.Fatal(err)
			}
			cp, moved, passes = st.Next, moved+st.Moved, passes+1
		}
		if page, err = reader.After(cur).Page(ctx, r.client); err != nil {
			t.Fatal(err)
		}
		chain = append(chain, orderIDs(page.Items)...)
	}
	if !slices.Equal(chain, r.newest) {
		t.Fatalf("the chain while re-sharding: %s", firstDiff(chain, r.newest))
	}
	for cp != "" {
		st, err := open8.Reshard(ctx, r.during, r.client, shard.WithCheckpoint(cp), shard.WithItems(40))
		if err != nil {
			t.Fatal(err)
		}
		cp, moved = st.Next, moved+st.Moved
	}
	if moved != r.expected || r.expected == 0 {
		t.Errorf("moved %d orders, %d have another shard on 8 than on 3", moved, r.expected)
	}
	r.checkPlaced(t, ctx)
	all, err := shard.Query(r.after, open8Done).Desc().Collect(ctx, r.client)
	if err != nil || !slices.Equal(orderIDs(all), r.newest) {
		t.Fatalf("after the pass, on 8 shards: %v, %s", err, firstDiff(orderIDs(all), r.newest))
	}
}

// checkPlaced checks that every order is on its partition of 8 shards,
// and none is left on another.
func (r resharding) checkPlaced(t *testing.T, ctx context.Context) {
	t.Helper()
	seen := 0
	for _, part := range open8.ReadPartitions() {
		got, err := query.On(r.during, openByDate, part).Collect(ctx, r.client)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range got {
			if w := wantShard(o.ID, 8); w != part {
				t.Errorf("%s is on %s, its shard of 8 is %s", o.ID, part, w)
			}
		}
		seen += len(got)
	}
	if seen != len(r.orders) {
		t.Errorf("%d orders in the index, want %d", seen, len(r.orders))
	}
}

// A pass cancelled mid-run resumes from its last checkpoint: every order
// whose shard changed is moved exactly once over the two calls.
func TestReshardResumes(t *testing.T) {
	t.Parallel()
	r, ctx := localResharding(t, 200)
	cctx, cancel := context.WithCancel(ctx)
	var last shard.ReshardStats
	st, err := open8.Reshard(cctx, r.during, r.client, shard.WithProgress(func(s shard.ReshardStats) {
		last = s
		if s.Read >= 150 {
			cancel()
		}
	}))
	cancel()
	var se *shard.ShardError
	if !errors.Is(err, context.Canceled) || !errors.As(err, &se) || st.Next == "" || st.Read < 150 || last.Read > st.Read {
		t.Fatalf("cancelled pass: %v, %+v", err, st)
	}
	rest, err := open8.Reshard(ctx, r.during, r.client, shard.WithCheckpoint(st.Next))
	if err != nil || rest.Next != "" {
		t.Fatalf("resumed pass: %v, %+v", err, rest)
	}
	if st.Moved+rest.Moved != r.expected {
		t.Errorf("moved %d + %d orders, %d have another shard on 8 than on 3", st.Moved, rest.Moved, r.expected)
	}
	r.checkPlaced(t, ctx)
}

// Bad inputs to Reshard are refused with a *ReadError before any request.
func TestReshardBadInputs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	schema8, e8 := reshardSchema(open8)
	calls := noCalls{T: t}
	other := firstCheckpoint(t, customerShards, byCustomerOrders) // of open-by-customer
	// Of the same index on another table: a checkpoint at a shard
	// boundary, which holds no query cursor to bind it.
	onA := keyfirst.Must(e8.In(keyfirst.Must(schema8.Named("reshard-a"))))
	onB := keyfirst.Must(e8.In(keyfirst.Must(schema8.Named("reshard-b"))))
	ofA := firstCheckpoint(t, open8, onA)
	signed := keyfirst.WithCursorKey([]byte("0123456789abcdef0123456789abcdef"))
	signedOfA := firstCheckpoint(t, open8, onA, signed)
	cases := []struct {
		name    string
		run     func() (shard.ReshardStats, error)
		problem shard.ReadProblem
		is      error
	}{
		{"nil entity", func() (shard.ReshardStats, error) { return open8.Reshard(ctx, nil, calls) }, shard.ReadSource, nil},
		{"nil client", func() (shard.ReshardStats, error) { return open8.Reshard(ctx, e8, nil) }, shard.ReadClient, nil},
		{"negative items", func() (shard.ReshardStats, error) { return open8.Reshard(ctx, e8, calls, shard.WithItems(-1)) }, shard.ReadLimit, nil},
		{"malformed checkpoint", func() (shard.ReshardStats, error) {
			return open8.Reshard(ctx, e8, calls, shard.WithCheckpoint("!!"))
		}, shard.ReadCursor, query.ErrCursorMalformed},
		{"checkpoint of another index", func() (shard.ReshardStats, error) {
			return open8.Reshard(ctx, e8, calls, shard.WithCheckpoint(other))
		}, shard.ReadCursor, query.ErrCursorMismatch},
		{"checkpoint of another table", func() (shard.ReshardStats, error) {
			return open8.Reshard(ctx, onB, calls, shard.WithCheckpoint(ofA))
		}, shard.ReadCursor, query.ErrCursorMismatch},
		{"unsigned checkpoint to a signed pass", func() (shard.ReshardStats, error) {
			return open8.Reshard(ctx, onA, calls, shard.WithCheckpoint(ofA), signed)
		}, shard.ReadCursor, query.ErrCursorTampered},
		{"signed checkpoint with its shard changed", func() (shard.ReshardStats, error) {
			return open8.Reshard(ctx, onA, calls, shard.WithCheckpoint(skipAhead(t, signedOfA)), signed)
		}, shard.ReadCursor, query.ErrCursorTampered},
	}
	if _, err := open8.Reshard(ctx, onA, cannedEmpty{calls}, shard.WithCheckpoint(signedOfA), signed); err != nil {
		t.Errorf("the signed checkpoint, unchanged: %v", err)
	}
	for _, c := range cases {
		var re *shard.ReadError
		_, err := c.run()
		if !errors.As(err, &re) || re.Problem != c.problem || (c.is != nil && !errors.Is(err, c.is)) {
			t.Errorf("%s: %v, want a *ReadError %s", c.name, err, c.problem)
		}
	}
}

// A checkpoint of a pass stopped inside its first shard resumes as
// written, and every other encoding of it is refused with a *ReadError
// (ReadCursor, query.ErrCursorMalformed) before any request, unsigned
// too: its query cursor dropped (accepted before: the pass read the shard
// again from its start), its shard number dropped, a field repeated, the
// fields reordered or spaced out.
func TestReshardCheckpointEdits(t *testing.T) {
	t.Parallel()
	r, ctx := localResharding(t, 60)
	st, err := open8.Reshard(ctx, r.during, r.client, shard.WithItems(5))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base64.RawURLEncoding.DecodeString(string(st.Next))
	if err != nil || !bytes.Contains(raw, []byte(`"i":0,`)) || bytes.Contains(raw, []byte(`"c":""`)) {
		t.Fatalf("checkpoint %s (%v): want one inside shard 0", raw, err)
	}
	var fields map[string]any
	if err := json.Unmarshal(raw, &fields); err != nil {
		t.Fatal(err)
	}
	reordered, _ := json.Marshal(fields) // alphabetical: c, i, p, t, x
	var spaced bytes.Buffer
	if err := json.Indent(&spaced, raw, "", " "); err != nil {
		t.Fatal(err)
	}
	cursor := fmt.Sprintf(`,"c":%q`, fields["c"])
	for name, edited := range map[string][]byte{
		"query cursor dropped": bytes.Replace(raw, []byte(cursor), nil, 1),
		"shard number dropped": bytes.Replace(raw, []byte(`"i":0,`), nil, 1),
		"a field repeated":     bytes.Replace(raw, []byte(`"i":0,`), []byte(`"i":0,"i":0,`), 1),
		"fields reordered":     reordered,
		"spaced out":           spaced.Bytes(),
	} {
		if bytes.Equal(edited, raw) {
			t.Fatalf("%s: not an edit of %s", name, raw)
		}
		cp := shard.Checkpoint(base64.RawURLEncoding.EncodeToString(edited))
		_, err := open8.Reshard(ctx, r.during, noCalls{T: t}, shard.WithCheckpoint(cp))
		var re *shard.ReadError
		if !errors.As(err, &re) || re.Problem != shard.ReadCursor || !errors.Is(err, query.ErrCursorMalformed) {
			t.Errorf("%s (%s): %v, want a *ReadError ReadCursor, malformed", name, edited, err)
		}
	}
	rest, err := open8.Reshard(ctx, r.during, r.client, shard.WithCheckpoint(st.Next))
	if err != nil || rest.Next != "" || st.Moved+rest.Moved != r.expected {
		t.Fatalf("resumed as written: %v, moved %d + %d of %d", err, st.Moved, rest.Moved, r.expected)
	}
	r.checkPlaced(t, ctx)
}

// firstCheckpoint is the first checkpoint a pass of ix through e reports
// on an index whose shards are all empty: at the start of shard 1, a shard
// boundary.
func firstCheckpoint[S any](t *testing.T, ix *shard.Index[Order, S], e *keyfirst.Entity[Order], optFns ...func(*keyfirst.Options)) shard.Checkpoint {
	t.Helper()
	var cp shard.Checkpoint
	if _, err := ix.Reshard(context.Background(), e, cannedEmpty{}, append(optFns, shard.WithProgress(func(s shard.ReshardStats) {
		cp = cmp.Or(cp, s.Next)
	}))...); err != nil || cp == "" {
		t.Fatalf("a pass of %s on %s: %v, no checkpoint", ix.Pattern().IndexName(), e.Table().Name(), err)
	}
	return cp
}

// skipAhead is cp with its shard number moved on by 3, its signature
// kept: what a hand edit to skip shards would send.
func skipAhead(t *testing.T, cp shard.Checkpoint) shard.Checkpoint {
	t.Helper()
	body, sig, ok := strings.Cut(string(cp), ".")
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if !ok || err != nil || !bytes.Contains(raw, []byte(`"i":1,`)) {
		t.Fatalf("checkpoint %q: not a signed body holding shard 1 (%v)", cp, err)
	}
	raw = bytes.Replace(raw, []byte(`"i":1,`), []byte(`"i":4,`), 1)
	return shard.Checkpoint(base64.RawURLEncoding.EncodeToString(raw) + "." + sig)
}

// cannedEmpty answers every query with an empty last page.
type cannedEmpty struct{ noCalls }

func (cannedEmpty) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return &dynamodb.QueryOutput{}, nil
}

// A pass given the entity of another binding (3 shards, while the Index
// has 8) stops at the first item it would move, before writing it: that
// entity's rewrite would put the item back on its old shard and count it
// as moved.
func TestReshardRefusesAnotherBinding(t *testing.T) {
	t.Parallel()
	r, ctx := localResharding(t, 30)
	st, err := open8.Reshard(ctx, r.before, r.client)
	var re *shard.ReadError
	if !errors.As(err, &re) || re.Problem != shard.ReadBinding || !errors.Is(err, shard.ErrInvalidRead) || st.Moved != 0 {
		t.Fatalf("pass with the 3-shard entity: %v, %+v; want ReadBinding, nothing moved", err, st)
	}
	t.Log(err)
	for _, o := range r.orders {
		got, err := r.before.Get(ctx, r.client, keyfirst.Must(r.before.Key(o)), keyfirst.ConsistentRead())
		if err != nil || got != o {
			t.Fatalf("%s after the refused pass: %+v, %v", o.ID, got, err)
		}
	}
}

// A pass that stops on an error of the client or on a cancelled context
// reports the checkpoint after the last item it finished, however it
// stopped: resumed from it, every order whose shard changed is moved
// exactly once over the passes, and counted once. The passes stop on a
// shard's query failing on its second page, a write failing, the
// context cancelled while a write is on its way (DynamoDB applies it,
// the answer is lost to the cancel), and a read of the item failing.
func TestReshardResumesAfterErrors(t *testing.T) {
	t.Parallel()
	r, ctx := localResharding(t, 400)
	api := &faults{Client: r.client}
	errInjected := errors.New("injected by the test")
	fail := func(op string, at int) func(string, int, context.CancelFunc) error {
		return func(o string, n int, _ context.CancelFunc) error {
			if o == op && n == at {
				return errInjected
			}
			return nil
		}
	}
	passes := []struct {
		name   string
		inject func(op string, n int, cancel context.CancelFunc) error
		want   error
	}{
		{"the second page of a shard fails", fail("Query", 2), errInjected},
		{"a write fails", fail("UpdateItem", 30), errInjected},
		{"cancelled while a write is on its way", func(op string, n int, cancel context.CancelFunc) error {
			if op == "UpdateItem" && n == 20 {
				cancel()
			}
			return nil
		}, context.Canceled},
		{"a read fails", fail("GetItem", 10), errInjected},
		{"to the end", nil, nil},
	}
	var cp shard.Checkpoint
	moved, gone := 0, 0
	for _, p := range passes {
		pctx, cancel := context.WithCancel(ctx)
		api.start(func(op string, n int) error {
			if p.inject == nil {
				return nil
			}
			return p.inject(op, n, cancel)
		})
		st, err := open8.Reshard(pctx, r.during, api, shard.WithCheckpoint(cp))
		cancel()
		var se *shard.ShardError
		if p.want == nil && err != nil || p.want != nil && (!errors.Is(err, p.want) || !errors.As(err, &se)) {
			t.Fatalf("%s: %v, want %v", p.name, err, p.want)
		}
		t.Logf("%s: %+v, %v", p.name, st, err)
		if p.want != nil && st.Next == "" {
			t.Fatalf("%s: no checkpoint", p.name)
		}
		cp, moved, gone = st.Next, moved+st.Moved, gone+st.Gone
	}
	if cp != "" {
		t.Fatal("the last pass did not finish")
	}
	if moved != r.expected || gone != 0 || r.expected == 0 {
		t.Errorf("moved %d, gone %d over the passes; %d orders have another shard on 8 than on 3", moved, gone, r.expected)
	}
	if len(api.updated) != r.expected {
		t.Errorf("%d orders written, %d have another shard on 8 than on 3", len(api.updated), r.expected)
	}
	for k, n := range api.updated {
		if n != 1 {
			t.Errorf("%s written %d times", k, n)
		}
	}
	r.checkPlaced(t, ctx)
}

// faults wraps a client: before each Query, GetItem and UpdateItem it
// asks inject (the operation, its number among this pass's requests of
// that operation) for an error, which is then the request's, not sent. A
// request whose context ends while it is on its way is applied by
// DynamoDB and its answer lost, as the SDK returns then. It counts the
// successful UpdateItems per key, over every pass.
type faults struct {
	*dynamodb.Client
	mu      sync.Mutex
	inject  func(op string, n int) error
	counts  map[string]int
	updated map[string]int
}

// start begins a pass with inject.
func (f *faults) start(inject func(op string, n int) error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.inject, f.counts = inject, map[string]int{}
	if f.updated == nil {
		f.updated = map[string]int{}
	}
}

// before is what happens before a request is sent.
func (f *faults) before(ctx context.Context, op string) error {
	if err := ctx.Err(); err != nil {
		return err // the SDK sends nothing on an ended context
	}
	f.mu.Lock()
	f.counts[op]++
	n, inject := f.counts[op], f.inject
	f.mu.Unlock()
	return inject(op, n)
}

func (f *faults) Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	if err := f.before(ctx, "Query"); err != nil {
		return nil, err
	}
	return f.Client.Query(ctx, in, optFns...)
}

func (f *faults) GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	if err := f.before(ctx, "GetItem"); err != nil {
		return nil, err
	}
	return f.Client.GetItem(ctx, in, optFns...)
}

func (f *faults) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	if err := f.before(ctx, "UpdateItem"); err != nil {
		return nil, err
	}
	out, err := f.Client.UpdateItem(context.WithoutCancel(ctx), in, optFns...)
	if err == nil {
		f.mu.Lock()
		f.updated[text(in.Key["PK"])]++
		f.mu.Unlock()
	}
	if cerr := ctx.Err(); cerr != nil {
		return nil, cerr // ended while the request was on its way: applied, the answer lost
	}
	return out, err
}
