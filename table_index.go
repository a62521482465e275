package keyfirst

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/errfmt"
)

// ErrInvalidTableChange: a change of the live table that DynamoDB would
// refuse, or that does not fit the schema ([TableChangeError]). Nothing
// was changed.
var ErrInvalidTableChange = errors.New("keyfirst: invalid table change")

// TableChangeProblem says why a change of the live table is refused.
type TableChangeProblem uint8

// The problems of [TableChangeError].
const (
	ChangePattern       TableChangeProblem = iota + 1 // the zero Pattern, one with an error, the table's own key, or another key than the schema's index of that name
	ChangeUnknownIndex                                // the schema declares no index of that name
	ChangeLocalIndex                                  // an LSI, which DynamoDB creates only with its table
	ChangeTableMissing                                // the table does not exist
	ChangeTooManyGSIs                                 // the table has MaxGSIs GSIs already
	ChangeIndexExists                                 // the table has an index of that name that is not the schema's (see Differences)
	ChangeAttributeType                               // the table defines a key attribute of the index with another type
)

var tableChangeProblemText = map[TableChangeProblem]string{
	ChangePattern:       "invalid pattern",
	ChangeUnknownIndex:  "unknown index",
	ChangeLocalIndex:    "local index after the table's creation",
	ChangeTableMissing:  "table missing",
	ChangeTooManyGSIs:   "too many global secondary indexes",
	ChangeIndexExists:   "index exists with another definition",
	ChangeAttributeType: "attribute defined with another type",
}

// String describes the problem.
func (p TableChangeProblem) String() string { return errfmt.ProblemText(tableChangeProblemText, p) }

// TableChangeError reports a change of the live table refused before it
// was sent: by [Table.AddIndex] before any request when the schema cannot
// make it, and after DescribeTable when the table cannot take it. It wraps
// [ErrInvalidTableChange].
type TableChangeError struct {
	Table     string             // the table's name
	Index     string             // the index concerned
	Attribute string             // the attribute concerned, if any
	Problem   TableChangeProblem // why it is refused
	Detail    string             // what was found and what to do instead
	// Differences are, for [ChangeIndexExists], how the table's index
	// differs from the schema's.
	Differences []Difference
}

// Error describes the refusal with its facts.
func (e *TableChangeError) Error() string {
	detail := e.Detail
	for _, d := range e.Differences {
		detail += "; " + d.String()
	}
	return errfmt.Describe(ErrInvalidTableChange, e.Problem.String(), detail,
		"table", e.Table, "index", e.Index, "attribute", e.Attribute)
}

// Unwrap returns [ErrInvalidTableChange].
func (e *TableChangeError) Unwrap() error { return ErrInvalidTableChange }

// AddIndex creates on the live table the GSI that the schema declares for
// the pattern index and that the table lacks, and waits until DynamoDB has
// built it: ACTIVE, with the items the table held before backfilled. Only
// ctx bounds the wait (DescribeTable polled with backoff); a context that
// ends stops it at once, with an error that wraps ctx.Err(), while
// DynamoDB goes on building the index (a later AddIndex waits for it).
//
// DynamoDB indexes an item when it carries the index's key attributes. An
// index whose keys are attributes the items have already (a native
// multi-attribute key over fields of T) is complete once AddIndex returns.
// One whose keys keyfirst derives (a composite sort key, a membership condition, a
// shard suffix) holds the items written since the entity binds its
// pattern, and none stored before: run the backfill of package migrate
// after it (see its "Changing a key design").
//
// It refuses with a [*TableChangeError], before any request, what the
// schema cannot make: a pattern that is not one of a GSI the schema
// declares, an LSI (DynamoDB creates those only with the table). After
// DescribeTable, and before UpdateTable, it refuses what the table cannot
// take: a missing table, [MaxGSIs] GSIs already, a key attribute the table
// defines with another type, an index of that name that does not serve
// the schema's (another kind, key or a projection that holds less: the
// Differences say which). An index that serves the schema's already (the
// same, or one that projects more) is not an error: AddIndex waits until
// it is built, sends no UpdateTable, and returns nil, so a deployment
// script can run it again.
//
// The index takes the schema's projection and, on a PROVISIONED table, the
// schema's throughput (the table's own when the schema declares
// PAY_PER_REQUEST).
func (t *Table) AddIndex(ctx context.Context, client TableAddIndexAPI, index PatternRef) error {
	ix, err := t.addable(index)
	if err != nil {
		return err
	}
	refuse := func(p TableChangeProblem, attr, detail string, diffs ...Difference) error {
		return &TableChangeError{Table: t.name, Index: ix.IndexName, Attribute: attr, Problem: p, Detail: detail, Differences: diffs}
	}
	desc, err := describe(ctx, client, t, "Table.AddIndex")
	switch {
	case err != nil:
		return err
	case desc == nil:
		return refuse(ChangeTableMissing, "", "create the table with Table.Create, which creates every index")
	}
	if diffs, exists := t.existingIndex(desc, ix); exists {
		if slices.ContainsFunc(diffs, func(d Difference) bool { return d.Severity == SeverityError }) {
			return refuse(ChangeIndexExists, "", "an index cannot change: declare it as it is, or give the new one another name", diffs...)
		}
		return t.awaitIndex(ctx, client, ix.IndexName)
	}
	if n := len(desc.GlobalSecondaryIndexes); n >= MaxGSIs {
		return refuse(ChangeTooManyGSIs, "", fmt.Sprintf("the table has %d GSIs, DynamoDB's default quota is %d: retire one first", n, MaxGSIs))
	}
	in := &dynamodb.UpdateTableInput{TableName: aws.String(t.name)}
	for _, a := range ix.Attributes() {
		for _, d := range desc.AttributeDefinitions {
			if aws.ToString(d.AttributeName) == a.Name && d.AttributeType != a.Type {
				return refuse(ChangeAttributeType, a.Name, fmt.Sprintf("the table defines it as %s, the index as %s: one attribute has one type in every key", d.AttributeType, a.Type))
			}
		}
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String(a.Name), AttributeType: a.Type})
	}
	create := &types.CreateGlobalSecondaryIndexAction{
		IndexName:  aws.String(ix.IndexName),
		KeySchema:  keySchemaElements(ix),
		Projection: projection(ix.Projection),
	}
	onDemand := desc.BillingModeSummary != nil && desc.BillingModeSummary.BillingMode == types.BillingModePayPerRequest
	switch tp := desc.ProvisionedThroughput; {
	case onDemand:
	case t.throughput != nil:
		create.ProvisionedThroughput = t.provisioned()
	case tp != nil:
		create.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(aws.ToInt64(tp.ReadCapacityUnits)),
			WriteCapacityUnits: aws.Int64(aws.ToInt64(tp.WriteCapacityUnits))}
	}
	in.GlobalSecondaryIndexUpdates = []types.GlobalSecondaryIndexUpdate{{Create: create}}
	if _, err := SendExplained(ctx, t, Request{Call: "Table.AddIndex", Input: in},
		func(ctx context.Context) (*dynamodb.UpdateTableOutput, error) { return client.UpdateTable(ctx, in) },
		failedAs[*dynamodb.UpdateTableOutput]("keyfirst: UpdateTable %s: create index %s", t.name, ix.IndexName)); err != nil {
		return err
	}
	return t.awaitIndex(ctx, client, ix.IndexName)
}

