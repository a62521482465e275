package shard_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/shard"
)

// A schema with a sharded index declared once, at package level, as a
// service declares it: in the three descriptions of a change of its
// shard count (3 shards, then 8 with 3 before, then 8; see
// reshard_test.go).
var (
	twins3, twinOrders3       = reshardSchema(open3)
	twins8, twinOrders8       = reshardSchema(open8)
	twinsDone, twinOrdersDone = reshardSchema(open8Done)
)

// twin is the package-level schema bound to a table of its own, in every
// description; its orders carry label as their Customer.
type twin struct {
	label  string
	before *keyfirst.Entity[Order] // 3 shards
	during *keyfirst.Entity[Order] // 8 shards, 3 before
	after  *keyfirst.Entity[Order] // 8 shards
}

func bindTwin(t *testing.T, label string) twin {
	t.Helper()
	table := integration.TableOf(t, twins3)
	return twin{
		label:  label,
		before: keyfirst.Must(twinOrders3.In(table)),
		during: keyfirst.Must(twinOrders8.In(keyfirst.Must(twins8.Named(table.Name())))),
		after:  keyfirst.Must(twinOrdersDone.In(keyfirst.Must(twinsDone.Named(table.Name())))),
	}
}

// Two bindings of one package-level schema with a sharded index, used at
// the same time from two goroutines with the same keys, each see only
// their own table's items: through the writes that place items on the
// shards, the fan-out read and its cursor, and a re-shard pass. A cursor
// or a re-shard checkpoint of one is refused by the other before any
// request.
func TestTwoTablesOneSchema(t *testing.T) {
	t.Parallel()
	client := integration.Client(t)
	a, b := bindTwin(t, "A"), bindTwin(t, "B")
	if a.before.Table().Name() == b.before.Table().Name() || !a.before.Table().SameSchema(b.before.Table()) {
		t.Fatalf("bindings %q and %q", a.before.Table().Name(), b.before.Table().Name())
	}
	ctx, cancel := integration.Context(t)
	defer cancel()
	done := make(chan error, 2)
	for _, tw := range []twin{a, b} {
		go func() { done <- tw.exercise(ctx, client) }()
	}
	if err := errors.Join(<-done, <-done); err != nil {
		t.Fatal(err)
	}

	refused := func(what string, err error) {
		t.Helper()
		var re *shard.ReadError
		if !errors.As(err, &re) || re.Problem != shard.ReadCursor || !errors.Is(err, query.ErrCursorMismatch) {
			t.Errorf("%s of A on B: %v, want a *ReadError %s wrapping query.ErrCursorMismatch", what, err, shard.ReadCursor)
		}
	}
	// The same read (index, condition, direction) on B refuses A's cursor:
	// its binding holds the table.
	read := func(tw twin) shard.Reader[Order] { return shard.Query(tw.during, open8).Desc().Limit(2) }
	page, err := read(a).Page(ctx, client)
	if err != nil || page.Next == "" {
		t.Fatalf("page of A: %v, %q", err, page.Next)
	}
	_, err = read(b).After(page.Next).Page(ctx, noCalls{T: t})
	refused("cursor", err)

	// A's checkpoints: after its first item (it holds a query cursor of
	// A), and at the start of shard 1 (a pass cancelled after shard 0's
	// page: it holds no query cursor, only the shard).
	inShard, err := open8.Reshard(ctx, a.during, client, shard.WithItems(1))
	if err != nil || inShard.Next == "" {
		t.Fatalf("a pass of one item on A: %v, %+v", err, inShard)
	}
	cctx, stop := context.WithCancel(ctx)
	atShard, err := open8.Reshard(cctx, a.during, client, shard.WithProgress(func(shard.ReshardStats) { stop() }))
	stop()
	if !errors.Is(err, context.Canceled) || atShard.Next == "" {
		t.Fatalf("a pass on A cancelled after its first page: %v, %+v", err, atShard)
	}
	for what, cp := range map[string]shard.Checkpoint{"checkpoint in a shard": inShard.Next, "checkpoint at a shard's start": atShard.Next} {
		_, err := open8.Reshard(ctx, b.during, noCalls{T: t}, shard.WithCheckpoint(cp))
		refused(what, err)
	}
}

