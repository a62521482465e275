package query_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/query"
)

// localGithub creates the github table in DynamoDB Local for this test.
func localGithub(t testing.TB) (*dynamodb.Client, github, string) {
	t.Helper()
	g := newGithub(t, "github")
	g = g.in(tableFor(t, g.table))
	return integrationClient(t), g, g.table.Name()
}

// putRaw stores an item that keyfirst did not write: a legacy item.
func putRaw(t testing.TB, client *dynamodb.Client, table string, item map[string]types.AttributeValue) {
	t.Helper()
	_, err := client.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: item})
	noErr(t, err)
}

// Issue 9, item 4: an item of a type no entity is registered for (a
// retired one) or with no entity-type attribute at all no longer stops a
// collection for ever: paged one item at a time, every page moves on and
// the items after it are reached.
func TestCollectionPagesPastUnknownItems(t *testing.T) {
	t.Parallel()
	client, g, name := localGithub(t)
	write(t, client, g.table,
		g.repos.PutRequest(Repo{Name: "keyfirst", Description: "key conditions only"}),
		g.issues.PutRequest(Issue{Repo: "keyfirst", Number: 1, Title: "first"}),
		g.stars.PutRequest(Star{Repo: "keyfirst", User: "ada"}),
	)
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	// Between the issue and the repo in sort key order: a retired LABEL and
	// an item without a type.
	putRaw(t, client, name, map[string]types.AttributeValue{"PK": s("REPO#keyfirst"), "SK": s("LABEL#bug"), "_type": s("LABEL"), "Color": s("red")})
	putRaw(t, client, name, map[string]types.AttributeValue{"PK": s("REPO#keyfirst"), "SK": s("NOTE#1"), "Text": s("untyped")})

	q := query.CollectionOn(g.table, repoByName, "keyfirst").Limit(1)
	var got []string
	var next query.Cursor
	for range 10 {
		page, err := q.After(next).Page(context.Background(), client)
		if err != nil {
			t.Fatalf("page %d, after %v: %v", len(got)+1, got, err)
		}
		for _, it := range page.Items {
			got = append(got, describeItem(it))
		}
		if next = page.Next; next == "" {
			break
		}
	}
	want := []string{"issue 1", "unknown LABEL LABEL#bug", "unknown  NOTE#1", "repo keyfirst", "star ada"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// describeItem names an item of the github collection.
func describeItem(it any) string {
	switch v := it.(type) {
	case Repo:
		return "repo " + v.Name
	case Issue:
		return fmt.Sprintf("issue %d", v.Number)
	case Star:
		return "star " + v.User
	case query.Unknown:
		return fmt.Sprintf("unknown %s %s", v.Type, v.Item["SK"].(*types.AttributeValueMemberS).Value)
	}
	return fmt.Sprintf("%T", it)
}

// An entity read that meets an item of another entity type stops before it
// with a *DecodeError: the page's cursor resumes at the item (a retry after
// a fix reads it), the error's Skip after it, so a reader can get past.
func TestEntityReadSkipsForeignItem(t *testing.T) {
	t.Parallel()
	client, g, name := localGithub(t)
	write(t, client, g.table,
		g.issues.PutRequest(Issue{Repo: "keyfirst", Number: 1, Title: "first"}),
		g.issues.PutRequest(Issue{Repo: "keyfirst", Number: 2, Title: "second"}),
	)
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	putRaw(t, client, name, map[string]types.AttributeValue{"PK": s("REPO#keyfirst"), "SK": s("ISSUE#00000001x"), "_type": s("LABEL")})

	q := query.On(g.issues, issueByNumber, "keyfirst").Limit(1)
	var got []uint32
	var next query.Cursor
	skipped := 0
	for range 10 {
		page, err := q.After(next).Page(context.Background(), client)
		for _, it := range page.Items {
			got = append(got, it.Number)
		}
		var de *query.DecodeError
		switch {
		case errors.As(err, &de):
			var te *keyfirst.EntityTypeError
			if !errors.Is(err, keyfirst.ErrWrongEntityType) || !errors.As(err, &te) || te.Got != "LABEL" ||
				de.Skip == "" || de.Op != "Query" || de.Key["SK"].(*types.AttributeValueMemberS).Value != "ISSUE#00000001x" {
				t.Fatalf("got %v", err)
			}
			// Next resumes at the item: the same error again.
			if _, again := q.After(next).Page(context.Background(), client); !errors.As(again, &de) {
				t.Fatalf("resumed at the item: %v", again)
			}
			skipped++
			next = de.Skip
			continue
		case err != nil:
			t.Fatal(err)
		}
		if next = page.Next; next == "" {
			break
		}
	}
	if fmt.Sprint(got) != "[1 2]" || skipped != 1 {
		t.Fatalf("read %v, skipped %d", got, skipped)
	}
}
