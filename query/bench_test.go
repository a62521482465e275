package query_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"

	"github.com/keyfirst/keyfirst/internal/benchorder"
)

// The per-page overhead of the library beside the raw SDK doing the same
// work, in the same run: building the request of "a customer's CANCELLED
// orders in Q3" on the GSI, and decoding 100 items into Order. Each pair
// is BenchmarkX/keyfirst and BenchmarkX/hand, the hand-written twin (the
// request written by hand, the same decoder, a cursor made by hand);
// TestBenchmarkTwinsAgree proves that the twins send the same request.
// The raw-* variants also measure keyfirst's decoder against
// attributevalue's. Run with
//
//	go test -run '^$' -bench . -benchmem ./query/
//
// The Local benchmarks add the round trip to DynamoDB Local.

var (
	sinkOrders []Order
	sinkPage   query.Page[Order]
)

// benchQuery is the query, and the raw equivalents' bounds.
func benchQuery(tb testing.TB, s shop) (q query.Query[Order], lo, hi string) {
	tb.Helper()
	cond := benchCond(tb)
	lo, hi = cond.Values()
	return query.On(s.orders, byStatusDate, "c1").Sort(cond).Limit(100), lo, hi
}

// benchCond is the query's sort key condition: CANCELLED in Q3.
func benchCond(tb testing.TB) keys.Cond {
	tb.Helper()
	cond, err := statusDate.With1(Cancelled).HalfOpen(micro("2019-07-01T00:00:00"), micro("2019-10-01T00:00:00"))
	noErr(tb, err)
	return cond
}

// otherConds is q with 64 sort key conditions, each starting an hour
// later than the last, and each condition's bounds: a new condition on
// each call reuses nothing of the last call's binding (see
// template.binding).
func otherConds(tb testing.TB, q query.Query[Order]) (qs []query.Query[Order], bounds [][2]string) {
	tb.Helper()
	for i := range 64 {
		from := micro("2019-07-01T00:00:00").Add(time.Duration(i) * time.Hour)
		cond, err := statusDate.With1(Cancelled).HalfOpen(from, micro("2019-10-01T00:00:00"))
		noErr(tb, err)
		lo, hi := cond.Values()
		qs, bounds = append(qs, q.Sort(cond)), append(bounds, [2]string{lo, hi})
	}
	return qs, bounds
}

// onQuery is the same query built from its pattern, as a service builds it
// per request: the partition key encoded by the pattern.
func onQuery(s shop, cond keys.Cond) query.Query[Order] {
	return query.On(s.orders, byStatusDate, "c1").Sort(cond).Limit(100)
}

// handInput is the QueryInput written by hand, expression string included.
func handInput(table, lo, hi string) *dynamodb.QueryInput {
	return &dynamodb.QueryInput{
		TableName:              aws.String(table),
		IndexName:              aws.String("ByStatusDate"),
		KeyConditionExpression: aws.String("(#0 = :0) AND (#1 BETWEEN :1 AND :2)"),
		ExpressionAttributeNames: map[string]string{
			"#0": "CustomerId", "#1": "OrderStatusDate",
		},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":0": &types.AttributeValueMemberS{Value: "c1"},
			":1": &types.AttributeValueMemberS{Value: lo},
			":2": &types.AttributeValueMemberS{Value: hi},
		},
		Limit:                  aws.Int32(100),
		ScanIndexForward:       aws.Bool(true),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
	}
}

// exprInput is the QueryInput built with the expression package by hand.
func exprInput(b *testing.B, table, lo, hi string) *dynamodb.QueryInput {
	kc := expression.Key("CustomerId").Equal(expression.Value("c1")).
		And(expression.Key("OrderStatusDate").Between(expression.Value(lo), expression.Value(hi)))
	expr, err := expression.NewBuilder().WithKeyCondition(kc).Build()
	if err != nil {
		b.Fatal(err)
	}
	return &dynamodb.QueryInput{
		TableName:                 aws.String(table),
		IndexName:                 aws.String("ByStatusDate"),
		KeyConditionExpression:    expr.KeyCondition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
		Limit:                     aws.Int32(100),
		ScanIndexForward:          aws.Bool(true),
		ReturnConsumedCapacity:    types.ReturnConsumedCapacityIndexes,
	}
}

// hundred is 100 orders of c1 as stored, CANCELLED in Q3.
func hundred(b *testing.B, s shop) []Order {
	b.Helper()
	out := make([]Order, 100)
	for i := range out {
		out[i] = Order{CustomerID: "c1", ID: fmt.Sprintf("o%03d", i), Status: Cancelled,
			Date: micro("2019-07-01T00:00:00").Add(time.Duration(i) * time.Minute), Pad: strings.Repeat("x", 100)}
	}
	return out
}

