package query_test

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
)

// The cursors the library makes are accepted and resume exactly, on
// DynamoDB Local: for a condition of every kind on sort keys of every
// type (S on the table, N on a GSI and an LSI, B, a native
// multi-attribute key), in both directions, paging one item at a time
// (a cursor at every item boundary) and five at a time gives the one-pass
// sequence, which holds exactly the scores the condition selects.
func TestCursorsResumeEveryCondition(t *testing.T) {
	t.Parallel()
	client := integrationClient(t)
	table, scores := newScores(t, "scores")
	table = tableFor(t, table)
	scores = keyfirst.Must(scores.In(table))
	var all []Score
	var reqs []keyfirst.WriteRequest
	for i := range 24 {
		for _, player := range []string{"ann", "bob"} {
			s := Score{Player: player, Game: fmt.Sprintf("g%02d", i), Points: (i*7)%11 - 5, Badge: []byte{byte(i % 5)}, Region: "eu"}
			if i%2 == 1 {
				s.Region = "us"
			}
			reqs = append(reqs, scores.PutRequest(s))
			if player == "ann" {
				all = append(all, s)
			}
		}
	}
	write(t, client, table, reqs...)

	table1 := query.On(scores, scoreByID, "ann")
	points := query.On(scores, scoreByPoints, "ann")
	local := query.On(scores, scoreByPointsLS, "ann")
	badge := query.On(scores, scoreByBadge, "ann")
	region := query.On(scores, scoreByRegion, "ann")
	r := gameSK.Range()
	b := func(v byte) []byte { return []byte{v} }
	cases := []struct {
		name string
		q    query.Query[Score]
		want func(Score) bool
	}{
		{"S =", table1.Sort(r.Eq("g07")), func(s Score) bool { return s.Game == "g07" }},
		{"S <", table1.Sort(gameSK.At("g10").Lt()), func(s Score) bool { return s.Game < "g10" }},
		{"S <=", table1.Sort(gameSK.At("g10").Le()), func(s Score) bool { return s.Game <= "g10" }},
		{"S >", table1.Sort(gameSK.At("g10").Gt()), func(s Score) bool { return s.Game > "g10" }},
		{"S >=", table1.Sort(gameSK.At("g10").Ge()), func(s Score) bool { return s.Game >= "g10" }},
		{"S BETWEEN", table1.Sort(r.Between("g05", "g15")), func(s Score) bool { return s.Game >= "g05" && s.Game <= "g15" }},
		{"S begins_with", table1.Sort(r.BeginsWith()), func(Score) bool { return true }},
		{"S none", table1, func(Score) bool { return true }},
		{"N =", points.SortValue(scorePoints.Eq(0)), func(s Score) bool { return s.Points == 0 }},
		{"N <", points.SortValue(scorePoints.Lt(0)), func(s Score) bool { return s.Points < 0 }},
		{"N <=", points.SortValue(scorePoints.Le(0)), func(s Score) bool { return s.Points <= 0 }},
		{"N >", points.SortValue(scorePoints.Gt(2)), func(s Score) bool { return s.Points > 2 }},
		{"N >=", points.SortValue(scorePoints.Ge(2)), func(s Score) bool { return s.Points >= 2 }},
		{"N BETWEEN", points.SortValue(scorePoints.Between(-2, 3)), func(s Score) bool { return s.Points >= -2 && s.Points <= 3 }},
		{"N > on an LSI", local.SortValue(scorePointsLS.Gt(0)), func(s Score) bool { return s.Points > 0 }},
		{"B =", badge.SortValue(scoreBadge.Eq(b(2))), func(s Score) bool { return s.Badge[0] == 2 }},
		{"B <", badge.SortValue(scoreBadge.Lt(b(2))), func(s Score) bool { return s.Badge[0] < 2 }},
		{"B <=", badge.SortValue(scoreBadge.Le(b(2))), func(s Score) bool { return s.Badge[0] <= 2 }},
		{"B >", badge.SortValue(scoreBadge.Gt(b(2))), func(s Score) bool { return s.Badge[0] > 2 }},
		{"B >=", badge.SortValue(scoreBadge.Ge(b(2))), func(s Score) bool { return s.Badge[0] >= 2 }},
		{"B BETWEEN", badge.SortValue(scoreBadge.Between(b(1), b(3))), func(s Score) bool { return s.Badge[0] >= 1 && s.Badge[0] <= 3 }},
		{"native =", region.Sort(regionGame.With1("eu").Eq("g04")), func(s Score) bool { return s.Region == "eu" && s.Game == "g04" }},
		{"native <", region.Sort(regionGame.With1("eu").Lt("g10")), func(s Score) bool { return s.Region == "eu" && s.Game < "g10" }},
		{"native <=", region.Sort(regionGame.With1("eu").Le("g10")), func(s Score) bool { return s.Region == "eu" && s.Game <= "g10" }},
		{"native >", region.Sort(regionGame.With1("us").Gt("g10")), func(s Score) bool { return s.Region == "us" && s.Game > "g10" }},
		{"native >=", region.Sort(regionGame.With1("us").Ge("g11")), func(s Score) bool { return s.Region == "us" && s.Game >= "g11" }},
		{"native BETWEEN", region.Sort(regionGame.With1("us").Between("g03", "g15")), func(s Score) bool { return s.Region == "us" && s.Game >= "g03" && s.Game <= "g15" }},
		{"native begins_with", region.Sort(regionGame.With1("eu").BeginsWith()), func(s Score) bool { return s.Region == "eu" }},
	}
	ids := func(ss []Score) []string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = s.Game
		}
		return out
	}
	for _, c := range cases {
		var want []string
		for _, s := range all {
			if c.want(s) {
				want = append(want, s.Game)
			}
		}
		if len(want) == 0 {
			t.Fatalf("%s selects nothing of the data", c.name)
		}
		for _, desc := range []bool{false, true} {
			q := c.q
			if desc {
				q = q.Desc()
			}
			t.Run(fmt.Sprintf("%s desc %v", c.name, desc), func(t *testing.T) {
				once, err := q.Collect(t.Context(), client)
				noErr(t, err)
				if got := slices.Sorted(slices.Values(ids(once))); !slices.Equal(got, want) {
					t.Fatalf("one pass: %v, want %v", got, want)
				}
				for _, size := range []int{1, 5} {
					paged, pages := pageThrough(t, q, client, size)
					if !slices.Equal(ids(paged), ids(once)) || pages < (len(once)+size-1)/size {
						t.Errorf("%d at a time, %d pages: %v, one pass %v", size, pages, ids(paged), ids(once))
					}
				}
			})
		}
	}
	// Scores of equal points and badges are in the data, so that the
	// table key inside a cursor breaks ties.
	if !slices.ContainsFunc(all[1:], func(s Score) bool { return s.Points == all[0].Points }) ||
		!slices.ContainsFunc(all[1:], func(s Score) bool { return bytes.Equal(s.Badge, all[0].Badge) }) {
		t.Fatal("no ties in the data")
	}
}
