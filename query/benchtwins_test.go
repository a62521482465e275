package query_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst/query"
)

// TestBenchmarkTwinsAgree proves that the twins of BenchmarkBuild and
// BenchmarkPage send the same request: both bodies, as the SDK
// serializes them and with their object keys sorted, are the same bytes.
func TestBenchmarkTwinsAgree(t *testing.T) {
	s := newShop(t, "shop")
	cond, err := statusDate.With1(Cancelled).HalfOpen(micro("2019-07-01T00:00:00"), micro("2019-10-01T00:00:00"))
	noErr(t, err)
	lo, hi := cond.Values()
	stub := &bodies{}
	client := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String("http://stub.invalid"),
		Credentials:  credentials.NewStaticCredentialsProvider("key", "secret", ""),
		HTTPClient:   stub,
	})
	ctx := context.Background()
	if _, err := onQuery(s, cond).Page(ctx, client); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Query(ctx, handInput("shop", lo, hi)); err != nil {
		t.Fatal(err)
	}
	if len(stub.kept) != 2 {
		t.Fatalf("%d requests, want 2", len(stub.kept))
	}
	mine, hand := sortedJSON(t, stub.kept[0]), sortedJSON(t, stub.kept[1])
	if !bytes.Equal(mine, hand) {
		t.Fatalf("keyfirst sent\n%s\nthe hand-written twin\n%s", mine, hand)
	}
}

// bodies is an HTTP client that keeps each request's body and answers
// with an empty success.
type bodies struct {
	mu   sync.Mutex
	kept [][]byte
}

func (h *bodies) Do(r *http.Request) (*http.Response, error) {
	body, _ := io.ReadAll(r.Body)
	_ = r.Body.Close()
	h.mu.Lock()
	h.kept = append(h.kept, body)
	h.mu.Unlock()
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": []string{"application/x-amz-json-1.0"}},
		Body: io.NopCloser(strings.NewReader("{}")), Request: r}, nil
}

// sortedJSON is body with its object keys sorted at every level.
func sortedJSON(t *testing.T, body []byte) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCollectGrowsOncePerResponse: Collect makes room for a response's
// items at once, so the slice of one response of 1,000 items is exactly
// that long (appending one by one leaves it larger).
func TestCollectGrowsOncePerResponse(t *testing.T) {
	s := newShop(t, "shop")
	client := &canned{items: orderItems(t, s, ordersOf(1000)...)}
	cond, err := statusDate.With1(Cancelled).HalfOpen(micro("2019-07-01T00:00:00"), micro("2019-10-01T00:00:00"))
	noErr(t, err)
	out, err := query.On(s.orders, byStatusDate, "c1").Sort(cond).Collect(context.Background(), client)
	noErr(t, err)
	if len(out) != 1000 || cap(out) != 1000 {
		t.Fatalf("%d items in a slice of capacity %d, want 1000 in 1000", len(out), cap(out))
	}
}
