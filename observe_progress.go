package keyfirst

import (
	"context"
	"sync"
	"time"
)

// Progress is how far long work has come, reported to the table's
// [Observer] as it goes: a backfill (migrate.Backfill), a re-shard pass
// (shard.Reshard), a stream's catch-up (stream.Consumer, until it reads at
// the stream's end).
type Progress struct {
	// Work is the call doing it: migrate.Backfill, shard.Reshard,
	// stream.Consumer.
	Work string
	// Table is the name of the table bound.
	Table string
	// Done counts the items (or stream records) done so far, Total those
	// there are to do (0 when unknown: a scan does not know its table's
	// size).
	Done, Total int64
	// Elapsed is the time since the work started; Rate is Done per second
	// of it.
	Elapsed time.Duration
	Rate    float64
	// Left is the time left at that rate, when Total is known (0
	// otherwise).
	Left time.Duration
	// Finished is set on the last report.
	Finished bool
}

// Tracker reports the [Progress] of one piece of long work to the
// table's [Observer]; the packages doing long work make one with
// [Table.Track]. A nil *Tracker (a table without Observer) reports
// nothing. It is safe for concurrent use.
type Tracker struct {
	o     Observer
	began time.Time
	mu    sync.Mutex
	p     Progress
}

// Track starts the [Tracker] of work on t with total items to do (0:
// unknown); nil when t has no [Observer].
func (t *Table) Track(work string, total int64) *Tracker {
	if t == nil || t.observer == nil {
		return nil
	}
	return &Tracker{o: t.observer, began: time.Now(), p: Progress{Work: work, Table: t.name, Total: total}}
}

// Add reports n more items done.
func (tr *Tracker) Add(ctx context.Context, n int64) { tr.report(ctx, n, false) }

// Finish reports the work finished, with n more items done.
func (tr *Tracker) Finish(ctx context.Context, n int64) { tr.report(ctx, n, true) }

func (tr *Tracker) report(ctx context.Context, n int64, finished bool) {
	if tr == nil {
		return
	}
	tr.mu.Lock()
	p := &tr.p
	p.Done += n
	p.Finished = finished
	p.Elapsed = time.Since(tr.began)
	if s := p.Elapsed.Seconds(); s > 0 {
		p.Rate = float64(p.Done) / s
	}
	p.Left = 0
	if p.Total > p.Done && p.Rate > 0 {
		p.Left = time.Duration(float64(p.Total-p.Done) / p.Rate * float64(time.Second))
	}
	snapshot := *p
	tr.mu.Unlock()
	tr.o.Progress(ctx, snapshot)
}
