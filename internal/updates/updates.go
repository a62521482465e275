// Package updates records the update expressions a DynamoDB client sends,
// for the tests that assert what a write changes: the attributes it SETs
// and those it REMOVEs, read back from the expression package's output.
package updates

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Update is one update expression: the attributes it SETs, with their
// values, and those it REMOVEs, sorted.
type Update struct {
	Set    map[string]types.AttributeValue
	Remove []string
}

// String prints the names: SET [a b] REMOVE [c].
func (u Update) String() string {
	return fmt.Sprintf("SET %v REMOVE %v", slices.Sorted(maps.Keys(u.Set)), u.Remove)
}

// Sets reports whether u SETs exactly names (in any order).
func (u Update) Sets(names ...string) bool {
	return slices.Equal(slices.Sorted(maps.Keys(u.Set)), slices.Sorted(slices.Values(names)))
}

// Removes reports whether u REMOVEs exactly names (in any order).
func (u Update) Removes(names ...string) bool {
	return slices.Equal(u.Remove, slices.Sorted(slices.Values(names)))
}

var clause = regexp.MustCompile(`\b(SET|REMOVE|ADD|DELETE)\b`)

// Parse reads update expression x of the expression package (SET #n = :v,
// ... REMOVE #n, ...) with its names and values.
func Parse(x string, names map[string]string, values map[string]types.AttributeValue) Update {
	u := Update{Set: map[string]types.AttributeValue{}}
	verbs := clause.FindAllString(x, -1)
	for i, body := range clause.Split(x, -1)[1:] {
		for _, part := range strings.Split(body, ",") {
			if part = strings.TrimSpace(part); part == "" {
				continue
			}
			switch verbs[i] {
			case "SET":
				n, v, _ := strings.Cut(part, "=")
				u.Set[names[strings.TrimSpace(n)]] = values[strings.TrimSpace(v)]
			case "REMOVE":
				u.Remove = append(u.Remove, names[part])
			}
		}
	}
	slices.Sort(u.Remove)
	return u
}

// Recorder is a DynamoDB client that records the update expressions of
// the writes it sends (UpdateItem, and the updates of TransactWriteItems)
// before sending them. It is safe for concurrent use.
type Recorder struct {
	*dynamodb.Client
	mu      sync.Mutex
	updates []Update
}

// Updates returns what was recorded since the last Reset, in order.
func (r *Recorder) Updates() []Update {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.updates)
}

// Reset forgets what was recorded.
func (r *Recorder) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.updates = nil
}

func (r *Recorder) record(u Update) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.updates = append(r.updates, u)
}

// UpdateItem records in's update and sends it.
func (r *Recorder) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	r.record(Parse(*in.UpdateExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues))
	return r.Client.UpdateItem(ctx, in, optFns...)
}

// TransactWriteItems records the updates among in's items and sends it.
func (r *Recorder) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	for _, it := range in.TransactItems {
		if u := it.Update; u != nil {
			r.record(Parse(*u.UpdateExpression, u.ExpressionAttributeNames, u.ExpressionAttributeValues))
		}
	}
	return r.Client.TransactWriteItems(ctx, in, optFns...)
}
