package query_test

import (
	"context"
	"errors"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/observetest"
	"github.com/keyfirst/keyfirst/query"
)

// A query's and a scan's failed request shows its Observer the
// *RequestError the call returns, with DynamoDB's code.
func TestObserverSeesTheQuerysTypedError(t *testing.T) {
	client, s := localShop(t)
	rec := &observetest.Recorder{}
	gone := s.in(keyfirst.Must(s.table.Observed(rec).Named(s.table.Name() + "-absent")))
	ctx := context.Background()
	for name, call := range map[string]func() error{
		"Query": func() error { _, err := query.On(gone.orders, byStatusDate, "c1").Collect(ctx, client); return err },
		"Scan": func() error {
			_, err := query.ScanOn(gone.customers, customerIndex).Segments(2).Collect(ctx, client)
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			rec.Take()
			err := call()
			var re *query.RequestError
			if !errors.As(err, &re) || re.Op != name {
				t.Fatalf("a %s of a missing table: %v, want a *RequestError", name, err)
			}
			if msg := observetest.SameError(rec.Take(), err, "ResourceNotFoundException"); msg != "" {
				t.Error(msg)
			}
		})
	}
}
