package shard

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/envelope"
	"github.com/keyfirst/keyfirst/query"
)

// ReshardAPI is what [Index.Reshard] calls: Query to read the shards,
// GetItem and UpdateItem to rewrite an item ([keyfirst.Entity.Modify]).
type ReshardAPI interface {
	keyfirst.QueryAPI
	keyfirst.ModifyAPI
}

// Checkpoint is where a re-shard pass stopped ([ReshardStats.Next]): the
// shard it was reading and the position after the last item it finished
// there. Pass it to [WithCheckpoint] to resume; it stays valid across a
// restart of the process. It is bound to the table (the name of the
// entity's binding, [keyfirst.Table.Named]) and the index of its pass: a
// pass on another table or index refuses it with [query.ErrCursorMismatch]
// before any request. With [keyfirst.WithCursorKey] among the pass's
// options it is signed with HMAC-SHA256, and a changed or
// unsigned one is refused with [query.ErrCursorTampered]: a hand-edited
// shard number cannot skip shards. Signed or not, a checkpoint is the one
// encoding of its position that a pass writes: another (a field dropped,
// repeated or reordered) is refused with [query.ErrCursorMalformed]. The
// empty Checkpoint starts from shard 0.
type Checkpoint string

// checkpointPayload is what a Checkpoint holds.
type checkpointPayload struct {
	T string `json:"t"` // the table's name
	X string `json:"x"` // the index
	I int    `json:"i"` // the shard read, an index into ReadPartitions
	P string `json:"p"` // its partition value, checked on resume
	C string `json:"c"` // the query.Cursor after the last item finished
}

// maxCheckpointLen bounds the checkpoints accepted: one query cursor and
// a partition value, in base64.
const maxCheckpointLen = 2 * query.MaxCursorLen

// ReshardStats is the progress of a re-shard pass.
type ReshardStats struct {
	// Read counts the items read from the index's shards.
	Read int
	// Moved counts the items rewritten to their shard under the current
	// count (or out of the index, when they no longer belong to it).
	Moved int
	// Gone counts the items deleted between their read and their rewrite:
	// nothing to move.
	Gone int
	// Next resumes the pass after the last item finished; empty when
	// every shard has been read.
	Next Checkpoint
}

// reshardOptions are what [Index.Reshard] takes of [keyfirst.Options].
type reshardOptions struct {
	from     Checkpoint
	items    int
	progress func(ReshardStats)
	// query are the options of the shard queries (CursorKey, Capacity),
	// modify those of the rewrites (Capacity, MaxAttempts and delays).
	query, modify []func(*keyfirst.Options)
	secret        []byte
}

// reshardItems is the value of WithItems.
type reshardItems int

// WithCheckpoint resumes a re-shard pass at c; empty starts from the
// first shard.
func WithCheckpoint(c Checkpoint) func(*keyfirst.Options) {
	return keyfirst.WithSetting("WithCheckpoint", c)
}

// WithItems stops a re-shard pass after it has read n items (n positive):
// a chunk of work per call, say one per scheduled run; resume with the
// Next it returns.
func WithItems(n int) func(*keyfirst.Options) {
	return keyfirst.WithSetting("WithItems", reshardItems(n))
}

// WithProgress reports a re-shard pass's figures after each page of
// items; store its Next to resume after a crash.
func WithProgress(fn func(ReshardStats)) func(*keyfirst.Options) {
	return keyfirst.WithSetting("WithProgress", fn)
}

// reshardOptionsOf resolves the options of a re-shard pass.
func reshardOptionsOf(fns []func(*keyfirst.Options)) (reshardOptions, error) {
	ko, err := keyfirst.Apply("Reshard", fns)
	if err != nil {
		return reshardOptions{}, err
	}
	o := reshardOptions{secret: ko.CursorKey}
	take := func(s keyfirst.Setting) bool {
		switch v := s.Value.(type) {
		case Checkpoint:
			o.from = v
		case reshardItems:
			o.items = int(v)
		case func(ReshardStats):
			o.progress = v
		default:
			return false
		}
		return true
	}
	if err := ko.Refuse("Reshard", take, "a re-shard pass takes WithCheckpoint, WithItems and WithProgress of package shard"); err != nil {
		return o, err
	}
	if err := ko.RefuseOthers("Reshard", keyfirst.TakesCursorKey|keyfirst.TakesRetries, "a re-shard pass takes WithCapacity, WithCursorKey, WithMaxAttempts and the retry delays"); err != nil {
		return o, err
	}
	if ko.CursorKey != nil {
		o.query = append(o.query, keyfirst.WithCursorKey(ko.CursorKey))
	}
	if ko.Capacity != nil {
		o.query = append(o.query, keyfirst.WithCapacity(ko.Capacity))
		o.modify = append(o.modify, keyfirst.WithCapacity(ko.Capacity))
	}
	if ko.Retries() {
		o.modify = append(o.modify, func(m *keyfirst.Options) {
			m.MaxAttempts, m.RetryBaseDelay, m.RetryMaxDelay = ko.MaxAttempts, ko.RetryBaseDelay, ko.RetryMaxDelay
		})
	}
	return o, nil
}

