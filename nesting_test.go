package keyfirst_test

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/keyfirst/keyfirst"
)

// Issue 21, item 9: an item nested deeper than DynamoDB allows was sent
// (DynamoDB: "Nesting Levels have exceeded supported limits"). Measured
// on DynamoDB Local 3.3.1 with the raw SDK: an attribute's value may hold
// 31 lists and maps one inside the other (32 levels, the item being the
// first); 32 are refused. A set is no level: 31 lists around a string set
// are stored, 32 refused.

// nestedLists is n lists one inside the other around "x", as the codec
// encodes an any field (a []any is a list).
func nestedLists(n int) any {
	var v any = "x"
	for range n {
		v = []any{v}
	}
	return v
}

// nestedMaps is n maps one inside the other around "x".
func nestedMaps(n int) any {
	var v any = "x"
	for range n {
		v = map[string]any{"k": v}
	}
	return v
}

// setInLists is n lists around a string set.
func setInLists(n int) rawAV {
	var av types.AttributeValue = &types.AttributeValueMemberSS{Value: []string{"a"}}
	for range n {
		av = &types.AttributeValueMemberL{Value: []types.AttributeValue{av}}
	}
	return rawAV{av}
}

// isValidationException reports DynamoDB's refusal of a request as
// invalid, by its error code.
func isValidationException(err error) bool {
	var api smithy.APIError
	return errors.As(err, &api) && api.ErrorCode() == "ValidationException"
}

// TestNestingLimitMatchesDynamoDB proves the boundary on DynamoDB Local:
// 31 levels are written by keyfirst and stored; 32 are refused by
// keyfirst before any request, and refused by DynamoDB Local when the
// same item is sent with the raw SDK.
func TestNestingLimitMatchesDynamoDB(t *testing.T) {
	t.Parallel()
	client, d := localDocs(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		set  func(v *doc, levels int)
	}{
		{"lists", func(v *doc, n int) { v.Any = nestedLists(n) }},
		{"maps", func(v *doc, n int) { v.Any = nestedMaps(n) }},
		{"lists around a set", func(v *doc, n int) { v.Custom = setInLists(n) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := goodDoc()
			v.ID = tc.name
			tc.set(&v, keyfirst.MaxNesting-1)
			if _, err := d.docs.Put(ctx, client, v); err != nil {
				t.Fatalf("%d levels: keyfirst refused %v", keyfirst.MaxNesting-1, err)
			}
			stored := rawItem(t, client, d.table.Name(), map[string]typesAV{"PK": sAV("RAW#" + tc.name)})
			if stored == nil {
				t.Fatalf("%d levels: nothing stored", keyfirst.MaxNesting-1)
			}

			deep := v
			tc.set(&deep, keyfirst.MaxNesting)
			_, err := d.docs.Put(ctx, noCalls{T: t}, deep)
			var ie *keyfirst.ItemError
			if !errors.As(err, &ie) || ie.Problem != keyfirst.ItemTooDeep {
				t.Fatalf("%d levels: keyfirst: %v, want an *ItemError %q", keyfirst.MaxNesting, err, keyfirst.ItemTooDeep)
			}

			// The same item, sent raw: DynamoDB Local refuses it.
			item := mustItem(t, d.docs, v)
			for name, av := range item {
				if name == "any" || name == "custom" && tc.name == "lists around a set" {
					item[name] = &types.AttributeValueMemberL{Value: []types.AttributeValue{av}}
				}
			}
			item["PK"] = sAV("RAW#" + tc.name + "/raw")
			_, err = client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(d.table.Name()), Item: item})
			if !isValidationException(err) {
				t.Fatalf("%d levels sent raw: %v, want DynamoDB Local's ValidationException", keyfirst.MaxNesting, err)
			}
			t.Logf("%d levels sent raw: %v", keyfirst.MaxNesting, err)
		})
	}
}

// Every write path refuses an item nested too deep, before any request.
func TestTooDeepIsRefusedBeforeAnyRequest(t *testing.T) {
	d := newDocs(t, "docs")
	refuseEverywhere(t, d.table, d.docs, goodDoc(), []valueCase[doc]{
		{"lists in an interface", func(v *doc) { v.Any = nestedLists(keyfirst.MaxNesting) }, keyfirst.ItemTooDeep, "", "any", "any[0][0]"},
		{"maps in an interface", func(v *doc) { v.Any = nestedMaps(keyfirst.MaxNesting) }, keyfirst.ItemTooDeep, "", "any", "any.k.k"},
		{"lists in a list", func(v *doc) { v.Any = []any{1, nestedLists(keyfirst.MaxNesting - 1)} }, keyfirst.ItemTooDeep, "", "any", "any[1][0]"},
		{"custom marshaler", func(v *doc) { v.Custom = setInLists(keyfirst.MaxNesting) }, keyfirst.ItemTooDeep, "", "custom", "custom[0]"},
	})
}

// Refresh decodes the stored item and writes what its T stores: a stored
// image nested too deep (one a caller made: DynamoDB stores none) is
// refused before any request.
func TestRefreshRefusesTooDeep(t *testing.T) {
	d := newDocs(t, "docs")
	stored := mustItem(t, d.docs, goodDoc())
	var av types.AttributeValue = &types.AttributeValueMemberS{Value: "x"}
	for range keyfirst.MaxNesting {
		av = &types.AttributeValueMemberL{Value: []types.AttributeValue{av}}
	}
	stored["any"] = av
	for name, run := range map[string]func() error{
		"PlanRefresh": func() error { _, err := d.docs.PlanRefresh(stored); return err },
		"Refresh":     func() error { _, err := d.docs.Refresh(context.Background(), noCalls{T: t}, stored); return err },
	} {
		var ie *keyfirst.ItemError
		if err := run(); !errors.As(err, &ie) || ie.Problem != keyfirst.ItemTooDeep || ie.Attribute != "any" {
			t.Errorf("%s: %v, want an *ItemError %q on any", name, err, keyfirst.ItemTooDeep)
		}
	}
}

// Modify writes with the same item plan: a change nested too deep is
// refused before the write and the stored item is left as it was.
func TestModifyRefusesTooDeep(t *testing.T) {
	t.Parallel()
	client, d := localDocs(t)
	ctx := context.Background()
	stored := goodDoc()
	if _, err := d.docs.Put(ctx, client, stored); err != nil {
		t.Fatal(err)
	}
	k := mustKey(t, d.docs, stored)
	_, err := d.docs.Modify(ctx, client, k, func(v *doc) { v.Any = nestedMaps(keyfirst.MaxNesting) })
	var ie *keyfirst.ItemError
	if !errors.As(err, &ie) || ie.Problem != keyfirst.ItemTooDeep {
		t.Fatalf("Modify: %v, want an *ItemError %q", err, keyfirst.ItemTooDeep)
	}
	if got, err := d.docs.Get(ctx, client, k, keyfirst.ConsistentRead()); err != nil || got.Any == nil {
		t.Fatalf("stored %+v, %v", got, err)
	} else if _, isList := got.Any.([]any); !isList {
		t.Fatalf("the stored item changed: any = %#v", got.Any)
	}
}
