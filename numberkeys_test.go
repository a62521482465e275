package keyfirst_test

import (
	"context"
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
)

// Issue 9, item 8: number keys are compared as DynamoDB compares them.
// DynamoDB stores a number in its canonical form ("-0" as "0", "1.50e2"
// as "150"); a Key holds that form, so that a key derived from a T equals
// the key of the stored item.

type point struct {
	X     float64 `dynamodbav:"x"`
	Y     float64 `dynamodbav:"y"`
	Label string  `dynamodbav:"label"`
}

func pointsSpec(name string) keyfirst.TableSpec {
	return keyfirst.TableSpec{Name: name, PartitionKey: keyfirst.NumberAttr("PK"), SortKey: keyfirst.NumberAttr("SK")}
}

func newPoints(t testing.TB, name string) (*keyfirst.Table, *keyfirst.Entity[point]) {
	t.Helper()
	table, err := keyfirst.NewTable(pointsSpec(name))
	if err != nil {
		t.Fatal(err)
	}
	byXY := keyfirst.OnTable(keyfirst.Num[float64]("PK"), keyfirst.Num[float64]("SK"))
	e, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[point]{Type: "POINT", Keys: []keyfirst.Binding{byXY.Fields("X", "Y")}})
	if err != nil {
		t.Fatal(err)
	}
	return table, e
}

// localPoints creates the points table in DynamoDB Local, for this test
// only.
func localPoints(t *testing.T) (*dynamodb.Client, *keyfirst.Table, *keyfirst.Entity[point]) {
	t.Helper()
	client := integration.Client(t)
	table, points := newPoints(t, "points")
	table = localBinding(t, table)
	return client, table, keyfirst.Must(points.In(table))
}

func TestNumberKeysAreCanonical(t *testing.T) {
	t.Parallel()
	client, table, points := localPoints(t)
	ctx := context.Background()
	negZero := math.Copysign(0, -1)
	if _, err := points.Put(ctx, client, point{X: negZero, Y: 150, Label: "a"}); err != nil {
		t.Fatal(err)
	}
	k := mustKey(t, points, point{X: negZero, Y: 1.50e2})
	if k != mustKey(t, points, point{X: 0, Y: 150}) || k.String() != "(0, 150)" {
		t.Fatalf("key %s differs from (0, 150)", k)
	}
	stored := rawItem(t, client, table.Name(), map[string]typesAV{
		"PK": &types.AttributeValueMemberN{Value: "0"}, "SK": &types.AttributeValueMemberN{Value: "150"}})
	if avText(stored["PK"]) != "0" || avText(stored["SK"]) != "150" {
		t.Fatalf("stored %v", stored)
	}

	got, err := points.BatchGet(ctx, client, []keyfirst.Key[point]{k})
	if err != nil || len(got) != 1 || got[0].Label != "a" {
		t.Fatalf("BatchGet: %+v, %v", got, err)
	}
	modified, err := points.Modify(ctx, client, k, func(p *point) { p.Label = "b" })
	if err != nil || modified.Label != "b" {
		t.Fatalf("Modify: %+v, %v", modified, err)
	}
	if p, err := points.Get(ctx, client, k, keyfirst.ConsistentRead()); err != nil || p.Label != "b" {
		t.Fatalf("Get: %+v, %v", p, err)
	}
	if err := points.Delete(ctx, client, point{X: 0, Y: 150}); err != nil {
		t.Fatal(err)
	}
}

// TestCanonicalFormsMatchDynamoDB puts numbers written in many ways as
// keys and checks that each Key equals the key DynamoDB Local returns.
func TestCanonicalFormsMatchDynamoDB(t *testing.T) {
	t.Parallel()
	client, table, points := localPoints(t)
	ctx := context.Background()
	texts := []string{"-0", "0.000", "+5", "007", "0.10", "1.50", "1e2", "1E+2", "1e-5", "-12.3400e-2", ".5", "5.",
		"1e-130", "-9.9e125", "01e1"} // at most 15 significant digits: each is a float64's shortest form's number
	var keys []keyfirst.Key[point]
	for i, y := range texts {
		f, err := strconv.ParseFloat(y, 64)
		if err != nil {
			t.Fatal(err)
		}
		p := point{X: float64(i), Y: f}
		if _, err := points.Put(ctx, client, p); err != nil {
			t.Fatalf("Put %q: %v", y, err)
		}
		keys = append(keys, mustKey(t, points, p))
	}
	got, err := points.BatchGet(ctx, client, keys)
	if err != nil || len(got) != len(texts) {
		t.Fatalf("BatchGet: %d items, %v", len(got), err)
	}
	for i, y := range texts {
		// DynamoDB finds the item under any text of the numbers.
		item := rawItem(t, client, table.Name(), map[string]typesAV{
			"PK": &types.AttributeValueMemberN{Value: strconv.Itoa(i)}, "SK": &types.AttributeValueMemberN{Value: y}})
		if item == nil {
			t.Fatalf("%q: no item under key %s", y, keys[i])
		}
		if want := "(" + avText(item["PK"]) + ", " + avText(item["SK"]) + ")"; keys[i].String() != want {
			t.Errorf("%q: key %s, DynamoDB stores %s", y, keys[i], want)
		}
	}
}

func TestEqualNumberKeysAreDuplicates(t *testing.T) {
	table, points := newPoints(t, "points")
	a, b := point{X: math.Copysign(0, -1), Y: 1e2}, point{X: 0, Y: 100.0}
	ctx := context.Background()
	_, err := points.BatchGet(ctx, noCalls{T: t}, []keyfirst.Key[point]{mustKey(t, points, a), mustKey(t, points, b)})
	var de *keyfirst.DuplicateKeyError
	if !errors.As(err, &de) {
		t.Fatalf("BatchGet: err = %v, want a *DuplicateKeyError", err)
	}
	err = table.BatchWrite(ctx, noCalls{T: t}, []keyfirst.WriteRequest{points.PutRequest(a), points.DeleteRequest(mustKey(t, points, b))})
	if !errors.As(err, &de) {
		t.Fatalf("BatchWrite: err = %v, want a *DuplicateKeyError", err)
	}
}
