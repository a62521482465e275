package otelkf_test

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/observe/otelkf"
)

func TestMain(m *testing.M) { integration.Main(m) }

type Order struct {
	Customer string `dynamodbav:"customer"`
	ID       string `dynamodbav:"id"`
	Status   string `dynamodbav:"status"`
}

var (
	customer = keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUST"))
	orderID  = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))
	byID     = keyfirst.OnTable(keyfirst.Composite("PK", customer), keyfirst.Composite("SK", orderID))
	byStatus = keyfirst.OnIndex("by-status", keyfirst.ID("status"), keyfirst.Composite("GSI1SK", orderID))
	shop     = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "shop", Key: byID, GSIs: []keyfirst.Index{byStatus.Index()}}))
	orders   = keyfirst.Must(keyfirst.NewEntity(shop, keyfirst.EntitySpec[Order]{Type: "ORDER",
		Keys: []keyfirst.Binding{byID.Fields("Customer", "ID"), byStatus.Fields("Status", "ID")}}))
)

func attrs(kvs []attribute.KeyValue) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range kvs {
		m[kv.Key] = kv.Value
	}
	return m
}

// A Put and a failed Put against DynamoDB Local: a client span each, with
// the database conventions' attributes and the capacity, the failed one
// with status Error; the request is sent under the span; the duration and
// capacity metrics per table and index.
func TestSpansAndMetrics(t *testing.T) {
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	o, err := otelkf.New(tp, mp)
	if err != nil {
		t.Fatal(err)
	}
	client := integration.Client(t)
	table := integration.TableOf(t, shop).Observed(o)
	e := keyfirst.Must(orders.In(table))
	ctx, cancel := integration.Context(t)
	defer cancel()
	ctx, parent := tp.Tracer("test").Start(ctx, "parent")
	if _, err := e.Put(ctx, client, Order{"c1", "o1", "OPEN"}, keyfirst.CreateOnly()); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Put(ctx, client, Order{"c1", "o1", "OPEN"}, keyfirst.CreateOnly()); err == nil {
		t.Fatal("second create succeeded")
	}
	parent.End()

	ended := spans.Ended()
	if len(ended) != 3 {
		t.Fatalf("%d spans, want the two Puts' and the parent", len(ended))
	}
	for i, s := range ended[:2] {
		a := attrs(s.Attributes())
		switch {
		case s.Name() != "PutItem "+table.Name() || s.SpanKind() != trace.SpanKindClient:
			t.Errorf("span %d: %q kind %v", i, s.Name(), s.SpanKind())
		case s.Parent().SpanID() != parent.SpanContext().SpanID():
			t.Errorf("span %d is not a child of the caller's span", i)
		case a["db.system.name"].AsString() != "aws.dynamodb" || a["db.system"].AsString() != "aws.dynamodb" ||
			a["db.operation.name"].AsString() != "PutItem" || a["db.collection.name"].AsString() != table.Name() ||
			a["keyfirst.call"].AsString() != "Put" || a["keyfirst.entity"].AsString() != "ORDER":
			t.Errorf("span %d attributes %v", i, a)
		}
	}
	if a := attrs(ended[0].Attributes()); a["keyfirst.capacity.total"].AsFloat64() <= 0 || ended[0].Status().Code == codes.Error {
		t.Errorf("the first Put: %v, status %v", a, ended[0].Status())
	}
	if ended[1].Status().Code != codes.Error || attrs(ended[1].Attributes())["error.type"].AsString() != "ConditionalCheckFailedException" {
		t.Errorf("the failed Put: status %v, attributes %v", ended[1].Status(), ended[1].Attributes())
	}

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	capacity := map[string]float64{}
	durations := uint64(0)
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[float64]:
				for _, p := range d.DataPoints {
					target, _ := p.Attributes.Value("keyfirst.target")
					capacity[target.AsString()] += p.Value
				}
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					durations += p.Count
				}
			}
		}
	}
	if capacity["table"] <= 0 || capacity["by-status"] <= 0 || durations != 2 {
		t.Errorf("capacity by target %v, %d durations; want the table's and by-status's, 2", capacity, durations)
	}
}
