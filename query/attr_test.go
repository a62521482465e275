package query_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// Each verb of Attr compiles to its own operator, and there is no other.
func TestAttrVerbs(t *testing.T) {
	type title struct {
		Actor string `dynamodbav:"Actor"`
		Movie string `dynamodbav:"Movie"`
	}
	byMovie := keyfirst.OnTable(keyfirst.Str("Actor"), keyfirst.Str("Movie"))
	scores, _ := newBoardScores(t)
	titles, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "titles", Key: byMovie})
	noErr(t, err)
	_, err = keyfirst.NewEntity(titles, keyfirst.EntitySpec[title]{Type: "TITLE", Keys: []keyfirst.Binding{byMovie.Fields("Actor", "Movie")}})
	noErr(t, err)
	onScores := query.CollectionOn(scores, scoreByBoard, "p")
	score := query.Attr("Score")
	tests := []struct {
		q    query.Query[any]
		c    query.AttrCond
		op   keys.Op
		expr string
	}{
		{onScores, score.Eq(query.N(1)), keys.OpEq, "(#0 = :0) AND (#1 = :1)"},
		{onScores, score.Lt(query.N(1)), keys.OpLt, "(#0 = :0) AND (#1 < :1)"},
		{onScores, score.Le(query.N(1)), keys.OpLe, "(#0 = :0) AND (#1 <= :1)"},
		{onScores, score.Gt(query.N(1)), keys.OpGt, "(#0 = :0) AND (#1 > :1)"},
		{onScores, score.Ge(query.N(1)), keys.OpGe, "(#0 = :0) AND (#1 >= :1)"},
		{onScores, score.Between(query.N(1), query.N(2)), keys.OpBetween, "(#0 = :0) AND (#1 BETWEEN :1 AND :2)"},
		{query.CollectionOn(titles, byMovie, "p"), query.Attr("Movie").BeginsWith("Toy"), keys.OpBeginsWith, "(#0 = :0) AND (begins_with (#1, :1))"},
	}
	for _, tt := range tests {
		t.Run(tt.op.String(), func(t *testing.T) {
			if tt.c.Op() != tt.op || tt.c.Attr() == "" {
				t.Fatalf("%v %q", tt.c.Op(), tt.c.Attr())
			}
			c := &canned{}
			if _, err := tt.q.SortAttr(tt.c).Page(context.Background(), c); err != nil {
				t.Fatal(err)
			}
			if got := aws.ToString(c.ins[0].KeyConditionExpression); got != tt.expr {
				t.Fatalf("got %s, want %s", got, tt.expr)
			}
		})
	}
}
