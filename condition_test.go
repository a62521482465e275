package keyfirst_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// refusingPut answers every PutItem with a failed condition and the stored
// item DynamoDB returns with it, and records the request.
type refusingPut struct {
	old map[string]types.AttributeValue
	in  *dynamodb.PutItemInput
}

func (r *refusingPut) PutItem(_ context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	r.in = in
	return nil, &types.ConditionalCheckFailedException{Message: ptr("The conditional request failed"), Item: r.old}
}

// TestConditionFailuresAreClassified: the stored item returned with the
// failure (ALL_OLD) tells which error the caller gets.
func TestConditionFailuresAreClassified(t *testing.T) {
	s := newShop(t, "")
	ghosts, err := keyfirst.NewEntity(s.table, ghostSpec())
	if err != nil {
		t.Fatal(err)
	}
	o := order("c1", "o1", Open, day)
	storedV7 := o
	storedV7.Version = 7
	c := Customer{ID: "c1"}
	tests := []struct {
		name     string
		put      func(api *refusingPut) error
		old      map[string]types.AttributeValue
		sentinel error
		want     keyfirst.ConditionError
	}{
		{"create over an existing item", func(api *refusingPut) error { _, err := s.orders.Put(context.Background(), api, o); return err },
			mustItem(t, s.orders, storedV7), keyfirst.ErrAlreadyExists,
			keyfirst.ConditionError{Err: keyfirst.ErrAlreadyExists, Versioned: true, Found: true, FoundType: "ORDER", Actual: 7}},
		{"stale version", func(api *refusingPut) error {
			v := o
			v.Version = 5
			_, err := s.orders.Put(context.Background(), api, v)
			return err
		}, mustItem(t, s.orders, storedV7), keyfirst.ErrVersionConflict,
			keyfirst.ConditionError{Err: keyfirst.ErrVersionConflict, Versioned: true, Expected: 5, Actual: 7, Found: true, FoundType: "ORDER"}},
		{"version of a deleted item", func(api *refusingPut) error {
			v := o
			v.Version = 5
			_, err := s.orders.Put(context.Background(), api, v)
			return err
		}, nil, keyfirst.ErrVersionConflict, keyfirst.ConditionError{Err: keyfirst.ErrVersionConflict, Versioned: true, Expected: 5}},
		{"plain put over another type", func(api *refusingPut) error {
			_, err := s.customers.Put(context.Background(), api, c)
			return err
		}, mustItem(t, ghosts, c), keyfirst.ErrWrongEntityType,
			keyfirst.ConditionError{Err: keyfirst.ErrWrongEntityType, Found: true, FoundType: "GHOST"}},
		{"create-only over another type", func(api *refusingPut) error {
			_, err := s.customers.Put(context.Background(), api, c, keyfirst.CreateOnly())
			return err
		}, mustItem(t, ghosts, c), keyfirst.ErrAlreadyExists,
			keyfirst.ConditionError{Err: keyfirst.ErrAlreadyExists, Found: true, FoundType: "GHOST"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := &refusingPut{old: tt.old}
			err := tt.put(api)
			var ce *keyfirst.ConditionError
			tt.want.Item = tt.old // the stored item DynamoDB returned, as it is
			if !errors.Is(err, tt.sentinel) || !errors.As(err, &ce) || !reflect.DeepEqual(*ce, tt.want) {
				t.Fatalf("err = %v (%+v)", err, ce)
			}
			if api.in.ReturnValuesOnConditionCheckFailure != types.ReturnValuesOnConditionCheckFailureAllOld || api.in.ConditionExpression == nil {
				t.Fatalf("request %+v", api.in)
			}
		})
	}
}
