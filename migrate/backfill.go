package migrate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/backoff"
	"github.com/keyfirst/keyfirst/sparse"
)

// API is what a backfill needs of a DynamoDB client: Scan to read the
// table, UpdateItem to write the items that changed, DescribeTable for
// the table's item count (progress). *dynamodb.Client satisfies it.
type API interface {
	Scan(ctx context.Context, in *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
	DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
	keyfirst.UpdateItemAPI
}

var _ API = (*dynamodb.Client)(nil)

// Defaults of a [Backfill].
const (
	DefaultSegments      = 4
	DefaultProgressEvery = time.Second
	DefaultMaxConflicts  = 10
	// MaxSegments is the largest number of parallel Scan segments, one
	// goroutine each.
	MaxSegments = 1000
)

// Target is an entity type a backfill brings up to date: [Entity] makes
// one.
type Target struct{ t *target }

// target is an entity type, without its Go type.
type target struct {
	typ        string
	table      *keyfirst.Table
	definition string
	plan       func(map[string]types.AttributeValue) (keyfirst.RefreshResult, error)
	refresh    func(context.Context, keyfirst.UpdateItemAPI, map[string]types.AttributeValue, ...func(*keyfirst.Options)) (keyfirst.RefreshResult, error)
	// in, for a target of [Entity], is the target with its entity bound
	// to another binding of its table.
	in func(*keyfirst.Table) *target
	// visit, for a target of [Visit], decodes the item and visits it
	// instead of refreshing it.
	visit func(ctx context.Context, segment int, item map[string]types.AttributeValue) (decoded bool, err error)
}

// Entity returns the target of the items of e's entity type: each is
// brought up to e's definition with [keyfirst.Entity.Refresh] (a dry run:
// [keyfirst.Entity.PlanRefresh]). e must be bound to the backfill's table
// ([keyfirst.Entity.In]); its rewrites are sent on the backfill's binding
// (Backfill.Table), whose [keyfirst.Observer] sees them, whichever e's is.
func Entity[T any](e *keyfirst.Entity[T]) Target {
	if e == nil {
		return Target{}
	}
	t := &target{typ: e.Type(), table: e.Table(), definition: definition(e), plan: e.PlanRefresh, refresh: e.Refresh}
	t.in = func(table *keyfirst.Table) *target {
		bound, err := e.In(table)
		if err != nil {
			return t // another table: refused by the backfill's checks
		}
		c := *t
		c.table, c.refresh = table, bound.Refresh
		return &c
	}
	return Target{t}
}

// definition describes what of e's definition keyfirst can see: its type
// names, attributes, version, and the indexes its items can be in. It
// cannot see inside the functions that compute the attributes: name the
// backfill (Backfill.Name) after the change it brings.
func definition[T any](e *keyfirst.Entity[T]) string {
	var b strings.Builder
	fmt.Fprintf(&b, "entity %q go %s version %q fields %q", e.Type(), reflect.TypeFor[T](), e.VersionAttribute(), e.Attributes())
	t := e.Table()
	for _, ix := range append([]keyfirst.KeySchema{t.PrimaryKey()}, t.Indexes()...) {
		if _, in := t.EntitiesIn(ix.IndexName)[e.Type()]; in || ix.IndexName == "" {
			fmt.Fprintf(&b, " index %q %v %v %v", ix.IndexName, ix.PartitionKey, ix.SortKey, ix.Projection)
		}
	}
	return b.String()
}

// Backfill brings the stored items of one or more entity types up to
// their current definitions: after a change of key design, the items
// stored before it carry the attributes the old definition derived. It
// reads the table with a parallel Scan (the one place keyfirst scans a
// table), recomputes each item of the entities given with the item plan
// of every write ([keyfirst.Entity.Refresh]), and writes back the items
// that differ, each guarded against concurrent writes; see the package
// documentation. Set the fields, then call [Backfill.Run]; a Backfill is
// not modified by Run and can run again (with Resume).
type Backfill struct {
	// Name names the backfill ("orders-status-first"): a checkpoint is
	// bound to it, so that a checkpoint of another change is refused
	// even when keyfirst cannot tell the two definitions apart (a
	// function's body, a shard count). Required.
	Name string
	// Table is the table whose items are brought up to date: the
	// entities are bound to it. Required.
	Table *keyfirst.Table
	// Entities are the entity types whose items are brought up to date
	// ([Entity]); the items of the table's other entity types are read
	// and skipped. At least one.
	Entities []Target
	// WCU is the write budget, in write capacity units per second
	// (table and indexes together, as DynamoDB counts them), [MinWCU]
	// to [MaxWCU]. Required, but for a backfill of [Visit] targets only,
	// which writes nothing (0 then, or a budget). It bounds the average and the burst: over
	// any interval of T seconds, the writes it releases consume at most
	// WCU*T plus the larger of WCU*[BurstWindow] (a tenth of a second's
	// worth, what the budget saves while the writes pause) and the
	// largest write. Each write is charged its estimate before it is
	// sent, and afterwards what DynamoDB reports beyond it: a write
	// that consumes more than estimated (none does when the estimate is
	// right, see [sparse.Estimator]) adds its excess to the interval, one
	// write per segment at most; one that consumes less (refused by its
	// condition) is not refunded.
	WCU float64
	// Segments is the number of parallel Scan segments (default
	// [DefaultSegments], or DefaultSegments per worker when split across
	// Workers; 1 to [MaxSegments], and at least Workers). A resumed
	// backfill keeps its checkpoint's: 0 takes it, another number is
	// refused.
	Segments int
	// Workers splits the backfill across that many processes, or
	// machines, that share nothing but the table (0 or 1: this run does it
	// whole). Each runs a Backfill with the same fields but Worker (and
	// Resume): it scans the segments s of the Scan with s % Workers ==
	// Worker, has a checkpoint of its own, and spends its share of WCU, in
	// proportion to its segments, so that WCU stays the budget of the whole
	// backfill. See the package documentation, "A backfill on many
	// machines".
	Workers int
	// Worker is the part of a backfill split across Workers that this
	// run takes, 0 to Workers-1.
	Worker int
	// PageSize is the Scan's Limit, items per request (0: DynamoDB's
	// pages of 1 MB).
	PageSize int32
	// DryRun reads and decides without writing: the [Report] says what
	// would change, per entity type and per index, and the estimated
	// WCUs.
	DryRun bool
	// Resume continues the backfill from a checkpoint of a previous run
	// ([Report.Checkpoint], [Progress.Checkpoint], [ParseCheckpoint]).
	Resume *Checkpoint
	// StopOnFailure stops the run at the first item that cannot be
	// brought up to date; by default each is reported (OnFailure,
	// Report.Failures) and the run goes on. The checkpoint then stands
	// before that item.
	StopOnFailure bool
	// OnFailure, when set, receives every failure as it happens (from
	// the segments' goroutines, one call at a time).
	OnFailure func(*Failure)
	// Progress, when set, receives the progress every ProgressEvery
	// (default [DefaultProgressEvery]) and once at the end, one call at
	// a time.
	Progress      func(Progress)
	ProgressEvery time.Duration
	// MaxConflicts bounds how many times one item is written again after
	// a concurrent write came first (default [DefaultMaxConflicts]); an
	// item that keeps changing is then a [Failure].
	MaxConflicts int
}

// Run runs the backfill: it checks the configuration and the checkpoint
// before any request ([*ConfigError], [*CheckpointError]), then reads
// every segment not finished and brings each item up to date, within the
// write budget, backing off while DynamoDB throttles. It returns when
// every segment is finished, when the context ends (the error wraps
// ctx.Err(); writes in flight complete, so the checkpoint is exact), at a
// failed item with StopOnFailure (the *Failure), or at a request that
// fails otherwise than by throttling. The report is returned in every
// case after the checks, with the checkpoint to resume from.
//
// Run takes two of the options every call shares:
// [keyfirst.WithCursorKey] signs the checkpoints with HMAC-SHA256 and
// refuses a Resume that is unsigned, changed or signed with another key
// ([CheckpointTampered]), as it does for a query's cursors (the service's
// cursor key serves; without it a checkpoint carries a SHA-256 checksum,
// which refuses a damaged or edited one but not a forged one), and
// [keyfirst.WithCapacity] adds up what the Scan and the writes consumed.
// Any other option is a [*ConfigError] (ConfigOption) wrapping a
// [*keyfirst.OptionError], before any request.
func (b *Backfill) Run(ctx context.Context, api API, optFns ...func(*keyfirst.Options)) (*Report, error) {
	r, err := b.start(optFns)
	if err != nil {
		return nil, err
	}
	return r.run(ctx, api)
}

// options are what Run takes of [keyfirst.Options]: CursorKey and Capacity.
func options(fns []func(*keyfirst.Options)) (keyfirst.Options, error) {
	o, err := keyfirst.Apply("Backfill", fns)
	if err != nil {
		return o, err
	}
	if err := o.Refuse("Backfill", func(keyfirst.Setting) bool { return false }, "an option of another package's calls"); err != nil {
		return o, err
	}
	return o, o.RefuseOthers("Backfill", keyfirst.TakesCursorKey, "a backfill takes WithCursorKey and WithCapacity (MaxConflicts bounds its rewrites of one item)")
}

// runner is one run of a backfill.
type runner struct {
	b            *Backfill
	targets      map[string]*target
	known        map[string]bool // the entity types of the table
	estimator    *sparse.Estimator
	budget       *budget
	maxConflicts int
	secret       []byte             // the CursorKey, which signs the checkpoints
	capacity     *keyfirst.Capacity // WithCapacity's, guarded by mu
	started      time.Time
	tableItems   int64
	tracker      *keyfirst.Tracker // the progress the table's Observer sees

	mu       sync.Mutex // guards what follows
	cp       *Checkpoint
	report   *Report
	counts   Counts     // this run's, over every entity type
	previous Counts     // the previous runs', from the checkpoint
	err      error      // the first error that stops the run
	fmu      sync.Mutex // one OnFailure call at a time
}

// start checks the backfill and prepares its run.
func (b *Backfill) start(optFns []func(*keyfirst.Options)) (*runner, error) {
	fail := func(p ConfigProblem, entity, detail string) (*runner, error) {
		return nil, &ConfigError{Entity: entity, Problem: p, Detail: detail}
	}
	o, err := options(optFns)
	if err != nil {
		return nil, &ConfigError{Problem: ConfigOption, Err: err}
	}
	switch {
	case b.Table == nil:
		return fail(ConfigNoTable, "", "set Backfill.Table to the table (a binding of its description, Table.Named)")
	case b.Name == "":
		return fail(ConfigNoName, "", "name the backfill after the change it brings: a checkpoint is bound to it")
	case !utf8.ValidString(b.Name):
		return fail(ConfigName, "", fmt.Sprintf("name %q is not valid UTF-8: its checkpoint would not read back as the same name", b.Name))
	case len(b.Entities) == 0:
		return fail(ConfigNoEntities, "", "give the entity types to bring up to date: migrate.Entity(orders)")
	case (b.WCU != 0 || b.writes()) && !(b.WCU >= MinWCU && b.WCU <= MaxWCU):
		return fail(ConfigBudget, "", fmt.Sprintf("%v write capacity units per second; give the budget the table can spare, %v to %v", b.WCU, MinWCU, MaxWCU))
	case b.Segments < 0 || b.Segments > MaxSegments:
		return fail(ConfigSegments, "", fmt.Sprintf("%d segments, the range is 1 to %d (0: %d, or the checkpoint's)", b.Segments, MaxSegments, DefaultSegments))
	case b.PageSize < 0 || b.ProgressEvery < 0 || b.MaxConflicts < 0:
		return fail(ConfigOption, "", "PageSize, ProgressEvery and MaxConflicts are 0 (the default) or positive")
	case b.Workers < 0 || b.Workers > MaxSegments || b.Worker < 0 || b.Worker >= max(b.Workers, 1):
		return fail(ConfigWorkers, "", fmt.Sprintf("worker %d of %d: Workers is 0 (one run does it all) to %d, Worker 0 to Workers-1", b.Worker, b.Workers, MaxSegments))
	case b.Workers > 1 && b.Segments != 0 && b.Segments < b.Workers:
		return fail(ConfigWorkers, "", fmt.Sprintf("%d segments for %d workers: each worker needs a segment at least", b.Segments, b.Workers))
	}
	r := &runner{b: b, targets: map[string]*target{}, known: map[string]bool{}, maxConflicts: b.MaxConflicts,
		secret: o.CursorKey, capacity: o.Capacity}
	for _, typ := range b.Table.EntityTypes() {
		r.known[typ] = true
	}
	if r.maxConflicts == 0 {
		r.maxConflicts = DefaultMaxConflicts
	}
	var defs []string
	for _, tg := range b.Entities {
		t := tg.t
		switch {
		case t == nil:
			return fail(ConfigNoEntities, "", "a zero Target (migrate.Entity of a nil entity)")
		case !t.table.SameSchema(b.Table) || t.table.Name() != b.Table.Name():
			return fail(ConfigOtherTable, t.typ, fmt.Sprintf("the entity is bound to table %q, the backfill's is %q: bind it with Entity.In", t.table.Name(), b.Table.Name()))
		case r.targets[t.typ] != nil:
			return fail(ConfigDuplicateEntity, t.typ, "give each entity type once")
		}
		if t.in != nil {
			t = t.in(b.Table) // the rewrites go through the backfill's Observer
		}
		r.targets[t.typ] = t
		defs = append(defs, t.definition)
	}
	sort.Strings(defs)
	sum := sha256.Sum256([]byte(strings.Join(defs, "\n")))
	cp := &Checkpoint{table: b.Table.Name(), name: b.Name, definition: hex.EncodeToString(sum[:16]), dryRun: b.DryRun}
	if b.Workers > 1 {
		cp.worker, cp.workers = b.Worker, b.Workers
	}
	if old := b.Resume; old != nil {
		if err := cp.accepts(old, r.secret, b.Table.PrimaryKey()); err != nil {
			return nil, err
		}
		if b.Segments != 0 && b.Segments != old.Segments() {
			return fail(ConfigSegments, "", fmt.Sprintf("%d segments, the checkpoint has %d: a resumed backfill keeps its segments (leave Segments 0)", b.Segments, old.Segments()))
		}
		cp = old.clone()
		r.previous = cp.Counts()
	} else {
		segments := b.Segments
		if segments == 0 {
			segments = min(DefaultSegments*max(b.Workers, 1), MaxSegments)
		}
		cp.segments = make([]segmentState, segments)
	}
	// A worker spends its segments' share of the budget.
	r.budget = newBudget(b.WCU * float64(cp.owned()) / float64(len(cp.segments)))
	est, err := sparse.NewEstimator(b.Table)
	if err != nil {
		return nil, err
	}
	r.estimator, r.cp = est, cp
	r.report = &Report{DryRun: b.DryRun, Entities: map[string]*EntityReport{}, Indexes: map[string]IndexReport{}}
	for typ := range r.targets {
		r.report.Entities[typ] = &EntityReport{Indexes: map[string]IndexReport{}}
	}
	return r, nil
}

// accepts refuses a checkpoint old that is not sealed for a backfill
// signing with secret, that was taken by another backfill than the one c
// starts, or whose resume keys are not keys of the table (key).
func (c *Checkpoint) accepts(old *Checkpoint, secret []byte, key keyfirst.KeySchema) error {
	refuse := func(p CheckpointProblem, want, got string) error {
		return &CheckpointError{Problem: p, Want: want, Got: got}
	}
	if len(old.segments) == 0 {
		return refuse(CheckpointCorrupt, "", "")
	}
	if err := old.verify(secret); err != nil {
		return err
	}
	switch {
	case old.table != c.table:
		return refuse(CheckpointTable, c.table, old.table)
	case old.name != c.name:
		return refuse(CheckpointName, c.name, old.name)
	case old.definition != c.definition:
		return refuse(CheckpointDefinition, c.definition, old.definition)
	case old.dryRun != c.dryRun:
		return refuse(CheckpointDryRun, mode(c.dryRun), mode(old.dryRun))
	case old.worker != c.worker || old.workers != c.workers:
		return refuse(CheckpointWorker, workerText(c.worker, c.workers), workerText(old.worker, old.workers))
	}
	return old.checkKeys(key)
}

func workerText(worker, workers int) string {
	if workers <= 1 {
		return "the whole backfill"
	}
	return fmt.Sprintf("worker %d of %d", worker, workers)
}

func mode(dry bool) string {
	if dry {
		return "dry run"
	}
	return "run"
}

// run scans every segment not finished, each in a goroutine, and reports
// progress in another until they end.
func (r *runner) run(ctx context.Context, api API) (*Report, error) {
	r.started = time.Now()
	din := &dynamodb.DescribeTableInput{TableName: aws.String(r.b.Table.Name())}
	if out, err := keyfirst.SendExplained(ctx, r.b.Table, keyfirst.Request{Call: "migrate.Backfill", Input: din},
		func(ctx context.Context) (*dynamodb.DescribeTableOutput, error) { return api.DescribeTable(ctx, din) },
		func(_ *dynamodb.DescribeTableOutput, err error) error {
			if err != nil {
				return fmt.Errorf("migrate: DescribeTable %s: %w", r.b.Table.Name(), err)
			}
			return nil
		}); err != nil {
		return r.finish(err)
	} else if out.Table != nil && out.Table.ItemCount != nil {
		r.tableItems = *out.Table.ItemCount
	}
	share := r.tableItems * int64(r.cp.owned()) / int64(len(r.cp.segments)) // as in progress
	r.tracker = r.b.Table.Track("migrate.Backfill", max(share-r.previous.Scanned, 0))
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for seg := range r.cp.segments {
		if r.cp.segments[seg].done || !r.cp.owns(seg) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			// An error after the run's context ended (cancelled, or
			// another segment failed) is a consequence, not a cause.
			if err := r.segment(runCtx, api, seg); err != nil && runCtx.Err() == nil {
				r.stop(err)
				cancel()
			}
		}()
	}
	stopProgress := r.progressLoop()
	wg.Wait()
	stopProgress()
	r.tracker.Finish(ctx, 0)
	if err := ctx.Err(); err != nil && r.err == nil {
		r.err = fmt.Errorf("migrate: backfill %q stopped: %w", r.b.Name, err)
	}
	return r.finish(r.err)
}

