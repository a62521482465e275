package txn_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/wirebody"
	"github.com/keyfirst/keyfirst/txn"

	"github.com/keyfirst/keyfirst/internal/benchorder"
)

// The cost of building and sending a transaction of 10 puts, keyfirst
// (BenchmarkX/keyfirst) beside the same request written by hand
// (BenchmarkX/hand), in one run: against a fake API (the library's own
// work), over a stubbed HTTP client (the SDK's serialization and signing
// added) and on DynamoDB Local. TestWrite10TwinsAgree proves that both
// send the same request body, TestWrite10RandomTokenTwinsAgree that
// keyfirst-random-token sends it too but for its token. Run with
//
//	go test -run '^$' -bench Write10 -benchmem ./txn/

// benchToken is the client request token of both twins: with a token of
// its own keyfirst sends the canonical body, and the hand-written
// request carries the same token. It is this process's own: DynamoDB
// (Local too) refuses a token reused within 10 minutes for a transaction
// of other content, such as another run's on a shared Local, whose table
// is named otherwise.
var benchToken = "bench-" + strconv.FormatInt(time.Now().UnixNano(), 36)

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

// handTransaction is what a program without keyfirst writes for the same
// 10 puts: each item built by hand, its derived attributes added (the
// shard computed with the same frozen hash), the entity-type guard
// written as a string.
func handTransaction(b testing.TB, table string, os []Order) *dynamodb.TransactWriteItemsInput {
	in := &dynamodb.TransactWriteItemsInput{
		TransactItems:      make([]types.TransactWriteItem, len(os)),
		ClientRequestToken: aws.String(benchToken),
	}
	for i, o := range os {
		n, err := openShards.Shard(o)
		if err != nil {
			b.Fatal(err)
		}
		item := map[string]types.AttributeValue{
			"PK":         &types.AttributeValueMemberS{Value: "CUST#" + o.Customer},
			"SK":         &types.AttributeValueMemberS{Value: "ORDER#" + o.ID},
			"_type":      &types.AttributeValueMemberS{Value: "ORDER"},
			"customer":   &types.AttributeValueMemberS{Value: o.Customer},
			"id":         &types.AttributeValueMemberS{Value: o.ID},
			"status":     &types.AttributeValueMemberS{Value: string(o.Status)},
			"placed":     &types.AttributeValueMemberS{Value: o.Placed},
			"openBucket": &types.AttributeValueMemberS{Value: "OPEN"},
			"placedAt":   &types.AttributeValueMemberS{Value: o.Placed},
			"open_shard": &types.AttributeValueMemberS{Value: "OPEN#" + strconv.Itoa(n)},
			"open_date":  &types.AttributeValueMemberS{Value: o.Placed},
		}
		if o.Product != "" {
			item["product"] = &types.AttributeValueMemberS{Value: o.Product}
		}
		if o.Note != "" {
			item["note"] = &types.AttributeValueMemberS{Value: o.Note}
		}
		in.TransactItems[i].Put = &types.Put{TableName: aws.String(table), Item: item,
			ConditionExpression:                 aws.String("(attribute_not_exists (#0)) OR (#1 = :0)"),
			ExpressionAttributeNames:            map[string]string{"#0": "PK", "#1": "_type"},
			ExpressionAttributeValues:           map[string]types.AttributeValue{":0": &types.AttributeValueMemberS{Value: "ORDER"}},
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}
	}
	return in
}

// fakeWrite is a TransactWriteItems that succeeds at once: what is left is
// the library's own work.
type fakeWrite struct{}

func (fakeWrite) TransactWriteItems(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	return &dynamodb.TransactWriteItemsOutput{}, nil
}

// BenchmarkWrite10 is a transaction of 10 puts against a fake API.
func BenchmarkWrite10(b *testing.B) {
	r := benchorder.New(b)
	defer r.Done()
	table := keyfirst.Must(shopTable.Named("bench"))
	e := keyfirst.Must(orders.In(table))
	os := benchOrders()
	ctx := context.Background()
	r.Run("keyfirst", func(b *testing.B) { writeOrders(b, ctx, fakeWrite{}, e, os, txn.Token(benchToken)) })
	r.Run("hand", func(b *testing.B) { writeByHand(b, ctx, fakeWrite{}, table.Name(), os) })
	r.Run("keyfirst-random-token", func(b *testing.B) { writeOrders(b, ctx, fakeWrite{}, e, os) })
}

// BenchmarkWrite10Offline is BenchmarkWrite10 with the SDK's client over
// a stubbed HTTP client: the serialization and the signing added.
func BenchmarkWrite10Offline(b *testing.B) {
	r := benchorder.New(b)
	defer r.Done()
	client := wirebody.Client(&wirebody.Recorder{})
	table := keyfirst.Must(shopTable.Named("bench"))
	e := keyfirst.Must(orders.In(table))
	os := benchOrders()
	ctx := context.Background()
	r.Run("keyfirst", func(b *testing.B) { writeOrders(b, ctx, client, e, os, txn.Token(benchToken)) })
	r.Run("hand", func(b *testing.B) { writeByHand(b, ctx, client, table.Name(), os) })
	r.Run("keyfirst-random-token", func(b *testing.B) { writeOrders(b, ctx, client, e, os) })
}

