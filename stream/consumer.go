package stream

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streams "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/keyfirst/keyfirst"
)

// StreamsAPI is what a [Consumer] needs of DynamoDB Streams, which
// *dynamodbstreams.Client satisfies.
type StreamsAPI interface {
	DescribeStream(ctx context.Context, in *dynamodbstreams.DescribeStreamInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.DescribeStreamOutput, error)
	GetShardIterator(ctx context.Context, in *dynamodbstreams.GetShardIteratorInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetShardIteratorOutput, error)
	GetRecords(ctx context.Context, in *dynamodbstreams.GetRecordsInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error)
}

var _ StreamsAPI = (*dynamodbstreams.Client)(nil)

// Options configure a [Consumer]; the zero value is valid.
type Options struct {
	// Resume is the position to resume from; the zero Checkpoint starts at
	// the oldest record the stream keeps (TRIM_HORIZON).
	Resume Checkpoint
	// Save, if set, is called with the checkpoint after each batch is
	// handled (and after each shard ends); an error stops the consumer.
	Save func(context.Context, Checkpoint) error
	// Poll is the wait after a round over the shards that found no
	// record (default 1s); [Consumer.CaughtUp] ends it at once.
	Poll time.Duration
	// Limit is the number of records of one GetRecords (default and
	// maximum 1000).
	Limit int32
}

// Consumer reads a table's stream through the DynamoDB Streams API: every
// shard, a shard's parent before it, each shard's records in order (so each
// item's changes in order), one batch (one GetRecords) at a time. After a
// batch is handled it moves its [Checkpoint] on, so a consumer started
// from a saved checkpoint resumes where the last one left off; delivery is
// at least once, the sequence number being the idempotency key. For tests
// and small services: one process, one goroutine (the caller's), no lease.
type Consumer struct {
	client StreamsAPI
	arn    string
	opts   Options
	table  *keyfirst.Table   // whose Observer sees the requests and the progress
	track  *keyfirst.Tracker // the progress of the round under way

	mu      sync.Mutex
	cp      Checkpoint
	state   runState
	runErr  error
	started uint64        // rounds started
	ended   uint64        // rounds ended
	changed chan struct{} // closed and replaced at every change of the above
	wake    chan struct{}
	iters   map[string]string // open shard iterators, by shard
}

type runState uint8

const (
	notRun runState = iota
	running
	stopped
)

// NewConsumer returns the consumer of the stream of the live table that
// table is bound to. It describes the table (DescribeTable) and refuses,
// before reading any record, a schema that does not declare a stream of
// both images ([keyfirst.TableSpec.Stream]: [ErrStreamView]) and a table
// that differs from its schema ([keyfirst.Table.Diff]'s errors, in a
// [*keyfirst.TableDiffError]: among them a stream missing or without both
// images), and a checkpoint of another stream ([ErrCheckpoint]).
func NewConsumer(ctx context.Context, db keyfirst.DescribeTableAPI, client StreamsAPI, table *keyfirst.Table, optFns ...func(*Options)) (*Consumer, error) {
	var o Options
	for _, f := range optFns {
		f(&o)
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.Limit <= 0 || o.Limit > 1000 {
		o.Limit = 1000
	}
	if v := table.StreamView(); v != types.StreamViewTypeNewAndOldImages {
		return nil, fmt.Errorf("%w: the schema of table %q declares stream view %q; declare NEW_AND_OLD_IMAGES (keyfirst.TableSpec.Stream)", ErrStreamView, table.Name(), v)
	}
	in := &dynamodb.DescribeTableInput{TableName: aws.String(table.Name())}
	out, err := keyfirst.SendExplained(ctx, table, keyfirst.Request{Call: "stream.NewConsumer", Input: in},
		func(ctx context.Context) (*dynamodb.DescribeTableOutput, error) { return db.DescribeTable(ctx, in) },
		func(_ *dynamodb.DescribeTableOutput, err error) error {
			if err != nil {
				return fmt.Errorf("stream: describe table %q: %w", table.Name(), err)
			}
			return nil
		})
	if err != nil {
		return nil, err
	}
	diffs := table.Diff(out.Table, nil)
	for _, d := range diffs {
		if d.Severity == keyfirst.SeverityError {
			return nil, &keyfirst.TableDiffError{Table: table.Name(), Differences: diffs}
		}
	}
	arn := aws.ToString(out.Table.LatestStreamArn)
	if o.Resume.Stream != "" && o.Resume.Stream != arn {
		return nil, fmt.Errorf("%w: checkpoint of %q, the table's stream is %q", ErrCheckpoint, o.Resume.Stream, arn)
	}
	cp := o.Resume.Clone()
	cp.Stream = arn
	if cp.Shards == nil {
		cp.Shards = map[string]string{}
	}
	return &Consumer{client: client, arn: arn, opts: o, table: table, cp: cp, changed: make(chan struct{}), wake: make(chan struct{}, 1), iters: map[string]string{}}, nil
}

// StreamARN returns the ARN of the stream the consumer reads.
func (c *Consumer) StreamARN() string { return c.arn }

// Checkpoint returns the consumer's position: the records handled so far.
func (c *Consumer) Checkpoint() Checkpoint {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cp.Clone()
}

// Run reads the stream and passes each batch of records (the records of
// one GetRecords of one shard, in order) to batch, until ctx ends (it
// returns ctx.Err() at once: every request and wait takes ctx), batch or
// [Options.Save] returns an error (returned), or a record is bad (a
// [*RecordError]). A batch that fails is not checkpointed: a consumer
// resumed from the checkpoint receives it again. [Router.HandleBatch] is a
// batch function. A consumer runs once ([ErrRunning]).
func (c *Consumer) Run(ctx context.Context, batch func(context.Context, []Record) error) (err error) {
	c.mu.Lock()
	if c.state != notRun {
		c.mu.Unlock()
		return ErrRunning
	}
	c.state = running
	c.notify()
	c.mu.Unlock()
	defer func() {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		c.mu.Lock()
		c.state, c.runErr = stopped, err
		c.notify()
		c.mu.Unlock()
	}()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		c.mu.Lock()
		c.started++
		c.notify()
		c.mu.Unlock()
		found, err := c.round(ctx, batch)
		if err != nil {
			return err
		}
		c.mu.Lock()
		c.ended++
		c.notify()
		c.mu.Unlock()
		if found {
			continue
		}
		timer := time.NewTimer(c.opts.Poll)
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-c.wake:
			timer.Stop()
		case <-timer.C:
		}
	}
}