// stop records the first error that stops the run.
func (r *runner) stop(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = err
	}
}

// finish completes the report.
func (r *runner) finish(err error) (*Report, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.report.Elapsed = time.Since(r.started)
	r.report.Checkpoint = r.cp.sealed(r.secret)
	r.report.Counts = r.counts
	for _, er := range r.report.Entities {
		r.report.EstimatedWCU += er.EstimatedWCU
		for name, ix := range er.Indexes {
			sum := r.report.Indexes[name]
			sum.add(ix)
			r.report.Indexes[name] = sum
		}
	}
	return r.report, err
}

// progressLoop calls Backfill.Progress every ProgressEvery until the
// returned function is called, which makes the last call.
func (r *runner) progressLoop() func() {
	if r.b.Progress == nil {
		return func() {}
	}
	every := r.b.ProgressEvery
	if every == 0 {
		every = DefaultProgressEvery
	}
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				r.b.Progress(r.progress())
				return
			case <-t.C:
				r.b.Progress(r.progress())
			}
		}
	}()
	return func() { close(done); <-exited }
}

// progress is a snapshot of the run.
func (r *runner) progress() Progress {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := Progress{Counts: r.counts, Elapsed: time.Since(r.started), TableItems: r.tableItems, Segments: r.cp.owned(),
		SegmentsDone: r.cp.SegmentsDone(), Checkpoint: r.cp.sealed(r.secret), ConsumedWCU: r.report.ConsumedWCU}
	p.Total = r.previous
	p.Total.add(p.Counts)
	p.PerSecond = perSecond(float64(p.Scanned), p.Elapsed)
	share := r.tableItems * int64(p.Segments) / int64(len(r.cp.segments)) // a worker's part of the table
	if left := share - p.Total.Scanned; left > 0 && p.PerSecond > 0 && !r.cp.Done() {
		p.Left = durationOf(float64(left) / p.PerSecond)
	}
	return p
}

