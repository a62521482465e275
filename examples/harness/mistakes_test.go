package harness_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/nocalls"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// The README's taste (seed 000), declared as a user declares it.
type (
	tasteStatus string
	tasteOrder  struct {
		CustomerID string      `dynamodbav:"CustomerId"`
		ID         string      `dynamodbav:"OrderId"`
		Status     tasteStatus `dynamodbav:"Status"`
		Date       time.Time   `dynamodbav:"Date"`
	}
)

var (
	tasteCustomer   = keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUSTOMER"))
	tasteOrderKey   = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))
	tasteStatusDate = keys.NewKey2(keys.Enum[tasteStatus]("PENDING", "CANCELLED"), keys.Time(keys.Day))
	tasteByID       = keyfirst.OnTable(keyfirst.Composite("PK", tasteCustomer), keyfirst.Composite("SK", tasteOrderKey))
	tasteByStatus   = keyfirst.OnIndex("OrderStatusDateGSI", keyfirst.ID("CustomerId"), keyfirst.Composite("OrderStatusDate", tasteStatusDate))
	tasteTable      = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "CustomerOrders", Key: tasteByID, GSIs: []keyfirst.Index{tasteByStatus.Index()}}))
	tasteOrders     = keyfirst.Must(keyfirst.NewEntity(tasteTable, keyfirst.EntitySpec[tasteOrder]{Type: "Order",
		Keys: []keyfirst.Binding{tasteByID.Fields("CustomerID", "ID"), tasteByStatus.Fields("CustomerID", "Status", "Date")}}))
)

// TestMistakesCaughtBeforeAnyRequest: the mistakes issue 22 names, made on
// the README's declarations, are each a typed error before any request (a
// partition value of another Go type, or a condition of a keys definition
// of another shape, does not compile: query.On's partition is the
// pattern's P, Sort takes a keys.Cond and SortValue a keyfirst.SortCond).
func TestMistakesCaughtBeforeAnyRequest(t *testing.T) {
	ctx := context.Background()
	client := nocalls.Client{T: t}
	jul1, sep30 := time.Date(2019, 7, 1, 0, 0, 0, 0, time.UTC), time.Date(2019, 9, 30, 0, 0, 0, 0, time.UTC)
	cancelled, err := tasteStatusDate.With1("CANCELLED").Between(jul1, sep30)
	if err != nil {
		t.Fatal(err)
	}
	problem := func(name string, err error, want query.Problem) {
		t.Helper()
		var qe *query.Error
		if !errors.As(err, &qe) || qe.Problem != want {
			t.Errorf("%s: %v, want a *query.Error of problem %v", name, err, want)
		}
	}

	// A pre-encoded partition value: the ID side refuses the separator.
	_, err = query.On(tasteOrders, tasteByStatus, "CUSTOMER#c_42").Sort(cancelled).Collect(ctx, client)
	problem("pre-encoded partition", err, query.ProblemPartition)
	if !errors.Is(err, keys.ErrSeparator) {
		t.Errorf("pre-encoded partition: %v, want it to wrap keys.ErrSeparator", err)
	}

	// A condition of another definition: of the table's sort key, and of a
	// look-alike of the index's (same arguments, another NewKey2 call).
	lookAlike := keys.NewKey2(keys.Enum[tasteStatus]("PENDING", "CANCELLED"), keys.Time(keys.Day))
	_, err = query.On(tasteOrders, tasteByStatus, "c_42").Sort(tasteOrderKey.Range().Ge("o1")).Collect(ctx, client)
	problem("condition of the table's sort key", err, query.ProblemForeignCondition)
	_, err = query.On(tasteOrders, tasteByStatus, "c_42").Sort(lookAlike.With1("CANCELLED").Between(jul1, sep30)).Collect(ctx, client)
	problem("condition of a look-alike definition", err, query.ProblemForeignCondition)

	// A raw condition on a sort key that a definition describes (a misspelt
	// value would find nothing), and one of a misspelt attribute name.
	_, err = query.On(tasteOrders, tasteByStatus, "c_42").SortAttr(query.Attr("OrderStatusDate").BeginsWith("CANCELED#")).Collect(ctx, client)
	problem("raw condition on a composite sort key", err, query.ProblemForeignCondition)
	_, err = query.On(tasteOrders, tasteByStatus, "c_42").SortAttr(query.Attr("OrderStatusDat").BeginsWith("CANCELLED#")).Collect(ctx, client)
	problem("raw condition on a misspelt attribute", err, query.ProblemSortKey)

	// A mistyped index name: the pattern cannot be bound (NewEntity), and a
	// query through a pattern the entity does not bind is refused.
	typo := keyfirst.OnIndex("OrderStatusDateGS1", keyfirst.ID("CustomerId"), keyfirst.Composite("OrderStatusDate", tasteStatusDate))
	_, err = keyfirst.NewEntity(tasteTable, keyfirst.EntitySpec[tasteOrder]{Type: "Order2",
		Keys: []keyfirst.Binding{tasteByID.Fields("CustomerID", "ID"), typo.Fields("CustomerID", "Status", "Date")}})
	var ee *keyfirst.EntityError
	if !errors.As(err, &ee) || ee.Problem != keyfirst.EntityUnknownIndex {
		t.Errorf("mistyped index in a binding: %v, want EntityUnknownIndex", err)
	}
	_, err = query.On(tasteOrders, typo, "c_42").Sort(cancelled).Collect(ctx, client)
	problem("query through a mistyped index", err, query.ProblemPattern)

	// A mistyped attribute name: a pattern whose attribute is not the
	// index's key cannot be bound.
	attrTypo := keyfirst.OnIndex("OrderStatusDateGSI", keyfirst.ID("CustomerID"), keyfirst.Composite("OrderStatusDate", tasteStatusDate))
	_, err = keyfirst.NewEntity(tasteTable, keyfirst.EntitySpec[tasteOrder]{Type: "Order3",
		Keys: []keyfirst.Binding{tasteByID.Fields("CustomerID", "ID"), attrTypo.Fields("CustomerID", "Status", "Date")}})
	if !errors.As(err, &ee) || ee.Problem != keyfirst.EntityPattern {
		t.Errorf("mistyped attribute in a pattern: %v, want EntityPattern", err)
	}
}
