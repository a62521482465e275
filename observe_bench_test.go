package keyfirst_test

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
)

// stubClient answers GetItem and PutItem at once, without a network:
// BenchmarkPutGet measures keyfirst's own work around the send, with and
// without the hook.
type stubClient struct{ get dynamodb.GetItemOutput }

func (s *stubClient) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return &s.get, nil
}

func (s *stubClient) PutItem(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return &dynamodb.PutItemOutput{}, nil
}

// nopObserver observes nothing: what the hook itself costs.
type nopObserver struct{}

func (nopObserver) Start(ctx context.Context, _ *keyfirst.Request) context.Context { return ctx }
func (nopObserver) End(context.Context, *keyfirst.Request, *keyfirst.Result)       {}
func (nopObserver) Progress(context.Context, keyfirst.Progress)                    {}
