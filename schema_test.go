package keyfirst_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

func attrs(a ...keyfirst.Attribute) []keyfirst.Attribute { return a }

func gsi(name string, pk, sk []keyfirst.Attribute) keyfirst.Index {
	return keyfirst.Index{Name: name, PartitionKey: pk, SortKey: sk}
}

func TestNewTableRefusesBadSchemas(t *testing.T) {
	s, n := keyfirst.StringAttr, keyfirst.NumberAttr
	many := func(k int, mk func(i int) keyfirst.Index) []keyfirst.Index {
		out := make([]keyfirst.Index, k)
		for i := range out {
			out[i] = mk(i)
		}
		return out
	}
	tests := []struct {
		name    string
		edit    func(*keyfirst.TableSpec)
		problem keyfirst.SchemaProblem
		index   string
		attr    string
	}{
		{"empty table name", func(sp *keyfirst.TableSpec) { sp.Name = "" }, keyfirst.SchemaName, "", ""},
		{"short table name", func(sp *keyfirst.TableSpec) { sp.Name = "ab" }, keyfirst.SchemaName, "", ""},
		{"table name with space", func(sp *keyfirst.TableSpec) { sp.Name = "my table" }, keyfirst.SchemaName, "", ""},
		{"table name too long", func(sp *keyfirst.TableSpec) { sp.Name = strings.Repeat("x", 256) }, keyfirst.SchemaName, "", ""},
		{"no partition key", func(sp *keyfirst.TableSpec) { sp.PartitionKey = keyfirst.Attribute{} }, keyfirst.SchemaAttributeName, "", ""},
		{"partition key without type", func(sp *keyfirst.TableSpec) { sp.PartitionKey.Type = "" }, keyfirst.SchemaAttributeType, "", "PK"},
		{"sort key of type BOOL", func(sp *keyfirst.TableSpec) { sp.SortKey.Type = "BOOL" }, keyfirst.SchemaAttributeType, "", "SK"},
		{"sort key named but untyped", func(sp *keyfirst.TableSpec) { sp.SortKey = keyfirst.Attribute{Name: "SK"} }, keyfirst.SchemaAttributeType, "", "SK"},
		{"sort key typed but unnamed", func(sp *keyfirst.TableSpec) { sp.SortKey = keyfirst.Attribute{Type: "S"} }, keyfirst.SchemaAttributeName, "", ""},
		{"same attribute as partition and sort key", func(sp *keyfirst.TableSpec) { sp.SortKey = s("PK") }, keyfirst.SchemaDuplicateAttribute, "", "PK"},
		{"attribute name too long", func(sp *keyfirst.TableSpec) { sp.SortKey = s(strings.Repeat("a", 256)) }, keyfirst.SchemaAttributeName, "", strings.Repeat("a", 256)},
		{"duplicate GSI names", func(sp *keyfirst.TableSpec) { sp.GSIs = append(sp.GSIs, sp.GSIs[0]) }, keyfirst.SchemaDuplicateIndex, "GSI1", ""},
		{"GSI and LSI with one name", func(sp *keyfirst.TableSpec) { sp.LSIs[0].Name = "GSI1" }, keyfirst.SchemaDuplicateIndex, "GSI1", ""},
		{"short index name", func(sp *keyfirst.TableSpec) { sp.GSIs[0].Name = "g1" }, keyfirst.SchemaName, "g1", ""},
		{"21 GSIs", func(sp *keyfirst.TableSpec) {
			sp.GSIs = many(21, func(i int) keyfirst.Index { return gsi(fmt.Sprintf("gsi%02d", i), attrs(s("a")), nil) })
		}, keyfirst.SchemaTooManyGSIs, "", ""},
		{"6 LSIs", func(sp *keyfirst.TableSpec) {
			sp.LSIs = many(6, func(i int) keyfirst.Index {
				return keyfirst.Index{Name: fmt.Sprintf("lsi%02d", i), SortKey: attrs(s(fmt.Sprintf("l%d", i)))}
			})
		}, keyfirst.SchemaTooManyLSIs, "", ""},
		{"GSI without partition key", func(sp *keyfirst.TableSpec) { sp.GSIs[0].PartitionKey = nil }, keyfirst.SchemaKeyAttributes, "GSI1", ""},
		{"5 partition attributes", func(sp *keyfirst.TableSpec) {
			sp.GSIs[1].PartitionKey = attrs(s("a"), s("b"), s("c"), s("d"), s("e"))
		}, keyfirst.SchemaKeyAttributes, "by-status", ""},
		{"5 sort attributes", func(sp *keyfirst.TableSpec) {
			sp.GSIs[1].SortKey = attrs(s("a"), s("b"), s("c"), s("d"), s("e"))
		}, keyfirst.SchemaKeyAttributes, "by-status", ""},
		{"attribute twice in one GSI", func(sp *keyfirst.TableSpec) { sp.GSIs[1].SortKey = attrs(s("status"), s("status")) }, keyfirst.SchemaDuplicateAttribute, "by-status", "status"},
		{"multi-attribute LSI", func(sp *keyfirst.TableSpec) { sp.LSIs[0].SortKey = attrs(n("total"), s("x")) }, keyfirst.SchemaKeyAttributes, "by-total", ""},
		{"LSI without sort key", func(sp *keyfirst.TableSpec) { sp.LSIs[0].SortKey = nil }, keyfirst.SchemaKeyAttributes, "by-total", ""},
		{"LSI with another partition key", func(sp *keyfirst.TableSpec) { sp.LSIs[0].PartitionKey = attrs(s("customer")) }, keyfirst.SchemaLSIPartitionKey, "by-total", ""},
		{"LSI on a table without sort key", func(sp *keyfirst.TableSpec) { sp.SortKey = keyfirst.Attribute{} }, keyfirst.SchemaLSIWithoutSortKey, "by-total", ""},
		{"attribute with two types", func(sp *keyfirst.TableSpec) {
			sp.GSIs[0].SortKey = attrs(n("total"))
			sp.LSIs[0].SortKey = attrs(s("total"))
		}, keyfirst.SchemaTypeConflict, "by-total", "total"},
		{"table key reused with another type", func(sp *keyfirst.TableSpec) { sp.GSIs[0].PartitionKey = attrs(n("PK")) }, keyfirst.SchemaTypeConflict, "GSI1", "PK"},
		{"INCLUDE without attributes", func(sp *keyfirst.TableSpec) { sp.LSIs[0].Projection = keyfirst.Include() }, keyfirst.SchemaProjection, "by-total", ""},
		{"attributes without INCLUDE", func(sp *keyfirst.TableSpec) {
			sp.GSIs[0].Projection = keyfirst.Projection{Type: types.ProjectionTypeKeysOnly, NonKeyAttributes: []string{"x"}}
		}, keyfirst.SchemaProjection, "GSI1", ""},
		{"unknown projection", func(sp *keyfirst.TableSpec) { sp.GSIs[0].Projection.Type = "SOME" }, keyfirst.SchemaProjection, "GSI1", ""},
		{"key attribute in INCLUDE", func(sp *keyfirst.TableSpec) { sp.LSIs[0].Projection = keyfirst.Include("total") }, keyfirst.SchemaProjection, "by-total", "total"},
		{"INCLUDE lists an attribute twice", func(sp *keyfirst.TableSpec) { sp.LSIs[0].Projection = keyfirst.Include("a", "a") }, keyfirst.SchemaProjection, "by-total", "a"},
		{"over 100 projected attributes", func(sp *keyfirst.TableSpec) {
			names := make([]string, 60)
			for i := range names {
				names[i] = fmt.Sprintf("p%d", i)
			}
			sp.GSIs[0].Projection = keyfirst.Include(names...)
			sp.GSIs[1].Projection = keyfirst.Include(names...)
		}, keyfirst.SchemaProjection, "", ""},
		{"unknown billing mode", func(sp *keyfirst.TableSpec) { sp.BillingMode = "FREE" }, keyfirst.SchemaBilling, "", ""},
		{"provisioned without throughput", func(sp *keyfirst.TableSpec) { sp.BillingMode = types.BillingModeProvisioned }, keyfirst.SchemaBilling, "", ""},
		{"throughput with on-demand", func(sp *keyfirst.TableSpec) {
			sp.Throughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}
		}, keyfirst.SchemaBilling, "", ""},
		{"type attribute used as a number key", func(sp *keyfirst.TableSpec) { sp.GSIs[0].PartitionKey = attrs(n("_type")) }, keyfirst.SchemaTypeConflict, "", "_type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := shopSpec()
			tt.edit(&spec)
			table, err := keyfirst.NewTable(spec)
			if table != nil {
				t.Fatal("got a table")
			}
			var se *keyfirst.SchemaError
			if !errors.As(err, &se) || !errors.Is(err, keyfirst.ErrInvalidSchema) {
				t.Fatalf("err = %v, want a *SchemaError wrapping ErrInvalidSchema", err)
			}
			if se.Problem != tt.problem || se.Index != tt.index || se.Attribute != tt.attr {
				t.Fatalf("got problem %q index %q attribute %q, want %q %q %q (%v)",
					se.Problem, se.Index, se.Attribute, tt.problem, tt.index, tt.attr, err)
			}
			if !strings.HasPrefix(err.Error(), "keyfirst: invalid table schema: "+tt.problem.String()) {
				t.Errorf("message %q does not start with the problem", err)
			}
		})
	}
}

