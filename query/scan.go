package query

import (
	"context"
	"fmt"
	"iter"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/attrname"
)

// MaxSegments is the largest number of parallel segments of a [Scan], one
// goroutine each.
const MaxSegments = 1000

// ScanAPI is the Scan operation.
type ScanAPI interface {
	Scan(ctx context.Context, in *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
}

var _ ScanAPI = (*dynamodb.Client)(nil)

// Scan reads every item of a secondary index that the schema declares
// Scannable ([keyfirst.Index].Scannable): a sparse index that holds one
// entity type by design, where reading it all is the access pattern
// (seed 000: only customers carry the index key). There is no Scan of a
// table, and an index not declared scannable is refused with
// [ProblemNotScannable] before any request.
//
// Like [Query], a Scan is a value: every method returns a modified copy.
type Scan[T any] struct {
	src *source[T]
	scanSpec
}

// scanSpec is what a scan reads, whatever it decodes into: [ScanView]
// keeps it and changes the decoding.
type scanSpec struct {
	index      string
	segments   int
	segmentsOK bool // Segments was called
	consistent bool
	fromErr    error // a pattern that carries an error or that the entity does not bind
	// dropExpired: WithoutExpired(expiredAt).
	dropExpired bool
	expiredAt   time.Time
}

// ScanOn starts a scan of the index of pattern p, which entity e binds
// and the schema declares Scannable: the index is named by its pattern,
// checked when the entity binds it. Its items decode into T with
// [keyfirst.Entity.Decode] (an item of another type is a [*DecodeError]:
// a write-path bug that put it in the index). The index must project
// every attribute of T, or the scan is refused with [ProblemProjection];
// [ScanView] reads the attributes of one that does not. A pattern of the
// table is refused with [ProblemNotScannable]. optFns apply to every call.
func ScanOn[T, P, S any](e *keyfirst.Entity[T], p keyfirst.Pattern[P, S], optFns ...func(*keyfirst.Options)) Scan[T] {
	s := Scan[T]{scanSpec: scanSpec{index: p.IndexName()}}
	if e == nil {
		return s
	}
	s.src = entitySource(e, optFns)
	switch {
	case p.Err() != nil:
		s.fromErr = p.Err()
	case !e.Binds(p.ID()):
		s.fromErr = fmt.Errorf("entity %s does not bind pattern %s: add it to EntitySpec.Keys", e.Type(), p)
	}
	return s
}

// Segments reads the index in n parallel segments (1 to [MaxSegments]; 1
// by default), one goroutine each.
func (s Scan[T]) Segments(n int) Scan[T] {
	s.segments, s.segmentsOK = n, true
	return s
}

// ConsistentRead asks for strongly consistent reads: refused on a global
// secondary index ([ProblemConsistentRead]).
func (s Scan[T]) ConsistentRead() Scan[T] {
	s.consistent = true
	return s
}

// WithoutExpired drops, after the read, the items that have expired at
// now, as [Query.WithoutExpired] does: no filter expression is sent, and
// the dropped items cost what any item read costs (the capacity reported
// includes them). A scan has no Limit and no page, so it reads to the
// end as ever and yields the items that have not expired. It needs a
// scan of one entity that declares an expiry, decoded whole
// ([ProblemExpired] otherwise; a [ScanView] is refused).
func (s Scan[T]) WithoutExpired(now time.Time) Scan[T] {
	s.dropExpired, s.expiredAt = true, now
	return s
}

// scanPlan is a checked scan.
type scanPlan struct {
	plan
	segments int
	input    dynamodb.ScanInput
}

// plan checks the scan and builds its request template.
func (s Scan[T]) plan(optFns []func(*keyfirst.Options)) (*scanPlan, error) {
	if s.src == nil {
		return nil, &Error{Index: s.index, Problem: ProblemSource, Detail: "start the scan with query.ScanOn(entity, pattern), with a non-nil entity"}
	}
	t := s.src.table
	f := failer{table: t.Name(), index: s.index}
	p := &scanPlan{plan: plan{table: t.Name(), index: s.index, bound: t, entity: s.src.entityType(), readIndex: &readIndex{}}, segments: 1}
	o, err := resolve("Scan", p.table, p.index, s.src.opts, optFns)
	if err != nil {
		return nil, err
	}
	p.opts = &o
	if p.opts.Next != nil || p.opts.CursorKey != nil {
		return nil, f.fail("", ProblemOption, "a Scan has no cursor: drop WithNext and WithCursorKey",
			&keyfirst.OptionError{Op: "Scan", Option: "WithNext/WithCursorKey", Detail: "a Scan has no cursor"})
	}
	if s.fromErr != nil {
		return nil, f.fail("", ProblemPattern, "", s.fromErr)
	}
	if s.index == "" {
		return nil, f.fail("", ProblemNotScannable,
			"a Scan of the table reads every item of every type: query a key, or declare a sparse index Scannable and scan it", nil)
	}
	ks, err := t.Index(s.index)
	if err != nil {
		return nil, f.fail("", ProblemIndex, indexNames(t), err)
	}
	if !ks.Scannable {
		return nil, f.fail("", ProblemNotScannable,
			"the schema does not declare the index Scannable (a sparse index of one entity type); query it by key instead", nil)
	}
	if s.segmentsOK {
		if s.segments < 1 || s.segments > MaxSegments {
			return nil, f.fail("", ProblemSegments, fmt.Sprintf("Segments(%d): use 1 to %d", s.segments, MaxSegments), nil)
		}
		p.segments = s.segments
	}
	if s.consistent && !ks.ConsistentReadAllowed() {
		return nil, f.fail("", ProblemConsistentRead, "a GSI is eventually consistent only: drop ConsistentRead", nil)
	}
	p.keyAttrs = keyAttributes(t, ks)
	names, d, err := s.src.reads.check(f, t, ks, p.keyAttrs)
	if err != nil {
		return nil, err
	}
	p.decoding = d
	if s.dropExpired {
		if p.expired, err = s.src.expiredFunc(f, d, s.expiredAt); err != nil {
			return nil, err
		}
	}
	p.input = dynamodb.ScanInput{
		TableName:              aws.String(p.table),
		IndexName:              aws.String(p.index),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
	}
	if names != nil {
		x, err := expression.NewBuilder().WithProjection(attrname.Projection(names)).Build()
		if err != nil {
			// Unreachable with checked names; kept as a typed error.
			return nil, f.fail("", ProblemProjection, "the expression package refused the projection", err)
		}
		p.input.ProjectionExpression = x.Projection()
		p.input.ExpressionAttributeNames = attrname.Names(x)
	}
	if s.consistent {
		p.input.ConsistentRead = aws.Bool(true)
	}
	if p.segments > 1 {
		p.input.TotalSegments = aws.Int32(int32(p.segments))
	}
	return p, nil
}

// scanFetch sends the Scan requests of one segment with client.
func (p *scanPlan) scanFetch(client ScanAPI, segment int) fetch {
	return func(ctx context.Context, n int, start item, _ int) (response, error) {
		in := p.input
		in.ExclusiveStartKey = start
		if p.segments > 1 {
			in.Segment = aws.Int32(int32(segment))
		}
		out, err := keyfirst.SendExplained(ctx, p.bound, keyfirst.Request{Call: "query.Scan", Entity: p.entity, Seq: n, Segment: segment, Input: &in},
			func(ctx context.Context) (*dynamodb.ScanOutput, error) { return client.Scan(ctx, &in) },
			func(_ *dynamodb.ScanOutput, err error) error {
				if err != nil {
					return &RequestError{Op: "Scan", Table: p.table, Index: p.index, Segment: segment, Request: n, Err: err}
				}
				return nil
			})
		if err != nil {
			return response{}, err
		}
		return response{items: out.Items, last: out.LastEvaluatedKey, capacity: out.ConsumedCapacity}, nil
	}
}

// batch is one response of a segment, or the error that ended it.
type batch struct {
	items    []item
	capacity *types.ConsumedCapacity
	err      error
}

// All returns an iterator over every item of the index. The segments run
// in parallel, each in its own goroutine, and the items arrive in no
// particular order. Breaking out of the loop, or the end of ctx, stops
// every segment; All's iteration returns only after all of them have.
//
// The iterator is single-use: ranging over it a second time yields
// [ErrReused]. Errors are yielded with the zero T and end the iteration:
// first the scan's [*Error] (before any request), then the first
// [*RequestError] of any segment, or a [*DecodeError]. [keyfirst.WithCapacity]
// receives the capacity of every request, on the iterating goroutine.
func (s Scan[T]) All(ctx context.Context, client ScanAPI, optFns ...func(*keyfirst.Options)) iter.Seq2[T, error] {
	return s.all(ctx, client, optFns, nil)
}

// all is [Scan.All]; with c set, the items are appended to c instead of
// yielded (see [Query.all]).
func (s Scan[T]) all(ctx context.Context, client ScanAPI, optFns []func(*keyfirst.Options), c *collector[T]) iter.Seq2[T, error] {
	build := func() (*scanPlan, error) { return s.plan(optFns) }
	return singleUse(build, client == nil, func(p *scanPlan, yield func(T, error) bool) {
		var zero T
		ctx, cancel := context.WithCancel(ctx)
		batches := make(chan batch)
		var wg sync.WaitGroup
		for seg := range p.segments {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Every segment ends with its error, if any, sent without
				// condition: the deferred drain below receives it when the
				// loop has stopped.
				var stopped error
				_, err := pages(ctx, p.scanFetch(client, seg), nil, 0, false,
					func(items []item, cc *types.ConsumedCapacity) (int, int, bool) {
						select {
						case batches <- batch{items: items, capacity: cc}:
							return len(items), len(items), false
						case <-ctx.Done():
							stopped = context.Cause(ctx)
							return 0, 0, true
						}
					})
				if err == nil {
					err = stopped
				}
				if err != nil {
					batches <- batch{err: err}
				}
			}()
		}
		go func() {
			wg.Wait()
			close(batches)
		}()
		defer func() {
			cancel()
			for range batches { // until every segment has returned
			}
		}()
		for b := range batches {
			addCapacity(b.capacity, p.opts.Capacity)
			if b.err != nil {
				yield(zero, b.err)
				return
			}
			out := c.grown(len(b.items))
			var v T // the item to yield, when not collecting
			for _, it := range b.items {
				if p.expired != nil && p.expired(it) {
					continue
				}
				var err error
				if c != nil {
					out, err = appendItem(out, nil, s.src, it, p.decoding)
				} else {
					err = decodeInto(&v, nil, s.src, it, p.decoding)
				}
				if err != nil {
					c.keep(out)
					yield(zero, p.decodeError("Scan", it, err, false))
					return
				}
				if c == nil && !yield(v, nil) {
					return
				}
			}
			c.keep(out)
		}
	})
}

// Collect reads every item of the index into a slice, as [Scan.All] does.
// On an error it returns the items read before it. The slice grows once
// per response, by the response's items.
func (s Scan[T]) Collect(ctx context.Context, client ScanAPI, optFns ...func(*keyfirst.Options)) ([]T, error) {
	var c collector[T]
	return c.collect(s.all(ctx, client, optFns, &c))
}