// isThrottle reports whether err is DynamoDB throttling the request.
func isThrottle(err error) bool {
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		return false
	}
	switch ae.ErrorCode() {
	case "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded":
		return true
	}
	return false
}

// retryThrottled calls send until it succeeds, fails otherwise than by
// throttling, or ctx ends, with exponential backoff and full jitter
// between throttled attempts.
func retryThrottled(ctx context.Context, send func() error) error {
	var policy backoff.Policy
	for attempt := 0; ; attempt++ {
		err := send()
		if err == nil || !isThrottle(err) {
			return err
		}
		if err := backoff.Sleep(ctx, policy.Delay(attempt)); err != nil {
			return err
		}
	}
}

// segment scans one segment from its checkpoint to its end.
func (r *runner) segment(ctx context.Context, api API, seg int) error {
	r.mu.Lock()
	start := r.cp.segments[seg].last
	r.mu.Unlock()
	in := &dynamodb.ScanInput{
		TableName:              aws.String(r.b.Table.Name()),
		Segment:                aws.Int32(int32(seg)),
		TotalSegments:          aws.Int32(int32(len(r.cp.segments))),
		ExclusiveStartKey:      start,
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	}
	if r.b.PageSize > 0 {
		in.Limit = aws.Int32(r.b.PageSize)
	}
	for page := 1; ; page++ {
		var out *dynamodb.ScanOutput
		err := retryThrottled(ctx, func() error {
			var err error
			out, err = keyfirst.SendExplained(ctx, r.b.Table, keyfirst.Request{Call: "migrate.Backfill", Seq: page, Segment: seg, Input: in},
				func(ctx context.Context) (*dynamodb.ScanOutput, error) { return api.Scan(ctx, in) },
				func(_ *dynamodb.ScanOutput, err error) error {
					if err != nil {
						return fmt.Errorf("migrate: Scan of segment %d of %s: %w", seg, r.b.Table.Name(), err)
					}
					return nil
				})
			return err
		})
		if err != nil {
			return err
		}
		r.mu.Lock()
		if out.ConsumedCapacity != nil {
			r.report.ConsumedRCU += aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
			if r.capacity != nil {
				r.capacity.AddRead(*out.ConsumedCapacity)
			}
		}
		r.mu.Unlock()
		for _, item := range out.Items {
			if err := ctx.Err(); err != nil {
				return err
			}
			counted, err := r.item(ctx, api, seg, item)
			if err != nil {
				return err
			}
			r.mu.Lock()
			r.cp.segments[seg].last = r.primaryKey(item)
			r.cp.segments[seg].counts.add(counted)
			r.counts.add(counted)
			r.mu.Unlock()
		}
		r.tracker.Add(ctx, int64(len(out.Items)))
		r.mu.Lock()
		r.cp.segments[seg].done = len(out.LastEvaluatedKey) == 0
		r.cp.segments[seg].last = out.LastEvaluatedKey
		if r.cp.segments[seg].done {
			r.cp.segments[seg].last = nil
		}
		r.mu.Unlock()
		if len(out.LastEvaluatedKey) == 0 {
			return nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// primaryKey returns the table's key attributes of item.
func (r *runner) primaryKey(item map[string]types.AttributeValue) map[string]types.AttributeValue {
	key := map[string]types.AttributeValue{}
	for _, a := range r.b.Table.PrimaryKey().Attributes() {
		if av, ok := item[a.Name]; ok {
			key[a.Name] = av
		}
	}
	return key
}

// item processes one stored item and returns what it counted. An error
// stops the run (ctx ended, a request failed, StopOnFailure); the item
// is then not counted and the checkpoint stays before it.
func (r *runner) item(ctx context.Context, api API, seg int, item map[string]types.AttributeValue) (Counts, error) {
	var n Counts
	typ, err := r.b.Table.Classify(item) // an untyped item: by its key (EntitySpec.Adopt)
	if ce := (*keyfirst.ClaimError)(nil); errors.As(err, &ce) {
		res, _ := r.anyTarget().plan(item)
		return r.failed(n, typ, res.Key, item, err) // claimed by none, or by several
	}
	t := r.targets[typ]
	if t == nil {
		if r.known[typ] {
			n.Scanned, n.Skipped = 1, 1
			return n, nil
		}
		// Any target prints the key; none decodes the item.
		res, _ := r.anyTarget().plan(item)
		return r.failed(n, typ, res.Key, item, &keyfirst.EntityTypeError{Got: typ})
	}
	if t.visit != nil {
		return r.visited(ctx, t, seg, item)
	}
	for attempt := 0; ; attempt++ {
		res, err := t.plan(item)
		if err != nil {
			return r.failed(n, typ, res.Key, item, err)
		}
		if res.Outcome == keyfirst.RefreshUnchanged {
			return r.done(n, typ, res, nil)
		}
		var cost *sparse.Cost
		if c, err := r.estimator.Estimate(res.Before, res.After); err == nil {
			cost = &c
		}
		if r.b.DryRun {
			return r.done(n, typ, res, cost)
		}
		if attempt > r.maxConflicts {
			return r.failed(n, typ, res.Key, item, fmt.Errorf("%w: changed by other writers %d times while being brought up to date", keyfirst.ErrVersionConflict, attempt))
		}
		res, err = r.write(ctx, api, t, item, cost)
		var oe *keyfirst.OpError
		switch {
		case err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()):
			return n, err
		case err != nil && errors.As(err, &oe) && !errors.Is(err, keyfirst.ErrConditionUnexplained):
			return n, err // a failed request: stop the run
		case err != nil:
			return r.failed(n, typ, res.Key, item, err)
		case res.Outcome != keyfirst.RefreshConflicted:
			return r.done(n, typ, res, cost)
		}
		n.Conflicted++
		r.count(typ, func(c *Counts) { c.Conflicted++ })
		if found, _ := r.b.Table.Classify(res.Conflict.Item); !res.Conflict.Found || found != typ {
			// Deleted, or replaced by an item of another type: nothing
			// of this entity is left to bring up to date.
			n.Scanned++
			r.count(typ, func(c *Counts) { c.Scanned++ })
			return n, nil
		}
		item = res.Conflict.Item
	}
}

// write refreshes item within the budget: it reserves the write's
// estimated units (1 without an estimate), retries while DynamoDB
// throttles, and charges what the write consumed beyond them. The write itself is
// not cancelled with ctx, so that the checkpoint knows whether it
// happened.
func (r *runner) write(ctx context.Context, api API, t *target, item map[string]types.AttributeValue, cost *sparse.Cost) (keyfirst.RefreshResult, error) {
	reserved := 1.0
	if cost != nil {
		reserved = float64(cost.WCU())
	}
	if err := r.budget.take(ctx, reserved); err != nil {
		return keyfirst.RefreshResult{}, err
	}
	var res keyfirst.RefreshResult
	var c keyfirst.Capacity
	err := retryThrottled(ctx, func() error {
		var err error
		res, err = t.refresh(context.WithoutCancel(ctx), api, item, keyfirst.WithCapacity(&c))
		return err
	})
	consumed := c.Write
	if res.Outcome == keyfirst.RefreshConflicted && cost != nil {
		consumed = float64(cost.TableWCU) // refused by its condition: billed, not reported
	}
	r.budget.charge(consumed - reserved)
	r.mu.Lock()
	r.report.ConsumedWCU += consumed
	if r.capacity != nil {
		r.capacity.Add(c)
	}
	r.mu.Unlock()
	return res, err
}

// anyTarget returns one of the targets.
func (r *runner) anyTarget() *target {
	for _, t := range r.targets {
		return t
	}
	return nil
}

// count changes the counts of entity type typ.
func (r *runner) count(typ string, f func(*Counts)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f(&r.report.Entities[typ].Counts)
}

// done counts an item changed (or that a dry run would change) or
// unchanged, with its estimated cost per index.
func (r *runner) done(n Counts, typ string, res keyfirst.RefreshResult, cost *sparse.Cost) (Counts, error) {
	n.Scanned++
	r.mu.Lock()
	defer r.mu.Unlock()
	er := r.report.Entities[typ]
	er.Scanned++
	if res.Outcome == keyfirst.RefreshUnchanged {
		n.Unchanged++
		er.Unchanged++
		return n, nil
	}
	n.Changed++
	er.Changed++
	if _, typed := res.Before[r.b.Table.TypeAttribute()]; !typed {
		n.Adopted++
		er.Adopted++
	}
	if cost == nil {
		return n, nil
	}
	er.EstimatedWCU += float64(cost.WCU())
	for _, ic := range cost.Indexes {
		if ic.Writes == 0 {
			continue
		}
		ix := er.Indexes[ic.Index]
		ix.count(ic)
		er.Indexes[ic.Index] = ix
	}
	return n, nil
}

// failed reports an item that cannot be brought up to date.
func (r *runner) failed(n Counts, typ, keyText string, item map[string]types.AttributeValue, err error) (Counts, error) {
	f := &Failure{Entity: typ, Key: r.primaryKey(item), KeyText: keyText, Err: err}
	r.mu.Lock()
	if len(r.report.Failures) < MaxReportedFailures {
		r.report.Failures = append(r.report.Failures, f)
	}
	if er := r.report.Entities[typ]; er != nil && !r.b.StopOnFailure {
		er.Scanned++
		er.Failed++
	}
	r.mu.Unlock()
	if r.b.OnFailure != nil {
		r.fmu.Lock()
		r.b.OnFailure(f)
		r.fmu.Unlock()
	}
	if r.b.StopOnFailure {
		return n, f // not counted: the checkpoint stays before the item
	}
	n.Scanned++
	n.Failed++
	return n, nil
}
