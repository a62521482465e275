// Package lambdastream reads the DynamoDB stream events that AWS Lambda
// delivers (aws-lambda-go's events.DynamoDBEvent) as the records of the
// package github.com/keyfirst/keyfirst/stream, so that a Lambda function
// decodes them into the same typed changes, with the same index
// transitions, as a stream.Consumer. It is a module of its own: the one
// dependency it adds, aws-lambda-go, stays out of the go.sum of a module
// that imports only keyfirst's core packages.
//
// events.DynamoDBAttributeValue is a third union of attribute values,
// beside the dynamodb and dynamodbstreams packages', that the SDK's
// unmarshallers do not take: [Record] converts it, and the rest is the
// stream package's ([stream.FromSource]), so both sources decode alike.
//
// [Handler] makes a Lambda handler that reports partial batch failures
// (the event source mapping's ReportBatchItemFailures): the records are
// handled in order, and at the first that fails its sequence number is
// reported and the rest are left, so that Lambda retries from it and each
// item's changes stay in order (at least once: the sequence number is the
// idempotency key).
//
//	router, err := stream.NewRouter(table, stream.On(orders, onOrder))
//	...
//	lambda.Start(lambdastream.Handler(router.Handle))
package lambdastream

import (
	"context"
	"fmt"
	"slices"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/stream"
)

// Record reads one record of a Lambda event. Errors are
// [*stream.RecordError] values: an attribute value that is none of
// DynamoDB's (a zero events.DynamoDBAttributeValue) is
// [stream.RecordAttribute].
func Record(r events.DynamoDBEventRecord) (stream.Record, error) {
	s := stream.Source{EventID: r.EventID, EventName: r.EventName, SourceARN: r.EventSourceArn,
		SequenceNumber: r.Change.SequenceNumber, Time: r.Change.ApproximateCreationDateTime.Time,
		View: types.StreamViewType(r.Change.StreamViewType)}
	if id := r.UserIdentity; id != nil {
		s.Identity = &stream.Identity{Type: id.Type, PrincipalID: id.PrincipalID}
	}
	for _, m := range []struct {
		name string
		from map[string]events.DynamoDBAttributeValue
		to   *map[string]types.AttributeValue
	}{{"Keys", r.Change.Keys, &s.Keys}, {"OldImage", r.Change.OldImage, &s.Old}, {"NewImage", r.Change.NewImage, &s.New}} {
		if m.from == nil {
			continue
		}
		var err error
		if *m.to, err = convertMap(m.from); err != nil {
			return stream.Record{}, &stream.RecordError{EventID: r.EventID, SequenceNumber: r.Change.SequenceNumber,
				Problem: stream.RecordAttribute, Detail: m.name, Err: err}
		}
	}
	return stream.FromSource(s)
}

// Records reads every record of a Lambda event, in order; it stops at the
// first error ([Record]'s).
func Records(ev events.DynamoDBEvent) ([]stream.Record, error) {
	out := make([]stream.Record, 0, len(ev.Records))
	for _, r := range ev.Records {
		rec, err := Record(r)
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}

// Handler returns a Lambda handler of DynamoDB stream events that passes
// each record to fn ([stream.Router.Handle] is one), in order. At the
// first record that cannot be read or that fn fails, it stops and reports
// that record's sequence number in BatchItemFailures, with a nil error:
// Lambda then retries the batch from that record (the event source
// mapping must have ReportBatchItemFailures). A batch handled whole
// reports no failure.
func Handler(fn func(context.Context, stream.Record) error) func(context.Context, events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
	return func(ctx context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
		for _, r := range ev.Records {
			rec, err := Record(r)
			if err == nil {
				err = ctx.Err()
			}
			if err == nil {
				err = fn(ctx, rec)
			}
			if err != nil {
				return events.DynamoDBEventResponse{BatchItemFailures: []events.DynamoDBBatchItemFailure{{ItemIdentifier: r.Change.SequenceNumber}}}, nil
			}
		}
		return events.DynamoDBEventResponse{BatchItemFailures: []events.DynamoDBBatchItemFailure{}}, nil
	}
}

func convertMap(from map[string]events.DynamoDBAttributeValue) (map[string]types.AttributeValue, error) {
	out := make(map[string]types.AttributeValue, len(from))
	for name, v := range from {
		av, err := convert(v)
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", name, err)
		}
		out[name] = av
	}
	return out, nil
}

// convert converts a Lambda event's attribute value, and every value nested
// in it, into the dynamodb package's.
func convert(v events.DynamoDBAttributeValue) (types.AttributeValue, error) {
	switch v.DataType() {
	case events.DataTypeNull:
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case events.DataTypeBoolean:
		return &types.AttributeValueMemberBOOL{Value: v.Boolean()}, nil
	case events.DataTypeString:
		return &types.AttributeValueMemberS{Value: v.String()}, nil
	case events.DataTypeNumber:
		return &types.AttributeValueMemberN{Value: v.Number()}, nil
	case events.DataTypeBinary:
		if v.IsNull() {
			return nil, fmt.Errorf("a zero DynamoDBAttributeValue, of no type")
		}
		return &types.AttributeValueMemberB{Value: slices.Clone(v.Binary())}, nil
	case events.DataTypeStringSet:
		return &types.AttributeValueMemberSS{Value: slices.Clone(v.StringSet())}, nil
	case events.DataTypeNumberSet:
		return &types.AttributeValueMemberNS{Value: slices.Clone(v.NumberSet())}, nil
	case events.DataTypeBinarySet:
		bs := make([][]byte, len(v.BinarySet()))
		for i, b := range v.BinarySet() {
			bs[i] = slices.Clone(b)
		}
		return &types.AttributeValueMemberBS{Value: bs}, nil
	case events.DataTypeList:
		l := make([]types.AttributeValue, len(v.List()))
		for i, e := range v.List() {
			var err error
			if l[i], err = convert(e); err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
		}
		return &types.AttributeValueMemberL{Value: l}, nil
	case events.DataTypeMap:
		m, err := convertMap(v.Map())
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberM{Value: m}, nil
	}
	return nil, fmt.Errorf("data type %d", v.DataType())
}
