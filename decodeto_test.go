package keyfirst_test

import (
	"errors"
	"maps"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// TestDecodeToOverwrites: DecodeTo into a T that holds other values,
// every field of it set, leaves what Decode returns: every field written,
// one the item lacks zeroed, through the codec's direct path (everyKind)
// and its reflection path (Loose); on an error the T is zero, and a nil
// destination is an ItemError, not a panic.
func TestDecodeToOverwrites(t *testing.T) {
	table := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "kinds",
		PartitionKey: keyfirst.StringAttr("PK"), SortKey: keyfirst.StringAttr("SK")}))
	kinds := keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[everyKind]{Type: "KIND",
		Keys: []keyfirst.Binding{keyfirst.OnTable(keyfirst.Str("PK"), keyfirst.Str("SK")).Fields("ID", "Group")}}))
	name, count, absent := "a name", 7, "absent"
	stored := everyKind{ID: "k1", Group: "g", Data: []byte{1, 2, 3}, Tags: []string{"x", "y"}, Set: []string{"s"},
		Int: -5, Small: 3, Uint: 9, Float: 1.5, Text: 2.25, Flag: true, When: day, Unix: day, Name: &name, Count: &count}
	other, otherCount := "other", 9
	dirty := everyKind{ID: "d", Group: "dg", Data: []byte{9}, Tags: []string{"z"}, Set: []string{"t", "u"},
		Int: 4, Small: -1, Uint: 2, Float: -2, Text: 8, Flag: false, When: day.AddDate(1, 0, 0), Unix: day.AddDate(0, 1, 0),
		Name: &other, Count: &otherCount, Absent: &absent}
	checkDecodeTo(t, kinds, stored, dirty, "tags")

	placed, otherPlaced := "2019-07-01", "2020-01-01"
	loose := looseEntity(t, keyfirst.Must(keyfirst.NewTable(shopSpec())))
	checkDecodeTo(t, loose,
		Loose{Customer: "c1", ID: "o1", Status: "OPEN", PlacedAt: &placed, Bucket: "C#c1", Total: 1.5, Blob: []byte("b")},
		Loose{Customer: "c2", ID: "o2", Status: "SHIPPED", PlacedAt: &otherPlaced, Bucket: "B", Note: "n", Total: "x", Blob: []byte("c"), Primary: &struct{}{}},
		"blob")

	t.Run("nil destination", func(t *testing.T) {
		item := keyfirst.Must(kinds.Item(stored))
		var ie *keyfirst.ItemError
		if err := kinds.DecodeTo(item, nil); !errors.As(err, &ie) || ie.Problem != keyfirst.ItemDecode {
			t.Fatalf("DecodeTo(item, nil) = %v, want an ItemError with ItemDecode", err)
		}
	})
}

// checkDecodeTo decodes stored's item and the item without attribute
// lacking into a copy of dirty with DecodeTo, which must leave what Decode
// returns; then an item of another type and one whose attribute does not
// fit, which must leave the zero T and Decode's error.
func checkDecodeTo[T any](t *testing.T, e *keyfirst.Entity[T], stored, dirty T, lacking string) {
	t.Helper()
	item := keyfirst.Must(e.Item(stored))
	without := maps.Clone(item)
	delete(without, lacking)
	for name, item := range map[string]map[string]types.AttributeValue{"whole": item, "without " + lacking: without} {
		want, err := e.Decode(item)
		if err != nil {
			t.Fatalf("%s: Decode: %v", name, err)
		}
		got := dirty
		if err := e.DecodeTo(item, &got); err != nil {
			t.Fatalf("%s: DecodeTo: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: DecodeTo left %+v, Decode returned %+v", name, got, want)
		}
	}
	var zero T
	wrongType := maps.Clone(item)
	wrongType["_type"] = &types.AttributeValueMemberS{Value: "INVOICE"}
	misfit := maps.Clone(item)
	misfit["id"] = &types.AttributeValueMemberBOOL{Value: true}
	for name, item := range map[string]map[string]types.AttributeValue{"another type": wrongType, "an attribute that does not fit": misfit} {
		_, want := e.Decode(item)
		if want == nil {
			t.Fatalf("%s: Decode returned no error", name)
		}
		got := dirty
		err := e.DecodeTo(item, &got)
		if err == nil || err.Error() != want.Error() || reflect.TypeOf(err) != reflect.TypeOf(want) {
			t.Errorf("%s: DecodeTo returned %v, Decode %v", name, err, want)
		}
		if !reflect.DeepEqual(got, zero) {
			t.Errorf("%s: DecodeTo left %+v after its error, want the zero T", name, got)
		}
	}
}
