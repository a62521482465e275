package migrate

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/envelope"
	"github.com/keyfirst/keyfirst/internal/itemsize"
)

// checkpointFormat is the version of the serialised form: 2 carries a
// seal, 1 had none.
const checkpointFormat = 2

// sealContext begins what a checkpoint's seal covers, so that a key that
// also signs the service's query cursors never signs the same bytes for
// both.
const sealContext = "keyfirst migrate.Checkpoint\n"

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
//
// It is sealed as strictly as a query cursor: with
// [keyfirst.WithCursorKey] given to [Backfill.Run] (the option that signs
// a query's cursors), by an HMAC-SHA256, and a
// changed checkpoint, an unsigned one, or one signed with another key is
// refused ([CheckpointTampered]); without it, by a SHA-256 checksum that
// refuses a damaged or hand-edited checkpoint (a segment dropped, a key
// changed), though not one forged with its checksum computed again. Every
// resume key is checked against the table's primary key, names and
// types, before any request.
type Checkpoint struct {
	table, name, definition string
	dryRun                  bool
	segments                []segmentState
	// seal is the HMAC-SHA256 of the content (signed) or its SHA-256: set
	// when the checkpoint leaves a run (sealed) or is read (UnmarshalJSON).
	seal   []byte
	signed bool
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
// never modified), without the seal: a run's working copy.
func (c *Checkpoint) clone() *Checkpoint {
	out := *c
	out.seal, out.signed = nil, false
	out.segments = make([]segmentState, len(c.segments))
	for i, s := range c.segments {
		s.last = maps.Clone(s.last)
		out.segments[i] = s
	}
	return &out
}

// sealed returns a copy of c sealed with secret (signed when set).
func (c *Checkpoint) sealed(secret []byte) *Checkpoint {
	out := c.clone()
	if content, err := out.content(); err == nil {
		out.seal, out.signed = sealOf(content, secret), len(secret) > 0
	}
	return out
}

// sealOf is the seal of content: its HMAC-SHA256 under secret, or its
// SHA-256 without one.
func sealOf(content, secret []byte) []byte {
	msg := append([]byte(sealContext), content...)
	if len(secret) > 0 {
		return envelope.Sign(secret, msg)
	}
	sum := sha256.Sum256(msg)
	return sum[:]
}

// verify checks c's seal for a backfill signing with secret (none when
// empty).
func (c *Checkpoint) verify(secret []byte) error {
	tampered := func(detail string) error {
		return &CheckpointError{Problem: CheckpointTampered, Err: errors.New(detail)}
	}
	content, err := c.content()
	switch {
	case err != nil:
		return &CheckpointError{Problem: CheckpointCorrupt, Err: err}
	case len(secret) > 0 && !c.signed:
		return tampered("the checkpoint is unsigned and the backfill has a CursorKey")
	case len(secret) == 0 && c.signed:
		return tampered("the checkpoint is signed and the backfill has no CursorKey: give it the key of the run that took it")
	case !hmac.Equal(c.seal, sealOf(content, secret)):
		if c.signed {
			return tampered("the signature does not verify: the checkpoint was changed, or signed with another key")
		}
		return tampered("the checksum does not match: the checkpoint was changed")
	}
	return nil
}

// checkKeys refuses a resume key that is not a primary key of table key:
// its attribute names and types.
func (c *Checkpoint) checkKeys(key keyfirst.KeySchema) error {
	attrs := key.Attributes()
	for i, s := range c.segments {
		if len(s.last) == 0 {
			continue
		}
		bad := len(s.last) != len(attrs)
		for _, a := range attrs {
			if !bad && !hasType(s.last[a.Name], a.Type) {
				bad = true
			}
		}
		if bad {
			return &CheckpointError{Problem: CheckpointCorrupt,
				Err: fmt.Errorf("segment %d resumes after %s, not a key of the table (%v)", i, keyText(s.last), attrs)}
		}
	}
	return nil
}

// hasType reports whether av is a value of key type t.
func hasType(av types.AttributeValue, t types.ScalarAttributeType) bool {
	switch av.(type) {
	case *types.AttributeValueMemberS:
		return t == types.ScalarAttributeTypeS
	case *types.AttributeValueMemberN:
		return t == types.ScalarAttributeTypeN
	case *types.AttributeValueMemberB:
		return t == types.ScalarAttributeTypeB
	}
	return false
}

// keyText prints a resume key's attribute names, sorted.
func keyText(key map[string]types.AttributeValue) string {
	return fmt.Sprint(slices.Sorted(maps.Keys(key)))
}

// The JSON form: stable field names, the key values in DynamoDB's JSON
// notation ({"S": "..."}, {"N": "..."}, {"B": base64}), and the seal:
// hmac or sha256, over the rest.
type checkpointJSON struct {
	Format     int           `json:"format"`
	Table      string        `json:"table"`
	Name       string        `json:"name"`
	Definition string        `json:"definition"`
	DryRun     bool          `json:"dryRun,omitempty"`
	Worker     int           `json:"worker,omitempty"`
	Workers    int           `json:"workers,omitempty"`
	Segments   []segmentJSON `json:"segments"`
	HMAC       []byte        `json:"hmac,omitempty"`
	SHA256     []byte        `json:"sha256,omitempty"`
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

// form is the JSON form of c, without its seal.
func (c *Checkpoint) form() (checkpointJSON, error) {
	out := checkpointJSON{Format: checkpointFormat, Table: c.table, Name: c.name, Definition: c.definition,
		DryRun: c.dryRun, Worker: c.worker, Workers: c.workers, Segments: make([]segmentJSON, len(c.segments))}
	for i, s := range c.segments {
		sj := segmentJSON{Done: s.done, Counts: s.counts}
		if len(s.last) > 0 {
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
					return out, fmt.Errorf("migrate: key attribute %s of type %T in a checkpoint", n, av)
				}
			}
		}
		out.Segments[i] = sj
	}
	return out, nil
}

