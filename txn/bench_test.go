package txn_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/txn"
)

// benchOrders are the 10 orders of a 10-action transaction, open: each
// write derives the primary key, the sparse index's key and the sharded
// index's key.
func benchOrders() []Order {
	out := make([]Order, 10)
	for i := range out {
		out[i] = order("c1", fmt.Sprintf("o%d", i), Open, "2026-06-23T10:00:00Z")
		out[i].Note = "a note of some length, as orders have"
	}
	return out
}

// rawTransaction is what a program without keyfirst sends for the same
// 10 puts: the item marshalled by attributevalue, the derived attributes
// added by hand (the shard computed with the same frozen hash), the
// entity-type guard built with the expression package.
func rawTransaction(b *testing.B, table string, os []Order) *dynamodb.TransactWriteItemsInput {
	in := &dynamodb.TransactWriteItemsInput{TransactItems: make([]types.TransactWriteItem, len(os))}
	for i, o := range os {
		item, err := attributevalue.MarshalMap(o)
		if err != nil {
			b.Fatal(err)
		}
		n, err := openShards.Shard(o)
		if err != nil {
			b.Fatal(err)
		}
		item["PK"] = &types.AttributeValueMemberS{Value: "CUST#" + o.Customer}
		item["SK"] = &types.AttributeValueMemberS{Value: "ORDER#" + o.ID}
		item["_type"] = &types.AttributeValueMemberS{Value: "ORDER"}
		item["openBucket"] = &types.AttributeValueMemberS{Value: "OPEN"}
		item["placedAt"] = &types.AttributeValueMemberS{Value: o.Placed}
		item["open_shard"] = &types.AttributeValueMemberS{Value: fmt.Sprintf("OPEN#%d", n)}
		item["open_date"] = &types.AttributeValueMemberS{Value: o.Placed}
		x, err := expression.NewBuilder().WithCondition(expression.Name("PK").AttributeNotExists().
			Or(expression.Name("_type").Equal(expression.Value("ORDER")))).Build()
		if err != nil {
			b.Fatal(err)
		}
		in.TransactItems[i].Put = &types.Put{TableName: aws.String(table), Item: item,
			ConditionExpression: x.Condition(), ExpressionAttributeNames: x.Names(), ExpressionAttributeValues: x.Values(),
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}
	}
	return in
}

// Building and sending a transaction of 10 puts, keyfirst beside the raw
// SDK doing the same work, on DynamoDB Local, in one run.
func BenchmarkWrite10(b *testing.B) {
	s, ctx := localShop(b)
	os := benchOrders()
	warmUp(b, s, os)
	// Each twice, alternating: the first timed writes of a new table are
	// slower on DynamoDB Local, whoever makes them.
	for _, round := range []string{"", " again"} {
		b.Run("raw SDK"+round, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.client.TransactWriteItems(ctx, rawTransaction(b, s.table.Name(), os)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("keyfirst"+round, func(b *testing.B) { writeOrders(b, ctx, s.client, s.orders, os) })
	}
}

// The latency of one transaction of 10 puts beside the same 10 puts sent
// one by one, on DynamoDB Local.
func BenchmarkTransactionVsSingleWrites(b *testing.B) {
	s, ctx := localShop(b)
	os := benchOrders()
	warmUp(b, s, os)
	b.Run("transaction of 10", func(b *testing.B) { writeOrders(b, ctx, s.client, s.orders, os) })
	b.Run("10 single puts", func(b *testing.B) {
		for b.Loop() {
			for _, o := range os {
				if _, err := s.orders.Put(ctx, s.client, o); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// stubHTTP answers every request with an empty success, after reading the
// body: the client's whole work (build, serialize, sign) without the
// network and DynamoDB Local's time, which dominate and vary on a loaded
// machine.
type stubHTTP struct{}

func (stubHTTP) Do(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		_ = r.Body.Close()
	}
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": []string{"application/x-amz-json-1.0"}},
		Body: io.NopCloser(strings.NewReader("{}")), Request: r}, nil
}

// The same comparison as BenchmarkWrite10 with the network stubbed out:
// keyfirst's cost beside the raw SDK's, and with a caller's token (the
// canonical body).
func BenchmarkWrite10Offline(b *testing.B) {
	client := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String("http://stub.invalid"),
		Credentials:  credentials.NewStaticCredentialsProvider("key", "secret", ""),
		HTTPClient:   stubHTTP{},
	})
	table := keyfirst.Must(shopTable.Named("bench"))
	e := keyfirst.Must(orders.In(table))
	os := benchOrders()
	ctx := context.Background()
	b.Run("keyfirst", func(b *testing.B) { writeOrders(b, ctx, client, e, os) })
	b.Run("keyfirst with token", func(b *testing.B) { writeOrders(b, ctx, client, e, os, txn.Token("a-token")) })
	b.Run("raw SDK", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := client.TransactWriteItems(context.Background(), rawTransaction(b, table.Name(), os)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// writeOrders writes os in one transaction per iteration, building the
// actions each time.
func writeOrders(b *testing.B, ctx context.Context, client txn.WriteAPI, e *keyfirst.Entity[Order], os []Order, opts ...func(*keyfirst.Options)) {
	b.ReportAllocs()
	for b.Loop() {
		actions := make([]txn.Action, len(os))
		for i, o := range os {
			actions[i] = txn.Put(e, o)
		}
		if err := txn.Write(ctx, client, actions, opts...); err != nil {
			b.Fatal(err)
		}
	}
}

// warmUp stores the orders once, so that every timed write replaces them
// (the first write of an item also inserts it in both indexes).
func warmUp(b *testing.B, s shop, os []Order) {
	for _, o := range os {
		if _, err := s.orders.Put(context.Background(), s.client, o); err != nil {
			b.Fatal(err)
		}
	}
}
