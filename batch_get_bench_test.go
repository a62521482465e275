package keyfirst_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/wirebody"

	"github.com/keyfirst/keyfirst/internal/benchorder"
)

// The cost of a batch read, keyfirst (BenchmarkBatchGet/N/keyfirst:
// Entity.BatchGet of N keys) beside the hand-written twin
// (BenchmarkBatchGet/N/hand: each request of 100 keys built by hand,
// sent, its items decoded by hand and put back in the order of the keys,
// as DynamoDB returns them in no particular order), against a fake API
// that answers every key, at 25, 100 and 1,000 keys.
// TestBatchGetTwinsAgree proves that both send the same requests and
// return the same customers. Run with
//
//	go run ./internal/benchratio -bench BatchGet .

// fakeBatchGetter answers each key with its item, in the reverse order of
// the request.
type fakeBatchGetter struct {
	items map[string]map[string]types.AttributeValue // by PK
}

func (f *fakeBatchGetter) BatchGetItem(_ context.Context, in *dynamodb.BatchGetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	out := &dynamodb.BatchGetItemOutput{Responses: map[string][]map[string]types.AttributeValue{}}
	for table, ka := range in.RequestItems {
		got := make([]map[string]types.AttributeValue, 0, len(ka.Keys))
		for i := len(ka.Keys) - 1; i >= 0; i-- {
			if item, ok := f.items[ka.Keys[i]["PK"].(*types.AttributeValueMemberS).Value]; ok {
				got = append(got, item)
			}
		}
		out.Responses[table] = got
	}
	return out, nil
}

// newFakeBatchGetter answers the customers cs.
func newFakeBatchGetter(cs []Customer) *fakeBatchGetter {
	f := &fakeBatchGetter{items: make(map[string]map[string]types.AttributeValue, len(cs))}
	for _, c := range cs {
		f.items["CUST#"+c.ID] = handCustomer(c)
	}
	return f
}

var errNotACustomer = errors.New("not a customer")

// customerByHand decodes a customer's item as a hand-written program
// does: the entity type checked, each field by its type.
func customerByHand(item map[string]types.AttributeValue) (Customer, error) {
	if t, ok := item["_type"].(*types.AttributeValueMemberS); !ok || t.Value != "CUSTOMER" {
		return Customer{}, errNotACustomer
	}
	id, ok1 := item["id"].(*types.AttributeValueMemberS)
	name, ok2 := item["name"].(*types.AttributeValueMemberS)
	admin, ok3 := item["admin"].(*types.AttributeValueMemberBOOL)
	if !ok1 || !ok2 || !ok3 {
		return Customer{}, fmt.Errorf("a customer's attribute of another type: %v", item)
	}
	return Customer{ID: id.Value, Name: name.Value, Admin: admin.Value}, nil
}

// handBatchGet reads the customers with ids as a hand-written program
// does: requests of 100 keys, the items found put back in the order of
// ids.
func handBatchGet(ctx context.Context, api keyfirst.BatchGetItemAPI, table string, ids []string) ([]Customer, error) {
	found := make([]Customer, len(ids))
	have := make([]bool, len(ids))
	at := make(map[string]int, min(keyfirst.MaxBatchGet, len(ids)))
	for start := 0; start < len(ids); start += keyfirst.MaxBatchGet {
		chunk := ids[start:min(start+keyfirst.MaxBatchGet, len(ids))]
		ks := make([]map[string]types.AttributeValue, len(chunk))
		clear(at)
		for i, id := range chunk {
			pk := "CUST#" + id
			ks[i] = map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: pk}}
			at[pk] = start + i
		}
		out, err := api.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{table: {Keys: ks}}})
		if err != nil {
			return nil, err
		}
		for _, item := range out.Responses[table] {
			c, err := customerByHand(item)
			if err != nil {
				return nil, err
			}
			i := at["CUST#"+c.ID]
			found[i], have[i] = c, true
		}
	}
	out := found[:0]
	for i := range found {
		if have[i] {
			out = append(out, found[i])
		}
	}
	return out, nil
}

// batchGetKeys are the keys and ids of cs.
func batchGetKeys(tb testing.TB, s shop, cs []Customer) ([]keyfirst.Key[Customer], []string) {
	ks, ids := make([]keyfirst.Key[Customer], len(cs)), make([]string, len(cs))
	for i, c := range cs {
		k, err := s.customers.Key(c)
		if err != nil {
			tb.Fatal(err)
		}
		ks[i], ids[i] = k, c.ID
	}
	return ks, ids
}

func BenchmarkBatchGet(b *testing.B) {
	r := benchorder.New(b)
	defer r.Done()
	s := newShop(b, "bench")
	ctx := context.Background()
	for _, n := range []int{25, 100, 1000} {
		cs := customers(n)
		api := newFakeBatchGetter(cs)
		ks, ids := batchGetKeys(b, s, cs)
		r.Run(fmt.Sprintf("%d/keyfirst", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.customers.BatchGet(ctx, api, ks); err != nil {
					b.Fatal(err)
				}
			}
		})
		r.Run(fmt.Sprintf("%d/hand", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := handBatchGet(ctx, api, s.table.Name(), ids); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestBatchGetTwinsAgree: the twins of BenchmarkBatchGet send the same
// requests, in the same order (the bodies the SDK serializes, with their
// object keys sorted, are the same bytes), and return the same customers,
// in the order of the keys, from the fake's answers in reverse order.
func TestBatchGetTwinsAgree(t *testing.T) {
	s := newShop(t, "bench")
	ctx := context.Background()
	cs := customers(250)
	ks, ids := batchGetKeys(t, s, cs)
	mine, hand := &wirebody.Recorder{Keep: true}, &wirebody.Recorder{Keep: true}
	if _, err := s.customers.BatchGet(ctx, wirebody.Client(mine), ks); err != nil {
		t.Fatal(err)
	}
	if _, err := handBatchGet(ctx, wirebody.Client(hand), s.table.Name(), ids); err != nil {
		t.Fatal(err)
	}
	sameRequests(t, mine, hand, 3, func(i int) string { return fmt.Sprintf(`"CUST#%s"`, cs[100*i].ID) }, nil)
	api := newFakeBatchGetter(cs[:200]) // the last 50 not found
	got, err := s.customers.BatchGet(ctx, api, ks)
	if err != nil {
		t.Fatal(err)
	}
	byHand, err := handBatchGet(ctx, api, s.table.Name(), ids)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, byHand) || !slices.Equal(got, cs[:200]) {
		t.Fatalf("keyfirst read %d customers, the hand-written twin %d; want the first 200 in order", len(got), len(byHand))
	}
}
