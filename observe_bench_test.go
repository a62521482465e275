package keyfirst_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
)

// stubClient answers GetItem and PutItem at once, without a network: the
// benchmarks of the hook measure keyfirst's own work around the send.
type stubClient struct{ get dynamodb.GetItemOutput }

func (s *stubClient) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return &s.get, nil
}

func (s *stubClient) PutItem(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return &dynamodb.PutItemOutput{}, nil
}

// benchHook runs a Get and a Put of e against the stub. Run on a table
// without Observer, it is also the benchmark of the code before the hook
// (the same function on the commit before it: see the report of issue 28).
func benchHook(b *testing.B, e *keyfirst.Entity[benchOrder]) {
	ctx := context.Background()
	stub := &stubClient{get: dynamodb.GetItemOutput{Item: keyfirst.Must(e.Item(benchValue))}}
	key := keyfirst.Must(e.Key(benchValue))
	b.Run("Get", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := e.Get(ctx, stub, key); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Put", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := e.Put(ctx, stub, benchValue); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkHookUnset(b *testing.B) { benchHook(b, benchEntity(b, "bench")) }

// nopObserver observes nothing: what the hook itself costs.
type nopObserver struct{}

func (nopObserver) Start(ctx context.Context, _ *keyfirst.Request) context.Context { return ctx }
func (nopObserver) End(context.Context, *keyfirst.Request, *keyfirst.Result)       {}
func (nopObserver) Progress(context.Context, keyfirst.Progress)                    {}

func BenchmarkHookSet(b *testing.B) {
	e := benchEntity(b, "bench")
	benchHook(b, keyfirst.Must(e.In(e.Table().Observed(nopObserver{}))))
}
