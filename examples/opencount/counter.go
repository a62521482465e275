package main

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/migrate"
	"github.com/keyfirst/keyfirst/stream"
)

// countPrefix starts the key of a count item.
const countPrefix = "OPENCOUNT#"

// counter keeps the count items of a table.
type counter struct {
	client  *dynamodb.Client
	table   string
	skipped *int // updates refused by a watermark
}

// apply turns an order's transition in OpenOrdersByDate into the updates
// of the counts of its days.
func (k counter) apply(ctx context.Context, c stream.Change[Order]) error {
	switch c.Movement(openByDate.IndexName()) {
	case stream.Entered:
		return k.add(ctx, c.Record, c.New.Day(), 1)
	case stream.Left:
		return k.add(ctx, c.Record, c.Old.Day(), -1)
	case stream.Moved:
		if c.Old.Day() == c.New.Day() {
			return nil
		}
		return errors.Join(k.add(ctx, c.Record, c.Old.Day(), -1), k.add(ctx, c.Record, c.New.Day(), 1))
	}
	return nil
}

// others passes over the counts' own changes, and refuses any other
// record of no entity.
func (counter) others(_ context.Context, e *stream.TypeError) error {
	if pk, ok := e.Record.Keys["PK"].(*types.AttributeValueMemberS); ok && strings.HasPrefix(pk.Value, countPrefix) {
		return nil
	}
	return e
}

// watermark is the name of the watermark of a shard.
func watermark(shard string) string { return "applied_" + shard }

// padded is a sequence number padded to 40 digits: sequence numbers have
// 21 to 40, and padded, their string order is their numeric order.
func padded(seq string) string { return strings.Repeat("0", 40-len(seq)) + seq }

// add adds delta to the day's count, unless the record is at or below the
// item's watermark of its shard: ADD open :delta SET applied_<shard> = :seq,
// if the watermark is absent or lower.
func (k counter) add(ctx context.Context, r stream.Record, day string, delta int) error {
	mark, seq := expression.Name(watermark(r.Shard)), expression.Value(padded(r.SequenceNumber))
	x, err := expression.NewBuilder().
		WithUpdate(expression.Add(expression.Name("open"), expression.Value(delta)).Set(mark, seq)).
		WithCondition(expression.AttributeNotExists(mark).Or(mark.LessThan(seq))).Build()
	if err != nil {
		return err
	}
	_, err = k.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(k.table), Key: k.key(day),
		UpdateExpression: x.Update(), ConditionExpression: x.Condition(), ExpressionAttributeNames: x.Names(), ExpressionAttributeValues: x.Values()})
	var applied *types.ConditionalCheckFailedException
	if errors.As(err, &applied) {
		*k.skipped++
		return nil // delivered again: applied before
	}
	return err
}

// key is the key of the day's count item.
func (counter) key(day string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: countPrefix + day}}
}

// counts reads the count items of days.
func (k counter) counts(ctx context.Context, days []string) (map[string]int, error) {
	out := map[string]int{}
	for _, day := range days {
		got, err := k.client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(k.table), ConsistentRead: aws.Bool(true), Key: k.key(day)})
		if err != nil {
			return nil, err
		}
		if n, ok := got.Item["open"].(*types.AttributeValueMemberN); ok {
			if out[day], err = strconv.Atoi(n.Value); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// wipe deletes the count items of days.
func (k counter) wipe(ctx context.Context, days []string) error {
	for _, day := range days {
		if _, err := k.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(k.table), Key: k.key(day)}); err != nil {
			return err
		}
	}
	return nil
}

// rebuild counts the open orders from scratch, with the consumer stopped
// at from, caught up, while writers may write: a backfill visits every
// order (first is called at the first one: the demo's writers write
// then), and a consumer then reads the stream from `from` to its end, to,
// every order changed since the Scan started taking its last record's new
// image instead of what the Scan read. It writes each day's count with
// the watermarks of to and returns to, the position to resume the
// consumer from, and the number of records of orders read after from.
func (k counter) rebuild(ctx context.Context, streams *dynamodbstreams.Client, orders *keyfirst.Entity[Order],
	from stream.Checkpoint, first func() error) (to stream.Checkpoint, records int, err error) {
	var mu sync.Mutex
	open := map[string]string{} // id -> day of the open orders
	var once sync.Once
	visit := func(_ context.Context, _ int, o Order) (err error) {
		once.Do(func() { err = first() })
		mu.Lock()
		defer mu.Unlock()
		if o.IsOpen() {
			open[o.ID] = o.Day()
		}
		return err
	}
	b := &migrate.Backfill{Name: "opencount-rebuild", Table: orders.Table(), Entities: []migrate.Target{migrate.Visit(orders, visit)}, Segments: 1, PageSize: 10}
	if _, err := b.Run(ctx, k.client); err != nil {
		return to, 0, err
	}
	since, err := stream.NewRouter(orders.Table(), stream.Otherwise(k.others), stream.On(orders, func(_ context.Context, c stream.Change[Order]) error {
		records++
		switch {
		case c.New == nil: // removed
			delete(open, c.Old.ID)
		case c.New.IsOpen():
			open[c.New.ID] = c.New.Day()
		default:
			delete(open, c.New.ID)
		}
		return nil
	}))
	if err != nil {
		return to, 0, err
	}
	if to, err = consume(ctx, k.client, streams, orders.Table(), from, nil, since.HandleBatch); err != nil {
		return to, 0, err
	}
	perDay := map[string]int{}
	for _, day := range open {
		perDay[day]++
	}
	for day, n := range perDay {
		item := k.key(day)
		item["open"] = &types.AttributeValueMemberN{Value: strconv.Itoa(n)}
		for shard, seq := range to.Shards {
			item[watermark(shard)] = &types.AttributeValueMemberS{Value: padded(seq)}
		}
		if _, err := k.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(k.table), Item: item}); err != nil {
			return to, 0, err
		}
	}
	return to, records, nil
}
