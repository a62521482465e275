package shard_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/shard"
)

// ---- ranks: a sharded index whose sort key is a number ----
//
//	PK           GSI by-rank (rank_shard = R#<n>; rank N), 4 shards by Pick

type Ranked struct {
	ID    string `dynamodbav:"ranked_id"`
	Rank  int    `dynamodbav:"rank_value"`
	Shard int    `dynamodbav:"shard"`
}

var (
	rankedByID = keyfirst.OnTable(keyfirst.Composite("PK", itemKey), keyfirst.NoSort())
	rankSide   = keyfirst.Num[int]("rank") // by-rank's sort side: its conditions are typed
	byRankIx   = keyfirst.OnIndex("by-rank", keyfirst.Str("rank_shard"), rankSide)
	byRank     = keyfirst.Must(shard.New(byRankIx, shard.Spec[Ranked, int]{
		Base: "R", Shards: 4,
		Pick: func(v Ranked) int { return v.Shard % 4 },
		Sort: func(v Ranked) int { return v.Rank },
	}))
	rankTable = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "ranks", Key: rankedByID, GSIs: []keyfirst.Index{byRankIx.Index()}}))
	rankeds   = keyfirst.Must(keyfirst.NewEntity(rankTable, keyfirst.EntitySpec[Ranked]{Type: "RANKED",
		Keys: []keyfirst.Binding{rankedByID.Fields("ID"), byRank.Binding()}}))
)

func ptr[V any](v V) *V { return &v }

// chain reads r page by page, size items at a time, following the
// cursors.
func chain[T any](t *testing.T, ctx context.Context, r shard.Reader[T], client keyfirst.QueryAPI, size int) []T {
	t.Helper()
	var all []T
	cur := shard.Cursor("")
	for pages := 1; ; pages++ {
		page, err := r.Limit(size).After(cur).Page(ctx, client)
		if err != nil {
			t.Fatalf("page %d: %v", pages, err)
		}
		if len(page.Items) > size || (page.Next != "" && len(page.Items) != size) {
			t.Fatalf("page %d: %d items, next %q", pages, len(page.Items), page.Next)
		}
		all = append(all, page.Items...)
		if cur = page.Next; cur == "" {
			return all
		}
		if pages > 1000 {
			t.Fatal("paging does not end")
		}
	}
}

