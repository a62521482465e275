package keyfirst_test

import (
	"errors"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

func TestNewEntityRefusesBadSpecs(t *testing.T) {
	str := func(string) keyfirst.Derive[Order] {
		return keyfirst.DeriveString(func(Order) (string, error) { return "x", nil })
	}
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
	type placed struct {
		PlacedAt string `dynamodbav:"placedAt"`
	}
	type openFields struct {
		Bucket   string `dynamodbav:"openBucket,omitempty"`
		PlacedAt string `dynamodbav:"placedAt"`
	}
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
			_, err := keyfirst.NewEntity(tb, keyfirst.EntitySpec[string]{Type: "S",
				PartitionKey: keyfirst.DeriveString(func(s string) (string, error) { return s, nil })})
			return err
		}, keyfirst.EntityGoType, "", ""},
		{"no partition key", func(tb *keyfirst.Table) error {
			sp := orderSpec()
			sp.PartitionKey = nil
			_, err := keyfirst.NewEntity(tb, sp)
			return err
		}, keyfirst.EntityMissingKey, "", "PK"},
		{"no sort key", func(tb *keyfirst.Table) error {
			sp := orderSpec()
			sp.SortKey = nil
			_, err := keyfirst.NewEntity(tb, sp)
			return err
		}, keyfirst.EntityMissingKey, "", "SK"},
		{"sort key on a table without one", func(*keyfirst.Table) error {
			tb, _ := keyfirst.NewTable(keyfirst.TableSpec{Name: "flat", PartitionKey: keyfirst.StringAttr("id")})
			sp := orderSpec()
			sp.Indexes = nil
			_, err := keyfirst.NewEntity(tb, sp)
			return err
		}, keyfirst.EntityNoSortKey, "", ""},
		{"unknown index", func(tb *keyfirst.Table) error {
			sp := orderSpec()
			sp.Indexes["GSI9"] = keyfirst.IndexKeys[Order]{"GSI9PK": str("")}
			_, err := keyfirst.NewEntity(tb, sp)
			return err
		}, keyfirst.EntityUnknownIndex, "GSI9", ""},
		{"empty index name", func(tb *keyfirst.Table) error {
			sp := orderSpec()
			sp.Indexes[""] = keyfirst.IndexKeys[Order]{"PK": str("")}
			_, err := keyfirst.NewEntity(tb, sp)
			return err
		}, keyfirst.EntityUnknownIndex, "", ""},
		{"attribute of another index", func(tb *keyfirst.Table) error {
			sp := orderSpec()
			sp.Indexes["GSI1"]["openBucket"] = str("")
			_, err := keyfirst.NewEntity(tb, sp)
			return err
		}, keyfirst.EntityNotIndexAttribute, "GSI1", "openBucket"},
		{"nil derivation", func(tb *keyfirst.Table) error {
			sp := orderSpec()
			sp.Indexes["GSI1"]["GSI1SK"] = nil
			_, err := keyfirst.NewEntity(tb, sp)
			return err
		}, keyfirst.EntityNilDerivation, "GSI1", "GSI1SK"},
		{"table key derived under an LSI", func(tb *keyfirst.Table) error {
			sp := orderSpec()
			sp.Indexes["by-total"] = keyfirst.IndexKeys[Order]{"PK": str("")}
			_, err := keyfirst.NewEntity(tb, sp)
			return err
		}, keyfirst.EntityDerivedTwice, "by-total", "PK"},
		{"attribute derived under two indexes", func(*keyfirst.Table) error {
			spec := shopSpec()
			spec.GSIs[2].SortKey = []keyfirst.Attribute{keyfirst.StringAttr("GSI1SK")}
			tb, _ := keyfirst.NewTable(spec)
			sp := orderSpec()
			sp.Indexes["open-orders"]["GSI1SK"] = str("")
			_, err := keyfirst.NewEntity(tb, sp)
			return err
		}, keyfirst.EntityDerivedTwice, "open-orders", "GSI1SK"},
		{"field named like the partition key", func(tb *keyfirst.Table) error {
			_, err := keyfirst.NewEntity(tb, keyfirst.EntitySpec[withPK]{Type: "W",
				PartitionKey: keyfirst.DeriveString(func(w withPK) (string, error) { return w.PK, nil }),
				SortKey:      keyfirst.DeriveString(func(w withPK) (string, error) { return w.PK, nil })})
			return err
		}, keyfirst.EntityFieldCollision, "", "PK"},
		{"field named like the type attribute", func(tb *keyfirst.Table) error {
			_, err := keyfirst.NewEntity(tb, keyfirst.EntitySpec[withType]{Type: "W",
				PartitionKey: keyfirst.DeriveString(func(withType) (string, error) { return "p", nil }),
				SortKey:      keyfirst.DeriveString(func(withType) (string, error) { return "s", nil })})
			return err
		}, keyfirst.EntityFieldCollision, "", "_type"},
		{"field named like a derived attribute", func(tb *keyfirst.Table) error {
			d := keyfirst.DeriveString(func(withGSI1PK) (string, error) { return "p", nil })
			_, err := keyfirst.NewEntity(tb, keyfirst.EntitySpec[withGSI1PK]{Type: "W", PartitionKey: d, SortKey: d,
				Indexes: map[string]keyfirst.IndexKeys[withGSI1PK]{"GSI1": {"GSI1PK": d, "GSI1SK": d}}})
			return err
		}, keyfirst.EntityFieldCollision, "", "GSI1PK"},
		{"bool field as a string index key", func(tb *keyfirst.Table) error {
			d := keyfirst.DeriveString(func(boolStatus) (string, error) { return "p", nil })
			_, err := keyfirst.NewEntity(tb, keyfirst.EntitySpec[boolStatus]{Type: "W", PartitionKey: d, SortKey: d})
			return err
		}, keyfirst.EntityFieldType, "by-status", "status"},
		{"number field as a string index key", func(tb *keyfirst.Table) error {
			d := keyfirst.DeriveString(func(numberCustomer) (string, error) { return "p", nil })
			_, err := keyfirst.NewEntity(tb, keyfirst.EntitySpec[numberCustomer]{Type: "W", PartitionKey: d, SortKey: d})
			return err
		}, keyfirst.EntityFieldType, "by-status", "customer"},
		{"index that could never hold the item", func(tb *keyfirst.Table) error {
			d := keyfirst.DeriveString(func(Customer) (string, error) { return "p", nil })
			_, err := keyfirst.NewEntity(tb, keyfirst.EntitySpec[Customer]{Type: "W", PartitionKey: d, SortKey: d,
				Indexes: map[string]keyfirst.IndexKeys[Customer]{"open-orders": {"openBucket": d}}})
			return err
		}, keyfirst.EntityMissingKey, "open-orders", "placedAt"},
		{"version not a field", func(tb *keyfirst.Table) error {
			sp := orderSpec()
			sp.Version = "rev"
			_, err := keyfirst.NewEntity(tb, sp)
			return err
		}, keyfirst.EntityVersion, "", "rev"},
		{"version not an integer", func(tb *keyfirst.Table) error {
			d := keyfirst.DeriveString(func(stringVersion) (string, error) { return "p", nil })
			_, err := keyfirst.NewEntity(tb, keyfirst.EntitySpec[stringVersion]{Type: "W", PartitionKey: d, SortKey: d, Version: "v"})
			return err
		}, keyfirst.EntityVersion, "", "v"},
		{"version that is a key", func(tb *keyfirst.Table) error {
			sp := orderSpec()
			sp.Version = "total"
			_, err := keyfirst.NewEntity(tb, sp)
			return err
		}, keyfirst.EntityVersion, "", "total"},
		{"second type deriving the keys of a Scannable index", func(tb *keyfirst.Table) error {
			d := keyfirst.DeriveString(func(placed) (string, error) { return "p", nil })
			_, err := keyfirst.NewEntity(tb, keyfirst.EntitySpec[placed]{Type: "W", PartitionKey: d, SortKey: d,
				Indexes: map[string]keyfirst.IndexKeys[placed]{"open-orders": {"openBucket": d}}})
			return err
		}, keyfirst.EntityScannableShared, "open-orders", ""},
		{"second type whose fields are the keys of a Scannable index", func(tb *keyfirst.Table) error {
			d := keyfirst.DeriveString(func(openFields) (string, error) { return "p", nil })
			_, err := keyfirst.NewEntity(tb, keyfirst.EntitySpec[openFields]{Type: "W", PartitionKey: d, SortKey: d})
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
	type placed struct {
		PlacedAt string `dynamodbav:"placedAt"`
	}
	table := newShop(t, "").table
	d := keyfirst.DeriveString(func(placed) (string, error) { return "p", nil })
	if _, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[placed]{Type: "W", PartitionKey: d, SortKey: d}); err != nil {
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
	if !errors.As(err, &ie) || ie.Problem != keyfirst.ItemDerive || ie.Attribute != "PK" || !errors.Is(err, errBadID) {
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
	profiles, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Profile]{
		Type:         "PROFILE",
		PartitionKey: keyfirst.DeriveString(func(p Profile) (string, error) { return "P#" + p.ID, nil }),
		Version:      "rev",
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
		Type:         "HIDDEN",
		PartitionKey: keyfirst.DeriveString(func(h hidden) (string, error) { return h.ID, nil }),
		Version:      "Rev",
	})
	var ee *keyfirst.EntityError
	if !errors.As(err, &ee) || ee.Problem != keyfirst.EntityVersion {
		t.Fatalf("version behind an embedded pointer: %v", err)
	}
}