// runRaw is the raw SDK path: send in, decode every item with
// attributevalue.
func runRaw(b *testing.B, client keyfirst.QueryAPI, in *dynamodb.QueryInput) {
	out, err := client.Query(context.Background(), in)
	if err != nil {
		b.Fatal(err)
	}
	var orders []Order
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &orders); err != nil {
		b.Fatal(err)
	}
	sinkOrders = orders
}

// runSameDecoder is the raw SDK path with keyfirst's own decoder and the
// cursor work a resumable page needs (the last key as JSON, base64),
// written by hand: what is left between it and keyfirst is the query
// layer itself.
func runSameDecoder(b *testing.B, client keyfirst.QueryAPI, in *dynamodb.QueryInput, orders *keyfirst.Entity[Order]) {
	out, err := client.Query(context.Background(), in)
	if err != nil {
		b.Fatal(err)
	}
	decoded := make([]Order, len(out.Items))
	for i, it := range out.Items {
		if decoded[i], err = orders.Decode(it); err != nil {
			b.Fatal(err)
		}
	}
	if out.LastEvaluatedKey != nil {
		sinkCursor = handCursor(out.LastEvaluatedKey)
	}
	sinkOrders = decoded
}

// cursorAttrs are the key attributes of an item of the GSI, by name.
var cursorAttrs = []string{"CustomerId", "OrderStatusDate", "PK", "SK"}

// handCursor is the resume key of a page as a hand-written program makes
// it: the key's string values as JSON, in base64.
func handCursor(last map[string]types.AttributeValue) string {
	var buf [512]byte
	js := append(buf[:0], '{')
	for i, a := range cursorAttrs {
		if i > 0 {
			js = append(js, ',')
		}
		js = strconv.AppendQuote(append(strconv.AppendQuote(js, a), ':'), last[a].(*types.AttributeValueMemberS).Value)
	}
	js = append(js, '}')
	return base64.RawURLEncoding.EncodeToString(js)
}

var sinkCursor string

// rawBenchmarks runs the hand-written equivalents of a keyfirst benchmark
// against the same canned client: the twin (hand), a hand-written request
// decoded with keyfirst's decoder, cursor included; and the request built
// by hand as a string or with the expression package, decoded with
// attributevalue.
func rawBenchmarks(r *benchorder.Runner, client *canned, lo, hi string, orders *keyfirst.Entity[Order]) {
	r.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			client.ins = client.ins[:0]
			runSameDecoder(b, client, handInput("shop", lo, hi), orders)
		}
	})
	r.Run("raw-attributevalue", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			client.ins = client.ins[:0]
			runRaw(b, client, handInput("shop", lo, hi))
		}
	})
	r.Run("raw-expression", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			client.ins = client.ins[:0]
			runRaw(b, client, exprInput(b, "shop", lo, hi))
		}
	})
}

// BenchmarkPage is the per-page overhead without the network: build the
// request, receive 100 items (a canned response), decode them, and, for
// keyfirst, make the page's cursor.
func BenchmarkPage(b *testing.B) {
	r := benchorder.New(b)
	defer r.Done()
	s := newShop(b, "shop")
	q, lo, hi := benchQuery(b, s)
	its := orderItems(b, s, hundred(b, s)...)
	// The LastEvaluatedKey of a GSI query holds the table's key and the
	// index's: the raw cursor encodes the same four attributes as
	// keyfirst's.
	last := keyOf(its[99])
	for _, a := range []string{"CustomerId", "OrderStatusDate"} {
		last[a] = its[99][a]
	}
	client := &canned{items: its, last: last}
	ctx := context.Background()
	r.Run("keyfirst", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			client.ins = client.ins[:0]
			page, err := q.Page(ctx, client)
			if err != nil || len(page.Items) != 100 || page.Next == "" {
				b.Fatal(err)
			}
			sinkPage = page
		}
	})
	cond := benchCond(b)
	r.Run("keyfirst-on", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			client.ins = client.ins[:0]
			page, err := onQuery(s, cond).Page(ctx, client)
			if err != nil || len(page.Items) != 100 || page.Next == "" {
				b.Fatal(err)
			}
			sinkPage = page
		}
	})
	rawBenchmarks(r, client, lo, hi, s.orders)
}

