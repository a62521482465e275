package migrate_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/migrate"
)

// cursorKey is the secret of the signed checkpoints.
var cursorKey = []byte("0123456789abcdef0123456789abcdef")

// TestCheckpointEdits: a checkpoint of 3 segments, taken unsigned and
// signed (CursorKey), each stopped mid-way, survives a JSON round trip
// and a reformatting (indentation, keys reordered), and every edit of it
// is refused before any request with a typed error: a segment dropped (it
// was accepted, and DynamoDB refused the Scan's start key), a resume key
// dropped or changed, a segment marked done, counts changed, the seal
// dropped or swapped, an unknown field, an earlier format, invalid UTF-8,
// data after the value. A signed one is refused by a backfill without the
// key or with another, an unsigned one by a backfill with a key.
func TestCheckpointEdits(t *testing.T) {
	t.Parallel()
	client, name := liveShop(t)
	seedOrders(t, client, release(t, dateFirst, name), 60)
	cur := release(t, statusFirst, name)
	backfill := func(secret []byte, cp *migrate.Checkpoint) *migrate.Backfill {
		return &migrate.Backfill{Name: "orders-status-first", Table: cur.table, Entities: []migrate.Target{migrate.Entity(cur.orders)},
			WCU: 1000, Segments: 3, PageSize: 4, DryRun: true, Resume: cp}
	}
	// stopped is a dry run's checkpoint after one page of each segment:
	// each has a key to resume after.
	stopped := func(secret []byte) []byte {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		report, err := backfill(secret, nil).Run(ctx, &firstPages{Client: client, segments: 3, cancel: cancel}, keyfirst.WithCursorKey(secret))
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("the dry run: %v", err)
		}
		data, err := json.Marshal(report.Checkpoint)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(data, []byte(`"last"`)); n != 3 || report.Scanned != 12 {
			t.Fatalf("%d of 3 segments with a resume key, %d items scanned: %s", n, report.Scanned, data)
		}
		return data
	}
	// edit applies f to the JSON form of data.
	edit := func(data []byte, f func(cp map[string]any, segs []any)) []byte {
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		f(m, m["segments"].([]any))
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	seg := func(segs []any, i int) map[string]any { return segs[i].(map[string]any) }
	is := func(err error, p migrate.CheckpointProblem) bool {
		var ce *migrate.CheckpointError
		return errors.As(err, &ce) && ce.Problem == p && errors.Is(err, migrate.ErrCheckpoint)
	}
	// resume parses data and runs a backfill (signing with secret) from
	// it, on a client that fails on any request.
	resume := func(data, secret []byte) error {
		cp, err := migrate.ParseCheckpoint(data)
		if err != nil {
			return err
		}
		_, err = backfill(secret, cp).Run(context.Background(), noCalls{T: t}, keyfirst.WithCursorKey(secret))
		return err
	}

	unsigned, signed := stopped(nil), stopped(cursorKey)
	t.Logf("unsigned: %s", unsigned)
	t.Logf("signed: %s", signed)
	for _, c := range []struct {
		mode   string
		data   []byte
		secret []byte
		seal   string
	}{{"unsigned", unsigned, nil, "sha256"}, {"signed", signed, cursorKey, "hmac"}} {
		edits := []struct {
			name    string
			data    []byte
			problem migrate.CheckpointProblem
		}{
			{"a segment dropped", edit(c.data, func(m map[string]any, segs []any) { m["segments"] = segs[1:] }), migrate.CheckpointTampered},
			{"the last segment dropped", edit(c.data, func(m map[string]any, segs []any) { m["segments"] = segs[:2] }), migrate.CheckpointTampered},
			{"a resume key dropped", edit(c.data, func(m map[string]any, segs []any) { delete(seg(segs, 1), "last") }), migrate.CheckpointTampered},
			{"a resume key changed", edit(c.data, func(m map[string]any, segs []any) {
				seg(segs, 0)["last"].(map[string]any)["SK"] = map[string]any{"S": "ORDER#o9999"}
			}), migrate.CheckpointTampered},
			{"an attribute of a resume key dropped", edit(c.data, func(m map[string]any, segs []any) {
				delete(seg(segs, 0)["last"].(map[string]any), "SK")
			}), migrate.CheckpointTampered},
			{"a segment marked done", edit(c.data, func(m map[string]any, segs []any) {
				delete(seg(segs, 2), "last")
				seg(segs, 2)["done"] = true
			}), migrate.CheckpointTampered},
			{"counts changed", edit(c.data, func(m map[string]any, segs []any) {
				seg(segs, 0)["counts"].(map[string]any)["scanned"] = 1000
			}), migrate.CheckpointTampered},
			{"segments swapped", edit(c.data, func(m map[string]any, segs []any) { segs[0], segs[1] = segs[1], segs[0] }), migrate.CheckpointTampered},
			{"the seal dropped", edit(c.data, func(m map[string]any, segs []any) { delete(m, c.seal) }), migrate.CheckpointCorrupt},
			{"the seal under the other name", edit(c.data, func(m map[string]any, segs []any) {
				m["sha256"], m["hmac"] = m["hmac"], m["sha256"]
			}), migrate.CheckpointTampered},
			{"an unknown field", edit(c.data, func(m map[string]any, segs []any) { m["segmentCount"] = 3 }), migrate.CheckpointCorrupt},
			{"format 1", edit(c.data, func(m map[string]any, segs []any) { m["format"] = 1 }), migrate.CheckpointCorrupt},
			{"a done segment with a resume key", edit(c.data, func(m map[string]any, segs []any) { seg(segs, 2)["done"] = true }), migrate.CheckpointCorrupt},
			{"a number key value", edit(c.data, func(m map[string]any, segs []any) {
				seg(segs, 0)["last"].(map[string]any)["SK"] = map[string]any{"N": "1e200"}
			}), migrate.CheckpointCorrupt},
			{"invalid UTF-8 in the name", bytes.Replace(c.data, []byte(`"orders-status-first"`), []byte("\"orders-status-first\xff\""), 1), migrate.CheckpointCorrupt},
			{"data after the value", append(bytes.Clone(c.data), ']'), migrate.CheckpointCorrupt},
		}
		for _, e := range edits {
			if bytes.Equal(e.data, c.data) {
				t.Fatalf("%s %s: not an edit", c.mode, e.name)
			}
			if err := resume(e.data, c.secret); !is(err, e.problem) {
				t.Errorf("%s checkpoint, %s: %v, want %v", c.mode, e.name, err, e.problem)
			}
		}
		// Reformatted: the same checkpoint.
		var indented bytes.Buffer
		if err := json.Indent(&indented, c.data, "", "\t"); err != nil {
			t.Fatal(err)
		}
		for what, data := range map[string][]byte{"as written": c.data, "indented": indented.Bytes(),
			"keys reordered": edit(c.data, func(map[string]any, []any) {})} {
			cp, err := migrate.ParseCheckpoint(data)
			if err != nil {
				t.Fatalf("%s checkpoint %s: %v", c.mode, what, err)
			}
			ctx, cancel := integration.Context(t)
			report, err := backfill(c.secret, cp).Run(ctx, client, keyfirst.WithCursorKey(c.secret))
			cancel()
			if err != nil || !report.Checkpoint.Done() || report.Checkpoint.Counts().Scanned != 70 {
				t.Fatalf("%s checkpoint %s: %v, %+v", c.mode, what, err, report)
			}
		}
	}
	// The key is the run's.
	for _, c := range []struct {
		name         string
		data, secret []byte
	}{
		{"a signed checkpoint, no key", signed, nil},
		{"a signed checkpoint, another key", signed, []byte("fedcba9876543210fedcba9876543210")},
		{"an unsigned checkpoint, a key", unsigned, cursorKey},
	} {
		if err := resume(c.data, c.secret); !is(err, migrate.CheckpointTampered) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestCheckpointNames: a checkpoint of a backfill whose name holds
// quotes, a backslash, control and non-ASCII characters resumes the same
// backfill after its JSON round trip (a name that is not valid UTF-8 is
// refused up front: TestBadInputs).
func TestCheckpointNames(t *testing.T) {
	t.Parallel()
	client, name := liveShop(t)
	cur := release(t, statusFirst, name)
	for _, n := range []string{"bf-é", "bf-\"\\\x00\u2028\U0001F600", "\u00a0"} {
		b := &migrate.Backfill{Name: n, Table: cur.table, Entities: []migrate.Target{migrate.Entity(cur.orders)}, WCU: 10, DryRun: true}
		data, err := json.Marshal(run(t, b, client).Checkpoint)
		if err != nil {
			t.Fatal(err)
		}
		if b.Resume, err = migrate.ParseCheckpoint(data); err != nil || b.Resume.Name() != n {
			t.Fatalf("name %q: %v, read back %q", n, err, b.Resume.Name())
		}
		if again := run(t, b, client); again.Scanned != 0 || !again.Checkpoint.Done() {
			t.Errorf("name %q: the finished checkpoint read again: %+v", n, again.Counts)
		}
	}
}

// firstPages lets each of the segments of a Scan read its first page,
// then cancels the run when all of them ask for their second.
type firstPages struct {
	*dynamodb.Client
	segments int
	cancel   func()
	mu       sync.Mutex
	seen     map[int32]int
}

func (f *firstPages) Scan(ctx context.Context, in *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	f.mu.Lock()
	if f.seen == nil {
		f.seen = map[int32]int{}
	}
	f.seen[*in.Segment]++
	n, waiting := f.seen[*in.Segment], 0
	for _, c := range f.seen {
		if c > 1 {
			waiting++
		}
	}
	f.mu.Unlock()
	if n == 1 {
		return f.Client.Scan(ctx, in, optFns...)
	}
	if waiting == f.segments {
		f.cancel()
	}
	<-ctx.Done()
	return nil, ctx.Err()
}