// BenchmarkWrite10Local is BenchmarkWrite10 on DynamoDB Local.
func BenchmarkWrite10Local(b *testing.B) {
	r := benchorder.New(b)
	defer r.Done()
	s, ctx := localShop(b)
	os := benchOrders()
	warmUp(b, s, os)
	// DynamoDB Local's JIT compiles its request paths over its first
	// requests: warmed up by both variants alike, so that the one run
	// first is not measured against a colder server (it measured 2.0-3.4x
	// the twin).
	for range 100 {
		actions := make([]txn.Action, len(os))
		for i, o := range os {
			actions[i] = txn.Put(s.orders, o)
		}
		err := txn.Write(ctx, s.client, actions, txn.Token(benchToken))
		_, errHand := s.client.TransactWriteItems(ctx, handTransaction(b, s.table.Name(), os))
		if err := errors.Join(err, errHand); err != nil {
			b.Fatal(err)
		}
	}
	r.Run("keyfirst", func(b *testing.B) { writeOrders(b, ctx, s.client, s.orders, os, txn.Token(benchToken)) })
	r.Run("hand", func(b *testing.B) { writeByHand(b, ctx, s.client, s.table.Name(), os) })
}

// TestWrite10TwinsAgree proves that the twins of BenchmarkWrite10 send the
// same request: both bodies, as the SDK serializes them and with their
// object keys sorted, are the same bytes.
func TestWrite10TwinsAgree(t *testing.T) {
	mine, hand := write10Bodies(t, txn.Token(benchToken))
	if mine, hand := sorted(t, mine), sorted(t, hand); !bytes.Equal(mine, hand) {
		t.Fatalf("keyfirst sent\n%s\nthe hand-written twin\n%s", mine, hand)
	}
}

// TestWrite10RandomTokenTwinsAgree proves that keyfirst-random-token of
// BenchmarkWrite10 sends the hand-written twin's request but for its
// token, one of its own.
func TestWrite10RandomTokenTwinsAgree(t *testing.T) {
	mine, hand := write10Bodies(t)
	if token := bodyToken(t, mine); token == "" || token == benchToken {
		t.Fatalf("keyfirst sent token %q, want a random one", token)
	}
	if mine, hand := sorted(t, maskToken(t, mine)), sorted(t, maskToken(t, hand)); !bytes.Equal(mine, hand) {
		t.Fatalf("keyfirst sent (token masked)\n%s\nthe hand-written twin\n%s", mine, hand)
	}
}

// write10Bodies sends the 10 puts of BenchmarkWrite10 with keyfirst (with
// opts), then the hand-written twin, and returns both bodies as sent.
func write10Bodies(t *testing.T, opts ...func(*keyfirst.Options)) (mine, hand []byte) {
	t.Helper()
	stub := &wirebody.Recorder{Keep: true}
	client := wirebody.Client(stub)
	table := keyfirst.Must(shopTable.Named("bench"))
	e := keyfirst.Must(orders.In(table))
	os := benchOrders()
	ctx := context.Background()
	actions := make([]txn.Action, len(os))
	for i, o := range os {
		actions[i] = txn.Put(e, o)
	}
	if err := txn.Write(ctx, client, actions, opts...); err != nil {
		t.Fatal(err)
	}
	if _, err := client.TransactWriteItems(ctx, handTransaction(t, table.Name(), os)); err != nil {
		t.Fatal(err)
	}
	bodies := stub.Bodies()
	if len(bodies) != 2 {
		t.Fatalf("%d requests, want 2", len(bodies))
	}
	return bodies[0], bodies[1]
}

// bodyToken is the ClientRequestToken of a TransactWriteItems body.
func bodyToken(t *testing.T, body []byte) string {
	t.Helper()
	var in struct{ ClientRequestToken string }
	if err := json.Unmarshal(body, &in); err != nil {
		t.Fatal(err)
	}
	return in.ClientRequestToken
}

// maskToken is body with its ClientRequestToken replaced by one fixed
// text; the rest is as sent.
func maskToken(t *testing.T, body []byte) []byte {
	t.Helper()
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	if _, ok := doc["ClientRequestToken"]; !ok {
		t.Fatalf("no ClientRequestToken in %s", body)
	}
	doc["ClientRequestToken"] = json.RawMessage(`"masked"`)
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sorted is body with its object keys sorted.
func sorted(t *testing.T, body []byte) []byte {
	t.Helper()
	out, err := wirebody.Sorted(body)
	if err != nil {
		t.Fatal(err)
	}
	return out
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

// writeByHand sends the hand-written twin once per iteration.
func writeByHand(b *testing.B, ctx context.Context, client txn.WriteAPI, table string, os []Order) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := client.TransactWriteItems(ctx, handTransaction(b, table, os)); err != nil {
			b.Fatal(err)
		}
	}
}

// The latency of one transaction of 10 puts beside the same 10 puts sent
// one by one, on DynamoDB Local.
func BenchmarkTransactionVsSingleWrites(b *testing.B) {
	r := benchorder.New(b)
	defer r.Done()
	s, ctx := localShop(b)
	os := benchOrders()
	warmUp(b, s, os)
	r.Run("transaction of 10", func(b *testing.B) { writeOrders(b, ctx, s.client, s.orders, os) })
	r.Run("10 single puts", func(b *testing.B) {
		for b.Loop() {
			for _, o := range os {
				if _, err := s.orders.Put(ctx, s.client, o); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
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
