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

// describe returns the table's description, nil when it does not exist.
func describe(ctx context.Context, api DescribeTableAPI, name string) (*types.TableDescription, error) {
	out, err := api.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	var missing *types.ResourceNotFoundException
	switch {
	case errors.As(err, &missing):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("keyfirst: DescribeTable %s: %w", name, err)
	case out.Table == nil:
		return nil, fmt.Errorf("keyfirst: DescribeTable %s: no description in the response", name)
	}
	return out.Table, nil
}

// describeTTL returns the table's time-to-live setting.
func describeTTL(ctx context.Context, api DescribeTimeToLiveAPI, name string) (*types.TimeToLiveDescription, error) {
	out, err := api.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(name)})
	if err != nil {
		return nil, fmt.Errorf("keyfirst: DescribeTimeToLive %s: %w", name, err)
	}
	if out.TimeToLiveDescription == nil {
		return &types.TimeToLiveDescription{}, nil
	}
	return out.TimeToLiveDescription, nil
}

// waitFor describes the table, with backoff between requests, until done
// says its description (nil: the table does not exist) is what the
// caller waits for, done fails, or ctx ends; it returns that description.
func waitFor(ctx context.Context, api DescribeTableAPI, name string, done func(*types.TableDescription) (bool, error)) (*types.TableDescription, error) {
	for attempt := 0; ; attempt++ {
		desc, err := describe(ctx, api, name)
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
