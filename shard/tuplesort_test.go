package shard_test

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/shard"
)

// A player ranked within a region, in a sharded index whose sort key is
// the tuple (region, rank): two attributes, DynamoDB's multi-attribute
// sort key, derived by Spec.Sort.
type regional struct {
	ID     string `dynamodbav:"placed_id"`
	Region string `dynamodbav:"region_name"`
	Rank   int    `dynamodbav:"rank_value"`
	Shard  int    `dynamodbav:"shard"`
}

var (
	placedByID     = keyfirst.OnTable(keyfirst.Composite("PK", itemKey), keyfirst.NoSort())
	regionRank     = keyfirst.Tuple2(keyfirst.Str("region"), keyfirst.Num[int]("place_rank"))
	byRegionRankIx = keyfirst.OnIndex("by-region-rank", keyfirst.Str("place_shard"), regionRank)
	byRegionRank   = keyfirst.Must(shard.New(byRegionRankIx, shard.Spec[regional, keys.T2[string, int]]{
		Base: "P", Shards: 3,
		Pick: func(v regional) int { return v.Shard % 3 },
		Sort: func(v regional) keys.T2[string, int] { return keys.T2[string, int]{V1: v.Region, V2: v.Rank} },
	}))
	placedTable = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "regional", Key: placedByID, GSIs: []keyfirst.Index{byRegionRankIx.Index()}}))
	regionals   = keyfirst.Must(keyfirst.NewEntity(placedTable, keyfirst.EntitySpec[regional]{Type: "PLACED",
		Keys: []keyfirst.Binding{placedByID.Fields("ID"), byRegionRank.Binding()}}))
)

// Reader.SortAttr is the condition of a tuple sort key, on its first
// attribute: region = "eu" over 3 shards returns exactly the eu players,
// merged by (region, rank) then the table key; a typed condition of the
// tuple side keeps its error and is refused before any request.
func TestReaderSortAttrOnATupleSortKey(t *testing.T) {
	t.Parallel()
	table, ctx := localTable(t, placedTable)
	e := keyfirst.Must(regionals.In(table))
	client := integration.Client(t)
	var want []regional
	var reqs []keyfirst.WriteRequest
	for i := range 24 {
		v := regional{ID: fmt.Sprintf("p-%03d", i), Region: []string{"eu", "us", "ap"}[i%3], Rank: (i * 7) % 5, Shard: i / 3}
		reqs = append(reqs, e.PutRequest(v))
		if v.Region == "eu" {
			want = append(want, v)
		}
	}
	if err := table.BatchWrite(ctx, client, reqs); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(want, func(a, b regional) int { return cmp.Or(cmp.Compare(a.Rank, b.Rank), strings.Compare(a.ID, b.ID)) })
	got, err := shard.Query(e, byRegionRank).SortAttr(query.Attr("region").Eq(query.S("eu"))).Collect(ctx, client)
	eq := func(a, b regional) bool { return a == b }
	if err != nil || !slices.EqualFunc(got, want, eq) {
		t.Fatalf("region = eu: %v, %+v; want %+v", err, got, want)
	}

	var qe *query.Error
	_, err = shard.Query(e, byRegionRank).SortValue(regionRank.Eq(keys.T2[string, int]{V1: "eu", V2: 1})).Page(ctx, noCalls{T: t})
	if !errors.As(err, &qe) || qe.Problem != query.ProblemSortKey {
		t.Errorf("a typed condition of the tuple side: %v, want a *query.Error (ProblemSortKey)", err)
	}
}