// reshardPage is the number of items a pass reads per query.
const reshardPage = 100

// Reshard is the pass that completes a change of the shard count. It takes
// [WithCheckpoint], [WithItems] and [WithProgress], and of the options every
// call shares [keyfirst.WithCursorKey] (it signs the checkpoints and the
// shard queries' cursors), [keyfirst.WithCapacity] (what the pass's
// queries and rewrites consumed) and [keyfirst.WithMaxAttempts] and the
// retry delays (those of each rewrite, as [keyfirst.Entity.Modify]). It
// reads every shard a read covers ([Index.ReadPartitions], the larger of
// Shards and PreviousShards), and rewrites each item that is not on the
// shard the current count gives it, through e ([keyfirst.Entity.Modify]
// with no change: a consistent read, then the entity's one write path,
// which derives the new shard and keeps every other derived attribute,
// guarded against a concurrent write by the item's version or its
// image, and retried on contention). An item the service rewrites in the
// meantime is moved by that write already; one deleted in the meantime
// counts as Gone. Items on their shard cost a read and no write. A move
// is a write like any other: a versioned entity's version goes up by one.
// The pass decodes the items as the index returns them, so the index
// must project what the entity's key and the shard's Field or Pick read
// (ALL does); otherwise the pass stops at the first item with the key's
// error.
//
// The procedure: deploy Shards: new, PreviousShards: old (writes go to the
// new shards at once, reads cover both); run Reshard until it returns an
// empty Next; then deploy without PreviousShards. Reads stay exact
// throughout: an item keeps its place in the merged order wherever it is,
// and a [Cursor] resumes by that place (see [Cursor]). One reservation: an
// item moved while the shard queries of one round of a read are in flight
// can be missed by that round (its new shard read before the move, its
// old one after) or read twice (the merge drops the repeat); between two
// calls of a paged read nothing is missed or repeated.
//
// It reads the shards one after the other, a page of 100 items at a
// time; it stops at the first error, with the figures so far and the Next
// that resumes after the last item finished (an item is finished when it
// was on its shard, moved or gone). Cancel ctx to stop it: the item being
// rewritten then is finished first (its read and write are not
// cancelled), so that Next is exact however the pass stopped. After a
// resume, the item it stopped at is read again, and so is an item moved
// to a shard the pass reads later (on its shard there: no write). Bad input is a [*ReadError]
// before any request: a nil entity or client, a negative Items, a
// checkpoint of another table, index, count or shard, a changed or
// unsigned checkpoint for a signed pass, an option the pass does not take
// ([ReadOption]). An entity bound with another
// Index's Binding (the old shard count) is a [*ReadError] ([ReadBinding])
// at the first item it would move, before that item is written.
func (x *Index[T, S]) Reshard(ctx context.Context, e *keyfirst.Entity[T], client ReshardAPI, optFns ...func(*keyfirst.Options)) (ReshardStats, error) {
	var st ReshardStats
	fail := func(p ReadProblem, detail string, err error) (ReshardStats, error) {
		return st, &ReadError{Index: x.p.IndexName(), Problem: p, Detail: detail, Err: err}
	}
	o, err := reshardOptionsOf(optFns)
	if err != nil {
		return fail(ReadOption, "", err)
	}
	switch {
	case e == nil:
		return fail(ReadSource, "Reshard needs the entity whose binding writes the index", nil)
	case client == nil:
		return fail(ReadClient, "pass a *dynamodb.Client or another implementation", nil)
	case o.items < 0:
		return fail(ReadLimit, fmt.Sprintf("WithItems(%d): give a positive number of items, or none", o.items), nil)
	}
	table, secret := e.Table().Name(), o.secret
	at, err := x.openCheckpoint(table, o.from, secret)
	if err != nil {
		return fail(ReadCursor, "", err)
	}
	st.Next = o.from
	track := e.Table().Track("shard.Reshard", int64(o.items)) // the table's Observer sees the items read
	for ; at.I < len(x.read); at = (checkpointPayload{I: at.I + 1}) {
		part := x.read[at.I]
		q := query.On(e, x.p, part, o.query...).After(query.Cursor(at.C))
		if _, err := q.Fingerprint(); err != nil {
			return fail(ReadQuery, "", err)
		}
		for {
			size := reshardPage
			if o.items > 0 {
				if size = min(size, o.items-st.Read); size == 0 {
					track.Finish(ctx, 0)
					return st, nil
				}
			}
			page, err := q.Limit(size).Page(ctx, client)
			for i, v := range page.Items {
				if cerr := ctx.Err(); cerr != nil {
					return st, &ShardError{Shard: at.I, Partition: part, Err: cerr}
				}
				moved, gone, mverr := x.place(ctx, e, client, part, v, o.modify)
				if mverr != nil {
					return st, &ShardError{Shard: at.I, Partition: part, Err: mverr}
				}
				st.Read++
				switch {
				case gone:
					st.Gone++
				case moved:
					st.Moved++
				}
				c, cerr := page.CursorAfter(i)
				if cerr != nil {
					return st, &ShardError{Shard: at.I, Partition: part, Err: cerr}
				}
				st.Next = x.checkpoint(table, at.I, c, secret)
			}
			if err != nil {
				return st, &ShardError{Shard: at.I, Partition: part, Err: err}
			}
			track.Add(ctx, int64(len(page.Items)))
			if o.progress != nil {
				o.progress(st)
			}
			if page.Next == "" {
				break
			}
			q = q.After(page.Next)
		}
		st.Next = x.checkpoint(table, at.I+1, "", secret)
	}
	st.Next = ""
	track.Finish(ctx, 0)
	return st, nil
}

