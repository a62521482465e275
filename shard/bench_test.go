package shard_test

import (
	"container/heap"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/shard"
)

// ---- issue 13's benchmark: the newest 50 open orders over 10 shards ----
//
// The spread index of the merge table (10 shards; 30 in BenchmarkFanout30)
// and its single-partition reference (spread-ref, ALL#0) hold the same
// fanItems; every request goes through fanLatency, which adds fanDelay
// before it, as a network would. The pair BenchmarkFanout/keyfirst (the
// default reader) and BenchmarkFanout/hand (goroutines and a heap,
// written by hand) is the library's cost; BenchmarkFanout/single-partition
// is the floor the default stays within 1.2x of. Every reader returns the
// single partition's items, checked before the timed loops. Variants are
// interleaved by running rounds of -count 1:
//
//	go test -run '^$' -bench Fanout -benchtime 20x -count 1 ./shard/

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

// fanLatency is the client of the benchmark: it waits fanDelay before each
// Query (or until ctx ends) and counts the requests and the items they read.
type fanLatency struct {
	api      keyfirst.QueryAPI
	requests atomic.Int64
	items    atomic.Int64
}

func (c *fanLatency) Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.requests.Add(1)
	t := time.NewTimer(fanDelay)
	select {
	case <-t.C:
	case <-ctx.Done():
		t.Stop()
		return nil, ctx.Err()
	}
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

func BenchmarkFanout(b *testing.B) { fanout(b, 10) }

// BenchmarkFanout30 is BenchmarkFanout over 30 shards.
func BenchmarkFanout30(b *testing.B) { fanout(b, 30) }

func fanout(b *testing.B, shards int) {
	m, ctx := localMerge(b)
	ix := spreadShards
	if shards != 10 {
		ix = spreadSpec(shards, 0)
		m.items = m.itemsOn(ix)
		m.table = m.items.Table() // the description that declares ix
	}
	m.load(b, ctx, fanItems(2000, shards))
	table := m.table.Name()
	keyfirstRead := func(r shard.Reader[Item]) func(context.Context, keyfirst.QueryAPI) ([]Item, error) {
		return func(ctx context.Context, c keyfirst.QueryAPI) ([]Item, error) {
			page, err := r.Page(ctx, c)
			return page.Items, err
		}
	}
	reads := []fanRead{
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
	}

	// Outside the timed loops: every reader returns the floor's items, in
	// its order; this also warms DynamoDB Local's JVM up for all of them.
	var want []string
	for range 20 {
		for _, r := range reads {
			got, err := r.read(ctx, m.client)
			if err != nil {
				b.Fatalf("%s: %v", r.name, err)
			}
			ids := itemIDs(got)
			if want == nil {
				want = ids
				if len(want) != fanLimit {
					b.Fatalf("%s: %d items, want %d", r.name, len(want), fanLimit)
				}
			}
			if !slices.Equal(ids, want) {
				b.Fatalf("%s differs from the single partition: %s", r.name, firstDiff(ids, want))
			}
		}
	}

	for _, r := range reads {
		b.Run(r.name, func(b *testing.B) {
			c := &fanLatency{api: m.client}
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				got, err := r.read(ctx, c)
				if err != nil || len(got) != fanLimit {
					b.Fatal(len(got), err)
				}
				n++
			}
			b.ReportMetric(float64(c.requests.Load())/float64(n), "requests/op")
			b.ReportMetric(float64(c.items.Load())/float64(n*fanLimit), "read/returned")
		})
	}
}

// spreadQuery is the raw request for the newest fanLimit items of one
// partition of the spread index, its key condition built with the SDK's
// expression package.
func spreadQuery(table, part string) (*dynamodb.QueryInput, error) {
	expr, err := expression.NewBuilder().
		WithKeyCondition(expression.Key("spread_shard").Equal(expression.Value(part))).
		Build()
	if err != nil {
		return nil, err
	}
	return &dynamodb.QueryInput{
		TableName:                 aws.String(table),
		IndexName:                 aws.String("spread"),
		KeyConditionExpression:    expr.KeyCondition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
		ScanIndexForward:          aws.Bool(false),
		Limit:                     aws.Int32(fanLimit),
	}, nil
}

// readShard reads the newest fanLimit items of shard n with the raw SDK.
func readShard(ctx context.Context, c keyfirst.QueryAPI, table string, n int) ([]Item, error) {
	in, err := spreadQuery(table, fmt.Sprintf("S#%d", n))
	if err != nil {
		return nil, err
	}
	out, err := c.Query(ctx, in)
	if err != nil {
		return nil, err
	}
	var items []Item
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &items); err != nil {
		return nil, err
	}
	return items, nil
}

// handFanout is the reader a user writes by hand: one goroutine per shard,
// then a heap merge of the shards' results, newest first.
func handFanout(ctx context.Context, c keyfirst.QueryAPI, table string, shards int) ([]Item, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make([][]Item, shards)
	errs := make([]error, shards)
	var wg sync.WaitGroup
	for n := range shards {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[n], errs[n] = readShard(ctx, c, table, n)
			if errs[n] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	h := &newestHeap{}
	for n, items := range results {
		if errs[n] != nil {
			return nil, fmt.Errorf("shard %d: %w", n, errs[n])
		}
		if len(items) > 0 {
			*h = append(*h, items)
		}
	}
	heap.Init(h)
	out := make([]Item, 0, fanLimit)
	for h.Len() > 0 && len(out) < fanLimit {
		top := (*h)[0]
		out = append(out, top[0])
		if len(top) == 1 {
			heap.Pop(h)
		} else {
			(*h)[0] = top[1:]
			heap.Fix(h, 0)
		}
	}
	return out, nil
}

// newestHeap holds each shard's remaining items, newest first; the shard
// whose head is newest is on top.
type newestHeap [][]Item

func (h newestHeap) Len() int           { return len(h) }
func (h newestHeap) Less(i, j int) bool { return h[i][0].Bucket > h[j][0].Bucket }
func (h newestHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *newestHeap) Push(x any)        { *h = append(*h, x.([]Item)) }
func (h *newestHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// sequentialFanout reads the shards one after the other, then sorts.
func sequentialFanout(ctx context.Context, c keyfirst.QueryAPI, table string, shards int) ([]Item, error) {
	var all []Item
	for n := range shards {
		items, err := readShard(ctx, c, table, n)
		if err != nil {
			return nil, fmt.Errorf("shard %d: %w", n, err)
		}
		all = append(all, items...)
	}
	slices.SortFunc(all, func(a, b Item) int { return strings.Compare(b.Bucket, a.Bucket) })
	return all[:min(fanLimit, len(all))], nil
}
