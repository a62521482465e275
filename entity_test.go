package keyfirst_test

import (
	"errors"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
)

// rawShop is the shop table's primary key with raw sides, for the
// entity types of the tests that need any key at all (rawKey).
var rawShop = keyfirst.OnTable(keyfirst.Str("PK"), keyfirst.Str("SK"))

// rawKey binds rawShop to a function of T that gives every item the same
// key.
func rawKey[T any]() keyfirst.Binding {
	return keyfirst.Func(rawShop, func(T) (string, string, bool) { return "p", "s", true })
}

func TestNewEntityRefusesBadSpecs(t *testing.T) {
	type withPK struct {
		PK string `dynamodbav:"PK"`
	}
	type withType struct {
		Kind string `dynamodbav:"_type"`
	}
	type withGSI1PK struct {
		A string `dynamodbav:"GSI1PK"`
	}
	type boolStatus struct {
		Status bool `dynamodbav:"status"`
	}
	type numberCustomer struct {
		Customer int `dynamodbav:"customer"`
	}
	type stringVersion struct {
		V string `dynamodbav:"v"`
	}
	type totalled struct {
		Total int64 `dynamodbav:"total"`
	}
	type openFields struct {
		Bucket string `dynamodbav:"openBucket,omitempty"`
		Total  int64  `dynamodbav:"total"`
	}
	withKeys := func(bs ...keyfirst.Binding) keyfirst.EntitySpec[Order] {
		sp := orderSpec()
		sp.Keys = bs
		return sp
	}
	rawGSI1 := keyfirst.OnIndex("GSI1", keyfirst.Str("GSI1PK"), keyfirst.Str("GSI1SK"))
	tests := []struct {
		name    string
		run     func(*keyfirst.Table) error
		problem keyfirst.EntityProblem
		index   string
		attr    string
	}{
		{"nil table", func(*keyfirst.Table) error {
			_, err := keyfirst.NewEntity(nil, orderSpec())
			return err
		}, keyfirst.EntityNoTable, "", ""},
		{"no type name", func(tb *keyfirst.Table) error {
			sp := orderSpec()
			sp.Type = ""
			_, err := keyfirst.NewEntity(tb, sp)
			return err
		}, keyfirst.EntityTypeName, "", ""},
		{"T not a struct", func(tb *keyfirst.Table) error {
			_, err := keyfirst.NewEntity(tb, keyfirst.EntitySpec[string]{Type: "S", Keys: []keyfirst.Binding{rawKey[string]()}})
			return err
		}, keyfirst.EntityGoType, "", ""},
		{"no binding of the table's key", func(tb *keyfirst.Table) error {
			_, err := keyfirst.NewEntity(tb, withKeys(orderSpec().Keys[1:]...))
			return err
		}, keyfirst.EntityMissingKey, "", "PK"},
		{"sort key on a table without one", func(*keyfirst.Table) error {
			tb, _ := keyfirst.NewTable(keyfirst.TableSpec{Name: "flat", PartitionKey: keyfirst.StringAttr("id")})
			_, err := keyfirst.NewEntity(tb, withKeys(shopOrders.Fields("Customer", "ID")))
			return err
		}, keyfirst.EntityPattern, "", ""},
		{"unknown index", func(tb *keyfirst.Table) error {
			gsi9 := keyfirst.OnIndex("GSI9", keyfirst.Str("GSI9PK"), keyfirst.NoSort())
			_, err := keyfirst.NewEntity(tb, withKeys(shopOrders.Fields("Customer", "ID"),
				keyfirst.Func(gsi9, func(Order) (string, keyfirst.None, bool) { return "x", keyfirst.None{}, true })))
			return err
		}, keyfirst.EntityUnknownIndex, "GSI9", ""},
		{"attribute of another index", func(tb *keyfirst.Table) error {
			other := keyfirst.OnIndex("GSI1", keyfirst.Str("openBucket"), keyfirst.Str("GSI1SK"))
			_, err := keyfirst.NewEntity(tb, withKeys(shopOrders.Fields("Customer", "ID"),
				keyfirst.Func(other, func(Order) (string, string, bool) { return "x", "y", true })))
			return err
		}, keyfirst.EntityPattern, "GSI1", ""},
		{"nil function", func(tb *keyfirst.Table) error {
			_, err := keyfirst.NewEntity(tb, withKeys(shopOrders.Fields("Customer", "ID"),
				keyfirst.Func[Order](rawGSI1, nil)))
			return err
		}, keyfirst.EntityBinding, "GSI1", ""},
		{"table key derived under an LSI", func(tb *keyfirst.Table) error {
			byTotal := keyfirst.OnIndex("by-total", keyfirst.Str("PK"), keyfirst.Num[int64]("total"))
			_, err := keyfirst.NewEntity(tb, withKeys(shopOrders.Fields("Customer", "ID"),
				keyfirst.Func(byTotal, func(o Order) (string, int64, bool) { return "x", o.Total, true })))
			return err
		}, keyfirst.EntityDerivedTwice, "by-total", "PK"},
		{"attribute derived under two indexes", func(*keyfirst.Table) error {
			spec := shopSpec()
			spec.GSIs[2].SortKey = []keyfirst.Attribute{keyfirst.StringAttr("GSI1SK")}
			tb, _ := keyfirst.NewTable(spec)
			open := keyfirst.OnIndex("open-orders", keyfirst.Const("openBucket", "OPEN"), keyfirst.Str("GSI1SK"))
			_, err := keyfirst.NewEntity(tb, withKeys(orderSpec().Keys[0], orderSpec().Keys[1],
				keyfirst.Func(open, func(o Order) (keyfirst.None, string, bool) { return keyfirst.None{}, "x", isOpen(o) })))
			return err
		}, keyfirst.EntityDerivedTwice, "open-orders", "GSI1SK"},
		{"field named like the partition key", func(tb *keyfirst.Table) error {
			_, err := keyfirst.NewEntity(tb, keyfirst.EntitySpec[withPK]{Type: "W", Keys: []keyfirst.Binding{
				keyfirst.Func(rawShop, func(w withPK) (string, string, bool) { return w.PK, w.PK, true })}})
			return err
		}, keyfirst.EntityFieldCollision, "", "PK"},
		{"field named like the type attribute", func(tb *keyfirst.Table) error {
			_, err := keyfirst.NewEntity(tb, keyfirst.EntitySpec[withType]{Type: "W", Keys: []keyfirst.Binding{rawKey[withType]()}})
			return err
		}, keyfirst.EntityFieldCollision, "", "_type"},
		{"field named like a derived attribute", func(tb *keyfirst.Table) error {
			_, err := keyfirst.NewEntity(tb, keyfirst.EntitySpec[withGSI1PK]{Type: "W", Keys: []keyfirst.Binding{rawKey[withGSI1PK](),
				keyfirst.Func(rawGSI1, func(withGSI1PK) (string, string, bool) { return "p", "s", true })}})
			return err
		}, keyfirst.EntityFieldCollision, "", "GSI1PK"},
		{"bool field as a string index key", func(tb *keyfirst.Table) error {
			_, err := keyfirst.NewEntity(tb, keyfirst.EntitySpec[boolStatus]{Type: "W", Keys: []keyfirst.Binding{rawKey[boolStatus]()}})
			return err
		}, keyfirst.EntityFieldType, "by-status", "status"},
		{"number field as a string index key", func(tb *keyfirst.Table) error {
			_, err := keyfirst.NewEntity(tb, keyfirst.EntitySpec[numberCustomer]{Type: "W", Keys: []keyfirst.Binding{rawKey[numberCustomer]()}})
			return err
		}, keyfirst.EntityFieldType, "by-status", "customer"},
		{"version not a field", func(tb *keyfirst.Table) error {
			sp := orderSpec()
			sp.Version = "rev"
			_, err := keyfirst.NewEntity(tb, sp)
			return err
		}, keyfirst.EntityVersion, "", "rev"},
		{"version not an integer", func(tb *keyfirst.Table) error {
			_, err := keyfirst.NewEntity(tb, keyfirst.EntitySpec[stringVersion]{Type: "W", Keys: []keyfirst.Binding{rawKey[stringVersion]()}, Version: "v"})
			return err
		}, keyfirst.EntityVersion, "", "v"},
		{"version that is a key", func(tb *keyfirst.Table) error {
			sp := orderSpec()
			sp.Version = "total"
			_, err := keyfirst.NewEntity(tb, sp)
			return err
		}, keyfirst.EntityVersion, "", "total"},
		{"second type deriving the keys of a Scannable index", func(tb *keyfirst.Table) error {
			_, err := keyfirst.NewEntity(tb, keyfirst.EntitySpec[totalled]{Type: "W", Keys: []keyfirst.Binding{rawKey[totalled](),
				keyfirst.If(shopOpen.Fields("Total"), func(totalled) bool { return true })}})
			return err
		}, keyfirst.EntityScannableShared, "open-orders", ""},
		{"second type whose fields are the keys of a Scannable index", func(tb *keyfirst.Table) error {
			_, err := keyfirst.NewEntity(tb, keyfirst.EntitySpec[openFields]{Type: "W", Keys: []keyfirst.Binding{rawKey[openFields]()}})
			return err
		}, keyfirst.EntityScannableShared, "open-orders", ""},
		{"type registered twice", func(tb *keyfirst.Table) error {
			sp := customerSpec()
			sp.Type = "ORDER"
			_, err := keyfirst.NewEntity(tb, sp)
			return err
		}, keyfirst.EntityDuplicateType, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			table := newShop(t, "").table
			err := tt.run(table)
			var ee *keyfirst.EntityError
			if !errors.As(err, &ee) || !errors.Is(err, keyfirst.ErrInvalidEntity) {
				t.Fatalf("err = %v, want an *EntityError wrapping ErrInvalidEntity", err)
			}
			if ee.Problem != tt.problem || ee.Index != tt.index || ee.Attribute != tt.attr {
				t.Fatalf("got problem %q index %q attribute %q, want %q %q %q (%v)",
					ee.Problem, ee.Index, ee.Attribute, tt.problem, tt.index, tt.attr, err)
			}
			if got := table.EntityTypes(); !reflect.DeepEqual(got, []string{"ORDER", "CUSTOMER"}) {
				t.Fatalf("a refused entity was registered: %v", got)
			}
		})
	}
}

