package keyfirst

import (
	"context"
	"log/slog"
	"slices"
)

// SlogObserver returns an [Observer] that logs to l: each request when it
// ends ("keyfirst request", at level Debug, Warn when it failed) with its
// operation, call, table, index, entity type, key condition with its
// values, what it read and returned, the capacity it consumed (in total,
// on the table and on each index), its latency, DynamoDB's error code
// (code: [Result.Code]) and the error (err: keyfirst's typed error,
// [Result.Err]); and the progress of long work ("keyfirst progress", at
// level Info). A level l does not log costs nothing but the check.
func SlogObserver(l *slog.Logger) Observer { return slogObserver{l} }

type slogObserver struct{ l *slog.Logger }

func (s slogObserver) Start(ctx context.Context, _ *Request) context.Context { return ctx }

func (s slogObserver) End(ctx context.Context, r *Request, res *Result) {
	level := slog.LevelDebug
	if res.Err != nil {
		level = slog.LevelWarn
	}
	if !s.l.Enabled(ctx, level) {
		return
	}
	attrs := make([]slog.Attr, 0, 16)
	attrs = append(attrs, slog.String("op", r.Operation), slog.String("call", r.Call), slog.String("table", r.Table))
	for _, a := range []slog.Attr{slog.String("index", r.Index), slog.String("entity", r.Entity), slog.String("key", r.KeyCondition())} {
		if a.Value.String() != "" {
			attrs = append(attrs, a)
		}
	}
	attrs = append(attrs, slog.Int("seq", r.Seq))
	if r.Operation == "Scan" {
		attrs = append(attrs, slog.Int("segment", r.Segment))
	}
	attrs = append(attrs, slog.Int("read", res.Read), slog.Int("returned", res.Returned))
	if res.Unprocessed > 0 {
		attrs = append(attrs, slog.Int("unprocessed", res.Unprocessed))
	}
	if c := res.Capacity; c.Requests > 0 {
		units := []slog.Attr{slog.Float64("total", c.Total), slog.Float64("table", c.Table)}
		names := make([]string, 0, len(c.Indexes))
		for name := range c.Indexes {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			units = append(units, slog.Float64(name, c.Indexes[name]))
		}
		attrs = append(attrs, slog.Attr{Key: "capacity", Value: slog.GroupValue(units...)})
	}
	attrs = append(attrs, slog.Duration("latency", res.Latency))
	if res.Code != "" {
		attrs = append(attrs, slog.String("code", res.Code))
	}
	if res.Err != nil {
		attrs = append(attrs, slog.Any("err", res.Err))
	}
	s.l.LogAttrs(ctx, level, "keyfirst request", attrs...)
}

func (s slogObserver) Progress(ctx context.Context, p Progress) {
	s.l.LogAttrs(ctx, slog.LevelInfo, "keyfirst progress", slog.String("work", p.Work), slog.String("table", p.Table),
		slog.Int64("done", p.Done), slog.Int64("total", p.Total), slog.Float64("rate", p.Rate),
		slog.Duration("elapsed", p.Elapsed), slog.Duration("left", p.Left), slog.Bool("finished", p.Finished))
}