// exercise writes the twin's own orders through its entity, reads them
// with the fan-out reader, whole and paged, re-shards them from 3 shards
// to 8, and checks that every read returns exactly its own orders.
func (tw twin) exercise(ctx context.Context, client *dynamodb.Client) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: "+format, append([]any{tw.label}, args...)...)
	}
	o := func(id, status string, day int) Order {
		x := order(id, status, fmt.Sprintf("2026-06-%02dT10:00:00Z", day))
		x.Customer = tw.label
		return x
	}
	key := func(id string) (keyfirst.Key[Order], error) { return tw.before.Key(o(id, open, 1)) }
	mine := func(what string, x Order) error {
		if x.Customer != tw.label {
			return fail("%s saw %+v", what, x)
		}
		return nil
	}
	for i := range 8 {
		if _, err := tw.before.Put(ctx, client, o(fmt.Sprintf("o-%02d", i), open, 1+i%3)); err != nil {
			return fail("Put: %w", err)
		}
	}
	// o-01 changes its sort value, o-02 leaves the index, o-03 is gone.
	for id, change := range map[string]func(*Order){
		"o-01": func(x *Order) { x.Date = "2026-06-09T10:00:00Z" },
		"o-02": func(x *Order) { x.Status = closed },
	} {
		k, err := key(id)
		if err != nil {
			return fail("Key: %w", err)
		}
		if _, err := tw.before.ModifyE(ctx, client, k, func(x *Order) error { change(x); return mine("Modify", *x) }); err != nil {
			return fail("Modify %s: %w", id, err)
		}
	}
	if err := tw.before.Delete(ctx, client, o("o-03", open, 1)); err != nil {
		return fail("Delete: %w", err)
	}
	k4, err := key("o-04")
	if err != nil {
		return fail("Key: %w", err)
	}
	if err := tw.before.Table().BatchWrite(ctx, client, []keyfirst.WriteRequest{
		tw.before.PutRequest(o("o-08", open, 2)), tw.before.PutRequest(o("o-09", open, 3)),
		tw.before.PutRequest(o("o-10", closed, 3)), tw.before.DeleteRequest(k4),
	}); err != nil {
		return fail("BatchWrite: %w", err)
	}
	want := []Order{o("o-00", open, 1), o("o-01", open, 9), o("o-05", open, 3), o("o-06", open, 1),
		o("o-07", open, 2), o("o-08", open, 2), o("o-09", open, 3)}
	slices.SortFunc(want, newestFirst)
	moves := 0 // the orders whose shard differs between 3 and 8
	for _, x := range want {
		if wantShard(x.ID, 3) != wantShard(x.ID, 8) {
			moves++
		}
	}

	if err := until(ctx, func() ([]Order, error) { return shard.Query(tw.before, open3).Desc().Collect(ctx, client) }, want); err != nil {
		return fail("Collect on 3 shards: %w", err)
	}
	var paged []Order
	for reader, cur := shard.Query(tw.before, open3).Desc().Limit(2), shard.Cursor(""); ; {
		page, err := reader.After(cur).Page(ctx, client)
		if err != nil {
			return fail("Page: %w", err)
		}
		if paged, cur = append(paged, page.Items...), page.Next; cur == "" {
			break
		}
	}
	if !slices.Equal(paged, want) {
		return fail("the pages on 3 shards: %v, want %v", paged, want)
	}

	// The pass, 3 items a call, each resuming at the last one's checkpoint.
	var st shard.ReshardStats
	for calls := 0; calls == 0 || st.Next != ""; calls++ {
		next, err := open8.Reshard(ctx, tw.during, client, shard.WithCheckpoint(st.Next), shard.WithItems(3))
		if err != nil {
			return fail("Reshard: %w", err)
		}
		st = shard.ReshardStats{Read: st.Read + next.Read, Moved: st.Moved + next.Moved, Gone: st.Gone + next.Gone, Next: next.Next}
	}
	if st.Moved != moves || st.Gone != 0 {
		return fail("the pass moved %d, %d gone; %d orders have another shard on 8 than on 3", st.Moved, st.Gone, moves)
	}
	// Each order on its shard of 8, and nothing else on any shard.
	wantPlaced := make([]placed, len(want))
	for i, x := range want {
		wantPlaced[i] = placed{x, wantShard(x.ID, 8)}
	}
	if err := until(ctx, func() ([]placed, error) { return placing(ctx, client, tw.during) }, wantPlaced); err != nil {
		return fail("the shards of 8: %w", err)
	}
	if err := until(ctx, func() ([]Order, error) { return shard.Query(tw.after, open8Done).Desc().Collect(ctx, client) }, want); err != nil {
		return fail("Collect on 8 shards: %w", err)
	}
	return nil
}

// placed is an order and the partition of the index it was read on.
type placed struct {
	Order
	Partition string
}

// placing reads every partition of open8 with the query package, and
// returns what it read newest first.
func placing(ctx context.Context, client keyfirst.QueryAPI, e *keyfirst.Entity[Order]) ([]placed, error) {
	var out []placed
	for _, part := range open8.ReadPartitions() {
		got, err := query.On(e, openByDate, part).Collect(ctx, client)
		if err != nil {
			return nil, err
		}
		for _, x := range got {
			out = append(out, placed{x, part})
		}
	}
	slices.SortFunc(out, func(x, y placed) int { return newestFirst(x.Order, y.Order) })
	return out, nil
}

// newestFirst is the merged order of a Desc read of the open orders: by
// date, then by table key (ORDER#<id>, so by id), both descending.
func newestFirst(x, y Order) int { return cmp.Or(cmp.Compare(y.Date, x.Date), cmp.Compare(y.ID, x.ID)) }

// until reads until read returns want (a GSI is eventually consistent),
// within ctx; it reports the last read when ctx ends first.
func until[V comparable](ctx context.Context, read func() ([]V, error), want []V) error {
	for {
		got, err := read()
		if err != nil || slices.Equal(got, want) {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w: read %v, want %v", ctx.Err(), got, want)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
