package keyfirst_test

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

func TestGetRequestAndAnswers(t *testing.T) {
	s := newShop(t, "")
	ctx := context.Background()
	c := Customer{ID: "c1", Name: "Ana"}
	k := mustKey(t, s.customers, c)

	t.Run("consistent read and capacity", func(t *testing.T) {
		api := &recordGet{item: mustItem(t, s.customers, c)}
		var cc keyfirst.Capacity
		got, err := s.customers.Get(ctx, api, k, keyfirst.ConsistentRead(), keyfirst.WithCapacity(&cc))
		if err != nil || got != c {
			t.Fatalf("got %+v %v", got, err)
		}
		if !aws.ToBool(api.in.ConsistentRead) || api.in.ReturnConsumedCapacity != types.ReturnConsumedCapacityIndexes ||
			aws.ToString(api.in.TableName) != "shop" || avText(api.in.Key["PK"]) != "CUST#c1" || avText(api.in.Key["SK"]) != "CUST#c1" {
			t.Fatalf("request %+v", api.in)
		}
	})
	tests := []struct {
		name     string
		item     map[string]types.AttributeValue
		sentinel error
	}{
		{"missing", nil, keyfirst.ErrNotFound},
		{"another type", mustItem(t, s.orders, order("c1", "o1", Open, day)), keyfirst.ErrWrongEntityType},
		{"undecodable", map[string]types.AttributeValue{"_type": sAV("CUSTOMER"), "admin": sAV("yes")}, keyfirst.ErrInvalidItem},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.customers.Get(ctx, &recordGet{item: tt.item}, k)
			var oe *keyfirst.OpError
			if !errors.Is(err, tt.sentinel) || !errors.As(err, &oe) || oe.Op != "Get" || oe.Entity != "CUSTOMER" || oe.Key != k.String() {
				t.Fatalf("err = %v", err)
			}
		})
	}
	t.Run("client error", func(t *testing.T) {
		_, err := s.customers.Get(ctx, failingGet{}, k)
		if !errors.Is(err, errThrottled) {
			t.Fatalf("err = %v", err)
		}
	})
}

type failingGet struct{}

func (failingGet) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return nil, errThrottled
}