// addable returns the schema's GSI of the pattern index, or the reason it
// cannot be added.
func (t *Table) addable(index PatternRef) (KeySchema, error) {
	refuse := func(name string, p TableChangeProblem, detail string) (KeySchema, error) {
		return KeySchema{}, &TableChangeError{Table: t.name, Index: name, Problem: p, Detail: detail}
	}
	var p *pattern
	if index != nil {
		p = index.ID().p
	}
	switch {
	case p == nil:
		return refuse("", ChangePattern, "the zero Pattern: give the OnIndex pattern of the index to add")
	case p.err != nil:
		return refuse(p.index, ChangePattern, p.err.Error())
	case p.index == "":
		return refuse("", ChangePattern, "the table's own key: give the OnIndex pattern of the index to add")
	}
	ks, ok := t.index(p.index)
	switch {
	case !ok:
		return refuse(p.index, ChangeUnknownIndex, fmt.Sprintf("the schema's indexes are %v: declare it in TableSpec.GSIs first", t.indexNames()))
	case ks.Kind == LocalIndex:
		return refuse(p.index, ChangeLocalIndex, "DynamoDB creates an LSI only with its table: create a new table with it (Table.Create) and copy the items, or declare a GSI")
	case !slices.Equal(ks.PartitionKey, p.pk.attrs) || !slices.Equal(ks.SortKey, p.sk.attrs):
		return refuse(p.index, ChangePattern, fmt.Sprintf("the pattern's key is %v %v, the schema's index has %v %v: give the pattern the schema declares",
			p.pk.attrs, p.sk.attrs, ks.PartitionKey, ks.SortKey))
	}
	return ks.clone(), nil
}

// existingIndex reports whether the table has an index called as ix and,
// if so, how it differs from ix (nil: it is ix; notes only: it serves ix).
func (t *Table) existingIndex(desc *types.TableDescription, ix KeySchema) ([]Difference, bool) {
	live, _ := liveIndexes(desc)
	got, ok := live[ix.IndexName]
	if !ok {
		return nil, false
	}
	c := differ{t: t, live: map[string]types.ScalarAttributeType{}, reported: map[string]bool{}}
	for _, d := range desc.AttributeDefinitions {
		c.live[aws.ToString(d.AttributeName)] = d.AttributeType
	}
	if got.kind != ix.Kind {
		c.add(Difference{Kind: DiffIndexKind, Severity: SeverityError, Index: ix.IndexName, Want: ix.Kind.String(), Got: got.kind.String()})
	} else {
		c.key(ix, got.key)
		c.projection(ix, got.projection)
	}
	return c.out, true
}

// awaitIndex waits until the table's GSI called name is built.
func (t *Table) awaitIndex(ctx context.Context, client DescribeTableAPI, name string) error {
	_, err := waitFor(ctx, client, t, "Table.AddIndex", func(desc *types.TableDescription) (bool, error) {
		if desc == nil {
			return false, fmt.Errorf("keyfirst: table %s deleted while its index %s was being built", t.name, name)
		}
		g, ok := findGSI(desc, name)
		switch {
		case !ok, g.IndexStatus == types.IndexStatusDeleting:
			return false, fmt.Errorf("keyfirst: index %s of table %s deleted while being built", name, t.name)
		case g.IndexStatus == types.IndexStatusActive && !building(g):
			return true, nil
		}
		return false, nil
	})
	return err
}
