package lambdastream_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streams "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/stream"
	"github.com/keyfirst/keyfirst/stream/lambdastream"
)

func TestMain(m *testing.M) { integration.Main(m) }

// eventOf is the Lambda event record that carries the DynamoDB Streams
// record r: the same JSON document, here built value by value.
func eventOf(t *testing.T, arn string, r streams.Record) events.DynamoDBEventRecord {
	t.Helper()
	var conv func(v streams.AttributeValue) events.DynamoDBAttributeValue
	convMap := func(m map[string]streams.AttributeValue) map[string]events.DynamoDBAttributeValue {
		if m == nil {
			return nil
		}
		out := map[string]events.DynamoDBAttributeValue{}
		for k, v := range m {
			out[k] = conv(v)
		}
		return out
	}
	conv = func(v streams.AttributeValue) events.DynamoDBAttributeValue {
		switch v := v.(type) {
		case *streams.AttributeValueMemberS:
			return events.NewStringAttribute(v.Value)
		case *streams.AttributeValueMemberN:
			return events.NewNumberAttribute(v.Value)
		case *streams.AttributeValueMemberM:
			return events.NewMapAttribute(convMap(v.Value))
		}
		t.Fatalf("no event value for %T", v)
		return events.DynamoDBAttributeValue{}
	}
	d := r.Dynamodb
	ev := events.DynamoDBEventRecord{EventID: aws.ToString(r.EventID), EventName: string(r.EventName), EventSourceArn: arn,
		Change: events.DynamoDBStreamRecord{ApproximateCreationDateTime: events.SecondsEpochTime{Time: aws.ToTime(d.ApproximateCreationDateTime)},
			Keys: convMap(d.Keys), OldImage: convMap(d.OldImage), NewImage: convMap(d.NewImage),
			SequenceNumber: aws.ToString(d.SequenceNumber), StreamViewType: string(d.StreamViewType)}}
	if id := r.UserIdentity; id != nil {
		ev.UserIdentity = &events.DynamoDBUserIdentity{Type: aws.ToString(id.Type), PrincipalID: aws.ToString(id.PrincipalId)}
	}
	return ev
}

// The records DynamoDB Local writes for keyfirst's Put, Replace and
// Delete read the same through a Lambda event as through GetRecords, and
// the handler hands their changes out in order.
func TestLocalRecordsThroughLambda(t *testing.T) {
	l := integration.Shared(t)
	table := integration.TableOf(t, ordersTable)
	e := keyfirst.Must(orders.In(table))
	ctx := t.Context()
	o := Order{ID: "o1", Status: "OPEN", Date: "2026-06-01"}
	if _, err := e.Put(ctx, l.Client, o); err != nil {
		t.Fatal(err)
	}
	o.Status = "CLOSED"
	if _, err := e.Replace(ctx, l.Client, o); err != nil {
		t.Fatal(err)
	}
	if err := e.Delete(ctx, l.Client, o); err != nil {
		t.Fatal(err)
	}
	desc, err := l.Client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table.Name())})
	if err != nil {
		t.Fatal(err)
	}
	arn := desc.Table.LatestStreamArn
	sc := dynamodbstreams.New(dynamodbstreams.Options{Region: integration.Region, BaseEndpoint: aws.String(l.Endpoint),
		Credentials: credentials.NewStaticCredentialsProvider("local", "local", "")})
	ds, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: arn})
	if err != nil {
		t.Fatal(err)
	}
	it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: arn, ShardId: ds.StreamDescription.Shards[0].ShardId,
		ShardIteratorType: streams.ShardIteratorTypeTrimHorizon})
	if err != nil {
		t.Fatal(err)
	}
	out, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator})
	if err != nil || len(out.Records) != 3 {
		t.Fatalf("%v, %d records", err, len(out.Records))
	}
	var ev events.DynamoDBEvent
	for _, r := range out.Records {
		want, err := stream.FromStreams(aws.ToString(arn), r)
		if err != nil {
			t.Fatal(err)
		}
		er := eventOf(t, aws.ToString(arn), r)
		got, err := lambdastream.Record(er)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("through Lambda %+v\nthrough GetRecords %+v", got, want)
		}
		ev.Records = append(ev.Records, er)
	}
	var got []string
	router := keyfirst.Must(stream.NewRouter(table, stream.On(e, func(_ context.Context, c stream.Change[Order]) error {
		got = append(got, c.Op.String()+" "+c.Movement("open-orders").String())
		return nil
	})))
	resp, err := lambdastream.Handler(router.Handle)(ctx, ev)
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("%v %+v", err, resp)
	}
	if !reflect.DeepEqual(got, []string{"insert entered", "modify left", "remove absent"}) {
		t.Fatalf("changes %v", got)
	}
}
