package sparse_test

import (
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/sparse"
)

// Seed 002's example: a 3 KB item with three GSIs, KEYS_ONLY (~200 B, 1
// WCU), INCLUDE (1.5 KB, 2 WCU) and ALL (3 KB, 3 WCU), costs 3 + 1 + 2 + 3
// = 9 WCU per PutItem.
func TestEstimateSeed002Example(t *testing.T) {
	t.Parallel()
	est := mustEstimator(t, mustTable(t, seed002Spec))
	item := seed002Item()
	if size := sparse.ItemSize(item); size < 2*sparse.WriteUnit || size > 3*sparse.WriteUnit {
		t.Fatalf("the item has %d bytes, want about 3 KB", size)
	}
	cost, err := est.Estimate(nil, item)
	if err != nil {
		t.Fatal(err)
	}
	if cost.TableWCU != 3 {
		t.Errorf("table: %d WCU, want 3", cost.TableWCU)
	}
	want := map[string]struct {
		wcu          int
		minKB, maxKB float64
	}{
		"keys-only": {1, 0.1, 0.25},
		"include":   {2, 1.5, 1.7},
		"all":       {3, 2.8, 3},
	}
	for _, ix := range cost.Indexes {
		w := want[ix.Index]
		if ix.Transition != sparse.Enter || ix.Writes != 1 || ix.WCU != w.wcu {
			t.Errorf("%s: %v, %d writes, %d WCU; want enter, 1 write, %d WCU", ix.Index, ix.Transition, ix.Writes, ix.WCU, w.wcu)
		}
		if kb := float64(ix.After) / 1024; kb < w.minKB || kb > w.maxKB {
			t.Errorf("%s: projected %.2f KB, want %.2f to %.2f", ix.Index, kb, w.minKB, w.maxKB)
		}
	}
	if got := cost.WCU(); got != 9 {
		t.Errorf("the put costs %d WCU, want 9", got)
	}
	if got := cost.IndexWrites(); got != 3 {
		t.Errorf("%d index writes, want 3", got)
	}
}

// The transitions of seed 002 on the tickets table: the sparse
// open-tickets index (INCLUDE subject), the dense by-customer GSI (ALL) and
// the dense by-status LSI (KEYS_ONLY).
func TestEstimateTransitions(t *testing.T) {
	t.Parallel()
	table, tickets := newTickets(t, false)
	est := mustEstimator(t, table)
	open := ticket("a", Open, at(9, 0))
	resolved := ticket("a", Resolved, at(9, 0))
	with := func(tk Ticket, f func(*Ticket)) *Ticket { f(&tk); return &tk }
	tests := []struct {
		name          string
		before, after *Ticket
		open          sparse.Transition // on open-tickets-index
		byCustomer    sparse.Transition
		byStatus      sparse.Transition
	}{
		{"create open", nil, &open, sparse.Enter, sparse.Enter, sparse.Enter},
		{"create resolved", nil, &resolved, sparse.StayOut, sparse.Enter, sparse.Enter},
		{"resolve", &open, &resolved, sparse.Leave, sparse.StayIn, sparse.Move},
		{"reopen", &resolved, &open, sparse.Enter, sparse.StayIn, sparse.Move},
		{"change openedAt", &open, with(open, func(t *Ticket) { t.OpenedAt = at(7, 0) }), sparse.Move, sparse.Move, sparse.Unchanged},
		{"projected change while open", &open, with(open, func(t *Ticket) { t.Subject = "new" }), sparse.StayIn, sparse.StayIn, sparse.Unchanged},
		{"unprojected change while open", &open, with(open, func(t *Ticket) { t.Customer = "other" }), sparse.Unchanged, sparse.Move, sparse.Unchanged},
		{"change while resolved", &resolved, with(resolved, func(t *Ticket) { t.Subject = "new" }), sparse.StayOut, sparse.StayIn, sparse.Unchanged},
		{"rewrite unchanged", &open, &open, sparse.Unchanged, sparse.Unchanged, sparse.Unchanged},
		{"delete open", &open, nil, sparse.Leave, sparse.Leave, sparse.Leave},
		{"delete resolved", &resolved, nil, sparse.StayOut, sparse.Leave, sparse.Leave},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cost, err := sparse.EstimateItems(est, tickets, tc.before, tc.after)
			if err != nil {
				t.Fatal(err)
			}
			if len(cost.Indexes) != 3 {
				t.Fatalf("%d indexes, want 3", len(cost.Indexes))
			}
			writes := 0
			for name, want := range map[string]sparse.Transition{openTicketsIndex: tc.open, "by-customer": tc.byCustomer, "by-status": tc.byStatus} {
				ix, ok := cost.Index(name)
				if !ok {
					t.Fatalf("no cost for %s", name)
				}
				if ix.Transition != want || ix.Writes != want.Writes() {
					t.Errorf("%s: %v with %d writes, want %v with %d", name, ix.Transition, ix.Writes, want, want.Writes())
				}
				if (ix.WCU == 0) != (ix.Writes == 0) || ix.WCU < ix.Writes {
					t.Errorf("%s: %d writes cost %d WCU", name, ix.Writes, ix.WCU)
				}
				if (ix.Before == 0) == (tc.before != nil && want != sparse.StayOut && want != sparse.Enter) {
					t.Errorf("%s: before size %d for %v", name, ix.Before, want)
				}
				writes += ix.Writes
			}
			if cost.IndexWrites() != writes {
				t.Errorf("IndexWrites = %d, want %d", cost.IndexWrites(), writes)
			}
			if cost.TableWCU != 1 {
				t.Errorf("table: %d WCU for a small ticket, want 1", cost.TableWCU)
			}
			if ix, _ := cost.Index("by-status"); ix.Kind != keyfirst.LocalIndex {
				t.Errorf("by-status is a %v, want an LSI", ix.Kind)
			}
		})
	}
	if _, ok := (sparse.Cost{}).Index("nope"); ok {
		t.Error("Index found an index the cost does not have")
	}
}

