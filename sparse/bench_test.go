package sparse_test

import (
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/sparse"

	"github.com/keyfirst/keyfirst/internal/benchorder"
)

// The estimator against the code one would write by hand for seed 002's
// table (three GSIs with their attribute names spelled out), for a put of a
// new item and for an update that changes a projected attribute;
// TestEstimateTwinsAgree proves that both give the same cost.
func BenchmarkEstimate(b *testing.B) {
	r := benchorder.New(b)
	defer r.Done()
	est := mustEstimator(b, mustTable(b, seed002Spec))
	for _, tc := range estimateCases() {
		r.Run(tc.name+"/keyfirst", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := est.Estimate(tc.before, tc.after); err != nil {
					b.Fatal(err)
				}
			}
		})
		r.Run(tc.name+"/hand", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				handEstimate(tc.before, tc.after)
			}
		})
	}
}

// estimateCase is a write of BenchmarkEstimate: the item before (nil for
// a put of a new item) and after.
type estimateCase struct {
	name          string
	before, after map[string]types.AttributeValue
}

func estimateCases() []estimateCase {
	before := seed002Item()
	after := maps.Clone(before)
	after["summary"] = &types.AttributeValueMemberS{Value: "short"}
	return []estimateCase{{"put", nil, before}, {"update", before, after}}
}

// TestEstimateTwinsAgree: the twins of BenchmarkEstimate and of
// BenchmarkEstimateItems give the same cost.
func TestEstimateTwinsAgree(t *testing.T) {
	est := mustEstimator(t, mustTable(t, seed002Spec))
	for _, tc := range estimateCases() {
		cost, err := est.Estimate(tc.before, tc.after)
		if want := handEstimate(tc.before, tc.after); err != nil || cost.WCU() != want {
			t.Errorf("%s: the estimator says %d WCU (%v), the hand-written code %d", tc.name, cost.WCU(), err, want)
		}
	}
	table, tickets := newTickets(t, false)
	est = mustEstimator(t, table)
	open, resolved := ticket("a", Open, at(9, 0)), ticket("a", Resolved, at(9, 0))
	cost, err := sparse.EstimateItems(est, tickets, &open, &resolved)
	if want := handEstimateItems(t, est, open, resolved); err != nil || !reflect.DeepEqual(cost, want) {
		t.Errorf("EstimateItems: %+v (%v), by hand %+v", cost, err, want)
	}
}

// handEstimate is seed 002's cost computed for that one table: no checks,
// string values only.
func handEstimate(before, after map[string]types.AttributeValue) int {
	units := func(n int) int { return max(1, (n+1023)/1024) }
	size := func(item map[string]types.AttributeValue, names ...string) int {
		n := 0
		for k, v := range item {
			if names != nil && !slices.Contains(names, k) {
				continue
			}
			n += len(k) + len(v.(*types.AttributeValueMemberS).Value)
		}
		return n
	}
	sval := func(item map[string]types.AttributeValue, k string) (string, bool) {
		v, ok := item[k].(*types.AttributeValueMemberS)
		if !ok {
			return "", false
		}
		return v.Value, true
	}
	total := units(max(size(before), size(after)))
	for _, ix := range []struct {
		key       string
		projected []string // nil: ALL
	}{
		{"K1", []string{"PK", "SK", "K1"}},
		{"K2", []string{"PK", "SK", "K2", "summary", "_type"}},
		{"K3", nil},
	} {
		old, was := sval(before, ix.key)
		cur, is := sval(after, ix.key)
		sb, sa := size(before, ix.projected...), size(after, ix.projected...)
		switch {
		case !was && is:
			total += units(sa)
		case was && !is:
			total += units(sb)
		case was && is && old != cur:
			total += units(sb) + units(sa)
		case was && is:
			changed := false
			for _, k := range ix.projected {
				x, _ := sval(before, k)
				y, _ := sval(after, k)
				changed = changed || x != y
			}
			if ix.projected == nil {
				changed = !maps.EqualFunc(before, after, func(x, y types.AttributeValue) bool {
					return x.(*types.AttributeValueMemberS).Value == y.(*types.AttributeValueMemberS).Value
				})
			}
			if changed {
				total += units(max(sb, sa))
			}
		}
	}
	return total
}

// EstimateItems builds both items with the entity, then estimates, beside
// the same two items built by hand (handTicket) and estimated.
func BenchmarkEstimateItems(b *testing.B) {
	r := benchorder.New(b)
	defer r.Done()
	table, tickets := newTickets(b, false)
	est := mustEstimator(b, table)
	open := ticket("a", Open, at(9, 0))
	resolved := ticket("a", Resolved, at(9, 0))
	r.Run("keyfirst", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := sparse.EstimateItems(est, tickets, &open, &resolved); err != nil {
				b.Fatal(err)
			}
		}
	})
	r.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			handEstimateItems(b, est, open, resolved)
		}
	})
}

// handEstimateItems is EstimateItems of a ticket's change with its two
// items built by hand.
func handEstimateItems(tb testing.TB, est *sparse.Estimator, before, after Ticket) sparse.Cost {
	cost, err := est.Estimate(handTicket(before), handTicket(after))
	if err != nil {
		tb.Fatal(err)
	}
	return cost
}