// place rewrites item v, read on partition part, when it is not on the
// shard the current count gives it; gone reports that it was deleted in
// the meantime. The rewrite is not cancelled with ctx: a write whose
// answer a cancel lost may have been applied, and the checkpoint would
// stand before an item already moved.
func (x *Index[T, S]) place(ctx context.Context, e *keyfirst.Entity[T], client ReshardAPI, part string, v T, opts []func(*keyfirst.Options)) (moved, gone bool, err error) {
	if n, err := x.Shard(v); err == nil && x.parts[n] == part {
		return false, false, nil
	}
	key, err := e.Key(v)
	if err != nil {
		return false, false, err
	}
	// The stored item, read whole, is checked before it is written.
	_, err = e.ModifyE(context.WithoutCancel(ctx), client, key, func(stored *T) error { return x.writtenHere(e, *stored) }, opts...)
	if errors.Is(err, keyfirst.ErrNotFound) {
		return false, true, nil
	}
	return err == nil, false, err
}

// writtenHere refuses an entity that would write v (the stored item, read
// whole) to another shard than x gives it: one bound with another Index's
// Binding (the old shard count), whose rewrites would put the items back
// where they were and count them as moved.
func (x *Index[T, S]) writtenHere(e *keyfirst.Entity[T], v T) error {
	item, err := e.Item(v)
	if err != nil {
		return err
	}
	attr := x.p.Index().PartitionKey[0].Name
	got, ok := item[attr].(*types.AttributeValueMemberS)
	n, err := x.Shard(v)
	if !ok || err != nil || got.Value == x.parts[n] {
		return nil // out of the index, or a Pick error the write reports
	}
	return &ReadError{Index: x.p.IndexName(), Problem: ReadBinding,
		Detail: fmt.Sprintf("entity %s writes %s = %q, this index %q: bind the entity with this Index's Binding (Shards %d)",
			e.Type(), attr, got.Value, x.parts[n], len(x.parts))}
}

// checkpoint is the Checkpoint of a pass on table at shard i, after
// position c, signed with secret (the shard queries' CursorKey) if any.
func (x *Index[T, S]) checkpoint(table string, i int, c query.Cursor, secret []byte) Checkpoint {
	if i >= len(x.read) {
		return ""
	}
	raw, _ := json.Marshal(checkpointPayload{T: table, X: x.p.IndexName(), I: i, P: x.read[i], C: string(c)}) // ints and strings always encode
	return Checkpoint(envelope.Seal(nil, raw, secret))
}

// openCheckpoint decodes c for a pass of this index on table. The table
// is checked here, not only by the query cursor the checkpoint holds: a
// checkpoint at the start of a shard holds none. And c must be the one
// encoding of its payload that checkpoint writes: a field dropped (the
// query cursor, the shard number, which decode as the start of a shard
// or shard 0), added twice, reordered or spaced out is an edit, refused
// unsigned too.
func (x *Index[T, S]) openCheckpoint(table string, c Checkpoint, secret []byte) (checkpointPayload, error) {
	var p checkpointPayload
	if c == "" {
		return p, nil
	}
	if err := envelope.Open(string(c), maxCheckpointLen, secret, &p); err != nil {
		return p, err
	}
	if p.T != table {
		return p, fmt.Errorf("%w: the checkpoint is of a pass on table %q, this one is on table %q", query.ErrCursorMismatch, p.T, table)
	}
	if p.X != x.p.IndexName() || p.I < 0 || p.I >= len(x.read) || p.P != x.read[p.I] {
		return p, fmt.Errorf("%w: the checkpoint is at shard %d (%q) of index %q, this one is %q and reads %d shards (%s..%s)",
			query.ErrCursorMismatch, p.I, p.P, p.X, x.p.IndexName(), len(x.read), x.read[0], x.read[len(x.read)-1])
	}
	if x.checkpoint(table, p.I, query.Cursor(p.C), secret) != c {
		return p, fmt.Errorf("%w: not a checkpoint as a pass writes it (a field missing, repeated or reordered)", query.ErrCursorMalformed)
	}
	return p, nil
}
