package stream_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	streams "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/stream"
)

const shopARN = "arn:aws:dynamodb:us-east-1:123456789012:table/stream-shop/stream/2026-12-01T00:00:00.000"

// streamItem is item in DynamoDB Streams' attribute values.
func streamItem(t testing.TB, item map[string]types.AttributeValue) map[string]streams.AttributeValue {
	t.Helper()
	out := map[string]streams.AttributeValue{}
	for k, v := range item {
		out[k] = streamValue(t, v)
	}
	return out
}

func streamValue(t testing.TB, v types.AttributeValue) streams.AttributeValue {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return &streams.AttributeValueMemberS{Value: v.Value}
	case *types.AttributeValueMemberN:
		return &streams.AttributeValueMemberN{Value: v.Value}
	case *types.AttributeValueMemberM:
		return &streams.AttributeValueMemberM{Value: streamItem(t, v.Value)}
	}
	t.Fatalf("no stream value for %T", v)
	return nil
}

func orderItem(t *testing.T, o Order) map[string]types.AttributeValue {
	t.Helper()
	item, err := Orders.Item(o)
	if err != nil {
		t.Fatal(err)
	}
	return item
}

var (
	openOrder   = Order{ID: "o1", Customer: "c1", Status: "OPEN", Date: "2026-06-01", Total: 5}
	closedOrder = Order{ID: "o1", Customer: "c1", Status: "CLOSED", Date: "2026-06-01", Total: 5}
)

// awsRecord is a record as AWS's GetRecords returns it (the form of AWS's
// documentation): eventName, userIdentity, the dynamodb part.
func awsRecord(t *testing.T, event streams.OperationType, identity *streams.Identity, old, new *Order) streams.Record {
	t.Helper()
	d := &streams.StreamRecord{SequenceNumber: aws.String("111100000000000000000001"), StreamViewType: streams.StreamViewTypeNewAndOldImages,
		ApproximateCreationDateTime: aws.Time(time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)), SizeBytes: aws.Int64(100),
		Keys: map[string]streams.AttributeValue{"PK": &streams.AttributeValueMemberS{Value: "ORDER#o1"}}}
	if old != nil {
		d.OldImage = streamItem(t, orderItem(t, *old))
	}
	if new != nil {
		d.NewImage = streamItem(t, orderItem(t, *new))
	}
	return streams.Record{EventID: aws.String("e1"), EventName: event, EventSource: aws.String("aws:dynamodb"), AwsRegion: aws.String("us-east-1"),
		UserIdentity: identity, Dynamodb: d}
}

// The operation of each form of record: AWS's REMOVE by the TTL service
// and DynamoDB Local's UNKNOWN_TO_SDK_VERSION are both OpExpire.
func TestFromStreamsOperations(t *testing.T) {
	ttl := &streams.Identity{Type: aws.String("Service"), PrincipalId: aws.String("dynamodb.amazonaws.com")}
	for _, c := range []struct {
		name     string
		event    streams.OperationType
		identity *streams.Identity
		old, new *Order
		want     stream.Op
	}{
		{"insert", streams.OperationTypeInsert, nil, nil, &openOrder, stream.OpInsert},
		{"modify", streams.OperationTypeModify, nil, &openOrder, &closedOrder, stream.OpModify},
		{"remove", streams.OperationTypeRemove, nil, &openOrder, nil, stream.OpRemove},
		{"remove by a user", streams.OperationTypeRemove, &streams.Identity{Type: aws.String("Service"), PrincipalId: aws.String("other.amazonaws.com")}, &openOrder, nil, stream.OpRemove},
		{"AWS TTL", streams.OperationTypeRemove, ttl, &openOrder, nil, stream.OpExpire},
		{"DynamoDB Local TTL", "UNKNOWN_TO_SDK_VERSION", nil, &openOrder, nil, stream.OpExpire},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := stream.FromStreams(shopARN, awsRecord(t, c.event, c.identity, c.old, c.new))
			if err != nil {
				t.Fatal(err)
			}
			if r.Op != c.want || r.Table != "stream-shop" || r.SequenceNumber != "111100000000000000000001" || r.EventID != "e1" ||
				!r.Time.Equal(time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)) {
				t.Fatalf("%+v", r)
			}
			ch, err := stream.Decode(Orders, r)
			if err != nil {
				t.Fatal(err)
			}
			if (ch.Old != nil) != (c.old != nil) || (ch.New != nil) != (c.new != nil) ||
				(ch.Old != nil && *ch.Old != *c.old) || (ch.New != nil && *ch.New != *c.new) {
				t.Fatalf("images %v %v", ch.Old, ch.New)
			}
		})
	}
}

// Bad records are typed errors, each with its problem.
func TestBadRecords(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(*streams.Record)
		want   stream.RecordProblem
	}{
		{"unknown event", func(r *streams.Record) { r.EventName = "UPSERT" }, stream.RecordOperation},
		{"Local TTL with a new image", func(r *streams.Record) {
			r.EventName = "UNKNOWN_TO_SDK_VERSION"
			r.Dynamodb.NewImage = r.Dynamodb.OldImage
		}, stream.RecordOperation},
		{"unknown attribute type", func(r *streams.Record) {
			r.Dynamodb.OldImage["x"] = &streams.UnknownUnionMember{Tag: "Q"}
		}, stream.RecordAttribute},
		{"no sequence number", func(r *streams.Record) { r.Dynamodb.SequenceNumber = nil }, stream.RecordSequence},
		{"no keys", func(r *streams.Record) { r.Dynamodb.Keys = nil }, stream.RecordKeys},
		{"modify without old image", func(r *streams.Record) { r.Dynamodb.OldImage = nil }, stream.RecordImages},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := awsRecord(t, streams.OperationTypeModify, nil, &openOrder, &closedOrder)
			c.change(&r)
			_, err := stream.FromStreams(shopARN, r)
			var re *stream.RecordError
			if !errors.As(err, &re) || re.Problem != c.want || !errors.Is(err, stream.ErrBadRecord) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
		})
	}
}