func TestNewTableAcceptsLimits(t *testing.T) {
	s := keyfirst.StringAttr
	spec := keyfirst.TableSpec{Name: "limits", PartitionKey: s("pk"), SortKey: s("sk")}
	for i := range keyfirst.MaxGSIs {
		spec.GSIs = append(spec.GSIs, gsi(fmt.Sprintf("gsi%02d", i), attrs(s("a"), s("b"), s("c"), s("d")), attrs(s("e"), s("f"), s("g"), s("h"))))
	}
	for i := range keyfirst.MaxLSIs {
		spec.LSIs = append(spec.LSIs, keyfirst.Index{Name: fmt.Sprintf("lsi%d", i), PartitionKey: attrs(s("pk")), SortKey: attrs(s(fmt.Sprintf("l%d", i)))})
	}
	spec.BillingMode = types.BillingModeProvisioned
	spec.Throughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(5)}
	table, err := keyfirst.NewTable(spec)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(table.Indexes()); got != keyfirst.MaxGSIs+keyfirst.MaxLSIs {
		t.Fatalf("%d indexes", got)
	}
}

func TestTableLookups(t *testing.T) {
	table := newShop(t, "").table
	if table.Name() != "shop" || table.TypeAttribute() != "_type" {
		t.Fatalf("name %q type attribute %q", table.Name(), table.TypeAttribute())
	}
	tests := []struct {
		index      string
		kind       keyfirst.IndexKind
		pk, sk     []string
		consistent bool
		multi      bool
		scannable  bool
		projection types.ProjectionType
	}{
		{"", keyfirst.PrimaryIndex, []string{"PK"}, []string{"SK"}, true, false, false, types.ProjectionTypeAll},
		{"GSI1", keyfirst.GlobalIndex, []string{"GSI1PK"}, []string{"GSI1SK"}, false, false, false, types.ProjectionTypeAll},
		{"by-status", keyfirst.GlobalIndex, []string{"customer"}, []string{"status", "placedAt"}, false, true, false, types.ProjectionTypeAll},
		{"open-orders", keyfirst.GlobalIndex, []string{"openBucket"}, []string{"total"}, false, false, true, types.ProjectionTypeKeysOnly},
		{"by-total", keyfirst.LocalIndex, []string{"PK"}, []string{"total"}, true, false, false, types.ProjectionTypeInclude},
	}
	for _, tt := range tests {
		t.Run(tt.kind.String()+" "+tt.index, func(t *testing.T) {
			ks, err := table.Index(tt.index)
			if err != nil {
				t.Fatal(err)
			}
			names := func(a []keyfirst.Attribute) []string {
				var out []string
				for _, x := range a {
					out = append(out, x.Name)
				}
				return out
			}
			if ks.IndexName != tt.index || ks.Kind != tt.kind || fmt.Sprint(names(ks.PartitionKey)) != fmt.Sprint(tt.pk) ||
				fmt.Sprint(names(ks.SortKey)) != fmt.Sprint(tt.sk) || ks.ConsistentReadAllowed() != tt.consistent ||
				ks.MultiAttribute() != tt.multi || ks.Scannable != tt.scannable || ks.Projection.Type != tt.projection {
				t.Fatalf("got %+v", ks)
			}
			if got := names(ks.Attributes()); fmt.Sprint(got) != fmt.Sprint(append(tt.pk, tt.sk...)) {
				t.Fatalf("Attributes() = %v", got)
			}
			// Lookups hand out copies: changing one changes nothing.
			ks.PartitionKey[0].Name = "changed"
			again, _ := table.Index(tt.index)
			if again.PartitionKey[0].Name != tt.pk[0] {
				t.Fatal("Index returned the table's own slice")
			}
		})
	}
	if _, err := table.Index("nope"); !errors.Is(err, keyfirst.ErrInvalidSchema) {
		t.Fatalf("unknown index: %v", err)
	} else if se := new(keyfirst.SchemaError); !errors.As(err, &se) || se.Problem != keyfirst.SchemaUnknownIndex {
		t.Fatalf("unknown index: %v", err)
	}
	if ty, ok := table.AttributeType("total"); !ok || ty != types.ScalarAttributeTypeN {
		t.Fatalf("AttributeType(total) = %v %v", ty, ok)
	}
	if _, ok := table.AttributeType("note"); ok {
		t.Fatal("note is not a key attribute")
	}
	ix := table.Indexes()
	if len(ix) != 4 || ix[0].IndexName != "GSI1" || ix[3].IndexName != "by-total" {
		t.Fatalf("Indexes() = %+v", ix)
	}
	if got := table.Indexes()[3].Projection.NonKeyAttributes; fmt.Sprint(got) != "[status _type]" {
		t.Fatalf("INCLUDE must add the type attribute: %v", got)
	}
}

