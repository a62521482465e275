package demo

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
)

func TestMain(m *testing.M) { integration.Main(m) }

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

func TestCostString(t *testing.T) {
	t.Parallel()
	for c, want := range map[Cost]string{
		{Requests: 1, Read: 120, Returned: 4, RCU: 3.5}: "1 request, 120 items read, 4 returned, 3.5 RCU",
		{Requests: 4, Read: 1, Returned: 1, RCU: 2}:     "4 requests, 1 item read, 1 returned, 2 RCU",
		{Requests: 1, Writes: 1, WCU: 2}:                "1 request, 2 WCU",
	} {
		if got := c.String(); got != want {
			t.Errorf("%+v: %q, want %q", c, got, want)
		}
	}
}

var kept = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "Kept",
	PartitionKey: keyfirst.StringAttr("PK"), SortKey: keyfirst.StringAttr("SK")}))

// Close deletes the tables Create made; with KEEP=1 (Keep) it keeps them
// and prints their names instead.
func TestCloseDeletesUnlessKeep(t *testing.T) {
	t.Parallel()
	client := integration.Client(t)
	ctx, cancel := integration.Context(t)
	defer cancel()
	exists := func(name string) bool {
		t.Helper()
		_, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		var missing *types.ResourceNotFoundException
		if err != nil && !errors.As(err, &missing) {
			t.Fatal(err)
		}
		return err == nil
	}
	for _, keep := range []bool{false, true} {
		var out bytes.Buffer
		db := New(&out, client)
		table, err := db.Create(ctx, kept)
		if err != nil {
			t.Fatal(err)
		}
		// An error names the table as the requests print it.
		if got, want := db.Error(errors.New("action 1 in "+table.Name())), "action 1 in "+kept.Name(); got != want {
			t.Errorf("Error: %q, want %q", got, want)
		}
		closeCtx := context.Background()
		if keep {
			closeCtx = Keep(closeCtx)
		}
		db.Close(closeCtx, &err)
		if err != nil {
			t.Fatal(err)
		}
		wantOut := ""
		if keep {
			wantOut = "KEEP=1: kept " + table.Name() + " at " + aws.ToString(client.Options().BaseEndpoint) + "\n"
			t.Cleanup(func() {
				_, _ = client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(table.Name())})
			})
		}
		if got := exists(table.Name()); got != keep || out.String() != wantOut {
			t.Errorf("keep=%t: table %s exists: %t; printed %q, want %q", keep, table.Name(), got, out.String(), wantOut)
		}
	}
}

// Report prints each kind of request once, with the sum of its requests,
// in the order of the descriptions, whatever the order of sending.
func TestReport(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	db := New(&out, nil)
	db.record(request{what: "Scan T index I, TotalSegments=2", read: 2, returned: 2, units: 0.5})
	db.record(request{what: "GetItem T {PK: \"a\"}", read: 1, returned: 1, units: 1})
	db.record(request{what: "Scan T index I, TotalSegments=2", read: 1, returned: 1, units: 0.5})
	db.record(request{what: "UpdateItem T {PK: \"a\"}: SET x = 1", units: 2, write: true})
	total := db.Report()
	want := `  > GetItem T {PK: "a"}
    1 request, 1 item read, 1 returned, 1 RCU
  > Scan T index I, TotalSegments=2
    2 requests, 3 items read, 3 returned, 1 RCU
  > UpdateItem T {PK: "a"}: SET x = 1
    1 request, 2 WCU
`
	if out.String() != want || total != (Cost{Requests: 4, Writes: 1, Read: 4, Returned: 4, RCU: 2, WCU: 2}) {
		t.Errorf("Report printed\n%s\nreturned %+v; want\n%s", out.String(), total, want)
	}
	if out.Reset(); db.Report() != (Cost{}) || out.Len() != 0 {
		t.Errorf("a second Report printed %q", out.String())
	}
}

// Stored prints the item as stored, its attributes in name order; key
// values that do not match the table's key attributes fail before any
// request (the DB has no client).
func TestStored(t *testing.T) {
	t.Parallel()
	if err := New(nil, nil).Stored(context.Background(), kept, "x", "only the partition key"); err == nil {
		t.Error("Stored took one key value for a table with a sort key")
	}
	client := integration.Client(t)
	ctx, cancel := integration.Context(t)
	defer cancel()
	var out bytes.Buffer
	db := New(&out, client)
	defer db.Close(ctx, new(error))
	table, err := db.Create(ctx, kept)
	if err != nil {
		t.Fatal(err)
	}
	item := map[string]types.AttributeValue{"PK": s("ORG#acme"), "SK": s("USER#ann"), "b": s("2"), "a": s("1")}
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table.Name()), Item: item}); err != nil {
		t.Fatal(err)
	}
	if err := db.Stored(ctx, table, "ann", "ORG#acme", "USER#ann"); err != nil {
		t.Fatal(err)
	}
	if want := `  ann as stored: {PK: "ORG#acme", SK: "USER#ann", a: "1", b: "2"}` + "\n"; out.String() != want {
		t.Errorf("Stored printed %q, want %q", out.String(), want)
	}
}