// notify wakes the waiters of [Consumer.CaughtUp]; c.mu is held.
func (c *Consumer) notify() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// CaughtUp returns once the consumer has read, to their current ends, every
// shard of the stream as it was when CaughtUp was called: a round over
// the shards that started after the call has ended (CaughtUp starts it at
// once, without waiting for the poll). A test writes, calls CaughtUp, and
// then finds every change of its writes handled, without sleeping: on
// DynamoDB Local a write's record is in the stream when the write returns;
// on AWS it may take longer to appear. It returns the consumer's error if
// Run ends first, and ctx.Err() if ctx ends first; called before Run, it
// waits for Run.
func (c *Consumer) CaughtUp(ctx context.Context) error {
	c.mu.Lock()
	target := c.started + 1
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
	for {
		c.mu.Lock()
		ended, state, runErr, changed := c.ended, c.state, c.runErr, c.changed
		c.mu.Unlock()
		switch {
		case ended >= target:
			return nil
		case state == stopped && runErr != nil:
			return runErr
		case state == stopped:
			return ErrRunning
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// round reads every shard that is ready (its parent done, or no longer
// listed) to its current end, children after their parents, and reports
// whether it found any record.
func (c *Consumer) round(ctx context.Context, batch func(context.Context, []Record) error) (found bool, err error) {
	c.track = c.table.Track("stream.Consumer", 0) // the records of the round, reported as they are handled
	defer func() {
		if found && err == nil {
			c.track.Finish(ctx, 0)
		}
	}()
	shards, err := c.shards(ctx)
	if err != nil {
		return false, err
	}
	listed := make(map[string]bool, len(shards))
	for _, s := range shards {
		listed[aws.ToString(s.ShardId)] = true
	}
	for progress := true; progress; {
		progress = false
		for _, s := range shards {
			id, parent := aws.ToString(s.ShardId), aws.ToString(s.ParentShardId)
			c.mu.Lock()
			ready := !c.cp.done(id) && (parent == "" || !listed[parent] || c.cp.done(parent))
			c.mu.Unlock()
			if !ready {
				continue
			}
			ended, n, err := c.drain(ctx, id, batch)
			if err != nil {
				return false, err
			}
			found = found || n > 0
			if ended {
				progress = true
				c.mu.Lock()
				c.cp.finish(id)
				c.cp.prune(listed)
				c.mu.Unlock()
				if err := c.save(ctx); err != nil {
					return false, err
				}
			}
		}
	}
	return found, nil
}

// shards lists the stream's shards, every page of DescribeStream.
func (c *Consumer) shards(ctx context.Context) ([]streams.Shard, error) {
	var out []streams.Shard
	in := &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(c.arn)}
	for {
		page, err := keyfirst.SendExplained(ctx, c.table, keyfirst.Request{Call: "stream.Consumer", Input: in},
			func(ctx context.Context) (*dynamodbstreams.DescribeStreamOutput, error) {
				return c.client.DescribeStream(ctx, in)
			}, func(_ *dynamodbstreams.DescribeStreamOutput, err error) error {
				return wrap(err, "stream: describe stream", "")
			})
		if err != nil {
			return nil, err
		}
		out = append(out, page.StreamDescription.Shards...)
		if page.StreamDescription.LastEvaluatedShardId == nil {
			return out, nil
		}
		in.ExclusiveStartShardId = page.StreamDescription.LastEvaluatedShardId
	}
}

// drain reads the shard until a GetRecords returns no record (an open
// shard) or no next iterator (a closed shard, then ended), handing each
// batch to batch and checkpointing it.
func (c *Consumer) drain(ctx context.Context, shard string, batch func(context.Context, []Record) error) (ended bool, n int, err error) {
	renewed := false
	for {
		it, err := c.iterator(ctx, shard)
		if err != nil {
			return false, n, err
		}
		in := &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String(it), Limit: aws.Int32(c.opts.Limit)}
		out, err := keyfirst.SendExplained(ctx, c.table, keyfirst.Request{Call: "stream.Consumer", Input: in},
			func(ctx context.Context) (*dynamodbstreams.GetRecordsOutput, error) {
				return c.client.GetRecords(ctx, in)
			}, func(_ *dynamodbstreams.GetRecordsOutput, err error) error {
				return wrap(err, "stream: get records of shard", shard)
			})
		if renewable(err) && !renewed {
			delete(c.iters, shard) // a new one from the checkpoint
			renewed = true
			continue
		}
		if err != nil {
			return false, n, err
		}
		renewed = false
		if len(out.Records) > 0 {
			records := make([]Record, len(out.Records))
			for i, r := range out.Records {
				if records[i], err = FromStreams(c.arn, r); err != nil {
					return false, n, err
				}
				records[i].Shard = shard
			}
			if err := batch(ctx, records); err != nil {
				return false, n, err
			}
			n += len(records)
			c.track.Add(ctx, int64(len(records)))
			c.mu.Lock()
			c.cp.Shards[shard] = records[len(records)-1].SequenceNumber
			c.mu.Unlock()
			if err := c.save(ctx); err != nil {
				return false, n, err
			}
		}
		if out.NextShardIterator == nil {
			delete(c.iters, shard)
			return true, n, nil
		}
		c.iters[shard] = aws.ToString(out.NextShardIterator)
		if len(out.Records) == 0 {
			return false, n, nil
		}
	}
}

// iterator returns the shard's open iterator, or a new one after the
// checkpoint's sequence number (at the oldest record without one).
func (c *Consumer) iterator(ctx context.Context, shard string) (string, error) {
	if it, ok := c.iters[shard]; ok {
		return it, nil
	}
	in := &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(c.arn), ShardId: aws.String(shard), ShardIteratorType: streams.ShardIteratorTypeTrimHorizon}
	c.mu.Lock()
	seq, ok := c.cp.Shards[shard]
	c.mu.Unlock()
	if ok {
		in.ShardIteratorType, in.SequenceNumber = streams.ShardIteratorTypeAfterSequenceNumber, aws.String(seq)
	}
	out, err := keyfirst.SendExplained(ctx, c.table, keyfirst.Request{Call: "stream.Consumer", Input: in},
		func(ctx context.Context) (*dynamodbstreams.GetShardIteratorOutput, error) {
			return c.client.GetShardIterator(ctx, in)
		}, func(_ *dynamodbstreams.GetShardIteratorOutput, err error) error {
			return wrap(err, "stream: shard iterator of shard", shard)
		})
	if err != nil {
		return "", err
	}
	c.iters[shard] = aws.ToString(out.ShardIterator)
	return c.iters[shard], nil
}

// renewable reports whether err, of a GetRecords, is cured by a new
// iterator from the checkpoint, asked once: an iterator 15 minutes old
// (ExpiredIteratorException), or one that DynamoDB Local says points past
// the oldest record of a shard it took before the table's first write
// (TrimmedDataAccessException, aws/aws-sdk-java#2923). A shard truly
// trimmed past the checkpoint fails again, at GetShardIterator, and that
// error is returned: no record is skipped silently.
func renewable(err error) bool {
	var expired *streams.ExpiredIteratorException
	var trimmed *streams.TrimmedDataAccessException
	return errors.As(err, &expired) || errors.As(err, &trimmed)
}

// wrap is the explain step of a stream request: its error (nil: nil),
// said to be that of what (of shard, when not empty).
func wrap(err error, what, shard string) error {
	switch {
	case err == nil:
		return nil
	case shard != "":
		return fmt.Errorf("%s %s: %w", what, shard, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

func (c *Consumer) save(ctx context.Context) error {
	if c.opts.Save == nil {
		return nil
	}
	return c.opts.Save(ctx, c.Checkpoint())
}
