package migrate_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/migrate"
)

// ---- tickets: a versioned entity that gains a derived index key ----
//
// The first release stores tickets under their key only; the second binds
// ByQueue, whose sort key QueueSK = <opened>#<id> keyfirst derives. Every
// ticket stored by the first release needs one write, which increments
// its version: a ticket at version 2 was written exactly once.

type Ticket struct {
	ID      string `dynamodbav:"id"`
	Queue   string `dynamodbav:"Queue"`
	Opened  string `dynamodbav:"opened"`
	Version int64  `dynamodbav:"version"`
}

var (
	ticketKey  = keys.NewKey1(keys.ID[string](), keys.WithPrefix("TICKET"))
	openedID   = keys.NewKey2(keys.ID[string](), keys.ID[string]())
	ticketByID = keyfirst.OnTable(keyfirst.Composite("PK", ticketKey), keyfirst.NoSort())
	byQueue    = keyfirst.OnIndex("ByQueue", keyfirst.Str("Queue"), keyfirst.Composite("QueueSK", openedID))
)

func ticketsSpec() keyfirst.TableSpec {
	return keyfirst.TableSpec{Name: "tickets", Key: ticketByID, GSIs: []keyfirst.Index{byQueue.Index()}}
}

// ticketRelease declares the tickets of release 1 or 2 on the table called
// name.
func ticketRelease(t testing.TB, release int, name string) (*keyfirst.Table, *keyfirst.Entity[Ticket]) {
	t.Helper()
	table := keyfirst.Must(keyfirst.Must(keyfirst.NewTable(ticketsSpec())).Named(name))
	bindings := []keyfirst.Binding{ticketByID.Fields("ID")}
	if release == 2 {
		bindings = append(bindings, byQueue.Fields("Queue", "Opened", "ID"))
	}
	tickets, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Ticket]{Type: "Ticket", Version: "version", Keys: bindings})
	if err != nil {
		t.Fatal(err)
	}
	return table, tickets
}

// The worker process: the test binary run again with envWorker set to a
// workerJob, by TestBackfillAcrossProcesses. It runs one worker of the
// backfill, persists its checkpoint to a file at every progress report
// (as a job of an orchestrator would, to a store that outlives it), logs
// every write it makes with its time and capacity, and prints its report.
const envWorker = "KEYFIRST_TEST_BACKFILL_WORKER"

type workerJob struct {
	Table             string
	Worker, Workers   int
	Segments          int
	WCU               float64
	Checkpoint, Log   string // files
	Resume            bool
	ProgressEveryMsec int
}

// workerResult is what a worker process prints, on a line of its own
// after resultPrefix.
type workerResult struct {
	Run, Total   migrate.Counts // this run's, and its checkpoint's (every run of the worker)
	Done         bool
	ConsumedWCU  float64
	ElapsedMsec  int64
	SegmentsDone int
}

const resultPrefix = "WORKER-RESULT "

