package keyfirst_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
)

// The access patterns of seed 000's orders, declared once.
var (
	pCustomerKey = keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUST"))
	pOrderKey    = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))
	pStatusDate  = keys.NewKey2(keys.Enum(Open, Shipped, Cancelled), keys.Time(keys.Micro))

	orderByID   = keyfirst.OnTable(keyfirst.Composite("PK", pCustomerKey), keyfirst.Composite("SK", pOrderKey))
	custByID    = keyfirst.OnTable(keyfirst.Composite("PK", pCustomerKey), keyfirst.Composite("SK", pCustomerKey))
	byStatus    = keyfirst.OnIndex("ByStatus", keyfirst.Str("customer"), keyfirst.Composite("StatusDate", pStatusDate))
	byStatusNat = keyfirst.OnIndex("ByStatusNative", keyfirst.Str("customer"), keyfirst.Native(pStatusDate, "OStatus", "ODate"))
	openOrders  = keyfirst.OnIndex("Open", keyfirst.Str("OpenCustomer"), keyfirst.Composite("OpenSince", keys.NewKey1(keys.Time(keys.Micro))))
	byTotal     = keyfirst.OnIndex("ByTotal", keyfirst.Composite("PK", pCustomerKey), keyfirst.Num[int64]("TotalKey"))
	inverted    = keyfirst.OnIndex("Inverted", keyfirst.Composite("SK", pOrderKey), keyfirst.Composite("PK", pCustomerKey))
)

func patternSpec(name string) keyfirst.TableSpec {
	return keyfirst.TableSpec{
		Name: name,
		Key:  orderByID,
		GSIs: []keyfirst.Index{byStatus.Index(), byStatusNat.Index(), openOrders.Index(), inverted.Index()},
		LSIs: []keyfirst.Index{byTotal.Index()},
	}
}

func patternTable(t testing.TB, name string) *keyfirst.Table {
	t.Helper()
	table, err := keyfirst.NewTable(patternSpec(name))
	if err != nil {
		t.Fatal(err)
	}
	return table
}

func patternOrders(t testing.TB, table *keyfirst.Table) *keyfirst.Entity[Order] {
	t.Helper()
	orders, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Order]{
		Type: "ORDER",
		Keys: []keyfirst.Binding{
			orderByID.Fields("Customer", "ID"),
			byStatus.Fields("Customer", "Status", "PlacedAt"),
			byStatusNat.Fields("Customer", "Status", "PlacedAt"),
			keyfirst.If(openOrders.Fields("Customer", "PlacedAt"), func(o Order) bool { return o.Status == Open }),
			byTotal.Fields("Customer", "Total"),
			inverted.Fields("ID", "Customer"),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return orders
}

func TestPatternDerivesEveryIndex(t *testing.T) {
	t.Parallel()
	table := patternTable(t, "shop")
	orders := patternOrders(t, table)
	placed := time.Date(2019, 7, 1, 9, 30, 0, 0, time.UTC)
	item := mustItem(t, orders, order("c1", "o1", Open, placed))
	want := map[string]string{
		"PK": "CUST#c1", "SK": "ORDER#o1", "customer": "c1",
		"StatusDate": "OPEN#2019-07-01T09:30:00.000000", "OStatus": "OPEN", "ODate": "2019-07-01T09:30:00.000000",
		"OpenCustomer": "c1", "OpenSince": "2019-07-01T09:30:00.000000", "TotalKey": "100",
	}
	for attr, v := range want {
		if got := avText(item[attr]); got != v {
			t.Errorf("%s = %q, want %q", attr, got, v)
		}
	}
	// Closed: out of the sparse index, in every other.
	item = mustItem(t, orders, order("c1", "o1", Shipped, placed))
	for _, attr := range []string{"OpenCustomer", "OpenSince"} {
		if _, ok := item[attr]; ok {
			t.Errorf("a shipped order has %s: %v", attr, item[attr])
		}
	}
	if got := avText(item["StatusDate"]); got != "SHIPPED#2019-07-01T09:30:00.000000" {
		t.Errorf("StatusDate = %q", got)
	}
	// The bound patterns are known to the entity and the table, with the
	// definitions each index's sort key holds.
	for _, p := range []keyfirst.PatternRef{orderByID, byStatus, byStatusNat, openOrders, byTotal, inverted} {
		if !orders.Binds(p.ID()) || !table.Binds(p.ID()) {
			t.Errorf("%v not bound", p)
		}
	}
	if orders.Binds(custByID.ID()) {
		t.Error("orders binds the customer's pattern")
	}
	if d := table.SortDefinitions("ByStatus"); len(d) != 1 || d[0] != pStatusDate.ID() {
		t.Errorf("ByStatus holds %v", d)
	}
}

// A key value the codec refuses is an item error before any request, on
// every write path, for a bound field as for a derived one.
func TestPatternRefusesBadKeyValues(t *testing.T) {
	t.Parallel()
	orders := patternOrders(t, patternTable(t, "shop"))
	placed := time.Date(2019, 7, 1, 9, 30, 0, 0, time.UTC)
	for name, o := range map[string]Order{
		"# in an id":        order("c#1", "o1", Open, placed),
		"unknown status":    order("c1", "o1", Status("LOST"), placed),
		"empty customer":    order("", "o1", Open, placed),
		"time out of range": order("c1", "o1", Open, time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := orders.Put(context.Background(), noCalls{T: t}, o)
			if !errors.Is(err, keyfirst.ErrInvalidItem) {
				t.Fatalf("Put: %v", err)
			}
			if _, err := orders.Replace(context.Background(), noCalls{T: t}, o); !errors.Is(err, keyfirst.ErrInvalidItem) {
				t.Fatalf("Replace: %v", err)
			}
		})
	}
}

