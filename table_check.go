package keyfirst

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Check compares the schema with the live table that t is bound to
// ([Table.Named]): one DescribeTable and one DescribeTimeToLive, then
// [Table.Diff]. A service calls it once at start-up, so that a table that
// lacks an index, has another key or projects less than the schema
// declares stops it at once, rather than failing or, worse, finding
// nothing in every later query; a test calls it through the harness
// (integration.CheckTable).
//
// It returns every difference, errors first. The error is a
// [*TableDiffError] (wrapping [ErrTableDiffers]) when one of them is a
// [SeverityError], with all of them; the notes alone are no error, and are
// worth logging. A request that fails returns its error (wrapping the
// SDK's) and no differences: on AWS, Check needs the permissions
// dynamodb:DescribeTable and dynamodb:DescribeTimeToLive.
//
//	notes, err := table.Check(ctx, client)
//	if err != nil {
//		log.Fatal(err) // a *keyfirst.TableDiffError lists what to fix
//	}
//	for _, n := range notes {
//		log.Print(n)
//	}
func (t *Table) Check(ctx context.Context, client TableCheckAPI) ([]Difference, error) {
	desc, err := describe(ctx, client, t, "Table.Check")
	if err != nil {
		return nil, err
	}
	return t.compare(ctx, client, "Table.Check", desc)
}

// compare reads the TTL setting of the table described by desc (nil: it
// does not exist), for call, and compares both with the schema.
func (t *Table) compare(ctx context.Context, client DescribeTimeToLiveAPI, call string, desc *types.TableDescription) ([]Difference, error) {
	if desc == nil {
		return t.diffResult(t.Diff(nil, nil))
	}
	ttl, err := describeTTL(ctx, client, t, call)
	if err != nil {
		return nil, err
	}
	return t.diffResult(t.Diff(desc, ttl))
}