// TestBackfillWorkerProcess is the worker process's body; run by the test
// itself, outside a worker process, it has nothing to do.
func TestBackfillWorkerProcess(t *testing.T) {
	spec := os.Getenv(envWorker)
	if spec == "" {
		return // not a worker process: TestBackfillAcrossProcesses starts them
	}
	var job workerJob
	if err := json.Unmarshal([]byte(spec), &job); err != nil {
		t.Fatal(err)
	}
	table, tickets := ticketRelease(t, 2, job.Table)
	logFile, err := os.OpenFile(job.Log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	b := &migrate.Backfill{Name: "tickets-by-queue", Table: table, Entities: []migrate.Target{migrate.Entity(tickets)},
		WCU: job.WCU, Segments: job.Segments, Workers: job.Workers, Worker: job.Worker, PageSize: 5,
		ProgressEvery: time.Duration(job.ProgressEveryMsec) * time.Millisecond,
		Progress: func(p migrate.Progress) {
			data, err := json.Marshal(p.Checkpoint)
			if err == nil {
				err = writeAtomically(job.Checkpoint, data)
			}
			if err != nil {
				t.Error(err)
			}
		}}
	if job.Resume {
		data, err := os.ReadFile(job.Checkpoint)
		if err != nil {
			t.Fatal(err)
		}
		if b.Resume, err = migrate.ParseCheckpoint(data); err != nil {
			t.Fatal(err)
		}
		b.Segments = 0
	}
	ctx, cancel := integration.Context(t)
	defer cancel()
	report, err := b.Run(ctx, &writeLog{Client: integration.Client(t), log: logFile})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(workerResult{Run: report.Counts, Total: report.Checkpoint.Counts(), Done: report.Checkpoint.Done(),
		ConsumedWCU: report.ConsumedWCU, ElapsedMsec: report.Elapsed.Milliseconds(), SegmentsDone: report.Checkpoint.SegmentsDone()})
	fmt.Println(resultPrefix + string(out))
}

// writeAtomically replaces the file at path with data: a reader (or the
// next worker, after a kill) never sees half of it.
func writeAtomically(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// writeLog logs every successful UpdateItem, "<unix ns> <WCU>" a line,
// with one unbuffered write each, so that a killed process loses at most
// the line of the write in flight.
type writeLog struct {
	*dynamodb.Client
	mu  sync.Mutex
	log *os.File
}

func (w *writeLog) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	out, err := w.Client.UpdateItem(ctx, in, optFns...)
	if err == nil && out.ConsumedCapacity != nil {
		w.mu.Lock()
		_, _ = fmt.Fprintf(w.log, "%d %g\n", time.Now().UnixNano(), aws.ToFloat64(out.ConsumedCapacity.CapacityUnits))
		w.mu.Unlock()
	}
	return out, err
}

// worker is a worker process of TestBackfillAcrossProcesses.
type worker struct {
	job    workerJob
	cmd    *exec.Cmd
	stdout strings.Builder
	done   chan error
}

func startWorker(t *testing.T, endpoint string, job workerJob) *worker {
	t.Helper()
	spec, _ := json.Marshal(job)
	w := &worker{job: job, done: make(chan error, 1)}
	w.cmd = exec.Command(os.Args[0], "-test.run=^TestBackfillWorkerProcess$", "-test.count=1", "-test.timeout=5m")
	w.cmd.Env = append(os.Environ(), envWorker+"="+string(spec), integration.EnvEndpoint+"="+endpoint)
	w.cmd.Stdout = &w.stdout
	w.cmd.Stderr = &w.stdout
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { w.done <- w.cmd.Wait() }()
	t.Cleanup(func() {
		if w.cmd.ProcessState == nil {
			_ = w.cmd.Process.Kill()
			<-w.done
		}
	})
	return w
}

// result waits for the worker and returns what it printed.
func (w *worker) result(t *testing.T) workerResult {
	t.Helper()
	if err := <-w.done; err != nil {
		t.Fatalf("worker %d: %v\n%s", w.job.Worker, err, w.stdout.String())
	}
	for _, line := range strings.Split(w.stdout.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, resultPrefix); ok {
			var r workerResult
			if err := json.Unmarshal([]byte(rest), &r); err != nil {
				t.Fatal(err)
			}
			return r
		}
	}
	t.Fatalf("worker %d printed no result:\n%s", w.job.Worker, w.stdout.String())
	return workerResult{}
}

// checkpointChanged reads the worker's persisted checkpoint: the items it
// changed so far, 0 when there is none yet.
func checkpointChanged(path string) int64 {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	cp, err := migrate.ParseCheckpoint(data)
	if err != nil {
		return 0
	}
	return cp.Counts().Changed
}

// writesLogged reads the write logs: the time and WCU of every write.
func writesLogged(t *testing.T, paths []string) (at []time.Time, wcu []float64) {
	t.Helper()
	type entry struct {
		at  time.Time
		wcu float64
	}
	var all []entry
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		s := bufio.NewScanner(f)
		for s.Scan() {
			ns, units, ok := strings.Cut(s.Text(), " ")
			n, err1 := strconv.ParseInt(ns, 10, 64)
			u, err2 := strconv.ParseFloat(units, 64)
			if !ok || err1 != nil || err2 != nil {
				continue // the line of a write in flight when the process was killed
			}
			all = append(all, entry{time.Unix(0, n), u})
		}
		f.Close()
	}
	slices.SortFunc(all, func(a, b entry) int { return a.at.Compare(b.at) })
	for _, e := range all {
		at, wcu = append(at, e.at), append(wcu, e.wcu)
	}
	return at, wcu
}

