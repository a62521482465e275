package shard_test

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst/internal/wirebody"
)

// ---- DynamoDB Local's answers, recorded once and replayed with a fixed latency ----
//
// On this machine DynamoDB Local shares two cores with the client, so ten
// concurrent queries cost it more than one: a fan-out measured against it
// measures Local. The benchmarks of the fan-out record Local's answers
// once (recorder, an aws.HTTPClient in front of the real one), then send
// their timed requests to a replayer, which answers each request with the
// answer recorded for the same request after a fixed delay, as DynamoDB
// answers in about the same time however many partitions are queried at
// once. The SDK's whole work (serialize, sign, retry middleware,
// deserialize, CRC32 check) is still done on both sides.

// answer is one recorded HTTP response.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// requestKey names a request by its operation and its body with the
// object keys sorted (wirebody.Sorted): the same request built twice, in
// whatever order Go's maps gave the serializer, has one key.
func requestKey(req *http.Request, body []byte) (string, error) {
	sorted, err := wirebody.Sorted(body)
	if err != nil {
		return "", fmt.Errorf("replay: request body: %w", err)
	}
	return req.Header.Get("X-Amz-Target") + " " + string(sorted), nil
}

// readBody reads req's body and puts it back, so that req can still be
// sent.
func readBody(req *http.Request) ([]byte, error) {
	if req.Body == nil {
		return nil, nil
	}
	body, err := io.ReadAll(req.Body)
	_ = req.Body.Close()
	if err != nil {
		return nil, err
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	return body, nil
}

// recorder sends every request to next (DynamoDB Local) and keeps the
// answer of each, by request, and the keys of the requests in the order
// sent.
type recorder struct {
	next    aws.HTTPClient
	mu      sync.Mutex
	answers map[string]answer // by requestKey
	raw     map[string]answer // by rawKey
	sent    []string
}

func newRecorder(next aws.HTTPClient) *recorder {
	return &recorder{next: next, answers: map[string]answer{}, raw: map[string]answer{}}
}

// Do sends req to r.next and records its answer.
func (r *recorder) Do(req *http.Request) (*http.Response, error) {
	body, err := readBody(req)
	if err != nil {
		return nil, err
	}
	key, err := requestKey(req, body)
	if err != nil {
		return nil, err
	}
	resp, err := r.next.Do(req)
	if err != nil {
		return nil, err
	}
	got, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(got))
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, key)
	if prev, ok := r.answers[key]; ok && (prev.status != resp.StatusCode || !bytes.Equal(prev.body, got)) {
		return nil, fmt.Errorf("replay: one request, two answers: %s", key)
	}
	a := answer{status: resp.StatusCode, header: resp.Header.Clone(), body: got}
	r.answers[key] = a
	r.raw[rawKey(req, body)] = a
	return resp, nil
}

// rawKey names a request by its operation and its body as sent: the
// replayer's first look-up, which spares it sorting the body of a request
// serialized as one recorded was.
func rawKey(req *http.Request, body []byte) string {
	return req.Header.Get("X-Amz-Target") + " " + string(body)
}

// take returns the keys of the requests sent since the last take, sorted
// (requests sent concurrently arrive in any order), and forgets them.
func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := slices.Sorted(slices.Values(r.sent))
	r.sent = nil
	return out
}

// replayer answers each request with the answer recorded for it, after
// delay (or fails it when the request's context ends first). A request
// never recorded is answered with a ValidationException, which the SDK
// does not retry.
type replayer struct {
	delay    time.Duration
	answers  map[string]answer // by requestKey, read only
	raw      map[string]answer // by rawKey, read only
	requests atomic.Int64
	missed   atomic.Int64
}

// replayer returns a replayer of the answers r recorded so far.
func (r *recorder) replayer(delay time.Duration) *replayer {
	r.mu.Lock()
	defer r.mu.Unlock()
	return &replayer{delay: delay, answers: maps.Clone(r.answers), raw: maps.Clone(r.raw)}
}

// notRecorded is the body of the answer to a request never recorded.
const notRecorded = `{"__type":"com.amazon.coral.validate#ValidationException","message":"replay: no answer recorded for this request"}`

// Do waits p.delay, then answers req as recorded.
func (p *replayer) Do(req *http.Request) (*http.Response, error) {
	p.requests.Add(1)
	body, err := readBody(req)
	if err != nil {
		return nil, err
	}
	a, ok := p.raw[rawKey(req, body)]
	if !ok {
		key, err := requestKey(req, body)
		if err != nil {
			return nil, err
		}
		a, ok = p.answers[key]
	}
	t := time.NewTimer(p.delay)
	select {
	case <-t.C:
	case <-req.Context().Done():
		t.Stop()
		return nil, req.Context().Err()
	}
	if !ok {
		p.missed.Add(1)
		a = answer{status: http.StatusBadRequest, body: []byte(notRecorded),
			header: http.Header{"Content-Type": []string{"application/x-amz-json-1.0"}}}
	}
	return &http.Response{
		Status: fmt.Sprintf("%d %s", a.status, http.StatusText(a.status)), StatusCode: a.status,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: a.header.Clone(), Body: io.NopCloser(bytes.NewReader(a.body)),
		ContentLength: int64(len(a.body)), Request: req,
	}, nil
}

// withHTTP is a copy of client whose requests go to h.
func withHTTP(client *dynamodb.Client, h aws.HTTPClient) *dynamodb.Client {
	return dynamodb.New(client.Options(), func(o *dynamodb.Options) { o.HTTPClient = h })
}
