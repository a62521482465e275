package shard_test

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/shard"

	"github.com/keyfirst/keyfirst/internal/benchorder"
)

// ---- issue 13's benchmark: the newest 50 open orders over 10 shards ----
//
// The spread index of the merge table (10 shards; 30 in BenchmarkFanout30)
// and its single-partition reference (spread-ref, ALL#0) hold the same
// fanItems. DynamoDB Local answers every request once, recorded
// (recorder); the timed loops then send their requests to a replayer,
// which returns the recorded answer fanDelay after each request, as
// DynamoDB answers (see replay_test.go for why not Local itself). The
// pair BenchmarkFanout/keyfirst (the default reader) and
// BenchmarkFanout/hand (goroutines and a heap, written by hand, sending
// the same requests: TestFanoutTwinsAgree) is the library's cost;
// BenchmarkFanout/single-partition is the floor the default stays within
// 1.2x of. Every reader returns the single partition's items, checked
// against Local and against the replay before the timed loops. Variants
// are interleaved by running rounds of -count 1 (benchratio does):
//
//	go test -run '^$' -bench Fanout -benchtime 300ms -count 5 ./shard/

const (
	fanLimit = 50
	fanDelay = 20 * time.Millisecond
)

// fanItems are n items on shards picked as the default hash picks them
// (the frozen hash of the id), each with its own sort value, so that every
// reader's order is the one order of the single partition.
func fanItems(n, shards int) []Item {
	out := make([]Item, n)
	for i := range out {
		id := fmt.Sprintf("o-%05d", (i*7919)%n)
		out[i] = Item{ID: id, Bucket: fmt.Sprintf("D%05d", i), Shard: int(shard.Hash(id) % uint32(shards))}
	}
	return out
}

// fanCount is the client of the timed loops: it counts the requests and
// the items they read.
type fanCount struct {
	api      keyfirst.QueryAPI
	requests atomic.Int64
	items    atomic.Int64
}

func (c *fanCount) Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.requests.Add(1)
	out, err := c.api.Query(ctx, in, optFns...)
	if out != nil {
		c.items.Add(int64(len(out.Items)))
	}
	return out, err
}

// fanRead is one way to read the newest fanLimit items.
type fanRead struct {
	name string
	read func(ctx context.Context, c keyfirst.QueryAPI) ([]Item, error)
}

// fanFixture is the merge table loaded with 2,000 fanItems over shards
// shards, and the ways to read its newest fanLimit.
type fanFixture struct {
	m     merging
	ctx   context.Context
	reads []fanRead // the floor first
}

// newFanFixture creates and loads the table of a fan-out over shards
// shards.
func newFanFixture(t testing.TB, shards int) fanFixture {
	t.Helper()
	m, ctx := localMerge(t)
	ix := spreadShards
	if shards != 10 {
		ix = spreadSpec(shards, 0)
		m.items = m.itemsOn(ix)
		m.table = m.items.Table() // the description that declares ix
	}
	m.load(t, ctx, fanItems(2000, shards))
	table := m.table.Name()
	keyfirstRead := func(r shard.Reader[Item]) func(context.Context, keyfirst.QueryAPI) ([]Item, error) {
		return func(ctx context.Context, c keyfirst.QueryAPI) ([]Item, error) {
			page, err := r.Page(ctx, c)
			return page.Items, err
		}
	}
	return fanFixture{m: m, ctx: ctx, reads: []fanRead{
		{"single-partition", func(ctx context.Context, c keyfirst.QueryAPI) ([]Item, error) {
			page, err := query.On(m.items, spreadRefIx, "ALL#0").Desc().Limit(fanLimit).Page(ctx, c)
			return page.Items, err
		}},
		{"keyfirst", keyfirstRead(shard.Query(m.items, ix).Desc().Limit(fanLimit))},
		{"keyfirst-latency-first", keyfirstRead(shard.Query(m.items, ix).Desc().Limit(fanLimit).LatencyFirst())},
		{"hand", func(ctx context.Context, c keyfirst.QueryAPI) ([]Item, error) {
			return handFanout(ctx, c, table, shards)
		}},
		{"sequential-sort", func(ctx context.Context, c keyfirst.QueryAPI) ([]Item, error) {
			return sequentialFanout(ctx, c, table, shards)
		}},
	}}
}

// check runs every read through c and fails unless each returns the
// floor's fanLimit items in the floor's order.
func (f fanFixture) check(t testing.TB, c keyfirst.QueryAPI) {
	t.Helper()
	var want []string
	for _, r := range f.reads {
		got, err := r.read(f.ctx, c)
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		ids := itemIDs(got)
		if want == nil {
			want = ids
			if len(want) != fanLimit {
				t.Fatalf("%s: %d items, want %d", r.name, len(want), fanLimit)
			}
		}
		if !slices.Equal(ids, want) {
			t.Fatalf("%s differs from the single partition: %s", r.name, firstDiff(ids, want))
		}
	}
}

func BenchmarkFanout(b *testing.B) { fanout(b, 10) }

// BenchmarkFanout30 is BenchmarkFanout over 30 shards.
func BenchmarkFanout30(b *testing.B) { fanout(b, 30) }