// TestBackfillAcrossProcesses: a backfill split across 3 worker processes
// that share nothing but the table (each its segments, its checkpoint
// file, its share of the budget), one of them killed (SIGKILL) half-way
// and replaced by a new process that resumes from the killed one's last
// persisted checkpoint. Every ticket is then written exactly once (its
// version went from 1 to 2), every item is what the new release writes,
// and the writes of all processes together stayed within the budget of
// the whole backfill.
func TestBackfillAcrossProcesses(t *testing.T) {
	t.Parallel()
	client := integration.Client(t)
	endpoint := integration.Shared(t).Endpoint
	name := integration.TableOf(t, keyfirst.Must(keyfirst.NewTable(ticketsSpec()))).Name()
	_, oldTickets := ticketRelease(t, 1, name)
	const n = 240
	ctx, cancel := integration.Context(t)
	defer cancel()
	for i := range n { // a versioned entity is not batch-written
		if _, err := oldTickets.Put(ctx, client, Ticket{ID: fmt.Sprintf("t%03d", i), Queue: fmt.Sprintf("q%d", i%4),
			Opened: fmt.Sprintf("2026-06-%02dT10:00:00Z", 1+i%28)}); err != nil {
			t.Fatal(err)
		}
	}

	const budget, workers, segments = 120.0, 3, 12
	dir := t.TempDir()
	job := func(w int) workerJob {
		return workerJob{Table: name, Worker: w, Workers: workers, Segments: segments, WCU: budget, ProgressEveryMsec: 50,
			Checkpoint: filepath.Join(dir, fmt.Sprintf("checkpoint-%d.json", w)), Log: filepath.Join(dir, fmt.Sprintf("writes-%d-%d.log", w, time.Now().UnixNano()))}
	}
	started := time.Now()
	procs := []*worker{startWorker(t, endpoint, job(0)), startWorker(t, endpoint, job(1)), startWorker(t, endpoint, job(2))}

	// Kill worker 1 once its checkpoint shows some of its work.
	victim := procs[1]
	for checkpointChanged(victim.job.Checkpoint) < 15 {
		select {
		case err := <-victim.done:
			t.Fatalf("worker 1 ended before it could be killed: %v\n%s", err, victim.stdout.String())
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := victim.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-victim.done
	killedAt := checkpointChanged(victim.job.Checkpoint)
	replacement := job(1)
	replacement.Resume = true
	procs[1] = startWorker(t, endpoint, replacement)

	var results []workerResult
	for _, p := range procs {
		results = append(results, p.result(t))
	}
	elapsed := time.Since(started)
	resumed := results[1]
	t.Logf("worker 1 killed after %d changes (persisted); its replacement: %+v this run, %+v in all", killedAt, resumed.Run, resumed.Total)
	for w, r := range results {
		if !r.Done || r.SegmentsDone != segments/workers {
			t.Errorf("worker %d: done %v, %d segments done", w, r.Done, r.SegmentsDone)
		}
	}
	if resumed.Run.Scanned >= resumed.Total.Scanned || resumed.Total.Changed < killedAt {
		t.Errorf("the replacement did not resume: scanned %d this run, %d in all; changed %d in all, the killed one %d",
			resumed.Run.Scanned, resumed.Total.Scanned, resumed.Total.Changed, killedAt)
	}

	// Every ticket written exactly once, and up to date.
	curTable, curTickets := ticketRelease(t, 2, name)
	items := scanAll(t, client, curTable.Name(), "")
	if len(items) != n {
		t.Fatalf("%d items, want %d", len(items), n)
	}
	for _, item := range items {
		tk, err := curTickets.Decode(item)
		if err != nil {
			t.Fatal(err)
		}
		res, err := curTickets.PlanRefresh(item)
		if tk.Version != 2 || err != nil || res.Outcome != keyfirst.RefreshUnchanged {
			t.Errorf("ticket %s: version %d (want 2: written exactly once), %v, %v", tk.ID, tk.Version, res.Outcome, err)
		}
	}
	if got := len(scanAll(t, client, curTable.Name(), "ByQueue")); got != n {
		t.Errorf("ByQueue holds %d tickets, want %d", got, n)
	}

	// The budget, over every process's writes.
	var logs []string
	for _, p := range append(procs, victim) {
		logs = append(logs, p.job.Log)
	}
	at, wcu := writesLogged(t, logs)
	var total, busiest float64
	for i := range at {
		total += wcu[i]
		window := 0.0
		for j := i; j < len(at) && at[j].Sub(at[i]) < 2*time.Second; j++ {
			window += wcu[j]
		}
		busiest = max(busiest, window/2)
	}
	span := at[len(at)-1].Sub(at[0]).Seconds()
	rate := total / span
	t.Logf("%d writes, %.0f WCU over %.2fs of writes (%.1f WCU/s; busiest 2s: %.1f WCU/s) for a budget of %.0f WCU/s; %d processes in %v",
		len(at), total, span, rate, busiest, budget, len(procs)+1, elapsed.Round(time.Millisecond))
	// The killed worker loses the log lines of its writes in flight (a
	// segment each), which DynamoDB may have done: the versions prove
	// each ticket written once, the log gives the times.
	if len(at) < n-segments/workers || len(at) > n {
		t.Errorf("%d writes logged for %d tickets", len(at), n)
	}
	// Each worker's bucket starts empty and earns its share; the writes in
	// flight (a segment each) may overdraw it by their own cost.
	if limit := budget * 1.1; rate > limit {
		t.Errorf("%.1f WCU/s over the processes, the budget of the whole backfill is %.0f", rate, budget)
	}
}

// TestWorkersRefused: a split that cannot work, and a checkpoint of
// another worker or of an unsplit backfill, are refused before any
// request.
func TestWorkersRefused(t *testing.T) {
	table, tickets := ticketRelease(t, 2, "tickets")
	base := func() *migrate.Backfill {
		return &migrate.Backfill{Name: "tickets-by-queue", Table: table, Entities: []migrate.Target{migrate.Entity(tickets)}, WCU: 10}
	}
	for name, set := range map[string]func(b *migrate.Backfill){
		"negative workers":            func(b *migrate.Backfill) { b.Workers = -1 },
		"worker out of range":         func(b *migrate.Backfill) { b.Workers, b.Worker = 3, 3 },
		"negative worker":             func(b *migrate.Backfill) { b.Workers, b.Worker = 3, -1 },
		"worker without workers":      func(b *migrate.Backfill) { b.Worker = 1 },
		"fewer segments than workers": func(b *migrate.Backfill) { b.Workers, b.Segments = 4, 3 },
	} {
		b := base()
		set(b)
		_, err := b.Run(context.Background(), noCalls{T: t})
		var ce *migrate.ConfigError
		if !errors.As(err, &ce) || ce.Problem != migrate.ConfigWorkers {
			t.Errorf("%s: %v", name, err)
		}
	}

	// A checkpoint of worker 0 of 3, serialised: refused by worker 1, by
	// a split in 2 and by the unsplit backfill; its JSON says whose it is.
	cp := checkpointOf(t, `{"table":"tickets","name":"tickets-by-queue","definition":"%s","worker":0,"workers":3,"segments":[{"counts":{}},{"counts":{}},{"counts":{}}]}`, table, tickets)
	if w, n := cp.Worker(); w != 0 || n != 3 {
		t.Fatalf("Worker() = %d, %d", w, n)
	}
	for name, set := range map[string]func(b *migrate.Backfill){
		"another worker":   func(b *migrate.Backfill) { b.Workers, b.Worker = 3, 1 },
		"another split":    func(b *migrate.Backfill) { b.Workers = 2 },
		"unsplit backfill": func(b *migrate.Backfill) {},
	} {
		b := base()
		set(b)
		b.Resume = cp
		_, err := b.Run(context.Background(), noCalls{T: t})
		var ce *migrate.CheckpointError
		if !errors.As(err, &ce) || ce.Problem != migrate.CheckpointWorker {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, bad := range []string{`"worker":3,"workers":3`, `"worker":1,"workers":0`, `"worker":0,"workers":4`} {
		data := migrate.SealedJSON(t, fmt.Sprintf(`{"table":"tickets","name":"n","definition":"d",%s,"segments":[{"counts":{}},{"counts":{}},{"counts":{}}]}`, bad))
		if _, err := migrate.ParseCheckpoint(data); !errors.Is(err, migrate.ErrCheckpoint) {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// checkpointOf parses format, whose %s is the definition of a checkpoint
// of tickets: that of a dry run's checkpoint taken without a request.
func checkpointOf(t *testing.T, format string, table *keyfirst.Table, tickets *keyfirst.Entity[Ticket]) *migrate.Checkpoint {
	t.Helper()
	// The definition is what a run's checkpoint carries: take it from the
	// error of a checkpoint with a wrong one.
	wrong, err := migrate.ParseCheckpoint(migrate.SealedJSON(t, fmt.Sprintf(format, "x")))
	if err != nil {
		t.Fatal(err)
	}
	b := &migrate.Backfill{Name: "tickets-by-queue", Table: table, Entities: []migrate.Target{migrate.Entity(tickets)}, WCU: 10,
		Workers: 3, Resume: wrong}
	_, err = b.Run(context.Background(), noCalls{T: t})
	var ce *migrate.CheckpointError
	if !errors.As(err, &ce) || ce.Problem != migrate.CheckpointDefinition {
		t.Fatalf("%v", err)
	}
	cp, err := migrate.ParseCheckpoint(migrate.SealedJSON(t, fmt.Sprintf(format, ce.Want)))
	if err != nil {
		t.Fatal(err)
	}
	return cp
}