// BenchmarkBuild is the request alone, in one run: keyfirst checks and
// builds the query, the raw SDK builds a QueryInput by hand (expression
// string included) or with the expression package, and each sends it to
// a client that returns nothing (no item to decode, no cursor to make).
func BenchmarkBuild(b *testing.B) {
	r := benchorder.New(b)
	defer r.Done()
	s := newShop(b, "shop")
	q, lo, hi := benchQuery(b, s)
	client := &canned{}
	ctx := context.Background()
	send := func(b *testing.B, in *dynamodb.QueryInput) {
		client.ins = client.ins[:0]
		if _, err := client.Query(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
	r.Run("keyfirst", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			client.ins = client.ins[:0]
			if _, err := q.Page(ctx, client); err != nil {
				b.Fatal(err)
			}
		}
	})
	cond := benchCond(b)
	r.Run("keyfirst-on", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			client.ins = client.ins[:0]
			if _, err := onQuery(s, cond).Page(ctx, client); err != nil {
				b.Fatal(err)
			}
		}
	})
	// A new sort key condition on each call.
	others, _ := otherConds(b, q)
	r.Run("keyfirst-new-condition", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			client.ins = client.ins[:0]
			if _, err := others[i%len(others)].Page(ctx, client); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	r.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			send(b, handInput("shop", lo, hi))
		}
	})
	r.Run("raw-expression", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			send(b, exprInput(b, "shop", lo, hi))
		}
	})
}

// BenchmarkLocal is the same page against DynamoDB Local.
func BenchmarkLocal(b *testing.B) {
	r := benchorder.New(b)
	defer r.Done()
	client, s := localShop(b)
	var reqs []keyfirst.WriteRequest
	for _, o := range hundred(b, s) {
		reqs = append(reqs, s.orders.PutRequest(o))
	}
	write(b, client, s.table, reqs...)
	q, lo, hi := benchQuery(b, s)
	ctx := context.Background()
	// Warm DynamoDB Local's JVM up, so that neither side pays for it.
	for range 200 {
		runRaw(b, client, handInput(s.table.Name(), lo, hi))
		if _, err := q.Page(ctx, client); err != nil {
			b.Fatal(err)
		}
	}
	r.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			runSameDecoder(b, client, handInput(s.table.Name(), lo, hi), s.orders)
			if len(sinkOrders) != 100 {
				b.Fatal(len(sinkOrders))
			}
		}
	})
	r.Run("keyfirst", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			page, err := q.Page(ctx, client)
			if err != nil || len(page.Items) != 100 {
				b.Fatal(len(page.Items), err)
			}
			sinkPage = page
		}
	})
}

// ordersOf is n orders of c1 as stored, CANCELLED in Q3.
func ordersOf(n int) []Order {
	out := make([]Order, n)
	for i := range out {
		out[i] = Order{CustomerID: "c1", ID: fmt.Sprintf("o%05d", i), Status: Cancelled,
			Date: micro("2019-07-01T00:00:00").Add(time.Duration(i) * time.Second), Pad: strings.Repeat("x", 100)}
	}
	return out
}

// collectQuery is BenchmarkCollect's query: every item of the condition,
// no Limit.
func collectQuery(s shop, cond keys.Cond) query.Query[Order] {
	return query.On(s.orders, byStatusDate, "c1").Sort(cond)
}

// handCollect is the twin of collectQuery's Collect: the request written
// by hand (TestCollectTwinsAgree), its items decoded by keyfirst's decoder
// into a slice made for them.
func handCollect(ctx context.Context, client keyfirst.QueryAPI, orders *keyfirst.Entity[Order], lo, hi string) ([]Order, error) {
	in := handInput("shop", lo, hi)
	in.Limit = nil
	resp, err := client.Query(ctx, in)
	if err != nil {
		return nil, err
	}
	out := make([]Order, 0, len(resp.Items))
	for _, it := range resp.Items {
		v, err := orders.Decode(it)
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}

// BenchmarkCollect is a Collect of n items from one canned response,
// beside the hand-written loop that decodes them into a slice made for
// them (handCollect).
func BenchmarkCollect(b *testing.B) {
	r := benchorder.New(b)
	defer r.Done()
	s := newShop(b, "shop")
	cond := benchCond(b)
	lo, hi := cond.Values()
	ctx := context.Background()
	for _, n := range []int{10, 1000, 10000} {
		client := &canned{items: orderItems(b, s, ordersOf(n)...)}
		q := collectQuery(s, cond)
		r.Run(fmt.Sprintf("%d/keyfirst", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				client.ins = client.ins[:0]
				out, err := q.Collect(ctx, client)
				if err != nil || len(out) != n {
					b.Fatal(len(out), err)
				}
				sinkOrders = out
			}
		})
		r.Run(fmt.Sprintf("%d/hand", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				client.ins = client.ins[:0]
				out, err := handCollect(ctx, client, s.orders, lo, hi)
				if err != nil || len(out) != n {
					b.Fatal(len(out), err)
				}
				sinkOrders = out
			}
		})
	}
}
