package keyfirst_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// TestModifyItemWithManyForeignAttributes: an item that another program
// gave 305 attributes of its own is modified like any other; the foreign
// attributes are kept.
func TestModifyItemWithManyForeignAttributes(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	c := mustPut(t, client, s.customers, Customer{ID: "c1", Name: "Ana"})
	key := map[string]typesAV{"PK": sAV("CUST#c1"), "SK": sAV("CUST#c1")}
	item := rawItem(t, client, s.table.Name(), key)
	for i := range 305 {
		item[fmt.Sprintf("legacy attribute %03d", i)] = sAV(strings.Repeat("v", i%40+1))
	}
	putRaw(t, client, s.table.Name(), item)
	got, err := s.customers.Modify(context.Background(), client, mustKey(t, s.customers, c), func(c *Customer) {
		c.Name = "Ana Maria"
		c.Admin = true

	}, keyfirst.WithMaxAttempts(1))
	if err != nil || got.Name != "Ana Maria" {
		t.Fatalf("Modify: %+v, %v", got, err)
	}
	after := rawItem(t, client, s.table.Name(), key)
	item["name"], item["admin"] = sAV("Ana Maria"), &types.AttributeValueMemberBOOL{Value: true}
	item["GSI1PK"], item["GSI1SK"] = sAV("ADMIN"), sAV("CUST#c1")
	if !reflect.DeepEqual(after, item) {
		t.Fatalf("stored %d attributes, want %d", len(after), len(item))
	}
}

// Wide has 162 fields: a guard that compares all of them does not fit in
// one DynamoDB condition expression (300 operators, 4,096 bytes).
type Wide struct {
	ID                                                                                                                     string `dynamodbav:"id"`
	F000, F001, F002, F003, F004, F005, F006, F007, F008, F009, F010, F011, F012, F013, F014, F015, F016, F017, F018, F019 string `dynamodbav:",omitempty"`
	F020, F021, F022, F023, F024, F025, F026, F027, F028, F029, F030, F031, F032, F033, F034, F035, F036, F037, F038, F039 string `dynamodbav:",omitempty"`
	F040, F041, F042, F043, F044, F045, F046, F047, F048, F049, F050, F051, F052, F053, F054, F055, F056, F057, F058, F059 string `dynamodbav:",omitempty"`
	F060, F061, F062, F063, F064, F065, F066, F067, F068, F069, F070, F071, F072, F073, F074, F075, F076, F077, F078, F079 string `dynamodbav:",omitempty"`
	F080, F081, F082, F083, F084, F085, F086, F087, F088, F089, F090, F091, F092, F093, F094, F095, F096, F097, F098, F099 string `dynamodbav:",omitempty"`
	F100, F101, F102, F103, F104, F105, F106, F107, F108, F109, F110, F111, F112, F113, F114, F115, F116, F117, F118, F119 string `dynamodbav:",omitempty"`
	F120, F121, F122, F123, F124, F125, F126, F127, F128, F129, F130, F131, F132, F133, F134, F135, F136, F137, F138, F139 string `dynamodbav:",omitempty"`
	F140, F141, F142, F143, F144, F145, F146, F147, F148, F149, F150, F151, F152, F153, F154, F155, F156, F157, F158, F159 string `dynamodbav:",omitempty"`
	Rev                                                                                                                    int64  `dynamodbav:"rev"`
}

func wideSpec(typ, version string) keyfirst.EntitySpec[Wide] {
	return keyfirst.EntitySpec[Wide]{Type: typ, Keys: []keyfirst.Binding{selfKey("PK", "SK", typ)}, Version: version}
}

// TestModifyWideEntity: without a version, Modify of an entity too wide for
// its guard is refused with a typed error that says what to do, and
// nothing is written; with a version it works.
func TestModifyWideEntity(t *testing.T) {
	t.Parallel()
	client, table := localTable(t)
	ctx := context.Background()
	for _, version := range []string{"", "rev"} {
		typ := "WIDE" + strings.ToUpper(version)
		wides, err := keyfirst.NewEntity(table, wideSpec(typ, version))
		if err != nil {
			t.Fatal(err)
		}
		w := Wide{ID: "w1", F000: "a", F159: "z"}
		if w, err = wides.Put(ctx, client, w); err != nil {
			t.Fatal(err)
		}
		k := mustKey(t, wides, w)
		got, err := wides.Modify(ctx, client, k, func(w *Wide) { w.F000 = "b" })
		if version != "" {
			if err != nil || got.F000 != "b" || got.Rev != 2 {
				t.Fatalf("versioned Modify: %+v, %v", got, err)
			}
			continue
		}
		var ie *keyfirst.ItemError
		if !errors.Is(err, keyfirst.ErrInvalidItem) || !errors.As(err, &ie) || !strings.Contains(err.Error(), "EntitySpec.Version") {
			t.Fatalf("unversioned Modify: %v", err)
		}
		if stored, err := wides.Get(ctx, client, k, keyfirst.ConsistentRead()); err != nil || stored != w {
			t.Fatalf("after the refusal: %+v, %v", stored, err)
		}
	}
}