// A Scannable index refuses only the entity types that can be in it: one
// with the sort key field but not the partition key is welcome.
func TestScannableIndexAcceptsTypesThatCannotBeInIt(t *testing.T) {
	type totalled struct {
		Total int64 `dynamodbav:"total"`
	}
	table := newShop(t, "").table
	if _, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[totalled]{Type: "W", Keys: []keyfirst.Binding{rawKey[totalled]()}}); err != nil {
		t.Fatalf("an entity type that can never be in open-orders is refused: %v", err)
	}
}

func sortedNames(m map[string]types.AttributeValue) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sValue(t *testing.T, m map[string]types.AttributeValue, name string) string {
	t.Helper()
	s, ok := m[name].(*types.AttributeValueMemberS)
	if !ok {
		t.Fatalf("%s is %T, want S", name, m[name])
	}
	return s.Value
}

func TestItemDerivesEveryKey(t *testing.T) {
	s := newShop(t, "")
	placed := time.Date(2019, 7, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		order   Order
		present []string
		values  map[string]string
	}{
		{
			name:    "open order: in GSI1, by-status, open-orders, by-total",
			order:   Order{Customer: "c1", ID: "o1", Status: Open, PlacedAt: placed, Total: 5, Version: 2},
			present: []string{"GSI1PK", "GSI1SK", "PK", "SK", "_type", "customer", "id", "openBucket", "placedAt", "status", "total", "version"},
			values: map[string]string{"PK": "CUST#c1", "SK": "ORDER#o1", "GSI1PK": "CUST#c1",
				"GSI1SK": "OPEN#2019-07-01T12:00:00.000000Z", "openBucket": "OPEN", "_type": "ORDER"},
		},
		{
			name:    "shipped order: not in open-orders (sparse), no placeholder",
			order:   Order{Customer: "c1", ID: "o1", Status: Shipped, PlacedAt: placed, Note: "gift", Tags: []string{"x"}},
			present: []string{"GSI1PK", "GSI1SK", "PK", "SK", "_type", "customer", "id", "note", "placedAt", "status", "tags", "total", "version"},
			values:  map[string]string{"GSI1SK": "SHIPPED#2019-07-01T12:00:00.000000Z", "note": "gift"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			item, err := s.orders.Item(tt.order)
			if err != nil {
				t.Fatal(err)
			}
			if got := sortedNames(item); !reflect.DeepEqual(got, tt.present) {
				t.Fatalf("attributes %v\nwant %v", got, tt.present)
			}
			for k, v := range tt.values {
				if got := sValue(t, item, k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
			back, err := s.orders.Decode(item)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, tt.order) {
				t.Fatalf("round trip: %+v\nwant %+v", back, tt.order)
			}
		})
	}
	// Index membership read from the item.
	open := mustItem(t, s.orders, Order{Customer: "c1", ID: "o1", Status: Open, PlacedAt: placed})
	shipped := mustItem(t, s.orders, Order{Customer: "c1", ID: "o1", Status: Shipped, PlacedAt: placed})
	for _, ix := range s.table.Indexes() {
		wantOpen, wantShipped := true, ix.IndexName != "open-orders"
		if ix.Contains(open) != wantOpen || ix.Contains(shipped) != wantShipped {
			t.Errorf("%s: Contains(open) %v, Contains(shipped) %v", ix.IndexName, ix.Contains(open), ix.Contains(shipped))
		}
	}
	if !s.table.PrimaryKey().Contains(open) {
		t.Error("the primary key does not contain the item")
	}

	// A customer: admins enter GSI1 under "ADMIN" (sparse, form 1).
	admin := mustItem(t, s.customers, Customer{ID: "c1", Name: "Ana", Admin: true})
	plain := mustItem(t, s.customers, Customer{ID: "c2", Name: "Bo"})
	if sValue(t, admin, "GSI1PK") != "ADMIN" || sValue(t, admin, "GSI1SK") != "CUST#c1" {
		t.Fatalf("admin item %v", sortedNames(admin))
	}
	if _, in := plain["GSI1PK"]; in {
		t.Fatal("a non-admin carries GSI1PK")
	}
	if _, in := plain["GSI1SK"]; in {
		t.Fatal("a non-admin carries GSI1SK: derivations of one index are all-or-nothing")
	}
}

func TestKey(t *testing.T) {
	s := newShop(t, "")
	k1 := mustKey(t, s.orders, Order{Customer: "c1", ID: "o1"})
	k2 := mustKey(t, s.orders, Order{Customer: "c1", ID: "o1", Status: Shipped, Total: 9})
	k3 := mustKey(t, s.orders, Order{Customer: "c1", ID: "o2"})
	if k1 != k2 || k1 == k3 || k1.IsZero() || !(keyfirst.Key[Order]{}).IsZero() {
		t.Fatalf("keys %v %v %v", k1, k2, k3)
	}
	if got := k1.String(); got != `("CUST#c1", "ORDER#o1")` {
		t.Fatalf("String() = %s", got)
	}
	set := map[keyfirst.Key[Order]]bool{k1: true, k2: true, k3: true}
	if len(set) != 2 {
		t.Fatal("keys are not usable as map keys")
	}
	_, err := s.orders.Key(Order{ID: "o1"})
	var ie *keyfirst.ItemError
	if !errors.As(err, &ie) || ie.Problem != keyfirst.ItemDerive || ie.Attribute != "PK" || !errors.Is(err, keys.ErrEmpty) {
		t.Fatalf("missing customer: %v", err)
	}
}

func TestEntityAccessors(t *testing.T) {
	s := newShop(t, "")
	if s.orders.Table() != s.table || s.orders.Type() != "ORDER" || s.orders.VersionAttribute() != "version" ||
		s.customers.VersionAttribute() != "" {
		t.Fatal("accessors")
	}
	want := []string{"customer", "id", "status", "placedAt", "total", "tags", "note", "version"}
	if got := s.orders.Attributes(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Attributes() = %v", got)
	}
}

// Profile has fields the codec leaves to attributevalue (a map, a nested
// struct) and an embedded pointer: the reflection path.
type Audit struct {
	By string `dynamodbav:"by"`
}

type Profile struct {
	*Audit
	ID      string            `dynamodbav:"id"`
	Labels  map[string]string `dynamodbav:"labels"`
	Address struct{ City string }
	Rev     int32 `dynamodbav:"rev"`
}

func TestEntityWithReflectedFields(t *testing.T) {
	table, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "profiles", PartitionKey: keyfirst.StringAttr("PK")})
	if err != nil {
		t.Fatal(err)
	}
	byID := keyfirst.OnTable(keyfirst.Composite("PK", keys.NewKey1(keys.ID[string](), keys.WithPrefix("P"))), keyfirst.NoSort())
	profiles, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Profile]{
		Type:    "PROFILE",
		Keys:    []keyfirst.Binding{byID.Fields("ID")},
		Version: "rev",
	})
	if err != nil {
		t.Fatal(err)
	}
	p := Profile{Audit: &Audit{By: "ana"}, ID: "p1", Labels: map[string]string{"tier": "gold"}, Rev: 4}
	p.Address.City = "Porto"
	item := mustItem(t, profiles, p)
	if avText(item["by"]) != "ana" || avText(item["rev"]) != "4" {
		t.Fatalf("item %v", item)
	}
	back, err := profiles.Decode(item)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, p) {
		t.Fatalf("round trip %+v, want %+v", back, p)
	}

	type Versioned struct{ Rev int64 }
	type hidden struct {
		*Versioned
		ID string
	}
	_, err = keyfirst.NewEntity(table, keyfirst.EntitySpec[hidden]{
		Type:    "HIDDEN",
		Keys:    []keyfirst.Binding{byID.Fields("ID")},
		Version: "Rev",
	})
	var ee *keyfirst.EntityError
	if !errors.As(err, &ee) || ee.Problem != keyfirst.EntityVersion {
		t.Fatalf("version behind an embedded pointer: %v", err)
	}
}
