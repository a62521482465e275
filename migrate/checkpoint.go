package migrate

import (
	"encoding/json"
	"fmt"
	"maps"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// checkpointFormat is the version of the serialised form.
const checkpointFormat = 1

// Checkpoint is where a backfill stands: for each segment of its parallel
// Scan, whether it is finished and, if not, the key of the last item it
// brought up to date, with the counts so far. Resuming from it
// ([Backfill.Resume]) skips the finished segments and starts each other
// one after its last item, so every item is processed once across runs.
//
// A checkpoint is bound to the table's name, the backfill's name, the
// entity definitions and the mode (dry run or not): a backfill that
// differs in any of them refuses it with a [*CheckpointError]. It
// serialises to JSON ([Checkpoint.MarshalJSON]) to survive a restart of
// the process; [Progress] carries one at every report, [Report] the last.
// The zero Checkpoint is not valid: take one from a run.
type Checkpoint struct {
	table, name, definition string
	dryRun                  bool
	segments                []segmentState
	// worker of workers (0 and 0: the whole backfill): the checkpoint's
	// segments are those s with s % workers == worker; the others are
	// another worker's, and stay zero here.
	worker, workers int
}

// owns reports whether segment seg is the checkpoint's worker's.
func (c *Checkpoint) owns(seg int) bool { return c.workers <= 1 || seg%c.workers == c.worker }

// Worker returns the part of a backfill split across workers that the
// checkpoint is of (Backfill.Worker and Backfill.Workers): 0 and 0 for a
// backfill that one run does whole.
func (c *Checkpoint) Worker() (worker, workers int) { return c.worker, c.workers }

// owned returns how many segments are the checkpoint's worker's.
func (c *Checkpoint) owned() int {
	n := 0
	for seg := range c.segments {
		if c.owns(seg) {
			n++
		}
	}
	return n
}

// segmentState is the position of one segment.
type segmentState struct {
	done   bool
	last   map[string]types.AttributeValue // the key to resume after; nil: from the start
	counts Counts                          // items of the segment processed so far, over every run
}

// Table returns the name of the table the checkpoint was taken on.
func (c *Checkpoint) Table() string { return c.table }

// Name returns the name of the backfill that took the checkpoint.
func (c *Checkpoint) Name() string { return c.name }

// Segments returns the number of segments of the backfill's Scan (its
// TotalSegments, over every worker).
func (c *Checkpoint) Segments() int { return len(c.segments) }

// SegmentsDone returns how many of the checkpoint's segments are finished
// (of a worker's checkpoint: how many of the worker's).
func (c *Checkpoint) SegmentsDone() int {
	n := 0
	for seg, s := range c.segments {
		if s.done && c.owns(seg) {
			n++
		}
	}
	return n
}

// Done reports whether every segment of the checkpoint is finished: the
// backfill (of a worker's checkpoint: the worker's part) is complete and
// resuming it would read nothing.
func (c *Checkpoint) Done() bool { return len(c.segments) > 0 && c.SegmentsDone() == c.owned() }

// Counts returns the items processed so far, over every run that led to
// the checkpoint.
func (c *Checkpoint) Counts() Counts {
	var n Counts
	for _, s := range c.segments {
		n.add(s.counts)
	}
	return n
}

// clone returns a deep copy (the key maps are copied; their values are
// never modified).
func (c *Checkpoint) clone() *Checkpoint {
	out := *c
	out.segments = make([]segmentState, len(c.segments))
	for i, s := range c.segments {
		s.last = maps.Clone(s.last)
		out.segments[i] = s
	}
	return &out
}

// The JSON form: stable field names, the key values in DynamoDB's JSON
// notation ({"S": "..."}, {"N": "..."}, {"B": base64}).
type checkpointJSON struct {
	Format     int           `json:"format"`
	Table      string        `json:"table"`
	Name       string        `json:"name"`
	Definition string        `json:"definition"`
	DryRun     bool          `json:"dryRun,omitempty"`
	Worker     int           `json:"worker,omitempty"`
	Workers    int           `json:"workers,omitempty"`
	Segments   []segmentJSON `json:"segments"`
}

type segmentJSON struct {
	Done   bool                  `json:"done,omitempty"`
	Last   map[string]scalarJSON `json:"last,omitempty"`
	Counts Counts                `json:"counts"`
}

type scalarJSON struct {
	S *string `json:"S,omitempty"`
	N *string `json:"N,omitempty"`
	B []byte  `json:"B,omitempty"`
}

// MarshalJSON serialises the checkpoint, to be stored and given back to
// [ParseCheckpoint] (or json.Unmarshal) after a restart.
func (c *Checkpoint) MarshalJSON() ([]byte, error) {
	out := checkpointJSON{Format: checkpointFormat, Table: c.table, Name: c.name, Definition: c.definition,
		DryRun: c.dryRun, Worker: c.worker, Workers: c.workers, Segments: make([]segmentJSON, len(c.segments))}
	for i, s := range c.segments {
		sj := segmentJSON{Done: s.done, Counts: s.counts}
		if s.last != nil {
			sj.Last = map[string]scalarJSON{}
			for n, av := range s.last {
				switch v := av.(type) {
				case *types.AttributeValueMemberS:
					sj.Last[n] = scalarJSON{S: &v.Value}
				case *types.AttributeValueMemberN:
					sj.Last[n] = scalarJSON{N: &v.Value}
				case *types.AttributeValueMemberB:
					sj.Last[n] = scalarJSON{B: v.Value}
				default:
					return nil, fmt.Errorf("migrate: key attribute %s of type %T in a checkpoint", n, av)
				}
			}
		}
		out.Segments[i] = sj
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads a checkpoint that [Checkpoint.MarshalJSON] wrote.
// Anything else is a [*CheckpointError] ([CheckpointCorrupt]).
func (c *Checkpoint) UnmarshalJSON(data []byte) error {
	corrupt := func(err error) error { return &CheckpointError{Problem: CheckpointCorrupt, Err: err} }
	var in checkpointJSON
	if err := json.Unmarshal(data, &in); err != nil {
		return corrupt(err)
	}
	if in.Format != checkpointFormat {
		return corrupt(fmt.Errorf("format %d, this version reads %d", in.Format, checkpointFormat))
	}
	if in.Table == "" || in.Name == "" || in.Definition == "" || len(in.Segments) == 0 {
		return corrupt(fmt.Errorf("no table, name, definition or segments"))
	}
	if in.Workers < 0 || in.Worker < 0 || (in.Workers <= 1 && in.Worker != 0) || (in.Workers > 1 && (in.Worker >= in.Workers || len(in.Segments) < in.Workers)) {
		return corrupt(fmt.Errorf("worker %d of %d workers, %d segments", in.Worker, in.Workers, len(in.Segments)))
	}
	out := Checkpoint{table: in.Table, name: in.Name, definition: in.Definition, dryRun: in.DryRun,
		worker: in.Worker, workers: in.Workers, segments: make([]segmentState, len(in.Segments))}
	for i, sj := range in.Segments {
		s := segmentState{done: sj.Done, counts: sj.Counts}
		if sj.Last != nil {
			s.last = map[string]types.AttributeValue{}
			for n, v := range sj.Last {
				switch {
				case v.S != nil && v.N == nil && v.B == nil:
					s.last[n] = &types.AttributeValueMemberS{Value: *v.S}
				case v.N != nil && v.S == nil && v.B == nil:
					s.last[n] = &types.AttributeValueMemberN{Value: *v.N}
				case v.B != nil && v.S == nil && v.N == nil:
					s.last[n] = &types.AttributeValueMemberB{Value: v.B}
				default:
					return corrupt(fmt.Errorf("segment %d: key attribute %s is not one S, N or B value", i, n))
				}
			}
		}
		out.segments[i] = s
	}
	*c = out
	return nil
}

// ParseCheckpoint reads a checkpoint serialised by
// [Checkpoint.MarshalJSON]. A damaged one is a [*CheckpointError]
// ([CheckpointCorrupt]).
func ParseCheckpoint(data []byte) (*Checkpoint, error) {
	c := new(Checkpoint)
	if err := c.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	return c, nil
}
