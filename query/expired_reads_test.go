package query_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/nocalls"
	"github.com/keyfirst/keyfirst/query"
)

// leaseIx is a sparse index of leases alone, declared Scannable.
var leaseIx = keyfirst.OnIndex("LeaseIndex", keyfirst.Str("LeaseBoard"), keyfirst.NoSort())

// leaseBoard is a table of leases (with an expiry) and scores (without)
// in one partition "b": leases 0..9, the even ones expiring at base and
// the odd ones a year later, then scores 10..13, whose items carry an
// "expires" attribute in the past that their entity does not know.
func leaseBoard(t *testing.T, base time.Time) (*dynamodb.Client, *keyfirst.Table, *keyfirst.Entity[Lease]) {
	t.Helper()
	ix := leaseIx.Index()
	ix.Scannable = true
	desc := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "board", Key: scoreByBoard, TimeToLive: "expires", GSIs: []keyfirst.Index{ix}}))
	table := tableFor(t, desc)
	leases := keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[Lease]{Type: "LEASE", Expires: "Expires",
		Keys: []keyfirst.Binding{scoreByBoard.Fields("Board", "Score"), leaseIx.Fields("Board")}}))
	scoresE := keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[BoardScore]{Type: "SCORE",
		Keys: []keyfirst.Binding{scoreByBoard.Fields("Board", "Score")}}))
	client := integrationClient(t)
	var reqs []keyfirst.WriteRequest
	for i := range 10 {
		exp := base
		if i%2 == 1 {
			exp = base.AddDate(1, 0, 0)
		}
		reqs = append(reqs, leases.PutRequest(Lease{Board: "b", Score: float64(i), Expires: exp}))
	}
	write(t, client, table, reqs...)
	for i := 10; i < 14; i++ {
		item := keyfirst.Must(scoresE.Item(BoardScore{Board: "b", Score: float64(i)}))
		item["expires"] = &types.AttributeValueMemberN{Value: fmt.Sprint(base.Add(-time.Hour).Unix())}
		if _, err := client.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table.Name()), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	return client, table, leases
}

// collectionScores prints a collection's items by score.
func collectionScores(items []any) string {
	var out []float64
	for _, v := range items {
		switch x := v.(type) {
		case Lease:
			out = append(out, x.Score)
		case BoardScore:
			out = append(out, x.Score)
		default:
			out = append(out, -1)
		}
	}
	return fmt.Sprint(out)
}

// TestCollectionWithoutExpired: a collection of several entity types
// drops each item by its own entity's expiry (an item of an entity
// without one is never dropped, whatever attributes it carries); Limit
// stays exact over further pages, the cursor resumes after the last item
// consumed, Page.Expired counts the dropped and the capacity includes
// them. By default the collection returns every item read.
func TestCollectionWithoutExpired(t *testing.T) {
	t.Parallel()
	base := time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
	client, table, _ := leaseBoard(t, base)
	ctx := context.Background()
	q := query.CollectionOn(table, scoreByBoard, "b")
	if all, err := q.Collect(ctx, client); err != nil || len(all) != 14 {
		t.Fatalf("by default: %d items, %v; want 14", len(all), err)
	}
	now := base.Add(time.Hour)
	var capa keyfirst.Capacity
	page, err := q.WithoutExpired(now).Limit(4).Page(ctx, client, keyfirst.WithCapacity(&capa))
	noErr(t, err)
	if got := collectionScores(page.Items); got != "[1 3 5 7]" || page.Expired != 4 || capa.Read <= 0 {
		t.Fatalf("page: %s, %d expired, capacity %v; want [1 3 5 7], 4", got, page.Expired, capa.Read)
	}
	rest, err := q.WithoutExpired(now).After(page.Next).Collect(ctx, client)
	noErr(t, err)
	if got := collectionScores(rest); got != "[9 10 11 12 13]" {
		t.Fatalf("after the page: %s, want [9 10 11 12 13]", got)
	}
	c := &counting{QueryAPI: client}
	live, err := q.WithoutExpired(now).Limit(7).Collect(ctx, c)
	if err != nil || collectionScores(live) != "[1 3 5 7 9 10 11]" {
		t.Fatalf("Limit 7: %s, %v", collectionScores(live), err)
	}
}

// TestScanWithoutExpired: a scan drops the expired items after the read,
// in every segment; by default it returns them.
func TestScanWithoutExpired(t *testing.T) {
	t.Parallel()
	base := time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
	client, _, leases := leaseBoard(t, base)
	ctx := context.Background()
	all, err := query.ScanOn(leases, leaseIx).Collect(ctx, client)
	if err != nil || len(all) != 10 {
		t.Fatalf("by default: %d leases, %v", len(all), err)
	}
	for _, segments := range []int{1, 3} {
		var capa keyfirst.Capacity
		live, err := query.ScanOn(leases, leaseIx).Segments(segments).WithoutExpired(base.Add(time.Hour)).Collect(ctx, client, keyfirst.WithCapacity(&capa))
		noErr(t, err)
		got := scores(live)
		slices.Sort(got)
		if fmt.Sprint(got) != "[1 3 5 7 9]" || capa.Indexes["LeaseIndex"] <= 0 {
			t.Fatalf("segments %d: %v, capacity %+v; want [1 3 5 7 9]", segments, got, capa)
		}
	}
}

// TestScanWithoutExpiredRefused: a scan that cannot tell expired items
// (a view, an entity without expiry) is refused before any request.
func TestScanWithoutExpiredRefused(t *testing.T) {
	t.Parallel()
	ix := leaseIx.Index()
	ix.Scannable = true
	table := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "board", Key: scoreByBoard, GSIs: []keyfirst.Index{ix}}))
	plain := keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[BoardScore]{Type: "SCORE",
		Keys: []keyfirst.Binding{scoreByBoard.Fields("Board", "Score"), leaseIx.Fields("Board")}}))
	type boardOnly struct {
		Board string `dynamodbav:"Board"`
	}
	for name, err := range map[string]error{
		"no expiry": func() error {
			_, err := query.ScanOn(plain, leaseIx).WithoutExpired(time.Now()).Collect(context.Background(), nocalls.Client{T: t})
			return err
		}(),
		"a view": func() error {
			_, err := query.ScanView[boardOnly](query.ScanOn(plain, leaseIx)).WithoutExpired(time.Now()).Collect(context.Background(), nocalls.Client{T: t})
			return err
		}(),
	} {
		var qe *query.Error
		if !errors.As(err, &qe) || qe.Problem != query.ProblemExpired {
			t.Errorf("%s: %v, want ProblemExpired", name, err)
		}
	}
}
