// Package wirebody records the request bodies an SDK client sends, for the
// tests that prove two ways of building a request send the same one (the
// twins of the benchmarks).
package wirebody

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Recorder is an HTTP client that answers every request with an empty
// success, keeping each body when Keep is set.
type Recorder struct {
	Keep   bool
	mu     sync.Mutex
	bodies [][]byte
}

// Do reads the request's body, keeps it when r.Keep is set, and answers
// {}.
func (r *Recorder) Do(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		body, _ := io.ReadAll(req.Body)
		_ = req.Body.Close()
		if r.Keep {
			r.mu.Lock()
			r.bodies = append(r.bodies, body)
			r.mu.Unlock()
		}
	}
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": []string{"application/x-amz-json-1.0"}},
		Body: io.NopCloser(strings.NewReader("{}")), Request: req}, nil
}

// Bodies returns the bodies kept, in the order sent.
func (r *Recorder) Bodies() [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.bodies
}

// Client is a DynamoDB client whose requests go to r: the SDK's whole
// work (build, serialize, sign) without a network.
func Client(r *Recorder) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String("http://stub.invalid"),
		Credentials:  credentials.NewStaticCredentialsProvider("key", "secret", ""),
		HTTPClient:   r,
	})
}

// Sorted is the JSON body with its object keys sorted at every level, its
// numbers kept as written: two bodies that differ only in the order Go's
// maps gave the serializer are then the same bytes.
func Sorted(body []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	return json.Marshal(doc)
}

// SortedBodies returns the bodies kept, in the order sent, each [Sorted].
func (r *Recorder) SortedBodies() ([][]byte, error) {
	var out [][]byte
	for _, b := range r.Bodies() {
		s, err := Sorted(b)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}
