package sparse_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/sparse"
)

// The estimator against the code one would write by hand for seed 002's
// table (three GSIs with their attribute names spelled out), for a put of a
// new item and for an update that changes a projected attribute.
func BenchmarkEstimate(b *testing.B) {
	est := mustEstimator(b, mustTable(b, seed002Spec))
	before := seed002Item()
	after := maps.Clone(before)
	after["summary"] = &types.AttributeValueMemberS{Value: "short"}
	cases := []struct {
		name          string
		before, after map[string]types.AttributeValue
	}{
		{"put", nil, before},
		{"update", before, after},
	}
	for _, tc := range cases {
		want := handEstimate(tc.before, tc.after)
		cost, err := est.Estimate(tc.before, tc.after)
		if err != nil || cost.WCU() != want {
			b.Fatalf("%s: the estimator says %d WCU (%v), the hand-written code %d", tc.name, cost.WCU(), err, want)
		}
		b.Run(tc.name+"/Estimator", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := est.Estimate(tc.before, tc.after); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/hand-written", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				handEstimate(tc.before, tc.after)
			}
		})
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

// EstimateItems builds both items with the entity, then estimates.
func BenchmarkEstimateItems(b *testing.B) {
	table, tickets := newTickets(b, true)
	est := mustEstimator(b, table)
	open := ticket("a", Open, at(9, 0))
	resolved := ticket("a", Resolved, at(9, 0))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sparse.EstimateItems(est, tickets, &open, &resolved); err != nil {
			b.Fatal(err)
		}
	}
}

// Building an item of the sparse index declared with a Const side and If,
// against the same keys computed by a Func on raw sides (the one escape
// for keys no pattern describes): what the declaration costs on every
// write.
func BenchmarkIfBinding(b *testing.B) {
	_, declared := newTickets(b, false)
	raw := keyfirst.OnIndex(openTicketsIndex, keyfirst.Str("openBucket"), keyfirst.Str("openedAt"))
	byFunc, err := keyfirst.NewEntity(mustTable(b, ticketSpec), keyfirst.EntitySpec[Ticket]{Type: "Ticket", Keys: []keyfirst.Binding{
		ticketByID.Fields("ID"),
		keyfirst.Func(raw, func(t Ticket) (string, string, bool) { return "OPEN", openedAt(t.OpenedAt), t.IsOpen() }),
	}})
	if err != nil {
		b.Fatal(err)
	}
	for _, tk := range []Ticket{ticket("a", Open, at(9, 0)), ticket("a", Resolved, at(9, 0))} {
		x, err1 := declared.Item(tk)
		y, err2 := byFunc.Item(tk)
		if err1 != nil || err2 != nil || !maps.EqualFunc(x, y, func(p, q types.AttributeValue) bool { return value(p) == value(q) }) {
			b.Fatalf("Const + If and the Func build different items: %v %v", err1, err2)
		}
		for _, c := range []struct {
			name string
			e    *keyfirst.Entity[Ticket]
		}{{"Const+If", declared}, {"Func", byFunc}} {
			e := c.e
			b.Run(string(tk.Status)+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := e.Item(tk); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