func fanout(b *testing.B, shards int) {
	runs := benchorder.New(b)
	f := newFanFixture(b, shards)
	// Outside the timed loops: every request of every reader is sent to
	// DynamoDB Local twice (the recorder fails if an answer changes), then
	// once more to the replayer; each time every reader returns the
	// floor's items.
	rec := newRecorder(f.m.client.Options().HTTPClient)
	local := withHTTP(f.m.client, rec)
	f.check(b, local)
	f.check(b, local)
	play := rec.replayer(fanDelay)
	client := withHTTP(f.m.client, play)
	f.check(b, client)

	for _, r := range f.reads {
		runs.Run(r.name, func(b *testing.B) {
			c := &fanCount{api: client}
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				got, err := r.read(f.ctx, c)
				if err != nil || len(got) != fanLimit {
					b.Fatal(len(got), err)
				}
				n++
			}
			b.ReportMetric(float64(c.requests.Load())/float64(n), "requests/op")
			b.ReportMetric(float64(c.items.Load())/float64(n*fanLimit), "read/returned")
		})
	}
	runs.Done()
	if n := play.missed.Load(); n > 0 {
		b.Fatalf("%d requests had no recorded answer", n)
	}
}

// shardInput is the raw request for the newest limit items of one
// partition of the spread index after start (nil: from the newest),
// written as keyfirst writes it.
func shardInput(table, part string, limit int, start map[string]types.AttributeValue) *dynamodb.QueryInput {
	return &dynamodb.QueryInput{
		TableName:                 aws.String(table),
		IndexName:                 aws.String("spread"),
		KeyConditionExpression:    aws.String("#0 = :0"),
		ExpressionAttributeNames:  map[string]string{"#0": "spread_shard"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":0": &types.AttributeValueMemberS{Value: part}},
		ScanIndexForward:          aws.Bool(false),
		Limit:                     aws.Int32(int32(limit)),
		ExclusiveStartKey:         start,
		ReturnConsumedCapacity:    types.ReturnConsumedCapacityIndexes,
	}
}

// handShard is shard n of the hand-written reader: the items read and
// not yet merged, where its next read starts, and its last read's limit.
type handShard struct {
	n     int
	items []Item
	start map[string]types.AttributeValue
	more  bool
	limit int
}

// read reads the shard's next limit items with the raw SDK, decoded with
// attributevalue.
func (s *handShard) read(ctx context.Context, c keyfirst.QueryAPI, table string, limit int) error {
	n := s.n
	out, err := c.Query(ctx, shardInput(table, fmt.Sprintf("S#%d", n), limit, s.start))
	if err != nil {
		return fmt.Errorf("shard %d: %w", n, err)
	}
	var items []Item
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &items); err != nil {
		return fmt.Errorf("shard %d: %w", n, err)
	}
	s.items, s.start, s.more, s.limit = items, out.LastEvaluatedKey, out.LastEvaluatedKey != nil, limit
	return nil
}

// handShare is what the hand-written reader asks each of shards shards
// for first: its share of fanLimit and three standard deviations of it,
// and one more (13 of 50 over 10 shards, 7 over 30), as keyfirst's
// default does.
func handShare(shards int) int {
	mean := float64(fanLimit) / float64(shards)
	return int(math.Ceil(mean+3*math.Sqrt(mean*(1-1/float64(shards))))) + 1
}

// handFanout is the reader a user writes by hand: one goroutine per
// shard, each asking for the shard's share of the limit (handShare), then
// a heap merge of the shards' results, newest first; a shard that runs
// out while the merge needs it is read again, for twice its last limit
// (at most the items still missing). On the benchmark's items (every
// shard holds its share) it sends the requests keyfirst's default sends
// (TestFanoutTwinsAgree).
func handFanout(ctx context.Context, c keyfirst.QueryAPI, table string, shards int) ([]Item, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	state := make([]handShard, shards)
	errs := make([]error, shards)
	var wg sync.WaitGroup
	for n := range shards {
		state[n].n = n
		wg.Add(1)
		go func() {
			defer wg.Done()
			if errs[n] = state[n].read(ctx, c, table, handShare(shards)); errs[n] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	h := &newestHeap{}
	for n := range state {
		if len(state[n].items) > 0 {
			*h = append(*h, &state[n])
		}
	}
	heap.Init(h)
	out := make([]Item, 0, fanLimit)
	for h.Len() > 0 && len(out) < fanLimit {
		top := (*h)[0]
		out = append(out, top.items[0])
		top.items = top.items[1:]
		if len(top.items) == 0 && top.more && len(out) < fanLimit {
			if err := top.read(ctx, c, table, min(fanLimit-len(out), 2*top.limit)); err != nil {
				return nil, err
			}
		}
		if len(top.items) == 0 {
			heap.Pop(h)
		} else {
			heap.Fix(h, 0)
		}
	}
	return out, nil
}

// newestHeap holds the shards with items left to merge; the shard whose
// head is newest is on top.
type newestHeap []*handShard

func (h newestHeap) Len() int           { return len(h) }
func (h newestHeap) Less(i, j int) bool { return h[i].items[0].Bucket > h[j].items[0].Bucket }
func (h newestHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *newestHeap) Push(x any)        { *h = append(*h, x.(*handShard)) }
func (h *newestHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// sequentialFanout reads fanLimit items of every shard, one shard after
// the other, then sorts.
func sequentialFanout(ctx context.Context, c keyfirst.QueryAPI, table string, shards int) ([]Item, error) {
	var all []Item
	for n := range shards {
		s := handShard{n: n}
		if err := s.read(ctx, c, table, fanLimit); err != nil {
			return nil, err
		}
		all = append(all, s.items...)
	}
	slices.SortFunc(all, func(a, b Item) int { return strings.Compare(b.Bucket, a.Bucket) })
	return all[:min(fanLimit, len(all))], nil
}
