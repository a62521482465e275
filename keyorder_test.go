package keyfirst_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// Reading is an item whose index sort keys are fields of T: a time, a
// signed integer and a float, each the sort key of a native GSI.
type Reading struct {
	ID    string    `dynamodbav:"id"`
	Cat   string    `dynamodbav:"cat"`
	When  time.Time `dynamodbav:"when"`
	Delta int64     `dynamodbav:"delta"`
	Ratio float64   `dynamodbav:"ratio"`
	Name  string    `dynamodbav:"name"`
}

func readingTableSpec() keyfirst.TableSpec {
	s, n := keyfirst.StringAttr, keyfirst.NumberAttr
	cat := []keyfirst.Attribute{s("cat")}
	return keyfirst.TableSpec{
		Name:         "readings",
		PartitionKey: s("PK"),
		SortKey:      s("SK"),
		GSIs: []keyfirst.Index{
			{Name: "by-when", PartitionKey: cat, SortKey: []keyfirst.Attribute{s("when")}},
			{Name: "by-delta", PartitionKey: cat, SortKey: []keyfirst.Attribute{n("delta")}},
			{Name: "by-ratio", PartitionKey: cat, SortKey: []keyfirst.Attribute{n("ratio")}},
			{Name: "by-name-when", PartitionKey: cat, SortKey: []keyfirst.Attribute{s("name"), s("when")}},
		},
	}
}

func readingSpec() keyfirst.EntitySpec[Reading] {
	return keyfirst.EntitySpec[Reading]{Type: "READING", Keys: []keyfirst.Binding{selfKey("PK", "SK", "R")}}
}

// Every Go kind a field used as an index sort key can have is either stored
// so that DynamoDB orders it as Go orders its values, or refused at
// NewEntity. Here the accepted kinds, on DynamoDB Local: a query of each
// index returns the items in the order of their values, whatever the
// times' zones and precisions and the numbers' signs.
func TestFieldIndexKeysSortInValueOrder(t *testing.T) {
	t.Parallel()
	client, table := localTableOf(t, readingTableSpec())
	readings, err := keyfirst.NewEntity(table, readingSpec())
	if err != nil {
		t.Fatal(err)
	}
	ten := time.Date(2019, 7, 1, 10, 0, 0, 0, time.UTC)
	paris := time.FixedZone("CEST", 2*3600)
	whens := []time.Time{
		ten.Add(500 * time.Millisecond), // RFC3339Nano: ...10:00:00.5Z sorts before ...10:00:00Z
		ten,
		ten.Add(time.Nanosecond),
		ten.Add(-time.Nanosecond).In(paris), // 11:59:59.999999999+02:00, before ten
		ten.Add(time.Hour).In(paris),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
	}
	deltas := []int64{5, -1, -10, 0, 9, -2, 100}
	ratios := []float64{0.5, -0.25, 1e10, -1e-10, 3, 0, -7.5}
	ctx := context.Background()
	for i := range whens {
		r := Reading{ID: strconv.Itoa(i), Cat: "c", When: whens[i], Delta: deltas[i], Ratio: ratios[i], Name: "n"}
		if _, err := readings.Put(ctx, client, r); err != nil {
			t.Fatal(err)
		}
		got, err := readings.Get(ctx, client, mustKey(t, readings, r))
		if err != nil || !got.When.Equal(r.When) || got.Delta != r.Delta || got.Ratio != r.Ratio {
			t.Fatalf("read back %+v %v, wrote %+v", got, err, r)
		}
	}
	wantOrder := func(less func(a, b int) int) []string {
		idx := []int{0, 1, 2, 3, 4, 5, 6}
		slices.SortFunc(idx, less)
		out := make([]string, len(idx))
		for i, n := range idx {
			out[i] = strconv.Itoa(n)
		}
		return out
	}
	byWhen := wantOrder(func(a, b int) int { return whens[a].Compare(whens[b]) })
	for index, want := range map[string][]string{
		"by-when":      byWhen,
		"by-name-when": byWhen,
		"by-delta":     wantOrder(func(a, b int) int { return int(deltas[a] - deltas[b]) }),
		"by-ratio": wantOrder(func(a, b int) int {
			switch {
			case ratios[a] < ratios[b]:
				return -1
			case ratios[a] > ratios[b]:
				return 1
			}
			return 0
		}),
	} {
		if got := queryIDs(t, client, table.Name(), index, map[string]string{"cat": "c"}, "", ""); !slices.Equal(got, want) {
			t.Errorf("%s: DynamoDB's order %v, value order %v", index, got, want)
		}
	}

	// One instant, one encoding: the time in another zone is the same key.
	item := mustItem(t, readings, Reading{ID: "x", Cat: "c", When: ten.In(paris), Name: "n"})
	if got := item["when"].(*types.AttributeValueMemberS).Value; got != "2019-07-01T10:00:00.000000000Z" {
		t.Fatalf("when stored as %q", got)
	}
	if k, err := keyfirst.FormatTimeKey(ten.In(paris)); err != nil || k != "2019-07-01T10:00:00.000000000Z" {
		t.Fatalf("FormatTimeKey: %q %v", k, err)
	}
	// A year without four digits has no fixed-width key: refused before
	// any request.
	_, err = readings.Put(ctx, noCalls{T: t}, Reading{ID: "y", Cat: "c", When: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), Name: "n"})
	var ie *keyfirst.ItemError
	if !errors.As(err, &ie) || ie.Attribute != "when" || !errors.Is(err, keyfirst.ErrInvalidItem) {
		t.Fatalf("year 10000: %v", err)
	}
}

