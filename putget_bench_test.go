package keyfirst_test

import (
	"bytes"
	"context"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/wirebody"

	"github.com/keyfirst/keyfirst/internal/benchorder"
)

// The cost of a Put and of a Get of benchOrder, keyfirst beside the same
// request written by hand, against a stub that answers at once (the
// library's own work: BenchmarkPutGet) and on DynamoDB Local
// (BenchmarkPutGetLocal, bench_test.go). keyfirst-observed is keyfirst on
// a table with an Observer that observes nothing: what the hook costs,
// the consumed capacity that it asks for (to show it to the Observer)
// included. TestPutGetTwinsAgree proves that every variant sends the same
// request body (keyfirst-observed asking for the capacity besides) and
// reads the same order. Run with
//
//	go run ./internal/benchratio -bench PutGet .

// handPutGuard is the condition of keyfirst's Put, written by hand: the
// item is new, or of this entity type.
var handPutGuard = struct {
	cond   string
	names  map[string]string
	values map[string]types.AttributeValue
}{"(attribute_not_exists (#0)) OR (#1 = :0)", map[string]string{"#0": "PK", "#1": "_type"},
	map[string]types.AttributeValue{":0": &types.AttributeValueMemberS{Value: "ORDER"}}}

// handPut is Put of o as a hand-written program sends it.
func handPut(ctx context.Context, api keyfirst.PutItemAPI, table string, o benchOrder) error {
	item, err := marshalByHand(o)
	if err != nil {
		return err
	}
	_, err = api.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item,
		ConditionExpression: aws.String(handPutGuard.cond), ExpressionAttributeNames: handPutGuard.names,
		ExpressionAttributeValues:           handPutGuard.values,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
	return err
}

// handGet is Get of the order with o's key as a hand-written program
// sends it and reads the answer.
func handGet(ctx context.Context, api keyfirst.GetItemAPI, table string, o benchOrder) (benchOrder, error) {
	out, err := api.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: "CUST#" + o.Customer},
		"SK": &types.AttributeValueMemberS{Value: "ORDER#" + o.ID},
	}})
	if err != nil {
		return benchOrder{}, err
	}
	return unmarshalByHand(out.Item)
}

// putGetVariants are keyfirst's entities of BenchmarkPutGet by variant
// name: without and with an Observer.
func putGetVariants(tb testing.TB) map[string]*keyfirst.Entity[benchOrder] {
	e := benchEntity(tb, "bench")
	return map[string]*keyfirst.Entity[benchOrder]{"keyfirst": e, "keyfirst-observed": keyfirst.Must(e.In(e.Table().Observed(nopObserver{})))}
}

func BenchmarkPutGet(b *testing.B) {
	r := benchorder.New(b)
	defer r.Done()
	ctx := context.Background()
	variants := putGetVariants(b)
	e := variants["keyfirst"]
	stub := &stubClient{get: dynamodb.GetItemOutput{Item: keyfirst.Must(e.Item(benchValue))}}
	key := keyfirst.Must(e.Key(benchValue))
	table := e.Table().Name()
	for _, op := range []struct {
		name string
		mine func(e *keyfirst.Entity[benchOrder]) error
		hand func() error
	}{
		{"Put", func(e *keyfirst.Entity[benchOrder]) error { _, err := e.Put(ctx, stub, benchValue); return err },
			func() error { return handPut(ctx, stub, table, benchValue) }},
		{"Get", func(e *keyfirst.Entity[benchOrder]) (err error) { sinkOrder, err = e.Get(ctx, stub, key); return err },
			func() (err error) { sinkOrder, err = handGet(ctx, stub, table, benchValue); return err }},
	} {
		for _, name := range []string{"keyfirst", "keyfirst-observed"} {
			r.Run(op.name+"/"+name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := op.mine(variants[name]); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		r.Run(op.name+"/hand", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := op.hand(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestPutGetTwinsAgree: every keyfirst variant of BenchmarkPutGet (and of
// BenchmarkPutGetLocal) sends the request body the hand-written twin
// sends, the same bytes once the object keys are sorted, and reads the
// same order from the same answer.
func TestPutGetTwinsAgree(t *testing.T) {
	ctx := context.Background()
	hand := &wirebody.Recorder{Keep: true}
	variants := putGetVariants(t)
	table := variants["keyfirst"].Table().Name()
	if err := handPut(ctx, wirebody.Client(hand), table, benchValue); err != nil {
		t.Fatal(err)
	}
	_, _ = handGet(ctx, wirebody.Client(hand), table, benchValue) // the recorder answers no item
	marks := []string{`"ConditionExpression"`, `"Key"`}
	for name, e := range variants {
		mine := &wirebody.Recorder{Keep: true}
		if _, err := e.Put(ctx, wirebody.Client(mine), benchValue); err != nil {
			t.Fatal(err)
		}
		_, _ = e.Get(ctx, wirebody.Client(mine), keyfirst.Must(e.Key(benchValue)))
		var edit func([]byte) []byte
		if name == "keyfirst-observed" {
			edit = func(body []byte) []byte {
				// An Observer is shown the capacity each request consumed,
				// which DynamoDB returns only when asked.
				asked := []byte(`"ReturnConsumedCapacity":"INDEXES",`)
				if !bytes.Contains(body, asked) {
					t.Errorf("%s does not ask for the consumed capacity: %s", name, body)
				}
				return bytes.Replace(body, asked, nil, 1)
			}
		}
		sameRequests(t, mine, hand, 2, func(i int) string { return marks[i] }, edit)

		stub := &stubClient{get: dynamodb.GetItemOutput{Item: keyfirst.Must(e.Item(benchValue))}}
		read, err := e.Get(ctx, stub, keyfirst.Must(e.Key(benchValue)))
		if err != nil {
			t.Fatal(err)
		}
		byHand, err := handGet(ctx, stub, table, benchValue)
		if err != nil || !reflect.DeepEqual(read, byHand) || !reflect.DeepEqual(read, benchValue) {
			t.Errorf("%s reads %+v, the hand-written twin %+v (%v)", name, read, byHand, err)
		}
	}
}
