package keyfirst

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Create creates the table of the schema under the name t is bound to
// ([Table.Named]), with its indexes, billing mode and throughput
// ([Table.CreateTableInput]), and waits until the table and every index
// are ACTIVE. Only ctx bounds the wait: DescribeTable is polled with
// exponential backoff and jitter (at most 5 seconds apart), and a context
// that ends stops it at once, with an error that wraps ctx.Err() (the
// table goes on being created; a later Create waits for it).
//
// A table of that name that exists already is not an error when it serves
// the schema: Create waits while it or one of the schema's GSIs is being
// built, compares it ([Table.Check]) and returns the notes (an index the
// schema does not declare, another throughput, ...). So a service, a test
// or a deployment script can call it every time it starts. An existing
// table that differs in a way that breaks the schema's reads or writes
// (another key, a missing index, a projection that holds less) is a
// [*TableDiffError] with every difference; nothing is changed on it. A
// table being deleted is waited for and created again.
//
//	table := keyfirst.Must(Shop.Named(os.Getenv("SHOP_TABLE")))
//	if _, err := table.Create(ctx, client); err != nil {
//		return err
//	}
func (t *Table) Create(ctx context.Context, client TableCreateAPI) ([]Difference, error) {
	for {
		in := t.CreateTableInput()
		_, err := Send(ctx, t, Request{Call: "Table.Create", Input: in},
			func(ctx context.Context) (*dynamodb.CreateTableOutput, error) { return client.CreateTable(ctx, in) })
		var exists *types.ResourceInUseException
		switch {
		case err == nil:
			_, err := waitFor(ctx, client, t, "Table.Create", func(desc *types.TableDescription) (bool, error) {
				if desc == nil {
					return false, nil // not visible yet
				}
				return t.created(desc)
			})
			if err != nil || t.ttl == "" {
				return nil, err
			}
			return nil, t.enableTTL(ctx, client)
		case !errors.As(err, &exists):
			return nil, fmt.Errorf("keyfirst: CreateTable %s: %w", t.name, err)
		}
		desc, err := waitFor(ctx, client, t, "Table.Create", t.settled)
		if err != nil {
			return nil, err
		}
		if desc != nil {
			return t.compare(ctx, client, "Table.Create", desc)
		}
		// Deleted while we waited: create it.
	}
}

// created reports whether the table Create created is ACTIVE with every
// GSI built.
func (t *Table) created(desc *types.TableDescription) (bool, error) {
	switch desc.TableStatus {
	case types.TableStatusActive:
	case types.TableStatusCreating, types.TableStatusUpdating:
		return false, nil
	default:
		return false, fmt.Errorf("keyfirst: table %s is %s while being created", t.name, desc.TableStatus)
	}
	for _, g := range desc.GlobalSecondaryIndexes {
		if g.IndexStatus != types.IndexStatusActive || building(g) {
			return false, nil
		}
	}
	return true, nil
}

// settled reports whether a table that existed before Create can be
// compared: gone (deleted meanwhile), or neither being created nor being
// deleted, with none of the schema's GSIs still being built. The GSIs the
// schema does not declare are not waited for: they are notes.
func (t *Table) settled(desc *types.TableDescription) (bool, error) {
	if desc == nil {
		return true, nil
	}
	switch desc.TableStatus {
	case types.TableStatusCreating, types.TableStatusDeleting:
		return false, nil
	}
	for _, ix := range t.indexes {
		if g, ok := findGSI(desc, ix.IndexName); ok && ix.Kind == GlobalIndex && building(g) {
			return false, nil
		}
	}
	return true, nil
}

// enableTTL enables the schema's time to live on the table Create created.
func (t *Table) enableTTL(ctx context.Context, client UpdateTimeToLiveAPI) error {
	in := &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(t.name),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String(t.ttl), Enabled: aws.Bool(true)}}
	_, err := SendExplained(ctx, t, Request{Call: "Table.Create", Input: in},
		func(ctx context.Context) (*dynamodb.UpdateTimeToLiveOutput, error) {
			return client.UpdateTimeToLive(ctx, in)
		}, failedAs[*dynamodb.UpdateTimeToLiveOutput]("keyfirst: UpdateTimeToLive %s on %s", t.name, t.ttl))
	if err != nil {
		return err
	}
	return nil
}
