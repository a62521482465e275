package keyfirst

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

type timed struct {
	ID   string    `dynamodbav:"id"`
	Cat  string    `dynamodbav:"cat"`
	When time.Time `dynamodbav:"when"`
}

// TestTimeKeyOfIsTheFieldsReencoding: the time key an item takes from its
// time.Time field directly (timeKeyOf) is the one re-encoded from the
// field's RFC 3339 encoding (timeKeyValue), for random instants in other
// zones, with and without nanoseconds, and over the years 0000 to 9999
// and just outside them (both refuse those), in a whole item too.
func TestTimeKeyOfIsTheFieldsReencoding(t *testing.T) {
	table := Must(NewTable(TableSpec{Name: "timed", PartitionKey: StringAttr("PK"),
		GSIs: []Index{{Name: "by-when", PartitionKey: []Attribute{StringAttr("cat")}, SortKey: []Attribute{StringAttr("when")}}}}))
	e := Must(NewEntity(table, EntitySpec[timed]{Type: "T",
		Keys: []Binding{OnTable(Str("PK"), NoSort()).Fields("ID")}}))
	var d *derivation[timed]
	for gi := range e.groups {
		for fi := range e.groups[gi].fields {
			if f := &e.groups[gi].fields[fi]; f.timeKey {
				d = f
			}
		}
	}
	if d == nil {
		t.Fatal("no time key field")
	}
	r := rand.New(rand.NewPCG(7, 8))
	years := []int{-1, 0, 1, 1969, 1970, 2026, 9999, 10000}
	refused := 0
	for i := range 5000 {
		year := years[i%len(years)]
		if i%3 == 0 {
			year = r.IntN(10000)
		}
		zone := time.FixedZone("z", (r.IntN(49)-24)*1800)
		nanos := 0
		if r.IntN(2) == 0 {
			nanos = r.IntN(1e9)
		}
		v := timed{ID: "x", Cat: "c", When: time.Date(year, time.Month(1+r.IntN(12)), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60), nanos, zone)}
		field := &types.AttributeValueMemberS{Value: v.When.Format(time.RFC3339Nano)}
		want, wantErr := e.timeKeyValue(d, field)
		got, err := e.timeKeyOf(d, &v, field, nil)
		item, itemErr := e.Item(v)
		switch {
		case wantErr != nil:
			refused++
			var ie *ItemError
			if err == nil || itemErr == nil || !errors.As(err, &ie) || ie.Problem != ItemKeyType || !errors.Is(itemErr, ErrInvalidItem) {
				t.Fatalf("%v: timeKeyValue refuses it (%v), timeKeyOf gives %v, %v; Item %v", v.When, wantErr, got, err, itemErr)
			}
		case err != nil || itemErr != nil:
			t.Fatalf("%v: timeKeyOf %v, Item %v; timeKeyValue gives %v", v.When, err, itemErr, want)
		case got.(*types.AttributeValueMemberS).Value != want.(*types.AttributeValueMemberS).Value ||
			item["when"].(*types.AttributeValueMemberS).Value != want.(*types.AttributeValueMemberS).Value:
			t.Fatalf("%v: timeKeyOf %v, Item %v, timeKeyValue %v", v.When, got, item["when"], want)
		}
	}
	if refused == 0 || refused == 5000 {
		t.Fatalf("%d of 5000 refused: the test does not cover both", refused)
	}
}
