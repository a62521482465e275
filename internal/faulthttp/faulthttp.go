// Package faulthttp is an [aws.HTTPClient] for the tests of the failures
// DynamoDB Local cannot produce on demand (a Scan, a GetRecords that fails
// once the table is known to exist): it passes every request on to the
// client it wraps, except the first of one operation, which it answers
// with a DynamoDB error of its own, as DynamoDB sends one.
package faulthttp

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// Client fails the first request whose X-Amz-Target header is Target
// ("DynamoDB_20120810.Scan", "DynamoDBStreams_20120810.GetRecords") with
// an HTTP 400 carrying Code, and sends every other request through Next.
// A 400 of a code such as ValidationException is one the SDK does not
// retry. It is safe for concurrent use.
type Client struct {
	next   aws.HTTPClient
	target string
	code   string

	mu     sync.Mutex
	failed int
}

// New returns a Client that fails the first request of target with code
// and sends the others through next.
func New(next aws.HTTPClient, target, code string) *Client {
	return &Client{next: next, target: target, code: code}
}

// Message is the message of the injected error.
const Message = "injected by faulthttp"

// Do sends r through the wrapped client, or fails it.
func (c *Client) Do(r *http.Request) (*http.Response, error) {
	if r.Header.Get("X-Amz-Target") == c.target {
		c.mu.Lock()
		fail := c.failed == 0
		if fail {
			c.failed++
		}
		c.mu.Unlock()
		if fail {
			return c.fault(r), nil
		}
	}
	return c.next.Do(r)
}

// fault is DynamoDB's answer of an error of code c.code to r.
func (c *Client) fault(r *http.Request) *http.Response {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		_ = r.Body.Close()
	}
	body := fmt.Sprintf(`{"__type":"com.amazonaws.dynamodb.v20120810#%s","message":%q}`, c.code, Message)
	h := http.Header{}
	h.Set("Content-Type", "application/x-amz-json-1.0")
	h.Set("X-Amzn-Requestid", "faulthttp")
	return &http.Response{Status: "400 Bad Request", StatusCode: http.StatusBadRequest,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: h,
		Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: r}
}

// Failed is the number of requests failed so far: 0 or 1.
func (c *Client) Failed() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.failed
}
