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

// BenchmarkMarshalPattern is BenchmarkMarshal with the keys bound to
// fields (TestBenchmarkVariantsAgree holds its item to the hand-written
// one).
func BenchmarkMarshalPattern(b *testing.B) {
	benchMarshal(b, benchPatternEntity(b))
}
