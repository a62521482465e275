// Package otelkf is the OpenTelemetry adapter of keyfirst: a
// keyfirst.Observer that makes a client span and metrics of every request
// keyfirst sends on an observed table (keyfirst.Table.Observed), following
// OpenTelemetry's database semantic conventions, with the capacity each
// request consumed. It is a module of its own, so that a module importing
// only keyfirst does not depend on OpenTelemetry.
//
//	o, err := otelkf.New(otel.GetTracerProvider(), otel.GetMeterProvider())
//	table = table.Observed(o)
//
// Each request is a span named "<operation> <table>" (Query Orders) of
// kind client, started before the request is sent: the AWS SDK's own spans
// nest under it. Its attributes are db.system.name and db.system
// ("aws.dynamodb"), db.operation.name, db.collection.name,
// aws.dynamodb.table_names, aws.dynamodb.index_name, and keyfirst's own:
// keyfirst.call, keyfirst.entity, keyfirst.seq, keyfirst.items.read,
// keyfirst.items.returned, keyfirst.capacity.total and
// keyfirst.capacity.table. A failed request sets the span's status to
// Error and records the error (keyfirst's typed error, keyfirst.Result.Err),
// and error.type: the DynamoDB error code (keyfirst.Result.Code:
// ConditionalCheckFailedException), or the Go type of the error when
// DynamoDB gave none (a GetItem that found nothing: *keyfirst.OpError).
//
// The metrics are db.client.operation.duration (a histogram, in seconds)
// by system, operation, table and error.type; keyfirst.consumed_capacity (a
// counter of capacity units) by table, operation and target (the table or
// an index name); and keyfirst.work.done (a gauge of the items done) by
// work and table, from the progress of long work, which is also an event
// on the span in the context, if any.
package otelkf

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/keyfirst/keyfirst"
)

// Name is the instrumentation scope of the tracer and of the meter.
const Name = "github.com/keyfirst/keyfirst/observe/otelkf"

// System is the value of db.system.name and db.system.
const System = "aws.dynamodb"

// New returns the Observer that makes spans with tp and metrics with mp.
func New(tp trace.TracerProvider, mp metric.MeterProvider) (keyfirst.Observer, error) {
	if tp == nil || mp == nil {
		return nil, fmt.Errorf("otelkf: New needs a TracerProvider and a MeterProvider (otel.GetTracerProvider(), otel.GetMeterProvider())")
	}
	m := mp.Meter(Name)
	o := &observer{tracer: tp.Tracer(Name)}
	var err error
	if o.duration, err = m.Float64Histogram("db.client.operation.duration", metric.WithUnit("s"),
		metric.WithDescription("Duration of database client operations.")); err != nil {
		return nil, err
	}
	if o.capacity, err = m.Float64Counter("keyfirst.consumed_capacity", metric.WithUnit("{capacity_unit}"),
		metric.WithDescription("Capacity units consumed by the requests, on the table and on each index.")); err != nil {
		return nil, err
	}
	if o.done, err = m.Int64Gauge("keyfirst.work.done", metric.WithUnit("{item}"),
		metric.WithDescription("Items done by long work: a backfill, a re-shard pass, a stream's round.")); err != nil {
		return nil, err
	}
	return o, nil
}

type observer struct {
	tracer   trace.Tracer
	duration metric.Float64Histogram
	capacity metric.Float64Counter
	done     metric.Int64Gauge
}

func (o *observer) Start(ctx context.Context, r *keyfirst.Request) context.Context {
	attrs := []attribute.KeyValue{
		attribute.String("db.system.name", System),
		attribute.String("db.system", System),
		attribute.String("db.operation.name", r.Operation),
		attribute.String("db.collection.name", r.Table),
		attribute.StringSlice("aws.dynamodb.table_names", []string{r.Table}),
		attribute.String("keyfirst.call", r.Call),
		attribute.Int("keyfirst.seq", r.Seq),
	}
	if r.Index != "" {
		attrs = append(attrs, attribute.String("aws.dynamodb.index_name", r.Index))
	}
	if r.Entity != "" {
		attrs = append(attrs, attribute.String("keyfirst.entity", r.Entity))
	}
	ctx, _ = o.tracer.Start(ctx, r.Operation+" "+r.Table, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	return ctx
}

func (o *observer) End(ctx context.Context, r *keyfirst.Request, res *keyfirst.Result) {
	span := trace.SpanFromContext(ctx)
	base := []attribute.KeyValue{
		attribute.String("db.system.name", System),
		attribute.String("db.operation.name", r.Operation),
		attribute.String("db.collection.name", r.Table),
	}
	span.SetAttributes(
		attribute.Int("keyfirst.items.read", res.Read),
		attribute.Int("keyfirst.items.returned", res.Returned),
		attribute.Float64("keyfirst.capacity.total", res.Capacity.Total),
		attribute.Float64("keyfirst.capacity.table", res.Capacity.Table),
	)
	measured := base
	if res.Err != nil {
		kind := res.Code // ConditionalCheckFailedException
		if kind == "" {
			kind = fmt.Sprintf("%T", res.Err) // keyfirst's own: *keyfirst.OpError (ErrNotFound)
		}
		span.RecordError(res.Err)
		span.SetStatus(codes.Error, res.Err.Error())
		span.SetAttributes(attribute.String("error.type", kind))
		measured = append(measured[:len(measured):len(measured)], attribute.String("error.type", kind))
	}
	o.duration.Record(ctx, res.Latency.Seconds(), metric.WithAttributes(measured...))
	if res.Capacity.Requests > 0 {
		o.capacity.Add(ctx, res.Capacity.Table, metric.WithAttributes(append(base[:len(base):len(base)], attribute.String("keyfirst.target", "table"))...))
		for name, units := range res.Capacity.Indexes {
			o.capacity.Add(ctx, units, metric.WithAttributes(append(base[:len(base):len(base)], attribute.String("keyfirst.target", name))...))
		}
	}
	span.End()
}

func (o *observer) Progress(ctx context.Context, p keyfirst.Progress) {
	attrs := []attribute.KeyValue{attribute.String("keyfirst.work", p.Work), attribute.String("db.collection.name", p.Table)}
	o.done.Record(ctx, p.Done, metric.WithAttributes(attrs...))
	trace.SpanFromContext(ctx).AddEvent("keyfirst.progress", trace.WithAttributes(append(attrs,
		attribute.Int64("keyfirst.work.done", p.Done), attribute.Int64("keyfirst.work.total", p.Total),
		attribute.Float64("keyfirst.work.rate", p.Rate), attribute.Int64("keyfirst.work.left_ms", p.Left.Milliseconds()),
		attribute.Bool("keyfirst.work.finished", p.Finished))...))
}
