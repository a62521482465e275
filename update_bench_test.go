package keyfirst_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"

	"github.com/keyfirst/keyfirst/internal/benchorder"
)

// The update of the benchmarks: add 5 to the order's total and set its
// note, if its total is at least 1, on the pattern-bound benchmark entity
// (no key reads Total or Note).
var benchUpdate = keyfirst.Add("Total", 5).Set("Note", "gift wrap").If(keyfirst.Field("Total").Ge(1))

// rawUpdateInput is the UpdateItem that a program without keyfirst sends
// for benchUpdate: the same expression built by hand with the expression
// builder (the entity-type guard, the limit that keeps Total an int64, the
// caller's condition), the same names and values, ALL_NEW and ALL_OLD on
// a failed condition.
func rawUpdateInput(tb testing.TB, table string, o benchOrder) *dynamodb.UpdateItemInput {
	n := expression.NameNoDotSplit
	up := expression.Add(n("total"), expression.Value(&types.AttributeValueMemberN{Value: "5"})).
		Set(n("note"), expression.Value(&types.AttributeValueMemberS{Value: "gift wrap"}))
	limit := &types.AttributeValueMemberN{Value: strconv.FormatInt(math.MaxInt64-5, 10)}
	cond := n("_type").Equal(expression.Value(&types.AttributeValueMemberS{Value: "ORDER"})).
		And(n("total").AttributeNotExists().Or(n("total").LessThanEqual(expression.Value(limit)))).
		And(n("total").GreaterThanEqual(expression.Value(&types.AttributeValueMemberN{Value: "1"})))
	x, err := expression.NewBuilder().WithUpdate(up).WithCondition(cond).Build()
	if err != nil {
		tb.Fatal(err)
	}
	return &dynamodb.UpdateItemInput{
		TableName: aws.String(table),
		Key: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: "CUST#" + o.Customer},
			"SK": &types.AttributeValueMemberS{Value: "ORDER#" + o.ID},
		},
		UpdateExpression:                    x.Update(),
		ConditionExpression:                 x.Condition(),
		ExpressionAttributeNames:            x.Names(),
		ExpressionAttributeValues:           x.Values(),
		ReturnValues:                        types.ReturnValueAllNew,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}
}

// cannedUpdate is a client whose UpdateItem returns out (the item as
// stored after the update, ALL_NEW) and keeps the last input: the
// benchmarks measure the work around the request, not the network.
type cannedUpdate struct {
	out  *dynamodb.UpdateItemOutput
	last *dynamodb.UpdateItemInput
}

func (c *cannedUpdate) UpdateItem(_ context.Context, in *dynamodb.UpdateItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	c.last = in
	return c.out, nil
}

// benchUpdated is benchValue after benchUpdate, as the canned ALL_NEW
// returns it.
func benchUpdated(tb testing.TB, e *keyfirst.Entity[benchOrder]) (benchOrder, *cannedUpdate) {
	v := benchValue
	v.Total += 5
	v.Note = "gift wrap"
	return v, &cannedUpdate{out: &dynamodb.UpdateItemOutput{Attributes: mustItem(tb, e, v)}}
}

// rawUpdate is the hand-written variant: the request built by hand, the
// ALL_NEW item decoded by hand (unmarshalByHand).
func rawUpdate(ctx context.Context, tb testing.TB, api keyfirst.UpdateItemAPI, table string) (benchOrder, error) {
	out, err := api.UpdateItem(ctx, rawUpdateInput(tb, table, benchValue))
	if err != nil {
		return benchOrder{}, err
	}
	return unmarshalByHand(out.Attributes)
}

// bodyRecorder is an HTTP client that keeps the body of the last request
// and answers it with an empty success: the request as the SDK
// serializes it.
type bodyRecorder struct{ body []byte }

func (r *bodyRecorder) Do(req *http.Request) (*http.Response, error) {
	r.body, _ = io.ReadAll(req.Body)
	_ = req.Body.Close()
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": []string{"application/x-amz-json-1.0"}},
		Body: io.NopCloser(strings.NewReader("{}")), Request: req}, nil
}

// serialized returns the body the SDK sends for in, its JSON objects in
// sorted key order (the SDK writes maps in Go's random order).
func serialized(t *testing.T, in *dynamodb.UpdateItemInput) []byte {
	t.Helper()
	rec := &bodyRecorder{}
	client := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String("http://stub.invalid"),
		Credentials: credentials.NewStaticCredentialsProvider("key", "secret", ""), HTTPClient: rec})
	if _, err := client.UpdateItem(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(rec.body, &doc); err != nil {
		t.Fatal(err)
	}
	canonical, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return canonical
}

// TestBenchmarkUpdateAgrees: Entity.Update and the raw SDK variant send
// the same request, byte for byte once serialized, and decode the canned
// item alike, so BenchmarkUpdate compares equal work.
func TestBenchmarkUpdateAgrees(t *testing.T) {
	e := benchPatternEntity(t)
	want, api := benchUpdated(t, e)
	got, err := e.Update(context.Background(), api, keyfirst.Must(e.Key(benchValue)), benchUpdate)
	if err != nil {
		t.Fatal(err)
	}
	mine := serialized(t, api.last)
	raw, err := rawUpdate(context.Background(), t, api, e.Table().Name())
	if err != nil {
		t.Fatal(err)
	}
	theirs := serialized(t, api.last)
	if !bytes.Equal(mine, theirs) {
		t.Fatalf("keyfirst sends\n%s\nthe raw SDK variant\n%s", mine, theirs)
	}
	for name, v := range map[string]benchOrder{"keyfirst": got, "raw SDK": raw} {
		if !reflect.DeepEqual(v, want) {
			t.Fatalf("%s decoded %+v, want %+v", name, v, want)
		}
	}
}

var sinkErr error

// BenchmarkUpdate: Entity.Update beside the raw SDK's UpdateItem with the
// same expression and a hand-written decoder, against a client that
// returns a canned ALL_NEW item (make bench runs them in interleaved
// rounds).
func BenchmarkUpdate(b *testing.B) {
	r := benchorder.New(b)
	defer r.Done()
	e := benchPatternEntity(b)
	_, api := benchUpdated(b, e)
	key := keyfirst.Must(e.Key(benchValue))
	ctx := context.Background()
	r.Run("keyfirst", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkOrder, sinkErr = e.Update(ctx, api, key, benchUpdate)
		}
	})
	r.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkOrder, sinkErr = rawUpdate(ctx, b, api, e.Table().Name())
		}
	})
}
