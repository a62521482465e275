package migrate

import (
	"fmt"
	"strings"
	"time"

	"github.com/keyfirst/keyfirst/sparse"
)

// Counts counts the items a backfill processed.
type Counts struct {
	// Scanned is every item read and processed: the sum of the others
	// but Conflicted.
	Scanned int64 `json:"scanned"`
	// Changed items were written (a dry run: would be).
	Changed int64 `json:"changed"`
	// Unchanged items were up to date already.
	Unchanged int64 `json:"unchanged"`
	// Skipped items are of an entity type of the table that the backfill
	// was not given.
	Skipped int64 `json:"skipped"`
	// Failed items could not be brought up to date ([Failure]).
	Failed int64 `json:"failed"`
	// Conflicted counts the writes that found the item changed by
	// another writer since it was read; the item was then processed
	// again from the image stored now (it ends changed, unchanged or,
	// when it kept changing, failed), or left alone when deleted.
	Conflicted int64 `json:"conflicted"`
	// Adopted counts the Changed items that had no entity-type attribute
	// and were recognised by their key ([keyfirst.EntitySpec.Adopt]):
	// the backfill stored the attribute on them (a dry run: would).
	Adopted int64 `json:"adopted,omitempty"`
	// Visited items were handed to the visit of their target ([Visit]),
	// and neither changed nor checked.
	Visited int64 `json:"visited,omitempty"`
}

func (c *Counts) add(o Counts) {
	c.Scanned += o.Scanned
	c.Changed += o.Changed
	c.Unchanged += o.Unchanged
	c.Skipped += o.Skipped
	c.Failed += o.Failed
	c.Conflicted += o.Conflicted
	c.Adopted += o.Adopted
	c.Visited += o.Visited
}

// IndexReport counts, for one secondary index, what the changed items'
// writes do (or, in a dry run, would do) to their entries, as the sparse
// package's estimator computes it ([sparse.Estimator]).
type IndexReport struct {
	Enter  int64 `json:"enter"`  // items that enter the index
	Leave  int64 `json:"leave"`  // items that leave it
	Move   int64 `json:"move"`   // items whose key in the index changes (a delete and a put)
	Update int64 `json:"update"` // items that stay in it with projected attributes changed
	// Writes is the index writes of those changes, and EstimatedWCU their
	// write capacity units.
	Writes       int64   `json:"writes"`
	EstimatedWCU float64 `json:"estimatedWCU"`
}

func (r *IndexReport) add(o IndexReport) {
	r.Enter += o.Enter
	r.Leave += o.Leave
	r.Move += o.Move
	r.Update += o.Update
	r.Writes += o.Writes
	r.EstimatedWCU += o.EstimatedWCU
}

func (r *IndexReport) count(ic sparse.IndexCost) {
	switch ic.Transition {
	case sparse.Enter:
		r.Enter++
	case sparse.Leave:
		r.Leave++
	case sparse.Move:
		r.Move++
	case sparse.StayIn:
		r.Update++
	}
	r.Writes += int64(ic.Writes)
	r.EstimatedWCU += float64(ic.WCU)
}

// EntityReport is what a backfill did with the items of one entity type.
type EntityReport struct {
	Counts
	// Indexes has one entry per secondary index that a changed item's
	// write touches (or would touch).
	Indexes map[string]IndexReport
	// EstimatedWCU is the estimated write capacity of the changed items'
	// writes: the table's and every index's.
	EstimatedWCU float64
}

// Report is the outcome of [Backfill.Run]: what this run did, what it
// cost, the items it could not bring up to date, and where it stopped.
type Report struct {
	// DryRun tells a dry run: nothing was written, the counts and
	// estimates say what a real run would do.
	DryRun bool
	// Counts are this run's, over every entity type; the checkpoint holds
	// the counts of every run.
	Counts
	// Entities has a report per entity type given to the backfill, by
	// type name.
	Entities map[string]*EntityReport
	// Indexes sums the entities' index reports, by index name.
	Indexes map[string]IndexReport
	// EstimatedWCU is the estimated write capacity of every change
	// (sparse's estimator): what a dry run predicts the real run consumes.
	EstimatedWCU float64
	// ConsumedWCU is the write capacity the writes consumed as DynamoDB
	// reported it, plus an estimate for writes refused by their condition
	// (which DynamoDB reports nothing for, although AWS bills them);
	// ConsumedRCU is the Scan's.
	ConsumedWCU, ConsumedRCU float64
	// Elapsed is the duration of the run.
	Elapsed time.Duration
	// Failures are the items that could not be brought up to date, the
	// first [MaxReportedFailures] of them (Failed counts them all;
	// Backfill.OnFailure sees each).
	Failures []*Failure
	// Checkpoint is where the run stopped; Checkpoint.Done() tells a
	// finished backfill. Resume from it after a cancellation.
	Checkpoint *Checkpoint
}

// MaxReportedFailures bounds [Report.Failures].
const MaxReportedFailures = 1000

// WCUPerSecond is the write capacity consumed per second over the run.
func (r *Report) WCUPerSecond() float64 { return perSecond(r.ConsumedWCU, r.Elapsed) }

// Progress is what [Backfill.Progress] receives while a backfill runs.
type Progress struct {
	// Counts are this run's so far; Total adds the previous runs' that
	// the resumed checkpoint holds.
	Counts
	Total Counts
	// Elapsed is the time since the run started.
	Elapsed time.Duration
	// PerSecond is the items processed per second over the run.
	PerSecond float64
	// ConsumedWCU is the write capacity consumed so far (see Report).
	ConsumedWCU float64
	// TableItems is the table's item count as DescribeTable reported it
	// when the run started (DynamoDB updates it about every six hours:
	// an approximation, 0 when unknown).
	TableItems int64
	// Left is the estimated time left, from TableItems (a worker's share
	// of it, for a backfill split across workers), Total.Scanned and
	// PerSecond; 0 when it cannot be estimated.
	Left time.Duration
	// SegmentsDone of Segments are finished (a worker's: its own).
	SegmentsDone, Segments int
	// Checkpoint is a copy of the position: persist it to resume after a
	// crash of the process.
	Checkpoint *Checkpoint
}

// String prints the progress on one line, for a person watching:
//
//	1200 scanned (400/s), 300 changed, 850 unchanged, 40 skipped, 2 conflicted, 0 failed; 3/4 segments; 120.0 WCU/s; about 25s left
func (p Progress) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d scanned (%.0f/s), %d changed, %d unchanged, %d skipped, %d conflicted, %d failed; %d/%d segments; %.1f WCU/s",
		p.Total.Scanned, p.PerSecond, p.Total.Changed, p.Total.Unchanged, p.Total.Skipped, p.Total.Conflicted, p.Total.Failed,
		p.SegmentsDone, p.Segments, perSecond(p.ConsumedWCU, p.Elapsed))
	if p.Left > 0 {
		fmt.Fprintf(&b, "; about %s left", p.Left.Round(time.Second))
	}
	return b.String()
}

func perSecond(n float64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return n / d.Seconds()
}
