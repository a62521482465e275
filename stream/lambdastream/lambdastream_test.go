package lambdastream_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/stream"
	"github.com/keyfirst/keyfirst/stream/lambdastream"
)

type Order struct {
	ID     string `dynamodbav:"order_id"`
	Status string `dynamodbav:"status"`
	Date   string `dynamodbav:"order_date"`
}

var (
	orderByID   = keyfirst.OnTable(keyfirst.Composite("PK", keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))), keyfirst.NoSort())
	openByDate  = keyfirst.OnIndex("open-orders", keyfirst.Const("open_bucket", "OPEN"), keyfirst.Str("order_date"))
	ordersTable = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "orders", Key: orderByID,
		GSIs: []keyfirst.Index{openByDate.Index()}, Stream: types.StreamViewTypeNewAndOldImages}))
	orders = keyfirst.Must(keyfirst.NewEntity(ordersTable, keyfirst.EntitySpec[Order]{Type: "Order", Keys: []keyfirst.Binding{
		orderByID.Fields("ID"), keyfirst.If(openByDate.Fields("Date"), func(o Order) bool { return o.Status == "OPEN" })}}))
)

// awsEvent is a Lambda event as AWS delivers it (testdata/aws-event.json):
// an order inserted, closed, then deleted by the time to live.
func awsEvent(t *testing.T) events.DynamoDBEvent {
	t.Helper()
	data, err := os.ReadFile("testdata/aws-event.json")
	if err != nil {
		t.Fatal(err)
	}
	var ev events.DynamoDBEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		t.Fatal(err)
	}
	return ev
}

// AWS's recorded event decodes into the typed changes: operations (the
// TTL deletion told by its identity), images, transitions, positions, and
// every attribute type converted.
func TestAWSEvent(t *testing.T) {
	records, err := lambdastream.Records(awsEvent(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		op       stream.Op
		old, new string // statuses
		open     stream.Movement
	}{{stream.OpInsert, "", "OPEN", stream.Entered}, {stream.OpModify, "OPEN", "CLOSED", stream.Left}, {stream.OpExpire, "CLOSED", "", stream.Absent}}
	for i, w := range want {
		c, err := stream.Decode(orders, records[i])
		if err != nil {
			t.Fatal(err)
		}
		status := func(o *Order) string {
			if o == nil {
				return ""
			}
			return o.Status
		}
		if c.Op != w.op || status(c.Old) != w.old || status(c.New) != w.new || c.Movement("open-orders") != w.open ||
			c.Table != "orders" || c.Time.Unix() == 0 || c.SequenceNumber == "" {
			t.Errorf("record %d: %+v", i, c)
		}
	}
	img := records[0].New
	for name, v := range map[string]types.AttributeValue{
		"tags": &types.AttributeValueMemberSS{Value: []string{"gift", "rush"}},
		"lines": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
			"sku": &types.AttributeValueMemberS{Value: "A1"}, "qty": &types.AttributeValueMemberN{Value: "2"}}}}},
		"paid": &types.AttributeValueMemberBOOL{Value: false},
		"note": &types.AttributeValueMemberNULL{Value: true},
		"sig":  &types.AttributeValueMemberB{Value: []byte{0, 1, 42, 65}},
	} {
		if !reflect.DeepEqual(img[name], v) {
			t.Errorf("%s: %#v, want %#v", name, img[name], v)
		}
	}
}

// DynamoDB Local's TTL deletion (UNKNOWN_TO_SDK_VERSION, no identity) is an
// expiry too; a zero attribute value is a typed error.
func TestLocalTTLAndBadValues(t *testing.T) {
	ev := awsEvent(t)
	r := ev.Records[2]
	r.EventName, r.UserIdentity = "UNKNOWN_TO_SDK_VERSION", nil
	rec, err := lambdastream.Record(r)
	if err != nil || rec.Op != stream.OpExpire {
		t.Fatalf("%v, %v", rec.Op, err)
	}
	r.Change.OldImage["x"] = events.DynamoDBAttributeValue{}
	var re *stream.RecordError
	if _, err := lambdastream.Record(r); !errors.As(err, &re) || re.Problem != stream.RecordAttribute {
		t.Fatalf("a zero attribute value: %v", err)
	}
	if _, err := lambdastream.Records(events.DynamoDBEvent{Records: []events.DynamoDBEventRecord{ev.Records[0], r}}); !errors.As(err, &re) {
		t.Fatalf("Records: %v", err)
	}
}

// The handler reports the first record that fails, and handles none after
// it; a batch handled whole reports no failure.
func TestHandlerReportsBatchItemFailures(t *testing.T) {
	ev := awsEvent(t)
	var handled []string
	router := keyfirst.Must(stream.NewRouter(ordersTable, stream.On(orders, func(_ context.Context, c stream.Change[Order]) error {
		handled = append(handled, c.SequenceNumber)
		if c.Op == stream.OpModify && len(handled) == 2 {
			return errors.New("busy")
		}
		return nil
	})))
	h := lambdastream.Handler(router.Handle)
	resp, err := h(t.Context(), ev)
	if err != nil || len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != ev.Records[1].Change.SequenceNumber || len(handled) != 2 {
		t.Fatalf("%v, %+v, handled %v", err, resp, handled)
	}
	handled = nil
	resp, err = h(t.Context(), events.DynamoDBEvent{Records: ev.Records[1:]}) // Lambda's retry from the failed record
	if err != nil || len(resp.BatchItemFailures) != 0 || len(handled) != 2 {
		t.Fatalf("%v, %+v, handled %v", err, resp, handled)
	}
	bad := ev.Records[0]
	bad.Change.NewImage = map[string]events.DynamoDBAttributeValue{"PK": {}}
	resp, _ = h(t.Context(), events.DynamoDBEvent{Records: []events.DynamoDBEventRecord{bad}})
	if len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != bad.Change.SequenceNumber {
		t.Fatalf("a bad record: %+v", resp)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if resp, _ := h(ctx, ev); len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != ev.Records[0].Change.SequenceNumber {
		t.Fatalf("a cancelled context: %+v", resp)
	}
}
