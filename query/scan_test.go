package query_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"go.uber.org/goleak"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
)

// Seed 000, form 2: only customers carry CustomerIndexId, so a Scan of
// that index in parallel segments reads every customer and nothing else.
func TestScanSparseIndex(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	var reqs []keyfirst.WriteRequest
	var want []string
	for i := range 25 {
		id := fmt.Sprintf("c%02d", i)
		want = append(want, id)
		reqs = append(reqs, s.customers.PutRequest(Customer{ID: id, Name: "name " + id}))
		for j := range 4 {
			reqs = append(reqs, s.orders.PutRequest(Order{CustomerID: id, ID: fmt.Sprintf("o%d", j), Status: Pending, Date: time.Now()}))
		}
	}
	write(t, client, s.table, reqs...)

	for _, segments := range []int{1, 4, 7} {
		t.Run(fmt.Sprintf("segments=%d", segments), func(t *testing.T) {
			var capacity keyfirst.Capacity
			got, err := query.ScanOn(s.customers, customerIndex).Segments(segments).
				Collect(context.Background(), client, keyfirst.WithCapacity(&capacity))
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, c := range got {
				if c.Name != "name "+c.ID {
					t.Fatalf("decoded %+v", c)
				}
				ids = append(ids, c.ID)
			}
			slices.Sort(ids)
			if !slices.Equal(ids, want) {
				t.Fatalf("got %v, want %v", ids, want)
			}
			if capacity.Requests < segments || capacity.Indexes["CustomerIndex"] <= 0 {
				t.Fatalf("capacity %+v for %d segments", capacity, segments)
			}
		})
	}
	t.Run("view", func(t *testing.T) {
		type customerID struct {
			ID string `dynamodbav:"Id"`
		}
		got, err := query.ScanView[customerID](query.ScanOn(s.customers, customerIndex)).Collect(context.Background(), client)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 25 || got[0].ID == "" {
			t.Fatalf("%d items, first %+v", len(got), got[0])
		}
	})
}

// A Scan of the table, or of an index not declared scannable, does not
// happen: it is refused before any request, as are its other bad inputs.
func TestScanRefused(t *testing.T) {
	s := newShop(t, "shop")
	mistyped := keyfirst.OnIndex("CustomerIndx", keyfirst.Str("CustomerIndexId"), keyfirst.NoSort())
	tests := []struct {
		name    string
		scan    func(query.ScanAPI, ...func(*keyfirst.Options)) error
		opts    []func(*keyfirst.Options)
		problem query.Problem
	}{
		{"the table", scanOf(query.ScanOn(s.orders, orderByID)), nil, query.ProblemNotScannable},
		{"an index not declared scannable", scanOf(query.ScanOn(s.orders, byStatusDate)), nil, query.ProblemNotScannable},
		{"a mistyped index", scanOf(query.ScanOn(s.customers, mistyped)), nil, query.ProblemPattern},
		{"0 segments", scanOf(query.ScanOn(s.customers, customerIndex).Segments(0)), nil, query.ProblemSegments},
		{"too many segments", scanOf(query.ScanOn(s.customers, customerIndex).Segments(query.MaxSegments + 1)), nil, query.ProblemSegments},
		{"consistent read on a GSI", scanOf(query.ScanOn(s.customers, customerIndex).ConsistentRead()), nil, query.ProblemConsistentRead},
		{"a cursor", scanOf(query.ScanOn(s.customers, customerIndex)), []func(*keyfirst.Options){keyfirst.WithNext(new(query.Cursor))}, query.ProblemOption},
		{"nil entity", scanOf(query.ScanOn((*keyfirst.Entity[Customer])(nil), customerIndex)), nil, query.ProblemSource},
		{"a pattern the entity does not bind", scanOf(query.ScanOn(s.orders, customerIndex)), nil, query.ProblemPattern},
		{"the zero pattern", scanOf(query.ScanOn(s.orders, keyfirst.Pattern[string, string]{})), nil, query.ProblemPattern},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.scan(noCalls{T: t}, tt.opts...)
			var qe *query.Error
			if !errors.As(err, &qe) || qe.Problem != tt.problem || !errors.Is(err, query.ErrInvalidQuery) {
				t.Fatalf("got %v, want problem %q", err, tt.problem)
			}
		})
	}
}

