package keyfirst_test

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
)

// A table keyed by a number and a binary value.
type reading struct {
	Sensor int64  `dynamodbav:"sensor"`
	Mark   []byte `dynamodbav:"mark"`
	Value  string `dynamodbav:"value"`
}

func readings(t *testing.T) *keyfirst.Entity[reading] {
	t.Helper()
	table, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "readings", PartitionKey: keyfirst.NumberAttr("id"), SortKey: keyfirst.BinaryAttr("at")})
	if err != nil {
		t.Fatal(err)
	}
	byMark := keyfirst.OnTable(keyfirst.Num[int64]("id"), keyfirst.Bin("at"))
	e, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[reading]{Type: "READING", Keys: []keyfirst.Binding{byMark.Fields("Sensor", "Mark")}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestNumberAndBinaryKeys(t *testing.T) {
	e := readings(t)
	k := mustKey(t, e, reading{Sensor: -12, Mark: []byte{0xca, 0xfe}})
	if k.String() != "(-12, 0xcafe)" {
		t.Fatalf("String() = %s", k)
	}
	item := mustItem(t, e, reading{Sensor: 7, Mark: []byte{1}, Value: "v"})
	if avText(item["id"]) != "7" || avString(item["at"]) != "B:\x01" {
		t.Fatalf("item %v", item)
	}
	_, err := e.Key(reading{Sensor: 1})
	var ie *keyfirst.ItemError
	if !errors.As(err, &ie) || ie.Problem != keyfirst.ItemEmptyKey || ie.Attribute != "at" {
		t.Fatalf("empty binary key: %v", err)
	}
	// The key converts back into the request's key attributes.
	stored := reading{Sensor: -12, Mark: []byte{0xca, 0xfe}, Value: "v"}
	api := &recordGet{item: mustItem(t, e, stored)}
	got, err := e.Get(context.Background(), api, k)
	if err != nil {
		t.Fatal(err)
	}
	if avText(api.in.Key["id"]) != "-12" || avString(api.in.Key["at"]) != "B:\xca\xfe" || len(api.in.Key) != 2 ||
		got.Value != "v" || api.in.ConsistentRead != nil || api.in.ReturnConsumedCapacity != "" {
		t.Fatalf("request %+v, got %+v", api.in, got)
	}
}

// recordGet records the GetItem request and answers with item.
type recordGet struct {
	in   *dynamodb.GetItemInput
	item map[string]types.AttributeValue
}

func (r *recordGet) GetItem(_ context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	r.in = in
	return &dynamodb.GetItemOutput{Item: r.item}, nil
}

func TestTableWithoutSortKey(t *testing.T) {
	table, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "flat", PartitionKey: keyfirst.StringAttr("id")})
	if err != nil {
		t.Fatal(err)
	}
	type thing struct {
		Name string `dynamodbav:"name"`
	}
	byName := keyfirst.OnTable(keyfirst.Composite("id", keys.NewKey1(keys.ID[string](), keys.WithPrefix("T"))), keyfirst.NoSort())
	e, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[thing]{Type: "THING", Keys: []keyfirst.Binding{byName.Fields("Name")}})
	if err != nil {
		t.Fatal(err)
	}
	if k := mustKey(t, e, thing{Name: "a"}); k.String() != `("T#a")` {
		t.Fatalf("key %s", k)
	}
	item := mustItem(t, e, thing{Name: "a"})
	if len(item) != 3 || avText(item["id"]) != "T#a" {
		t.Fatalf("item %v", item)
	}
	api := &recordGet{item: item}
	got, err := e.Get(context.Background(), api, mustKey(t, e, thing{Name: "a"}))
	if err != nil || got.Name != "a" || len(api.in.Key) != 1 {
		t.Fatalf("get %+v %v %v", got, err, api.in.Key)
	}
}
