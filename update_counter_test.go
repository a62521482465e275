package keyfirst_test

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"go.uber.org/goleak"

	"github.com/keyfirst/keyfirst"
)

// pageViews is a counter: the views of a page, stored under
// PK = CUST#<page>, SK = VIEWS.
type pageViews struct {
	Page  string `dynamodbav:"page"`
	Count int64  `dynamodbav:"count"`
}

// countingHTTP counts the HTTP requests a client sends, its retries
// included, by operation (the X-Amz-Target header: "DynamoDB_20120810.UpdateItem").
type countingHTTP struct {
	next dynamodb.HTTPClient
	mu   sync.Mutex
	sent map[string]int
}

func (c *countingHTTP) Do(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.sent[r.Header.Get("X-Amz-Target")]++
	c.mu.Unlock()
	return c.next.Do(r)
}

// 8 goroutines make 25 increments each of one counter with Entity.Update
// (Add, no read): the count is 200, each increment returned a count of its
// own (ALL_NEW: none lost, none applied twice), and exactly 200 UpdateItem
// requests went out over HTTP (none retried by the SDK, nothing else sent).
// Not parallel, so that goleak sees only its goroutines.
func TestUpdateCounterConcurrent(t *testing.T) {
	local, table := localTable(t)
	sent := &countingHTTP{sent: map[string]int{}}
	client := dynamodb.New(local.Options(), func(o *dynamodb.Options) { sent.next, o.HTTPClient = o.HTTPClient, sent })
	views := keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[pageViews]{Type: "VIEWS",
		Keys: []keyfirst.Binding{keyfirst.OnTable(keyfirst.Composite("PK", customerPK), keyfirst.Const("SK", "VIEWS")).Fields("Page")}}))
	ctx := context.Background()
	if _, err := views.Put(ctx, local, pageViews{Page: "home"}); err != nil {
		t.Fatal(err)
	}
	key := mustKey(t, views, pageViews{Page: "home"})
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent(),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"))

	const workers, each = 8, 25
	var (
		wg     sync.WaitGroup
		failed atomic.Int64
		mu     sync.Mutex
		seen   []int64
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				v, err := views.Update(ctx, client, key, keyfirst.Add("Count", 1))
				if err != nil {
					failed.Add(1)
					t.Error(err)
					continue
				}
				mu.Lock()
				seen = append(seen, v.Count)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if failed.Load() > 0 {
		t.FailNow()
	}
	got, err := views.Get(ctx, local, key)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(seen)
	want := make([]int64, workers*each)
	for i := range want {
		want[i] = int64(i + 1)
	}
	if got.Count != workers*each || !slices.Equal(seen, want) {
		t.Fatalf("count %d, increments returned %v: want %d, each of 1..%d once", got.Count, seen, workers*each, workers*each)
	}
	if len(sent.sent) != 1 || sent.sent["DynamoDB_20120810.UpdateItem"] != workers*each {
		t.Fatalf("requests sent %v, want %d UpdateItem and nothing else", sent.sent, workers*each)
	}
	t.Logf("%d goroutines x %d increments: count %d, %v", workers, each, got.Count, sent.sent)
}
