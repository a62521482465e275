package keyfirst

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/backoff"
)

// DynamoDB's batch sizes.
const (
	MaxBatchGet   = 100 // keys per BatchGetItem request
	MaxBatchWrite = 25  // requests per BatchWriteItem request
)

// keyPair identifies an item of the table in a batch.
type keyPair struct{ pk, sk keyPart }

// sendChunk sends the requests at the given positions and returns the
// positions DynamoDB left unprocessed.
type sendChunk func(ctx context.Context, chunk []int) (unprocessed []int, err error)

// drain sends n requests in chunks of at most size until every one is
// processed. Unprocessed requests go back in the queue; each response that
// leaves some is followed by a backoff delay (exponential, full jitter),
// which a fully processed response resets. It stops when the context ends,
// when a request fails, or after o.MaxAttempts consecutive responses with
// unprocessed requests (0: no limit), and returns the positions not
// processed and the reason.
func drain(ctx context.Context, o Options, n, size int, send sendChunk) (left []int, err error) {
	pending := make([]int, n)
	for i := range pending {
		pending[i] = i
	}
	policy := o.backoff()
	rounds := 0
	for len(pending) > 0 {
		if err := ctx.Err(); err != nil {
			return pending, err
		}
		chunk := pending[:min(size, len(pending))]
		unprocessed, err := send(ctx, chunk)
		if err != nil {
			return pending, err
		}
		pending = append(pending[len(chunk):len(pending):len(pending)], unprocessed...)
		if len(unprocessed) == 0 {
			rounds = 0
			continue
		}
		rounds++
		if o.MaxAttempts > 0 && rounds >= o.MaxAttempts {
			return pending, nil
		}
		if err := backoff.Sleep(ctx, policy.Delay(rounds-1)); err != nil {
			return pending, err
		}
	}
	return nil, nil
}

// pairOf reads the primary key of an item or a key map.
func (t *Table) pairOf(m map[string]types.AttributeValue) keyPair {
	p := keyPair{pk: partOf(m[t.primary.PartitionKey[0].Name])}
	if t.primary.SortKey != nil {
		p.sk = partOf(m[t.primary.SortKey[0].Name])
	}
	return p
}