// scanOf collects s with the client it is given.
func scanOf[T any](s query.Scan[T]) func(query.ScanAPI, ...func(*keyfirst.Options)) error {
	return func(c query.ScanAPI, optFns ...func(*keyfirst.Options)) error {
		_, err := s.Collect(context.Background(), c, optFns...)
		return err
	}
}

// endless is a Scan client whose every segment has pages without end; it
// honours the context like the SDK does, and can fail one segment.
type endless struct {
	table   *keyfirst.Table
	item    map[string]types.AttributeValue
	failSeg int32 // -1: none
	calls   atomic.Int64
	mu      sync.Mutex
	segs    map[int32]int
}

func (e *endless) Scan(ctx context.Context, in *dynamodb.ScanInput, _ ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	e.calls.Add(1)
	seg := aws.ToInt32(in.Segment)
	e.mu.Lock()
	e.segs[seg]++
	e.mu.Unlock()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(time.Millisecond):
	}
	if seg == e.failSeg {
		return nil, errors.New("throttled")
	}
	return &dynamodb.ScanOutput{Items: []map[string]types.AttributeValue{e.item, e.item},
		LastEvaluatedKey: map[string]types.AttributeValue{"k": &types.AttributeValueMemberS{Value: "x"}}}, nil
}

func newEndless(t *testing.T, s shop, failSeg int32) *endless {
	it, err := s.customers.Item(Customer{ID: "c1", Name: "n"})
	noErr(t, err)
	return &endless{table: s.table, item: it, failSeg: failSeg, segs: map[int32]int{}}
}

// The segments' goroutines end with the iteration: when the loop breaks,
// when the context ends, when a segment fails; none is left behind.
func TestScanGoroutinesEnd(t *testing.T) {
	s := newShop(t, "shop")
	scan := query.ScanOn(s.customers, customerIndex).Segments(8)

	t.Run("break", func(t *testing.T) {
		defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
		client := newEndless(t, s, -1)
		n := 0
		for _, err := range scan.All(context.Background(), client) {
			noErr(t, err)
			if n++; n == 50 {
				break
			}
		}
		sent := client.calls.Load()
		time.Sleep(20 * time.Millisecond)
		if client.calls.Load() != sent {
			t.Fatal("requests sent after the loop ended")
		}
	})

	t.Run("context cancelled", func(t *testing.T) {
		defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		n := 0
		var last error
		for _, err := range scan.All(ctx, newEndless(t, s, -1)) {
			if err != nil {
				last = err
				continue
			}
			if n++; n == 30 {
				cancel()
			}
		}
		if !errors.Is(last, context.Canceled) {
			t.Fatalf("last error %v, want context.Canceled", last)
		}
	})

	t.Run("deadline", func(t *testing.T) {
		defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		defer cancel()
		_, err := scan.Collect(ctx, newEndless(t, s, -1))
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("got %v", err)
		}
	})

	t.Run("a segment fails", func(t *testing.T) {
		defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
		client := newEndless(t, s, 5)
		_, err := scan.Collect(context.Background(), client)
		var re *query.RequestError
		if !errors.As(err, &re) || re.Op != "Scan" || re.Segment != 5 || re.Request != 1 {
			t.Fatalf("got %v", err)
		}
	})

	t.Run("segments numbered", func(t *testing.T) {
		defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
		client := newEndless(t, s, -1)
		n := 0
		for _, err := range scan.All(context.Background(), client) {
			noErr(t, err)
			if n++; n == 200 {
				break
			}
		}
		client.mu.Lock()
		defer client.mu.Unlock()
		for seg := range int32(8) {
			if client.segs[seg] == 0 {
				t.Fatalf("segment %d never scanned: %v", seg, client.segs)
			}
		}
	})

	t.Run("single use", func(t *testing.T) {
		seq := scan.All(context.Background(), newEndless(t, s, -1))
		for range seq {
			break
		}
		for _, err := range seq {
			if !errors.Is(err, query.ErrReused) {
				t.Fatalf("got %v", err)
			}
		}
	})
}