func TestNewTableDoesNotKeepCallerSlices(t *testing.T) {
	spec := shopSpec()
	table, err := keyfirst.NewTable(spec)
	if err != nil {
		t.Fatal(err)
	}
	spec.GSIs[0].PartitionKey[0].Name = "mutated"
	if ks, _ := table.Index("GSI1"); ks.PartitionKey[0].Name != "GSI1PK" {
		t.Fatal("the table shares the spec's slices")
	}
}

func TestIndexKindString(t *testing.T) {
	for k, want := range map[keyfirst.IndexKind]string{keyfirst.PrimaryIndex: "table", keyfirst.GlobalIndex: "GSI", keyfirst.LocalIndex: "LSI", 9: "IndexKind(9)"} {
		if k.String() != want {
			t.Errorf("%d: %q", k, k.String())
		}
	}
}

// TestIndexesAreCopies: what Indexes returns is the table's indexes, each
// its own copy: changing one, or appending to its slices, changes neither
// the table nor the other copies.
func TestIndexesAreCopies(t *testing.T) {
	table, err := keyfirst.NewTable(shopSpec())
	if err != nil {
		t.Fatal(err)
	}
	want := table.Indexes()
	if len(want) < 2 {
		t.Fatalf("%d indexes, want at least 2", len(want))
	}
	for i := range want {
		if got, err := table.Index(want[i].IndexName); err != nil || !reflect.DeepEqual(got, want[i]) {
			t.Fatalf("Indexes()[%d] = %+v, Index gives %+v (%v)", i, want[i], got, err)
		}
	}
	mine := table.Indexes()
	for i := range mine {
		mine[i].PartitionKey[0].Name = "mutated"
		mine[i].PartitionKey = append(mine[i].PartitionKey, keyfirst.StringAttr("appended"))
		mine[i].SortKey = append(mine[i].SortKey, keyfirst.StringAttr("appended"))
		mine[i].Projection.NonKeyAttributes = append(mine[i].Projection.NonKeyAttributes, "appended")
	}
	if again := table.Indexes(); !reflect.DeepEqual(again, want) {
		t.Fatalf("after changing a copy, Indexes() = %+v, want %+v", again, want)
	}
	other := table.Indexes()
	other[0].PartitionKey = append(other[0].PartitionKey, keyfirst.StringAttr("appended"))
	other[0].SortKey = append(other[0].SortKey, keyfirst.StringAttr("appended"))
	if !reflect.DeepEqual(other[1:], want[1:]) {
		t.Fatalf("appending to one copy changed the next: %+v, want %+v", other[1:], want[1:])
	}
}