// The version keyfirst stores is one more than the written value's: a write
// of a versioned entity changes an attribute, so an ALL index sees a
// projected change even when nothing else changed.
func TestEstimateItemsCountsTheNextVersion(t *testing.T) {
	t.Parallel()
	table, tickets := newTickets(t, true)
	est := mustEstimator(t, table)
	stored := ticket("a", Open, at(9, 0))
	stored.Version = 3
	cost, err := sparse.EstimateItems(est, tickets, &stored, &stored)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]sparse.Transition{openTicketsIndex: sparse.Unchanged, "by-customer": sparse.StayIn, "by-status": sparse.Unchanged} {
		if ix, _ := cost.Index(name); ix.Transition != want {
			t.Errorf("%s: %v, want %v", name, ix.Transition, want)
		}
	}
	// A create: version 0 (left out by omitempty) is stored as 1, whose
	// number costs 2 bytes more than no attribute plus the name.
	fresh := ticket("b", Open, at(9, 0))
	cost, err = sparse.EstimateItems(est, tickets, nil, &fresh)
	if err != nil {
		t.Fatal(err)
	}
	item, err := tickets.Item(fresh)
	if err != nil {
		t.Fatal(err)
	}
	if want := sparse.ItemSize(item) + len("version") + 2; cost.TableSize != want {
		t.Errorf("TableSize = %d, want %d (with version 1)", cost.TableSize, want)
	}
}