// content is what the seal covers: the JSON form without the seal.
func (c *Checkpoint) content() ([]byte, error) {
	f, err := c.form()
	if err != nil {
		return nil, err
	}
	return json.Marshal(f)
}

// MarshalJSON serialises the checkpoint with its seal, to be stored and
// given back to [ParseCheckpoint] (or json.Unmarshal) after a restart.
func (c *Checkpoint) MarshalJSON() ([]byte, error) {
	out, err := c.form()
	if err != nil {
		return nil, err
	}
	switch seal := c.seal; {
	case c.signed:
		out.HMAC = seal
	case seal == nil: // a Checkpoint that no run sealed: the zero one
		content, err := json.Marshal(out)
		if err != nil {
			return nil, err
		}
		out.SHA256 = sealOf(content, nil)
	default:
		out.SHA256 = seal
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads a checkpoint that [Checkpoint.MarshalJSON] wrote:
// valid UTF-8, known fields only, a seal, every key value one that
// DynamoDB accepts. Anything else is a [*CheckpointError]
// ([CheckpointCorrupt]); a checksum that does not match, one with
// [CheckpointTampered]. A signature is checked by the backfill that
// resumes it, which has the key.
func (c *Checkpoint) UnmarshalJSON(data []byte) error {
	corrupt := func(format string, args ...any) error {
		return &CheckpointError{Problem: CheckpointCorrupt, Err: fmt.Errorf(format, args...)}
	}
	var in checkpointJSON
	if err := envelope.DecodeJSON(data, &in); err != nil {
		return corrupt("%w", err)
	}
	switch {
	case in.Format != checkpointFormat:
		return corrupt("format %d, this version reads %d (a checkpoint of an earlier version cannot resume: run the backfill again from the start, it is idempotent)", in.Format, checkpointFormat)
	case in.Table == "" || in.Name == "" || in.Definition == "" || len(in.Segments) == 0:
		return corrupt("no table, name, definition or segments")
	case len(in.Segments) > MaxSegments:
		return corrupt("%d segments, at most %d", len(in.Segments), MaxSegments)
	case (in.HMAC == nil) == (in.SHA256 == nil):
		return corrupt("a checkpoint has one seal, hmac or sha256")
	}
	if in.Workers < 0 || in.Worker < 0 || (in.Workers <= 1 && in.Worker != 0) || (in.Workers > 1 && (in.Worker >= in.Workers || len(in.Segments) < in.Workers)) {
		return corrupt("worker %d of %d workers, %d segments", in.Worker, in.Workers, len(in.Segments))
	}
	out := Checkpoint{table: in.Table, name: in.Name, definition: in.Definition, dryRun: in.DryRun,
		worker: in.Worker, workers: in.Workers, segments: make([]segmentState, len(in.Segments))}
	for i, sj := range in.Segments {
		s := segmentState{done: sj.Done, counts: sj.Counts}
		if sj.Done && sj.Last != nil {
			return corrupt("segment %d is done and has a key to resume after", i)
		}
		if sj.Last != nil {
			s.last = map[string]types.AttributeValue{}
			for n, v := range sj.Last {
				switch {
				case v.S != nil && v.N == nil && v.B == nil && *v.S != "":
					s.last[n] = &types.AttributeValueMemberS{Value: *v.S}
				case v.N != nil && v.S == nil && v.B == nil:
					s.last[n] = &types.AttributeValueMemberN{Value: *v.N}
				case len(v.B) > 0 && v.S == nil && v.N == nil:
					s.last[n] = &types.AttributeValueMemberB{Value: v.B}
				default:
					return corrupt("segment %d: key attribute %s is not one S, N or B value, not empty", i, n)
				}
				if _, err := itemsize.Check(n, s.last[n]); err != nil {
					return corrupt("segment %d: %w", i, err)
				}
			}
		}
		out.segments[i] = s
	}
	out.seal, out.signed = in.SHA256, false
	if in.HMAC != nil {
		out.seal, out.signed = in.HMAC, true
	} else if err := out.verify(nil); err != nil {
		return err
	}
	*c = out
	return nil
}

// ParseCheckpoint reads a checkpoint serialised by
// [Checkpoint.MarshalJSON]. A damaged one is a [*CheckpointError]
// ([CheckpointCorrupt]), a changed one too ([CheckpointTampered]).
func ParseCheckpoint(data []byte) (*Checkpoint, error) {
	c := new(Checkpoint)
	if err := c.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	return c, nil
}