// What Decode refuses: a record of another table, of a stream without
// both images, with a truncated image, or of another, unknown or changed
// entity type; never decoded into the wrong type.
func TestDecodeRefuses(t *testing.T) {
	customer := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "ORDER#o1"},
		"_type": &types.AttributeValueMemberS{Value: "Customer"}, "customer_id": &types.AttributeValueMemberS{Value: "o1"}}
	for _, c := range []struct {
		name   string
		change func(*stream.Record)
		record stream.RecordProblem
		err    error
	}{
		{"another table", func(r *stream.Record) { r.Table = "other" }, stream.RecordTable, stream.ErrBadRecord},
		{"keys only", func(r *stream.Record) { r.View = types.StreamViewTypeKeysOnly }, stream.RecordView, stream.ErrStreamView},
		{"truncated image", func(r *stream.Record) { delete(r.New, "PK") }, stream.RecordKeys, stream.ErrBadRecord},
		{"image of another key", func(r *stream.Record) { r.Old["PK"] = &types.AttributeValueMemberS{Value: "ORDER#o2"} }, stream.RecordKeys, stream.ErrBadRecord},
		{"undecodable image", func(r *stream.Record) { r.New["total"] = &types.AttributeValueMemberS{Value: "five"} }, stream.RecordDecode, stream.ErrBadRecord},
		{"unknown type", func(r *stream.Record) {
			r.Old["_type"], r.New["_type"] = &types.AttributeValueMemberS{Value: "Refund"}, &types.AttributeValueMemberS{Value: "Refund"}
		}, 0, stream.ErrUnknownType},
		{"no type", func(r *stream.Record) { delete(r.Old, "_type"); delete(r.New, "_type") }, 0, stream.ErrUnknownType},
		{"type changed", func(r *stream.Record) { r.New = customer }, 0, stream.ErrTypeChanged},
		{"another type", func(r *stream.Record) { r.Old, r.New = customer, customer }, 0, stream.ErrOtherType},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := stream.FromStreams(shopARN, awsRecord(t, streams.OperationTypeModify, nil, &openOrder, &closedOrder))
			if err != nil {
				t.Fatal(err)
			}
			c.change(&r)
			_, err = stream.Decode(Orders, r)
			if !errors.Is(err, c.err) {
				t.Fatalf("got %v, want %v", err, c.err)
			}
			var re *stream.RecordError
			var te *stream.TypeError
			switch {
			case c.record != 0 && (!errors.As(err, &re) || re.Problem != c.record):
				t.Fatalf("got %v, want %v", err, c.record)
			case c.record == 0 && (!errors.As(err, &te) || te.Record.SequenceNumber != r.SequenceNumber):
				t.Fatalf("got %v, want a *TypeError that keeps the record", err)
			}
		})
	}
}

// The router sends each type to its handler, and reports what none takes
// unless Otherwise decides.
func TestRouter(t *testing.T) {
	var g log
	r := g.router(t, Shop, Orders, Customers)
	rec, err := stream.FromStreams(shopARN, awsRecord(t, streams.OperationTypeModify, nil, &openOrder, &closedOrder))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Handle(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	if got := g.takeOrders(); len(got) != 1 || *got[0].New != closedOrder || got[0].Movement("open-orders") != stream.Left {
		t.Fatalf("%+v", got)
	}
	unknown := rec
	unknown.New = map[string]types.AttributeValue{"PK": rec.Keys["PK"], "_type": &types.AttributeValueMemberS{Value: "Refund"}}
	unknown.Old = unknown.New
	if err := r.Handle(t.Context(), unknown); !errors.Is(err, stream.ErrUnknownType) {
		t.Fatalf("unknown type: %v", err)
	}
	onlyCustomers, err := stream.NewRouter(Shop, stream.On(Customers, func(_ context.Context, c stream.Change[Customer]) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	if err := onlyCustomers.Handle(t.Context(), rec); !errors.Is(err, stream.ErrUnhandled) {
		t.Fatalf("no handler: %v", err)
	}
	var skipped []string
	skipping, err := stream.NewRouter(Shop, stream.Otherwise(func(_ context.Context, e *stream.TypeError) error {
		skipped = append(skipped, e.Record.SequenceNumber)
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	if err := skipping.HandleBatch(t.Context(), []stream.Record{rec, unknown}); err != nil || len(skipped) != 2 {
		t.Fatalf("%v, skipped %v", err, skipped)
	}
	skip := func(context.Context, *stream.TypeError) error { return nil }
	other := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "other", Key: orderByID}))
	otherOrders := keyfirst.Must(keyfirst.NewEntity(other, keyfirst.EntitySpec[Order]{Type: "Order", Keys: []keyfirst.Binding{orderByID.Fields("ID")}}))
	for name, hs := range map[string][]stream.Handler{
		"two of a type":  {stream.On(Orders, nil), stream.On(Orders, nil)},
		"another table":  {stream.On(otherOrders, nil)},
		"two Otherwise":  {stream.Otherwise(skip), stream.Otherwise(skip)},
		"a zero Handler": {{}},
	} {
		if _, err := stream.NewRouter(Shop, hs...); !errors.Is(err, stream.ErrHandlers) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