// WCUs are the projected size rounded up per KB: 1024 bytes are 1 WCU,
// 1025 are 2. A changed item costs the larger of its two projections; the
// table the larger of its two items.
func TestEstimateRounding(t *testing.T) {
	t.Parallel()
	est := mustEstimator(t, mustTable(t, seed002Spec))
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	// PK, SK and K3 cost 3 bytes each; "body" 4 + n.
	item := func(n int) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"PK": s("p"), "SK": s("s"), "K3": s("c"), "body": s(strings.Repeat("x", n))}
	}
	for _, tc := range []struct{ body, wcu int }{{1011, 1}, {1012, 2}, {2035, 2}, {2036, 3}} {
		cost, err := est.Estimate(nil, item(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		all, _ := cost.Index("all")
		if all.After != 13+tc.body || all.WCU != tc.wcu || cost.TableWCU != tc.wcu {
			t.Errorf("body %d: projected %d bytes, %d WCU, table %d WCU; want %d bytes, %d WCU", tc.body, all.After, all.WCU, cost.TableWCU, 13+tc.body, tc.wcu)
		}
	}
	shrink, err := est.Estimate(item(3000), item(10))
	if err != nil {
		t.Fatal(err)
	}
	if all, _ := shrink.Index("all"); all.Transition != sparse.StayIn || all.WCU != 3 || shrink.TableWCU != 3 {
		t.Errorf("shrinking 3 KB to 23 bytes: %v, %d WCU, table %d; want stay in, 3 WCU, table 3", all.Transition, all.WCU, shrink.TableWCU)
	}
	move := maps.Clone(item(10))
	move["K3"] = s("d")
	moved, err := est.Estimate(item(3000), move)
	if err != nil {
		t.Fatal(err)
	}
	if all, _ := moved.Index("all"); all.Transition != sparse.Move || all.WCU != 3+1 {
		t.Errorf("moving: %v, %d WCU; want move, 4 WCU (3 to delete, 1 to put)", all.Transition, all.WCU)
	}
	del, err := est.Estimate(item(3000), nil)
	if err != nil {
		t.Fatal(err)
	}
	if all, _ := del.Index("all"); all.Transition != sparse.Leave || all.WCU != 3 || del.TableWCU != 3 {
		t.Errorf("delete: %v, %d WCU, table %d; want leave, 3, 3", all.Transition, all.WCU, del.TableWCU)
	}
}

func TestEstimateRefusesWritesDynamoDBRefuses(t *testing.T) {
	t.Parallel()
	est := mustEstimator(t, mustTable(t, seed002Spec))
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	item := func(kv ...any) map[string]types.AttributeValue {
		m := map[string]types.AttributeValue{"PK": s("p"), "SK": s("s")}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i+1] == nil {
				delete(m, kv[i].(string))
				continue
			}
			m[kv[i].(string)] = kv[i+1].(types.AttributeValue)
		}
		return m
	}
	tests := []struct {
		name          string
		before, after map[string]types.AttributeValue
		problem       sparse.EstimateProblem
		image, attr   string
	}{
		{"no image", nil, nil, sparse.EstimateNoImage, "", ""},
		{"missing partition key", nil, item("PK", nil), sparse.EstimateMissingKey, "after", "PK"},
		{"missing sort key", item("SK", nil), nil, sparse.EstimateMissingKey, "before", "SK"},
		{"primary key of the wrong type", nil, item("PK", n("1")), sparse.EstimateKeyType, "after", "PK"},
		{"empty primary key", nil, item("SK", s("")), sparse.EstimateEmptyKey, "after", "SK"},
		{"two items", item(), item("SK", s("other")), sparse.EstimateKeyMismatch, "", "SK"},
		{"index key of the wrong type", nil, item("K1", n("1")), sparse.EstimateKeyType, "after", "K1"},
		{"index key NULL", item("K2", &types.AttributeValueMemberNULL{Value: true}), nil, sparse.EstimateKeyType, "before", "K2"},
		{"index key empty string", nil, item("K3", s("")), sparse.EstimateEmptyKey, "after", "K3"},
		{"invalid number", nil, item("n", n("1.2.3")), sparse.EstimateBadNumber, "after", "n"},
		{"invalid number in a set", nil, item("ns", &types.AttributeValueMemberNS{Value: []string{"1", "x"}}), sparse.EstimateBadNumber, "after", "ns"},
		{"invalid number in a list", nil, item("l", &types.AttributeValueMemberL{Value: []types.AttributeValue{n("NaN")}}), sparse.EstimateBadNumber, "after", "l"},
		{"invalid number in a map", item("m", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": n("")}}), nil, sparse.EstimateBadNumber, "before", "m"},
		{"invalid UTF-8 in a set", nil, item("ss", &types.AttributeValueMemberSS{Value: []string{"a", "b\xff"}}), sparse.EstimateBadString, "after", "ss"},
		{"over 400 KB", nil, item("body", s(strings.Repeat("x", sparse.MaxItemSize))), sparse.EstimateTooLarge, "after", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cost, err := est.Estimate(tc.before, tc.after)
			var ee *sparse.EstimateError
			if !errors.As(err, &ee) || !errors.Is(err, sparse.ErrCannotEstimate) {
				t.Fatalf("Estimate = %+v, %v; want an *EstimateError", cost, err)
			}
			if ee.Problem != tc.problem || ee.Image != tc.image || ee.Attribute != tc.attr {
				t.Errorf("got %v, image %q, attribute %q; want %v, %q, %q", ee.Problem, ee.Image, ee.Attribute, tc.problem, tc.image, tc.attr)
			}
			if cost.Indexes != nil || cost.TableWCU != 0 {
				t.Errorf("a cost with the error: %+v", cost)
			}
		})
	}
	t.Run("400 KB exactly", func(t *testing.T) {
		at400 := item("b", s(strings.Repeat("x", sparse.MaxItemSize-len("PK")-1-len("SK")-1-len("b"))))
		if sparse.ItemSize(at400) != sparse.MaxItemSize {
			t.Fatalf("size %d", sparse.ItemSize(at400))
		}
		cost, err := est.Estimate(nil, at400)
		if err != nil || cost.TableWCU != 400 {
			t.Errorf("Estimate = %d WCU, %v; want 400", cost.TableWCU, err)
		}
	})
}