// The cursors a read of a sharded index makes are accepted and resume
// exactly, on DynamoDB Local: for a condition of every kind (=, <, <=,
// >, >=, BETWEEN, begins_with, none) on a string sort key (10 shards, one
// empty) and on a number sort key (4 shards, one empty), in both
// directions, the page chains of 1 and 3 items give the merged order
// whole, which is the items the condition selects, in the index's order
// and then the table key's.
func TestShardCursorsResumeEveryCondition(t *testing.T) {
	t.Parallel()
	m, ctx := localMerge(t)
	var items []Item
	for i := range 40 {
		items = append(items, Item{ID: fmt.Sprintf("i-%03d", i), Bucket: fmt.Sprintf("B%02d", (i*7)%12), Shard: i % 9})
	}
	m.load(t, ctx, items)
	ranks, _ := localTable(t, rankTable)
	rk := keyfirst.Must(rankeds.In(ranks))
	var rs []Ranked
	var reqs []keyfirst.WriteRequest
	for i := range 30 {
		v := Ranked{ID: fmt.Sprintf("r-%03d", i), Rank: (i*5)%13 - 6, Shard: i % 3}
		rs = append(rs, v)
		reqs = append(reqs, rk.PutRequest(v))
	}
	if err := ranks.BatchWrite(ctx, m.client, reqs); err != nil {
		t.Fatal(err)
	}

	sk := spreadSK
	for _, c := range []struct {
		name string
		cond *keyfirst.SortCond
		want func(Item) bool
	}{
		{"S =", ptr(sk.Eq("B05")), func(v Item) bool { return v.Bucket == "B05" }},
		{"S <", ptr(sk.Lt("B05")), func(v Item) bool { return v.Bucket < "B05" }},
		{"S <=", ptr(sk.Le("B05")), func(v Item) bool { return v.Bucket <= "B05" }},
		{"S >", ptr(sk.Gt("B05")), func(v Item) bool { return v.Bucket > "B05" }},
		{"S >=", ptr(sk.Ge("B05")), func(v Item) bool { return v.Bucket >= "B05" }},
		{"S BETWEEN", ptr(sk.Between("B03", "B08")), func(v Item) bool { return v.Bucket >= "B03" && v.Bucket <= "B08" }},
		{"S begins_with", ptr(sk.BeginsWith("B0")), func(v Item) bool { return strings.HasPrefix(v.Bucket, "B0") }},
		{"S none", nil, func(Item) bool { return true }},
	} {
		var want []Item
		for _, v := range items {
			if c.want(v) {
				want = append(want, v)
			}
		}
		for _, desc := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s desc %v", c.name, desc), func(t *testing.T) {
				r := shard.Query(m.items, spreadShards)
				if c.cond != nil {
					r = r.SortValue(*c.cond)
				}
				if desc {
					r = r.Desc()
				}
				w := inKeyOrder(want, func(v Item) string { return v.Bucket }, func(v Item) string { return v.ID }, desc)
				for _, size := range []int{1, 3} {
					if got := itemIDs(chain(t, ctx, r, m.client, size)); len(w) == 0 || !slices.Equal(got, w) {
						t.Errorf("%d at a time: %s", size, firstDiff(got, w))
					}
				}
			})
		}
	}

	rank := rankSide
	for _, c := range []struct {
		name string
		cond *keyfirst.SortCond
		want func(Ranked) bool
	}{
		{"N =", ptr(rank.Eq(0)), func(v Ranked) bool { return v.Rank == 0 }},
		{"N <", ptr(rank.Lt(0)), func(v Ranked) bool { return v.Rank < 0 }},
		{"N <=", ptr(rank.Le(0)), func(v Ranked) bool { return v.Rank <= 0 }},
		{"N >", ptr(rank.Gt(2)), func(v Ranked) bool { return v.Rank > 2 }},
		{"N >=", ptr(rank.Ge(2)), func(v Ranked) bool { return v.Rank >= 2 }},
		{"N BETWEEN", ptr(rank.Between(-3, 3)), func(v Ranked) bool { return v.Rank >= -3 && v.Rank <= 3 }},
		{"N none", nil, func(Ranked) bool { return true }},
	} {
		var want []Ranked
		for _, v := range rs {
			if c.want(v) {
				want = append(want, v)
			}
		}
		for _, desc := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s desc %v", c.name, desc), func(t *testing.T) {
				r := shard.Query(rk, byRank)
				if c.cond != nil {
					r = r.SortValue(*c.cond)
				}
				if desc {
					r = r.Desc()
				}
				// By rank as a number, then by the table key (PK =
				// ORDER#<id>, ids of one length).
				w := slices.Clone(want)
				slices.SortFunc(w, func(a, b Ranked) int {
					c := cmp.Or(cmp.Compare(a.Rank, b.Rank), strings.Compare(a.ID, b.ID))
					if desc {
						return -c
					}
					return c
				})
				for _, size := range []int{1, 3} {
					got := chain(t, ctx, r, m.client, size)
					if len(w) == 0 || !slices.EqualFunc(got, w, func(a, b Ranked) bool { return a.ID == b.ID }) {
						t.Errorf("%d at a time: %v, want %v", size, got, w)
					}
				}
			})
		}
	}
}

// Issue 21: a cursor of a real read whose place had its sort value
// changed from a string to a number was accepted, and the resumed read
// returned no item and an empty Next, as if it were complete. It is
// refused before any request.
func TestShardCursorRetypedPlace(t *testing.T) {
	t.Parallel()
	m, ctx := localMerge(t)
	m.load(t, ctx, spreadItems(100))
	r := shard.Query(m.items, spreadShards)
	page, err := r.Limit(7).Page(ctx, m.client)
	if err != nil || page.Next == "" {
		t.Fatalf("first page: %v, %q", err, page.Next)
	}
	p := decodeCursor(t, page.Next)
	retyped := p.edit(func(p *shardCursor) { p.L[0] = placeAttr{N: p.L[0].N, T: "N", S: "1"} }).encode(t)
	if got, err := r.After(retyped).Page(ctx, m.client); !errors.Is(err, query.ErrCursorPartition) {
		t.Errorf("the retyped cursor on DynamoDB Local: %d items, next %q, %v; want it refused", len(got.Items), got.Next, err)
	}
	readRefused(t, r.After(retyped), query.ErrCursorPartition)
	// The genuine cursor resumes: the other 93 items.
	rest, err := r.After(page.Next).Collect(ctx, m.client)
	if err != nil || len(rest) != 93 {
		t.Fatalf("the rest: %v, %d items", err, len(rest))
	}
}