// handTicket is a ticket's item as a hand-written program builds it: the
// open-tickets index's attributes only while it is open.
func handTicket(t Ticket) map[string]types.AttributeValue {
	item := map[string]types.AttributeValue{
		"PK":       &types.AttributeValueMemberS{Value: "TICKET#" + t.ID},
		"SK":       &types.AttributeValueMemberS{Value: "TICKET"},
		"_type":    &types.AttributeValueMemberS{Value: "Ticket"},
		"id":       &types.AttributeValueMemberS{Value: t.ID},
		"customer": &types.AttributeValueMemberS{Value: t.Customer},
		"subject":  &types.AttributeValueMemberS{Value: t.Subject},
		"status":   &types.AttributeValueMemberS{Value: string(t.Status)},
		"opened":   &types.AttributeValueMemberS{Value: t.OpenedAt.UTC().Format("2006-01-02T15:04:05.000000000Z07:00")},
	}
	if t.Status == Open {
		item["openBucket"] = &types.AttributeValueMemberS{Value: "OPEN"}
		item["openedAt"] = &types.AttributeValueMemberS{Value: t.OpenedAt.UTC().Format("2006-01-02T15:04:05.000000")}
	}
	return item
}

// Building an item of the sparse index declared with a Const side and If
// (keyfirst), against the same keys computed by a Func on raw sides
// (keyfirst-func, the one escape for keys no pattern describes) and the
// item built by hand (hand): what the declaration costs on every write.
// TestIfBindingTwinsAgree proves that the three build the same item.
func BenchmarkIfBinding(b *testing.B) {
	r := benchorder.New(b)
	defer r.Done()
	declared, byFunc := ifBindingEntities(b)
	for _, tk := range ifBindingTickets() {
		for _, c := range []struct {
			name string
			e    *keyfirst.Entity[Ticket]
		}{{"keyfirst", declared}, {"keyfirst-func", byFunc}} {
			e := c.e
			r.Run(string(tk.Status)+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := e.Item(tk); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		r.Run(string(tk.Status)+"/hand", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkItem = handTicket(tk)
			}
		})
	}
}

var sinkItem map[string]types.AttributeValue

// ifBindingTickets are the tickets of BenchmarkIfBinding: one in the
// sparse index, one out of it.
func ifBindingTickets() []Ticket {
	return []Ticket{ticket("a", Open, at(9, 0)), ticket("a", Resolved, at(9, 0))}
}

// ifBindingEntities are the Ticket entity declared with Const and If, and
// the same keys given by a Func on raw sides.
func ifBindingEntities(tb testing.TB) (declared, byFunc *keyfirst.Entity[Ticket]) {
	_, declared = newTickets(tb, false)
	raw := keyfirst.OnIndex(openTicketsIndex, keyfirst.Str("openBucket"), keyfirst.Str("openedAt"))
	byFunc, err := keyfirst.NewEntity(mustTable(tb, ticketSpec), keyfirst.EntitySpec[Ticket]{Type: "Ticket", Keys: []keyfirst.Binding{
		ticketByID.Fields("ID"),
		keyfirst.Func(raw, func(t Ticket) (string, string, bool) { return "OPEN", openedAt(t.OpenedAt), t.IsOpen() }),
	}})
	if err != nil {
		tb.Fatal(err)
	}
	return declared, byFunc
}

// TestIfBindingTwinsAgree: the three variants of BenchmarkIfBinding build
// the same item, in and out of the index.
func TestIfBindingTwinsAgree(t *testing.T) {
	declared, byFunc := ifBindingEntities(t)
	for _, tk := range ifBindingTickets() {
		x, err1 := declared.Item(tk)
		y, err2 := byFunc.Item(tk)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		for name, got := range map[string]map[string]types.AttributeValue{"keyfirst-func": y, "hand": handTicket(tk)} {
			if !reflect.DeepEqual(got, x) {
				t.Errorf("%s, %s: %v\nkeyfirst: %v", tk.Status, name, got, x)
			}
		}
	}
}

// TestTicketItemAllocations holds the allocations of a ticket's item out
// of the sparse index (8 attributes, Go's smallest map): its map made for
// exactly them (2), the slab (2) and the ticket copied for the plan (1);
// the Func binding's results one more. Its opened time takes its key
// layout in the slab, formatted from the field itself (it took 2 more
// when the field's RFC 3339 text was parsed back and formatted again). A
// map made for more, or an attribute put twice in a full small map
// (which grows it, even to replace a value), adds 2 or 3.
func TestTicketItemAllocations(t *testing.T) {
	declared, byFunc := ifBindingEntities(t)
	resolved := ifBindingTickets()[1]
	for name, c := range map[string]struct {
		e   *keyfirst.Entity[Ticket]
		max float64
	}{"keyfirst": {declared, 5}, "keyfirst-func": {byFunc, 6}} {
		e := c.e
		if _, err := e.Item(resolved); err != nil { // the entity learns the room of its texts
			t.Fatal(err)
		}
		allocs := testing.AllocsPerRun(200, func() {
			if _, err := e.Item(resolved); err != nil {
				t.Fatal(err)
			}
		})
		if allocs > c.max {
			t.Errorf("%s: Item makes %v allocations, want at most %v", name, allocs, c.max)
		}
	}
}
