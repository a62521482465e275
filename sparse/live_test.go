package sparse_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
)

// What the integration tests share: a table of their own in DynamoDB Local,
// and raw reads of the table and its indexes (the raw SDK, so that what the
// tests see is what DynamoDB stores).

// liveTable creates table's table in DynamoDB Local and returns a client
// and table's description bound to the name it got.
func liveTable(t testing.TB, table *keyfirst.Table) (*dynamodb.Client, *keyfirst.Table) {
	t.Helper()
	client := integration.Client(t)
	return client, integration.TableOf(t, table)
}

// liveTickets returns a client and a tickets table of its own in DynamoDB
// Local, with its Ticket entity.
func liveTickets(t testing.TB, versioned bool) (*dynamodb.Client, *keyfirst.Table, *keyfirst.Entity[Ticket]) {
	t.Helper()
	table, tickets := newTickets(t, versioned)
	client, table := liveTable(t, table)
	return client, table, keyfirst.Must(tickets.In(table))
}

// queryIndex returns every item of the index whose key matches cond, in the
// index's order (ascending), with a raw Query, page after page.
func queryIndex(t testing.TB, client *dynamodb.Client, table, index string, cond expression.KeyConditionBuilder) []map[string]types.AttributeValue {
	t.Helper()
	x, err := expression.NewBuilder().WithKeyCondition(cond).Build()
	if err != nil {
		t.Fatal(err)
	}
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(table),
		IndexName:                 aws.String(index),
		KeyConditionExpression:    x.KeyCondition(),
		ExpressionAttributeNames:  x.Names(),
		ExpressionAttributeValues: x.Values(),
		ScanIndexForward:          aws.Bool(true),
	}
	var items []map[string]types.AttributeValue
	p := dynamodb.NewQueryPaginator(client, in)
	for p.HasMorePages() {
		out, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatalf("query %s: %v", index, err)
		}
		items = append(items, out.Items...)
	}
	return items
}

// openIndex is one entry of open-tickets-index.
type openIndex struct {
	ID, OpenedAt, Subject string
}

// openTicketsInIndex queries open-tickets-index as the dashboard does:
// openBucket = "OPEN", oldest first.
func openTicketsInIndex(t testing.TB, client *dynamodb.Client, table string) []openIndex {
	t.Helper()
	items := queryIndex(t, client, table, openTicketsIndex,
		expression.KeyEqual(expression.Key("openBucket"), expression.Value("OPEN")))
	out := make([]openIndex, len(items))
	for i, item := range items {
		out[i] = openIndex{ID: str(item["id"]), OpenedAt: str(item["openedAt"]), Subject: str(item["subject"])}
		if !strings.HasPrefix(str(item["PK"]), "TICKET#") || str(item["PK"]) != "TICKET#"+out[i].ID {
			t.Errorf("index entry %v: key and id do not match", item)
		}
	}
	return out
}

// openTicketsInTable is what the index must hold, computed from the table:
// the open tickets among stored, oldest first. (The index orders equal
// openedAt values arbitrarily: the tests give each ticket its own.)
func openTicketsInTable(stored []Ticket) []openIndex {
	var out []openIndex
	for _, tk := range stored {
		if tk.IsOpen() {
			out = append(out, openIndex{ID: tk.ID, OpenedAt: openedAt(tk.OpenedAt), Subject: tk.Subject})
		}
	}
	slices.SortFunc(out, func(a, b openIndex) int { return strings.Compare(a.OpenedAt, b.OpenedAt) })
	return out
}

// rawItem reads the stored item with key, consistently, as DynamoDB has it.
func rawItem(t testing.TB, client *dynamodb.Client, table string, key map[string]types.AttributeValue) map[string]types.AttributeValue {
	t.Helper()
	out, err := client.GetItem(context.Background(), &dynamodb.GetItemInput{
		TableName: aws.String(table), Key: key, ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.Item
}

// storedTicketKey is the primary key of the ticket with id.
func storedTicketKey(id string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": sv("TICKET#" + id), "SK": sv("TICKET")}
}

func sv(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

func str(av types.AttributeValue) string {
	if s, ok := av.(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}