func TestPatternSharesTheTablesAttributes(t *testing.T) {
	t.Parallel()
	table := patternTable(t, "shop")
	// The inverted index and the LSI store the table's own key attributes
	// the same way: shared, not derived twice (patternOrders). Another
	// definition of them is computed on every write too and must agree.
	other := keyfirst.OnIndex("Inverted", keyfirst.Composite("SK", pOrderKey), keyfirst.Composite("PK", keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUST"))))
	orders, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Order]{
		Type: "ORDER",
		Keys: []keyfirst.Binding{orderByID.Fields("Customer", "ID"), other.Fields("ID", "Customer")},
	})
	if err != nil {
		t.Fatal(err)
	}
	placed := time.Date(2019, 7, 1, 9, 30, 0, 0, time.UTC)
	if got := avText(mustItem(t, orders, order("c1", "o1", Open, placed))["PK"]); got != "CUST#c1" {
		t.Fatalf("PK = %q", got)
	}
	// Bound to other fields: the values differ, the write is refused.
	table = patternTable(t, "shop")
	orders, err = keyfirst.NewEntity(table, keyfirst.EntitySpec[Order]{
		Type: "ORDER",
		Keys: []keyfirst.Binding{orderByID.Fields("Customer", "ID"), inverted.Fields("Note", "Customer")},
	})
	if err != nil {
		t.Fatal(err)
	}
	o := order("c1", "o1", Open, placed)
	o.Note = "n1"
	_, err = orders.Put(context.Background(), noCalls{T: t}, o)
	var ie *keyfirst.ItemError
	if !errors.As(err, &ie) || ie.Problem != keyfirst.ItemKeyConflict || ie.Attribute != "SK" || !strings.Contains(err.Error(), `"ORDER#o1" and "ORDER#n1"`) {
		t.Fatalf("Put: %v", err)
	}
	if _, err := orders.Replace(context.Background(), noCalls{T: t}, o); !errors.As(err, &ie) || ie.Problem != keyfirst.ItemKeyConflict {
		t.Fatalf("Replace: %v", err)
	}
	o.Note = "o1"
	if _, err := orders.Item(o); err != nil {
		t.Fatalf("agreeing values: %v", err)
	}
	// The segments of a definition (Native) are not its whole key
	// (Composite): ORDER#o1 is not o1, and a query of the native pattern
	// would find nothing. Not shared: checked, and refused on write.
	nativeInv := keyfirst.OnIndex("Inverted", keyfirst.Native(pOrderKey, "SK"), keyfirst.Composite("PK", pCustomerKey))
	orders, err = keyfirst.NewEntity(patternTable(t, "shop"), keyfirst.EntitySpec[Order]{
		Type: "ORDER",
		Keys: []keyfirst.Binding{orderByID.Fields("Customer", "ID"), nativeInv.Fields("ID", "Customer")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := orders.Item(order("c1", "o1", Open, placed)); !errors.As(err, &ie) || ie.Problem != keyfirst.ItemKeyConflict ||
		!strings.Contains(err.Error(), `"ORDER#o1" and "o1"`) {
		t.Fatalf("Native beside Composite: %v", err)
	}
	// A conditional binding cannot share: its removal would take the
	// other index's attribute too.
	_, err = keyfirst.NewEntity(patternTable(t, "shop"), keyfirst.EntitySpec[Order]{
		Type: "ORDER",
		Keys: []keyfirst.Binding{orderByID.Fields("Customer", "ID"), byStatus.Fields("Customer", "Status", "PlacedAt"),
			keyfirst.If(keyfirst.OnIndex("Open", keyfirst.Str("OpenCustomer"), keyfirst.Composite("OpenSince", keys.NewKey1(keys.Time(keys.Micro)))).Fields("Customer", "PlacedAt"),
				func(o Order) bool { return o.Status == Open }),
			openOrders.Fields("Customer", "PlacedAt")},
	})
	assertEntityProblem(t, err, keyfirst.EntityDerivedTwice, "OpenCustomer")
}

func TestPatternBindingRefusals(t *testing.T) {
	t.Parallel()
	table := patternTable(t, "shop")
	typo := keyfirst.OnIndex("ByStatusDat", keyfirst.Str("customer"), keyfirst.Composite("StatusDate", pStatusDate))
	otherAttrs := keyfirst.OnIndex("ByStatus", keyfirst.Str("customer"), keyfirst.Composite("StatusAt", pStatusDate))
	badNative := keyfirst.OnIndex("ByStatusNative", keyfirst.Str("customer"), keyfirst.Native(pStatusDate, "OStatus"))
	zeroDef := keyfirst.OnIndex("ByStatus", keyfirst.Str("customer"), keyfirst.Composite("StatusDate", keys.Key2[Status, time.Time]{}))
	type other struct{ ID string }
	tests := []struct {
		name    string
		keys    []keyfirst.Binding
		problem keyfirst.EntityProblem
		detail  string
	}{
		{"index name typo", []keyfirst.Binding{orderByID.Fields("Customer", "ID"), typo.Fields("Customer", "Status", "PlacedAt")},
			keyfirst.EntityUnknownIndex, "ByStatusDat"},
		{"attributes of another index", []keyfirst.Binding{orderByID.Fields("Customer", "ID"), otherAttrs.Fields("Customer", "Status", "PlacedAt")},
			keyfirst.EntityPattern, "StatusAt"},
		{"native side of the wrong width", []keyfirst.Binding{orderByID.Fields("Customer", "ID"), badNative.Fields("Customer", "Status", "PlacedAt")},
			keyfirst.EntityPattern, "1 attributes for the 2 segments"},
		{"zero keys definition", []keyfirst.Binding{orderByID.Fields("Customer", "ID"), zeroDef.Fields("Customer", "Status", "PlacedAt")},
			keyfirst.EntityPattern, "zero Key value"},
		{"zero pattern", []keyfirst.Binding{orderByID.Fields("Customer", "ID"), keyfirst.Pattern[string, string]{}.Fields("x")},
			keyfirst.EntityPattern, "zero Pattern"},
		{"too few fields", []keyfirst.Binding{orderByID.Fields("Customer")}, keyfirst.EntityBinding, "1 fields"},
		{"no such field", []keyfirst.Binding{orderByID.Fields("Customer", "Id")}, keyfirst.EntityBinding, "no exported field Id"},
		{"field of the wrong type", []keyfirst.Binding{orderByID.Fields("Customer", "ID"), byStatus.Fields("Customer", "PlacedAt", "PlacedAt")},
			keyfirst.EntityBinding, "field PlacedAt is time.Time"},
		{"number field for an id", []keyfirst.Binding{orderByID.Fields("Customer", "Total")}, keyfirst.EntityBinding, "field Total is int64"},
		{"Func of another type", []keyfirst.Binding{keyfirst.Func(orderByID, func(o other) (string, string, bool) { return o.ID, o.ID, true })},
			keyfirst.EntityBinding, "Func of keyfirst_test.other"},
		{"nil Func", []keyfirst.Binding{keyfirst.Func[Order](orderByID, nil)}, keyfirst.EntityBinding, "nil function"},
		{"If on the table's key", []keyfirst.Binding{keyfirst.If(orderByID.Fields("Customer", "ID"), func(Order) bool { return true })},
			keyfirst.EntityBinding, "primary key"},
		{"If of another type", []keyfirst.Binding{orderByID.Fields("Customer", "ID"), keyfirst.If(openOrders.Fields("Customer", "PlacedAt"), func(other) bool { return true })},
			keyfirst.EntityBinding, "If with a func(keyfirst_test.other) bool"},
		{"If on shared attributes only", []keyfirst.Binding{orderByID.Fields("Customer", "ID"), keyfirst.If(inverted.Fields("ID", "Customer"), func(Order) bool { return true })},
			keyfirst.EntityBinding, "nothing could be removed"},
		{"no primary key", []keyfirst.Binding{byStatus.Fields("Customer", "Status", "PlacedAt")}, keyfirst.EntityMissingKey, "OnTable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Order]{Type: "ORDER", Keys: tt.keys})
			assertEntityProblem(t, err, tt.problem, "")
			if !strings.Contains(err.Error(), tt.detail) {
				t.Fatalf("error %q does not say %q", err, tt.detail)
			}
		})
	}
}

func TestPatternTableSpecRefusals(t *testing.T) {
	t.Parallel()
	badSide := keyfirst.OnIndex("X", keyfirst.Str("a"), keyfirst.Native(pStatusDate, "b"))
	for name, spec := range map[string]keyfirst.TableSpec{
		"index pattern as the key": {Name: "shop", Key: byStatus},
		"key given twice":          {Name: "shop", Key: orderByID, PartitionKey: keyfirst.StringAttr("PK")},
		"zero pattern":             {Name: "shop", Key: keyfirst.Pattern[string, string]{}},
		"table pattern as index":   {Name: "shop", Key: orderByID, GSIs: []keyfirst.Index{orderByID.Index()}},
		"bad side":                 {Name: "shop", Key: orderByID, GSIs: []keyfirst.Index{badSide.Index()}},
		"native table key":         {Name: "shop", Key: keyfirst.OnTable(keyfirst.Native(pStatusDate, "a", "b"), keyfirst.NoSort())},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := keyfirst.NewTable(spec)
			var se *keyfirst.SchemaError
			if !errors.As(err, &se) || (se.Problem != keyfirst.SchemaPattern && se.Problem != keyfirst.SchemaKeyAttributes) {
				t.Fatalf("got %v", err)
			}
		})
	}
}

