package keyfirst_test

import (
	"testing"

	"github.com/keyfirst/keyfirst"
)

// The benchmark entity of bench_test.go with its keys bound to fields
// through patterns instead of functions: the same four key attributes.
var (
	benchByID     = keyfirst.OnTable(keyfirst.Composite("PK", customerPK), keyfirst.Composite("SK", orderSK))
	benchByStatus = keyfirst.OnIndex("GSI1", keyfirst.Composite("GSI1PK", statusPK), keyfirst.Composite("GSI1SK", statusDate))
)

func benchPatternEntity(b testing.TB) *keyfirst.Entity[benchOrder] {
	table := keyfirst.Must(keyfirst.NewTable(benchTableSpec("bench")))
	return keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[benchOrder]{
		Type: "ORDER",
		Keys: []keyfirst.Binding{benchByID.Fields("Customer", "ID"), benchByStatus.Fields("Status", "Status", "PlacedAt")},
	}))
}

// The pattern-bound entity builds the item the function-derived one does.
func TestBenchmarkPatternAgrees(t *testing.T) {
	mine, err := benchPatternEntity(t).Item(benchValue)
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := benchEntity(t, "bench").Item(benchValue)
	if err != nil {
		t.Fatal(err)
	}
	if len(mine) != len(theirs) {
		t.Fatalf("%d attributes, %d with functions", len(mine), len(theirs))
	}
	for k, v := range theirs {
		if avString(v) != avString(mine[k]) {
			t.Fatalf("%s = %s, with functions %s", k, avString(mine[k]), avString(v))
		}
	}
}

// BenchmarkMarshalPattern is BenchmarkMarshal's keyfirst variant with the
// keys bound to fields: run both with -bench Marshal to compare.
func BenchmarkMarshalPattern(b *testing.B) {
	e := benchPatternEntity(b)
	b.ReportAllocs()
	for b.Loop() {
		sinkItem, _ = e.Item(benchValue)
	}
}
