package txn_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/txn"
)

// cancelling answers TransactWriteItems with the cancellation reasons of
// its script, one list per call, then succeeds. DynamoDB Local cannot be
// made to answer TransactionConflict, throttling or an item collection
// over 10 GB on demand: this fake stands for those.
type cancelling struct {
	script [][]string
	calls  int
	tokens []string
}

func (c *cancelling) TransactWriteItems(_ context.Context, in *dynamodb.TransactWriteItemsInput, _ ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	c.calls++
	c.tokens = append(c.tokens, aws.ToString(in.ClientRequestToken))
	if c.calls > len(c.script) {
		return &dynamodb.TransactWriteItemsOutput{}, nil
	}
	var reasons []types.CancellationReason
	for _, code := range c.script[c.calls-1] {
		reasons = append(reasons, types.CancellationReason{Code: aws.String(code)})
	}
	return nil, &types.TransactionCanceledException{CancellationReasons: reasons}
}

func TestCancellationReasons(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	actions := func() []txn.Action {
		return []txn.Action{txn.Put(orders, order("c1", "o1", Open, "x")), txn.Put(orders, order("c1", "o2", Open, "x"))}
	}
	fast := func(o *keyfirst.Options) { o.RetryBaseDelay, o.RetryMaxDelay = time.Microsecond, time.Microsecond }
	cases := []struct {
		name   string
		script [][]string
		calls  int
		want   error
	}{
		{"conflict then success", [][]string{{"None", "TransactionConflict"}}, 2, nil},
		{"throttled then success", [][]string{{"ThrottlingError", "None"}, {"None", "ProvisionedThroughputExceeded"}}, 3, nil},
		{"conflicts exhaust the attempts", [][]string{{"TransactionConflict", "None"}, {"TransactionConflict", "None"}, {"TransactionConflict", "None"}, {"TransactionConflict", "None"}, {"TransactionConflict", "None"}}, 5, txn.ErrTransactionConflict},
		{"item collection too large", [][]string{{"None", "ItemCollectionSizeLimitExceeded"}}, 1, txn.ErrItemCollectionTooLarge},
		{"validation", [][]string{{"ValidationError", "None"}}, 1, txn.ErrValidation},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			client := &cancelling{script: c.script}
			err := txn.Write(ctx, client, actions(), fast)
			if !errors.Is(err, c.want) || client.calls != c.calls {
				t.Fatalf("%v after %d calls, want %v after %d", err, client.calls, c.want, c.calls)
			}
			for _, tok := range client.tokens {
				if tok == "" || tok != client.tokens[0] {
					t.Fatalf("tokens %v: a retry must carry the first attempt's token", client.tokens)
				}
			}
			var ae *txn.ActionError
			var ce *txn.CanceledError
			if c.want != nil && (!errors.As(err, &ae) || ae.Entity != "ORDER" || ae.Key == "" || !errors.As(err, &ce) || ce.Attempts != c.calls) {
				t.Fatalf("%#v %#v", ae, ce)
			}
		})
	}
}

// cancelledRead answers TransactGetItems with a cancellation (a conflict
// with a write transaction, which DynamoDB Local does not produce on
// demand) whose reasons are codes, by position.
type cancelledRead struct{ codes []string }

func (c cancelledRead) TransactGetItems(context.Context, *dynamodb.TransactGetItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	var reasons []types.CancellationReason
	for _, code := range c.codes {
		reasons = append(reasons, types.CancellationReason{Code: aws.String(code)})
	}
	return nil, &types.TransactionCanceledException{CancellationReasons: reasons}
}

// A cancelled read transaction names the read that failed as a write
// transaction does: position, entity type, table, key and reason.
func TestCancelledReadNamesTheRead(t *testing.T) {
	t.Parallel()
	o1, o2 := order("c1", "o1", Open, "x"), order("c1", "o2", Open, "x")
	reads := []txn.Reader{txn.Read(orders, mustKey(t, orders, o1)), txn.Read(orders, mustKey(t, orders, o2))}
	err := txn.Get(context.Background(), cancelledRead{[]string{"None", "TransactionConflict"}}, reads)
	var ce *txn.CanceledError
	if !errors.As(err, &ce) || len(ce.Failed) != 1 {
		t.Fatalf("%v: want one failed read", err)
	}
	ae := ce.Failed[0]
	want := mustKey(t, orders, o2).String()
	if ae.Position != 1 || ae.Entity != "ORDER" || ae.Table != orders.Table().Name() || ae.Key != want || ae.Reason != "TransactionConflict" {
		t.Fatalf("%+v: want read 1, ORDER %s in %s, TransactionConflict", ae, want, orders.Table().Name())
	}
}