// A Func binding computes keys that no field holds; ok=false keeps the
// item out of the index.
func TestPatternFunc(t *testing.T) {
	t.Parallel()
	table := patternTable(t, "shop")
	orders, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Order]{
		Type: "ORDER",
		Keys: []keyfirst.Binding{
			orderByID.Fields("Customer", "ID"),
			keyfirst.Func(openOrders, func(o Order) (string, time.Time, bool) {
				return strings.ToUpper(o.Customer), o.PlacedAt, o.Status == Open
			}),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	placed := time.Date(2019, 7, 1, 9, 30, 0, 0, time.UTC)
	item := mustItem(t, orders, order("c1", "o1", Open, placed))
	if avText(item["OpenCustomer"]) != "C1" || avText(item["OpenSince"]) != "2019-07-01T09:30:00.000000" {
		t.Fatalf("item %v", item)
	}
	item = mustItem(t, orders, order("c1", "o1", Cancelled, placed))
	if _, ok := item["OpenCustomer"]; ok {
		t.Fatal("a cancelled order is in the open index")
	}
}

// Pattern values: the partition key is encoded by the pattern's codec, a
// value it refuses is a PatternError.
func TestPatternPartitionValues(t *testing.T) {
	t.Parallel()
	avs, err := orderByID.PartitionValues("c1")
	if err != nil || len(avs) != 1 || avs[0].(*types.AttributeValueMemberS).Value != "CUST#c1" {
		t.Fatalf("%v %v", avs, err)
	}
	_, err = orderByID.PartitionValues("CUST#c1")
	var pe *keyfirst.PatternError
	if !errors.As(err, &pe) || pe.Problem != keyfirst.PatternValue || !errors.Is(err, keys.ErrSeparator) {
		t.Fatalf("got %v", err)
	}
	if _, err := (keyfirst.Pattern[string, string]{}).PartitionValues("x"); !errors.Is(err, keyfirst.ErrInvalidPattern) {
		t.Fatalf("zero pattern: %v", err)
	}
}

// A partition key of several attributes (Native) is appended after what
// dst holds, and a value its codec refuses leaves dst as it was.
func TestPatternAppendPartitionNative(t *testing.T) {
	t.Parallel()
	p := keyfirst.OnIndex("ByStatusDate", keyfirst.Native(pStatusDate, "Status", "Date"), keyfirst.NoSort())
	placed := time.Date(2019, 7, 1, 9, 30, 0, 0, time.UTC)
	first := &types.AttributeValueMemberS{Value: "x"}
	avs, err := p.AppendPartition([]types.AttributeValue{first}, keys.T2[Status, time.Time]{V1: Open, V2: placed})
	if err != nil || len(avs) != 3 || avs[0] != first || avs[1].(*types.AttributeValueMemberS).Value != "OPEN" ||
		avs[2].(*types.AttributeValueMemberS).Value != "2019-07-01T09:30:00.000000" {
		t.Fatalf("%v %v", avs, err)
	}
	avs, err = p.AppendPartition(avs[:1], keys.T2[Status, time.Time]{V1: "LOST", V2: placed})
	var pe *keyfirst.PatternError
	if !errors.As(err, &pe) || pe.Problem != keyfirst.PatternValue || len(avs) != 1 || avs[0] != first {
		t.Fatalf("%v %v", avs, err)
	}
}

func assertEntityProblem(t *testing.T, err error, p keyfirst.EntityProblem, attr string) {
	t.Helper()
	var ee *keyfirst.EntityError
	if !errors.As(err, &ee) || ee.Problem != p || (attr != "" && ee.Attribute != attr) {
		t.Fatalf("got %v, want %v on %q", err, p, attr)
	}
}

// An If binding decides the sparse index's membership on every write path:
// the attributes are SET while the order is open and REMOVEd when it
// closes, by Put, Replace, Modify and BatchWrite alike, on DynamoDB Local.
func TestPatternIfOnEveryWritePath(t *testing.T) {
	t.Parallel()
	client, table := localTableOf(t, patternSpec("shop"))
	orders := patternOrders(t, table)
	ctx := context.Background()
	placed := time.Date(2019, 7, 1, 9, 30, 0, 0, time.UTC)
	key := map[string]types.AttributeValue{"PK": sAV("CUST#c1"), "SK": sAV("ORDER#o1")}
	inOpen := func(step string, want bool) {
		t.Helper()
		item := rawItem(t, client, table.Name(), key)
		_, a := item["OpenCustomer"]
		_, b := item["OpenSince"]
		if a != want || b != want {
			t.Fatalf("%s: OpenCustomer %t, OpenSince %t, want %t", step, a, b, want)
		}
		if ids := queryIDs(t, client, table.Name(), "Open", map[string]string{"OpenCustomer": "c1"}, "", ""); (len(ids) == 1) != want {
			t.Fatalf("%s: the Open index holds %v", step, ids)
		}
	}
	o := order("c1", "o1", Open, placed)
	if _, err := orders.Put(ctx, client, o); err != nil {
		t.Fatal(err)
	}
	inOpen("Put open", true)
	o.Status = Shipped
	if _, err := orders.Replace(ctx, client, o); err != nil {
		t.Fatal(err)
	}
	inOpen("Replace shipped", false)
	if _, err := orders.Modify(ctx, client, mustKey(t, orders, o), func(o *Order) { o.Status = Open }); err != nil {
		t.Fatal(err)
	}
	inOpen("Modify open", true)
	if _, err := orders.Modify(ctx, client, mustKey(t, orders, o), func(o *Order) { o.Status = Cancelled }); err != nil {
		t.Fatal(err)
	}
	inOpen("Modify cancelled", false)
	o.Status = Open
	if err := table.BatchWrite(ctx, client, []keyfirst.WriteRequest{orders.PutRequest(o)}); err != nil {
		t.Fatal(err)
	}
	inOpen("BatchWrite open", true)
	o.Status = Shipped
	if _, err := orders.Put(ctx, client, o); err != nil {
		t.Fatal(err)
	}
	inOpen("Put shipped", false)
}

// What a careless caller builds is a PatternError, kept by the pattern and
// returned by every use.
func TestPatternSideRefusals(t *testing.T) {
	t.Parallel()
	for name, err := range map[string]error{
		"OnIndex without a name":      keyfirst.OnIndex("", keyfirst.Str("a"), keyfirst.NoSort()).Err(),
		"Native without attributes":   keyfirst.OnIndex("X", keyfirst.Str("a"), keyfirst.Native(pStatusDate)).Err(),
		"Native with too many":        keyfirst.OnIndex("X", keyfirst.Str("a"), keyfirst.Native(pStatusDate, "b", "c", "d")).Err(),
		"a nil definition":            keyfirst.OnIndex("X", keyfirst.Str("a"), keyfirst.Composite[string]("b", nil)).Err(),
		"a tuple of a two-value side": keyfirst.OnIndex("X", keyfirst.Tuple2(keyfirst.Str("a"), keyfirst.Composite("b", pStatusDate)), keyfirst.NoSort()).Err(),
		"a tuple of a zero side":      keyfirst.OnIndex("X", keyfirst.Tuple2(keyfirst.Str("a"), keyfirst.Side[string]{}), keyfirst.NoSort()).Err(),
		"NoSort as the partition key": keyfirst.OnTable(keyfirst.NoSort(), keyfirst.NoSort()).Err(),
		"a zero side":                 keyfirst.OnTable(keyfirst.Side[string]{}, keyfirst.NoSort()).Err(),
		"the zero pattern":            keyfirst.Pattern[string, string]{}.Err(),
	} {
		var pe *keyfirst.PatternError
		if !errors.As(err, &pe) || !errors.Is(err, keyfirst.ErrInvalidPattern) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A field the binding cannot read at a fixed offset.
	type Inner struct{ Customer string }
	type withPointer struct {
		*Inner
		ID string
	}
	type unexported struct {
		//lint:ignore U1000 the unexported field is what the binding must refuse
		customer string
		ID       string
	}
	table := patternTable(t, "shop")
	_, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[withPointer]{Type: "P", Keys: []keyfirst.Binding{orderByID.Fields("Customer", "ID")}})
	assertEntityProblem(t, err, keyfirst.EntityBinding, "")
	if !strings.Contains(err.Error(), "embedded pointer") {
		t.Fatal(err)
	}
	_, err = keyfirst.NewEntity(table, keyfirst.EntitySpec[unexported]{Type: "U", Keys: []keyfirst.Binding{orderByID.Fields("customer", "ID")}})
	assertEntityProblem(t, err, keyfirst.EntityBinding, "")
	// A number the Num side cannot store is an item error on write.
	type scored struct {
		ID    string
		Score float64
	}
	byScore := keyfirst.OnTable(keyfirst.Composite("PK", pCustomerKey), keyfirst.Num[float64]("SK"))
	ts, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "scores", Key: byScore})
	if err != nil {
		t.Fatal(err)
	}
	scores, err := keyfirst.NewEntity(ts, keyfirst.EntitySpec[scored]{Type: "S", Keys: []keyfirst.Binding{byScore.Fields("ID", "Score")}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := scores.Put(context.Background(), noCalls{T: t}, scored{ID: "a", Score: math.NaN()}); !errors.Is(err, keyfirst.ErrInvalidItem) {
		t.Fatalf("NaN: %v", err)
	}
	if item, err := scores.Item(scored{ID: "a", Score: -1.5}); err != nil || item["SK"].(*types.AttributeValueMemberN).Value != "-1.5" {
		t.Fatalf("-1.5: %v %v", item, err)
	}
}

// Named refuses what DynamoDB would refuse as a table name, before any
// request, and a nil table.
func TestNamedRefusals(t *testing.T) {
	t.Parallel()
	table := patternTable(t, "shop")
	for _, name := range []string{"", "ab", "has space", "a/b", strings.Repeat("x", 256)} {
		if _, err := table.Named(name); !errors.Is(err, keyfirst.ErrInvalidSchema) {
			t.Errorf("Named(%q): %v", name, err)
		}
	}
	var none *keyfirst.Table
	if _, err := none.Named("orders"); !errors.Is(err, keyfirst.ErrInvalidSchema) {
		t.Errorf("nil table: %v", err)
	}
	bound, err := table.Named("orders-prod")
	if err != nil || bound.Name() != "orders-prod" || table.Name() != "shop" || !bound.SameSchema(table) {
		t.Fatalf("%v %v", bound, err)
	}
	orders := patternOrders(t, table)
	if _, err := orders.In(nil); !errors.Is(err, keyfirst.ErrInvalidEntity) {
		t.Errorf("In(nil): %v", err)
	}
	// Registered once, seen by every binding.
	if got := bound.EntityTypes(); len(got) != 1 || got[0] != "ORDER" {
		t.Errorf("bound table's entity types: %v", got)
	}
	in, err := orders.In(bound)
	if err != nil || in.Table() != bound || orders.Table() != table {
		t.Fatalf("In: %v %v", in, err)
	}
}

// A Func binding's function gives every attribute of its pattern at once:
// one write calls it once, so a function that answers differently each
// time still yields one consistent key.
func TestPatternFuncCalledOncePerWrite(t *testing.T) {
	t.Parallel()
	table := patternTable(t, "shop")
	calls := 0
	orders, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Order]{
		Type: "ORDER",
		Keys: []keyfirst.Binding{
			keyfirst.Func(orderByID, func(o Order) (string, string, bool) {
				calls++
				n := fmt.Sprint(calls)
				return o.Customer + n, o.ID + n, true
			}),
			keyfirst.Func(openOrders, func(o Order) (string, time.Time, bool) {
				calls++
				return o.Customer, o.PlacedAt, true
			}),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	item := mustItem(t, orders, order("c", "o", Open, time.Date(2019, 7, 1, 9, 30, 0, 0, time.UTC)))
	if calls != 2 || avText(item["PK"]) != "CUST#c1" || avText(item["SK"]) != "ORDER#o1" {
		t.Fatalf("%d calls for one item, PK %s, SK %s", calls, avText(item["PK"]), avText(item["SK"]))
	}
	calls = 0
	if k := mustKey(t, orders, order("c", "o", Open, time.Time{})); calls != 1 || k.String() != `("CUST#c1", "ORDER#o1")` {
		t.Fatalf("%d calls for one key %s", calls, k)
	}
}
