package keyfirst_test

import (
	"fmt"
	"sort"
	"time"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
)

type Shipment struct {
	Customer string    `dynamodbav:"customer"`
	ID       string    `dynamodbav:"id"`
	Carrier  string    `dynamodbav:"carrier"`
	Sent     time.Time `dynamodbav:"sent"`
	Status   string    `dynamodbav:"status"`
}

// Access patterns are declared once, with the Go types of their keys; the
// table takes its key and indexes from them, the entity binds them to
// fields, and every write derives the attributes from those fields. The
// "open" index is sparse: If keeps delivered shipments out of it.
func ExamplePattern() {
	customerKey := keys.NewKey1(keys.ID[string](), keys.WithPrefix("CUST"))
	shipmentKey := keys.NewKey1(keys.ID[string](), keys.WithPrefix("SHIP"))
	carrierSent := keys.NewKey2(keys.ID[string](), keys.Time(keys.Second, keys.WithZ))

	shipmentByID := keyfirst.OnTable(keyfirst.Composite("PK", customerKey), keyfirst.Composite("SK", shipmentKey))
	byCarrier := keyfirst.OnIndex("ByCarrier", keyfirst.Str("customer"), keyfirst.Composite("CarrierSent", carrierSent))
	openByCarrier := keyfirst.OnIndex("Open", keyfirst.Str("OpenCarrier"), keyfirst.Native(carrierSent, "OpenCustomer", "OpenSent"))

	table, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "shipping", Key: shipmentByID,
		GSIs: []keyfirst.Index{byCarrier.Index(), openByCarrier.Index()}})
	if err != nil {
		fmt.Println(err)
		return
	}
	shipments, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Shipment]{
		Type: "SHIPMENT",
		Keys: []keyfirst.Binding{
			shipmentByID.Fields("Customer", "ID"),
			byCarrier.Fields("Customer", "Carrier", "Sent"),
			keyfirst.If(keyfirst.Func(openByCarrier, func(s Shipment) (string, keys.T2[string, time.Time], bool) {
				return s.Carrier, keys.Of2(s.Customer, s.Sent), true
			}), func(s Shipment) bool { return s.Status == "OPEN" }),
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, status := range []string{"OPEN", "DELIVERED"} {
		item, err := shipments.Item(Shipment{Customer: "c1", ID: "s1", Carrier: "dhl", Sent: time.Date(2026, 6, 23, 10, 0, 0, 0, time.UTC), Status: status})
		if err != nil {
			fmt.Println(err)
			return
		}
		var names []string
		for name := range item {
			names = append(names, name)
		}
		sort.Strings(names)
		fmt.Println(status)
		for _, name := range names {
			fmt.Printf("  %s = %s\n", name, avText(item[name]))
		}
	}
	// Output:
	// OPEN
	//   CarrierSent = dhl#2026-06-23T10:00:00Z
	//   OpenCarrier = dhl
	//   OpenCustomer = c1
	//   OpenSent = 2026-06-23T10:00:00Z
	//   PK = CUST#c1
	//   SK = SHIP#s1
	//   _type = SHIPMENT
	//   carrier = dhl
	//   customer = c1
	//   id = s1
	//   sent = 2026-06-23T10:00:00Z
	//   status = OPEN
	// DELIVERED
	//   CarrierSent = dhl#2026-06-23T10:00:00Z
	//   PK = CUST#c1
	//   SK = SHIP#s1
	//   _type = SHIPMENT
	//   carrier = dhl
	//   customer = c1
	//   id = s1
	//   sent = 2026-06-23T10:00:00Z
	//   status = DELIVERED
}
