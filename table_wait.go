package keyfirst

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/backoff"
)

// tablePoll is the backoff between two DescribeTable requests of a wait:
// a table on DynamoDB Local is ACTIVE at once, one on AWS in seconds, a
// GSI of a large table in minutes or hours; only the context bounds it.
var tablePoll = backoff.Policy{Base: 100 * time.Millisecond, Max: 5 * time.Second}

// describe returns the description of table t, nil when it does not
// exist, from a DescribeTable sent (through t's [Observer]) for call.
func describe(ctx context.Context, api DescribeTableAPI, t *Table, call string) (*types.TableDescription, error) {
	in := &dynamodb.DescribeTableInput{TableName: aws.String(t.name)}
	out, err := SendExplained(ctx, t, Request{Call: call, Input: in},
		func(ctx context.Context) (*dynamodb.DescribeTableOutput, error) { return api.DescribeTable(ctx, in) },
		func(out *dynamodb.DescribeTableOutput, err error) error {
			var missing *types.ResourceNotFoundException
			switch {
			case errors.As(err, &missing):
				return nil // the answer: no such table
			case err != nil:
				return fmt.Errorf("keyfirst: DescribeTable %s: %w", t.name, err)
			case out.Table == nil:
				return fmt.Errorf("keyfirst: DescribeTable %s: no description in the response", t.name)
			}
			return nil
		})
	if err != nil || out == nil {
		return nil, err
	}
	return out.Table, nil
}

// describeTTL returns the time-to-live setting of table t, from a
// DescribeTimeToLive sent (through t's [Observer]) for call.
func describeTTL(ctx context.Context, api DescribeTimeToLiveAPI, t *Table, call string) (*types.TimeToLiveDescription, error) {
	in := &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(t.name)}
	out, err := SendExplained(ctx, t, Request{Call: call, Input: in},
		func(ctx context.Context) (*dynamodb.DescribeTimeToLiveOutput, error) {
			return api.DescribeTimeToLive(ctx, in)
		},
		failedAs[*dynamodb.DescribeTimeToLiveOutput]("keyfirst: DescribeTimeToLive %s", t.name))
	if err != nil {
		return nil, err
	}
	if out.TimeToLiveDescription == nil {
		return &types.TimeToLiveDescription{}, nil
	}
	return out.TimeToLiveDescription, nil
}

// failedAs is the explain step ([SendExplained]) of a control-plane
// request whose failure is the SDK's error said to be that of the request
// format names (with args): the error the call returns, and its observer
// is shown.
func failedAs[Out any](format string, args ...any) func(Out, error) error {
	return func(_ Out, err error) error {
		if err == nil {
			return nil
		}
		return fmt.Errorf(format+": %w", append(args, err)...)
	}
}

// waitFor describes table t for call, with backoff between requests, until done
// says its description (nil: the table does not exist) is what the
// caller waits for, done fails, or ctx ends; it returns that description.
func waitFor(ctx context.Context, api DescribeTableAPI, t *Table, call string, done func(*types.TableDescription) (bool, error)) (*types.TableDescription, error) {
	name := t.name
	for attempt := 0; ; attempt++ {
		desc, err := describe(ctx, api, t, call)
		if err != nil {
			return nil, err
		}
		if ok, err := done(desc); ok || err != nil {
			return desc, err
		}
		if err := backoff.Sleep(ctx, tablePoll.Delay(attempt)); err != nil {
			return nil, fmt.Errorf("keyfirst: waiting for table %s: %w", name, err)
		}
	}
}

// building reports whether DynamoDB is still building the GSI: CREATING,
// or ACTIVE while it backfills the items the table held before.
func building(g types.GlobalSecondaryIndexDescription) bool {
	return g.IndexStatus == types.IndexStatusCreating || aws.ToBool(g.Backfilling)
}

// findGSI returns the table's GSI called name.
func findGSI(desc *types.TableDescription, name string) (types.GlobalSecondaryIndexDescription, bool) {
	for _, g := range desc.GlobalSecondaryIndexes {
		if aws.ToString(g.IndexName) == name {
			return g, true
		}
	}
	return types.GlobalSecondaryIndexDescription{}, false
}
