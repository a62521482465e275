package keyfirst_test

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/internal/observetest"
)

// Every item path shows its Observer the typed error the call returns
// (the same value, or one it wraps), with DynamoDB's error code beside it.
func TestObserverSeesTheCallsTypedError(t *testing.T) {
	client, s, rec := observedShop(t)
	ctx, cancel := integration.Context(t)
	defer cancel()
	const ccf = "ConditionalCheckFailedException"
	c := mustPut(t, client, s.customers, Customer{ID: "c1", Name: "Ann"})
	o := mustPut(t, client, s.orders, order("c1", "o1", Open, day))
	stale := o // version 1, after another write
	o.Total = 3
	o = mustPut(t, client, s.orders, o)
	missing := keyfirst.Must(s.orders.Key(order("c1", "nobody", Open, day)))
	gone := keyfirst.Must(s.table.Named(s.table.Name() + "-absent"))
	goneOrders := keyfirst.Must(s.orders.In(gone))
	acc := accounts(t)
	acc = keyfirst.Must(acc.In(acc.Table().Observed(rec)))

	cases := []struct {
		name string
		call func() error
		code string
		is   error
	}{
		{"Get of a missing item", func() error { _, err := s.orders.Get(ctx, client, missing); return err }, "", keyfirst.ErrNotFound},
		{"Put CreateOnly of a stored item", func() error {
			_, err := s.customers.Put(ctx, client, c, keyfirst.CreateOnly())
			return err
		}, ccf, keyfirst.ErrAlreadyExists},
		{"Replace of a stale version", func() error { _, err := s.orders.Replace(ctx, client, stale); return err }, ccf, keyfirst.ErrVersionConflict},
		{"Delete of a stale version", func() error { return s.orders.Delete(ctx, client, stale) }, ccf, keyfirst.ErrVersionConflict},
		{"Update of a missing item", func() error {
			_, err := acc.Update(ctx, client, keyfirst.Must(acc.Key(Account{ID: "nobody"})), keyfirst.Add("Balance", 1))
			return err
		}, ccf, keyfirst.ErrNotFound},
		{"Modify of a missing item", func() error {
			_, err := s.orders.Modify(ctx, client, missing, func(*Order) {})
			return err
		}, "", keyfirst.ErrNotFound},
		{"Modify that loses its race", func() error {
			_, err := s.orders.Modify(ctx, client, mustKey(t, s.orders, o), func(v *Order) {
				if _, err := s.orders.Replace(ctx, client, *v); err != nil {
					t.Error(err)
				}
				v.Total++
			}, keyfirst.WithMaxAttempts(1))
			return err
		}, ccf, keyfirst.ErrVersionConflict},
		{"BatchGet of a missing table", func() error {
			_, err := goneOrders.BatchGet(ctx, client, []keyfirst.Key[Order]{missing})
			return err
		}, "ResourceNotFoundException", keyfirst.ErrUnprocessed},
		{"BatchWrite to a missing table", func() error {
			return gone.BatchWrite(ctx, client, []keyfirst.WriteRequest{keyfirst.Must(s.customers.In(gone)).PutRequest(c)})
		}, "ResourceNotFoundException", keyfirst.ErrUnprocessed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec.Take()
			err := tc.call()
			if !errors.Is(err, tc.is) {
				t.Fatalf("the call returned %v, want %v", err, tc.is)
			}
			if msg := observetest.SameError(rec.Take(), err, tc.code); msg != "" {
				t.Error(msg)
			}
		})
	}

	// A failed condition's *ConditionError is shown with the item stored.
	rec.Take()
	_, err := s.customers.Put(ctx, client, c, keyfirst.CreateOnly())
	f, _ := observetest.Failed(rec.Take())
	var ce *keyfirst.ConditionError
	if !errors.As(f.Result.Err, &ce) || !ce.Found || len(ce.Item) == 0 || !errors.As(err, new(*keyfirst.ConditionError)) {
		t.Errorf("observed %v, want the *ConditionError with the stored item", f.Result.Err)
	}

	// Refresh's conflict is its result, not its error: the Observer sees it.
	old := oldShop(t, s.table)
	stored := mustPut(t, client, old.orders, order("c2", "o1", Open, day))
	read := storedOf(t, client, s.orders, stored)
	stored.Total = 7
	mustPut(t, client, old.orders, stored)
	rec.Take()
	res, err := s.orders.Refresh(ctx, client, read)
	if err != nil || res.Conflict == nil {
		t.Fatalf("Refresh of a stale image: %+v, %v", res, err)
	}
	f, _ = observetest.Failed(rec.Take())
	if !errors.As(f.Result.Err, &ce) || ce != res.Conflict || f.Result.Code != ccf {
		t.Errorf("observed %v (code %q), want the conflict Refresh returned, %v", f.Result.Err, f.Result.Code, res.Conflict)
	}
}

// A request of your own sent with Send is shown the SDK's error, with its
// code.
func TestSendShowsTheSDKsError(t *testing.T) {
	client, s, rec := observedShop(t)
	ctx, cancel := integration.Context(t)
	defer cancel()
	gone := keyfirst.Must(s.table.Named(s.table.Name() + "-absent"))
	in := &dynamodb.GetItemInput{TableName: aws.String(gone.Name()), Key: map[string]types.AttributeValue{"PK": sAV("x"), "SK": sAV("y")}}
	_, err := keyfirst.Send(ctx, gone, keyfirst.Request{Call: "raw SDK", Input: in},
		func(ctx context.Context) (*dynamodb.GetItemOutput, error) { return client.GetItem(ctx, in) })
	var rnf *types.ResourceNotFoundException
	if !errors.As(err, &rnf) {
		t.Fatalf("GetItem of a missing table: %v", err)
	}
	if msg := observetest.SameError(rec.Take(), err, "ResourceNotFoundException"); msg != "" {
		t.Error(msg)
	}
}
