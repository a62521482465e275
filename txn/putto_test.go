package txn_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// Stamped is an entity with a created time, whose put is an Update.
type Stamped struct {
	ID      string    `dynamodbav:"id"`
	Created time.Time `dynamodbav:"created"`
}

var stamped = keyfirst.Must(keyfirst.NewEntity(shopTable, keyfirst.EntitySpec[Stamped]{
	Type: "STAMPED", Keys: []keyfirst.Binding{typedKey("STAMPED").Fields("ID")}, Created: "Created",
	Clock: func() time.Time { return time.Date(2026, 6, 23, 10, 0, 0, 0, time.UTC) },
}))

// TestTransactPutToIsTransactPut proves that TransactPutTo builds what
// TransactPut returns, the action and the item as stored (a version
// incremented), in the action and the Put given, and that it leaves them
// unchanged when it refuses the put.
func TestTransactPutToIsTransactPut(t *testing.T) {
	createOnly := keyfirst.TransactOptions{CreateOnly: true}
	cond := keyfirst.TransactOptions{Condition: keyfirst.Field("Status").Eq(Open)}
	o := order("c1", "o1", Open, "2026-06-23T10:00:00Z")
	putToAgrees(t, orders, o, keyfirst.TransactOptions{}, true)
	putToAgrees(t, orders, o, createOnly, true)
	putToAgrees(t, orders, o, cond, true)
	putToAgrees(t, products, Product{ID: "p1", Name: "pen", Stock: 3, Version: 4}, keyfirst.TransactOptions{}, true)
	putToAgrees(t, users, User{ID: "u1", Name: "ann", Version: 2}, keyfirst.TransactOptions{}, true)
	putToAgrees(t, stamped, Stamped{ID: "s1"}, keyfirst.TransactOptions{}, false)

	// Refused: nothing given is changed.
	var w keyfirst.TransactWrite
	var put types.Put
	bad := order("c1", "", Open, "2026-06-23T10:00:00Z") // no id: no key
	read := keyfirst.TransactOptions{Read: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "x"}}}
	for _, c := range []struct {
		item Order
		o    keyfirst.TransactOptions
	}{{bad, keyfirst.TransactOptions{}}, {o, read}} {
		if err := orders.TransactPutTo(&w, &put, &c.item, &c.o); err == nil {
			t.Fatalf("TransactPutTo(%+v, %+v) succeeded", c.item, c.o)
		}
		if !reflect.DeepEqual(w, keyfirst.TransactWrite{}) || !reflect.DeepEqual(put, types.Put{}) {
			t.Errorf("a refused TransactPutTo changed the action to %+v, the Put to %+v", w, put)
		}
	}
}

// putToAgrees checks TransactPutTo against TransactPut for item; isPut:
// the action is a Put, built in the Put given.
func putToAgrees[T any](t *testing.T, e *keyfirst.Entity[T], item T, o keyfirst.TransactOptions, isPut bool) {
	t.Helper()
	want, wantItem, err := e.TransactPut(item, o)
	if err != nil {
		t.Fatal(err)
	}
	var w keyfirst.TransactWrite
	var put types.Put
	got := item
	if err := e.TransactPutTo(&w, &put, &got, &o); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, wantItem) {
		t.Errorf("%s: item as stored %+v, TransactPut's %+v", e.Type(), got, wantItem)
	}
	a, b := w.Action(), want.Action()
	if isPut != (a.Put == &put) {
		t.Errorf("%s: the action's Put is %p, the Put given %p (a put: %v)", e.Type(), a.Put, &put, isPut)
	}
	if !reflect.DeepEqual(a, b) || w.ID() != want.ID() || w.Size() != want.Size() || w.Entity() != want.Entity() || w.Key() != want.Key() {
		t.Errorf("%s: TransactPutTo built\n%+v\nTransactPut\n%+v", e.Type(), w, want)
	}
	stored, _ := e.Item(wantItem)
	stored["_type"] = &types.AttributeValueMemberS{Value: "OTHER"}
	if ew, ewant := w.Explain(stored), want.Explain(stored); ew == nil || ewant == nil || ew.Error() != ewant.Error() {
		t.Errorf("%s: explained %v, TransactPut's %v", e.Type(), ew, ewant)
	}
}