// upper is a custom-marshaled string: keyfirst cannot see its encoding.
type upper string

func (u upper) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberS{Value: string(u) + "!"}, nil
}

// The kinds refused as index sort key fields, each with a message that says
// what to use instead; a bool was refused before (EntityFieldType).
func TestFieldIndexKeysRefusedWhenUnordered(t *testing.T) {
	type numberAsString struct {
		Delta int64 `dynamodbav:"name,string"`
	}
	type custom struct {
		Name upper `dynamodbav:"name"`
	}
	type anything struct {
		Name any `dynamodbav:"name"`
	}
	type flag struct {
		Name bool `dynamodbav:"name"`
	}
	check := func(name string, err error, want keyfirst.EntityProblem, hint string) {
		t.Helper()
		var ee *keyfirst.EntityError
		if !errors.As(err, &ee) || ee.Problem != want || ee.Index != "by-name-when" || ee.Attribute != "name" {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.Contains(err.Error(), hint) {
			t.Fatalf("%s: the message does not say what to use (%q): %v", name, hint, err)
		}
	}
	table, err := keyfirst.NewTable(readingTableSpec())
	if err != nil {
		t.Fatal(err)
	}
	_, err = keyfirst.NewEntity(table, keyfirst.EntitySpec[numberAsString]{Type: "A", Keys: []keyfirst.Binding{rawKey[numberAsString]()}})
	check("int stored as a string", err, keyfirst.EntityFieldOrder, "keys.Int")
	_, err = keyfirst.NewEntity(table, keyfirst.EntitySpec[custom]{Type: "B", Keys: []keyfirst.Binding{rawKey[custom]()}})
	check("custom marshaler", err, keyfirst.EntityFieldOrder, "derive the attribute")
	_, err = keyfirst.NewEntity(table, keyfirst.EntitySpec[anything]{Type: "C", Keys: []keyfirst.Binding{rawKey[anything]()}})
	check("interface", err, keyfirst.EntityFieldOrder, "derive the attribute")
	_, err = keyfirst.NewEntity(table, keyfirst.EntitySpec[flag]{Type: "D", Keys: []keyfirst.Binding{rawKey[flag]()}})
	check("bool", err, keyfirst.EntityFieldType, "not a string, number or binary")
}