func TestEstimatorMisuse(t *testing.T) {
	t.Parallel()
	if _, err := sparse.NewEstimator(nil); !errors.Is(err, sparse.ErrCannotEstimate) {
		t.Errorf("NewEstimator(nil) = %v", err)
	}
	table, tickets := newTickets(t, false)
	_, otherTickets := newTickets(t, false)
	est := mustEstimator(t, table)
	if est.Table() != table {
		t.Error("Table() is not the estimator's table")
	}
	tk := ticket("a", Open, at(9, 0))
	var ee *sparse.EstimateError
	if _, err := sparse.EstimateItems(est, otherTickets, nil, &tk); !errors.As(err, &ee) || ee.Problem != sparse.EstimateOtherTable {
		t.Errorf("entity of another table: %v", err)
	}
	if _, err := sparse.EstimateItems[Ticket](est, nil, nil, &tk); !errors.As(err, &ee) || ee.Problem != sparse.EstimateOtherTable {
		t.Errorf("nil entity: %v", err)
	}
	if _, err := sparse.EstimateItems(est, tickets, nil, nil); !errors.As(err, &ee) || ee.Problem != sparse.EstimateNoImage {
		t.Errorf("no values: %v", err)
	}
	// An item the entity cannot build (no customer: an empty key of
	// by-customer): the root package's error inside.
	empty := Ticket{Status: Open, OpenedAt: at(9, 0)}
	for _, tc := range []struct {
		name          string
		before, after *Ticket
		image         string
	}{{"before", &empty, nil, "before"}, {"after", nil, &empty, "after"}} {
		_, err := sparse.EstimateItems(est, tickets, tc.before, tc.after)
		if !errors.As(err, &ee) || ee.Problem != sparse.EstimateItem || ee.Image != tc.image || !errors.Is(err, keyfirst.ErrInvalidItem) {
			t.Errorf("%s: %v; want EstimateItem wrapping keyfirst.ErrInvalidItem", tc.name, err)
		}
	}
}

func TestTransitionString(t *testing.T) {
	t.Parallel()
	want := map[sparse.Transition]string{
		sparse.StayOut: "stay out", sparse.Enter: "enter", sparse.Leave: "leave", sparse.Move: "move",
		sparse.StayIn: "stay in", sparse.Unchanged: "unchanged", sparse.Transition(42): "Transition(42)",
	}
	for tr, s := range want {
		if tr.String() != s {
			t.Errorf("%d.String() = %q, want %q", uint8(tr), tr.String(), s)
		}
	}
	if sparse.Transition(42).Writes() != 0 {
		t.Error("an unknown transition has writes")
	}
	if sparse.EstimateProblem(99).String() != "problem 99" {
		t.Error("an unknown problem is not printed by number")
	}
}
