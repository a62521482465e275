package query_test

import (
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// A resume key is checked as a key the query can return: a score of 7
// is one of the scores of at least 5, a score of 3 is not (DynamoDB
// would refuse it as the start of the query). Nothing is sent.
func ExampleQuery_CheckKey() {
	type player struct {
		Name  string `dynamodbav:"Name"`
		Board string `dynamodbav:"Board"`
		Score int    `dynamodbav:"Score"`
	}
	byName := keyfirst.OnTable(keyfirst.Composite("PK", keys.NewKey1(keys.ID[string](), keys.WithPrefix("PLAYER"))), keyfirst.NoSort())
	score := keyfirst.Num[int]("Score")
	byScore := keyfirst.OnIndex("ByScore", keyfirst.Str("Board"), score)
	table := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "games", Key: byName, GSIs: []keyfirst.Index{byScore.Index()}}))
	players := keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[player]{Type: "PLAYER",
		Keys: []keyfirst.Binding{byName.Fields("Name"), byScore.Fields("Board", "Score")}}))
	q := query.On(players, byScore, "daily").SortValue(score.Ge(5))
	key := func(score string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{
			"PK":    &types.AttributeValueMemberS{Value: "PLAYER#ann"},
			"Board": &types.AttributeValueMemberS{Value: "daily"},
			"Score": &types.AttributeValueMemberN{Value: score},
		}
	}
	fmt.Println(q.CheckKey(key("7")))
	err := q.CheckKey(key("3"))
	fmt.Println(errors.Is(err, query.ErrCursorPartition))
	fmt.Println(err)
	// Output:
	// <nil>
	// true
	// query: invalid query: cursor (table "games", index "ByScore", attribute "Score"): the resume key holds N:3, outside the sort key condition Score >= N:5: query: cursor resumes outside the query's partition or sort key condition
}
