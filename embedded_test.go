package keyfirst_test

import (
	"errors"
	"maps"
	"reflect"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// Issue 9, item 12: T's embedded types are encoded as attributevalue
// encodes them, or refused at NewEntity.

type audit struct {
	By   string `dynamodbav:"by"`
	Seen int
}

// withAudit embeds an unexported struct: attributevalue promotes its
// exported fields.
type withAudit struct {
	audit
	ID string `dynamodbav:"id"`
}

// Cents marshals itself as a number.
type Cents struct{ N int }

func (c Cents) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberN{Value: strconv.Itoa(c.N)}, nil
}

// withCents embeds Cents: the method is promoted, and attributevalue
// encodes the whole struct with it (an empty map).
type withCents struct {
	Cents
	ID string `dynamodbav:"id"`
}

// embeddedKey is the key of the embedded table: an entity's ID as it is.
var embeddedKey = keyfirst.OnTable(keyfirst.Str("PK"), keyfirst.NoSort())

func TestUnexportedEmbeddedStructIsEncodedAsAttributeValueDoes(t *testing.T) {
	table, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "embedded", PartitionKey: keyfirst.StringAttr("PK")})
	if err != nil {
		t.Fatal(err)
	}
	e, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[withAudit]{Type: "AUDITED", Keys: []keyfirst.Binding{embeddedKey.Fields("ID")}})
	if err != nil {
		t.Fatal(err)
	}
	v := withAudit{audit{By: "ana", Seen: 3}, "x"}
	item := mustItem(t, e, v)
	want, err := attributevalue.MarshalMap(&v)
	if err != nil {
		t.Fatal(err)
	}
	fields := maps.Clone(item)
	delete(fields, "PK")
	delete(fields, table.TypeAttribute())
	if !reflect.DeepEqual(fields, want) || len(want) != 3 {
		t.Fatalf("fields %v, attributevalue %v", fields, want)
	}
	back, err := e.Decode(item)
	if err != nil || back != v {
		t.Fatalf("Decode = %+v, %v", back, err)
	}
}

func TestPromotedMarshalerIsRefusedAtNewEntity(t *testing.T) {
	table, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "embedded", PartitionKey: keyfirst.StringAttr("PK")})
	if err != nil {
		t.Fatal(err)
	}
	_, err = keyfirst.NewEntity(table, keyfirst.EntitySpec[withCents]{Type: "CENTS", Keys: []keyfirst.Binding{embeddedKey.Fields("ID")}})
	var ee *keyfirst.EntityError
	if !errors.As(err, &ee) || ee.Problem != keyfirst.EntityGoType {
		t.Fatalf("err = %v, want an *EntityError with EntityGoType", err)
	}
}
