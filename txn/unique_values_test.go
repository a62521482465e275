package txn_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/txn"
)

// Issue 21, item 5: a unique value is unique. The marker key was built
// from the value as written: -0 and 0 both created (both items store 0),
// an attribute "code#x" with "1" and "code" with "x#1" shared a marker,
// and a 1,100-byte value made a marker key over DynamoDB's 1,024 bytes,
// which was sent.

// Badge has a unique attribute of each kind: num, a number written as
// given (attributevalue.Number), code, whatever its Go value encodes to
// (a string, a number or a binary), long, a string.
type Badge struct {
	ID   string                `dynamodbav:"id"`
	Num  attributevalue.Number `dynamodbav:"num,omitempty"`
	Code any                   `dynamodbav:"code,omitempty"`
	Long string                `dynamodbav:"long,omitempty"`
}

// badgeEntity is the badges' entity on a table description of its own,
// with unique the unique field ("": none).
func badgeEntity(unique string) *keyfirst.Entity[Badge] {
	table := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{
		Name: "txn-badges", PartitionKey: keyfirst.StringAttr("PK"), SortKey: keyfirst.StringAttr("SK"),
	}))
	spec := keyfirst.EntitySpec[Badge]{Type: "BADGE", Keys: []keyfirst.Binding{typedKey("BADGE").Fields("ID")}}
	if unique != "" {
		spec.Unique = []string{unique}
	}
	return keyfirst.Must(keyfirst.NewEntity(table, spec))
}

var (
	badges   = badgeEntity("")
	badgesBy = map[string]*keyfirst.Entity[Badge]{"Num": badgeEntity("Num"), "Code": badgeEntity("Code"), "Long": badgeEntity("Long")}
)

// localBadges creates the table of the badges whose unique field is
// unique ("": none) for this test, and returns a client, the entity bound
// to it and a raw read of a marker's owner.
func localBadges(t *testing.T, unique string) (*dynamodb.Client, *keyfirst.Entity[Badge], func(marker string) string) {
	t.Helper()
	e := badges
	if unique != "" {
		e = badgesBy[unique]
	}
	table := integration.TableOf(t, e.Table())
	client := integration.Client(t)
	owner := func(marker string) string {
		out, err := client.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(table.Name()),
			ConsistentRead: aws.Bool(true), Key: map[string]types.AttributeValue{"PK": sv(marker), "SK": sv(marker)}})
		if err != nil {
			t.Fatal(err)
		}
		return text(out.Item["owner"])
	}
	return client, keyfirst.Must(e.In(table)), owner
}

// One number in every form it can be written is one value: 1, 1.0, 1e0,
// 01, +1, 10e-1 hold one marker, and so do -0 and 0. A change from 1 to
// 1.0 changes no value and moves no marker.
func TestUniqueNumbersAreCanonical(t *testing.T) {
	t.Parallel()
	client, e, owner := localBadges(t, "Num")
	ctx := context.Background()
	nums := keyfirst.Must(txn.NewUnique(e, "Num"))
	first := nums.Create(Badge{ID: "b1", Num: "1"})
	mustWrite(t, ctx, client, first)
	if got := owner("UNIQUE:N#BADGE#num#1"); got != `("BADGE#b1", "BADGE")` {
		t.Fatalf("the marker of 1 is owned by %q", got)
	}
	for _, form := range []attributevalue.Number{"1.0", "1e0", "01", "+1", "10e-1", "0.1E1", "1.000"} {
		err := txn.Write(ctx, client, []txn.Action{nums.Create(Badge{ID: "other" + string(form), Num: form})})
		var ue *txn.UniqueError
		if !errors.As(err, &ue) || !errors.Is(err, txn.ErrNotUnique) || ue.Value != "1" {
			t.Errorf("a second badge with num %s: %v, want ErrNotUnique on the value 1", form, err)
		}
	}
	mustWrite(t, ctx, client, nums.Create(Badge{ID: "z1", Num: "-0"}))
	if err := txn.Write(ctx, client, []txn.Action{nums.Create(Badge{ID: "z2", Num: "0"})}); !errors.Is(err, txn.ErrNotUnique) {
		t.Errorf("0 after -0: %v, want ErrNotUnique", err)
	}

	// 1 to 1.0 is no change of value: the marker stays the first badge's.
	b1, _ := first.Item()
	same := b1
	same.Num = "1.0"
	mustWrite(t, ctx, client, nums.Change(b1, same))
	if got := owner("UNIQUE:N#BADGE#num#1"); got != `("BADGE#b1", "BADGE")` {
		t.Fatalf("after 1 -> 1.0, the marker of 1 is owned by %q", got)
	}
	if err := txn.Write(ctx, client, []txn.Action{nums.Create(Badge{ID: "b9", Num: "1"})}); !errors.Is(err, txn.ErrNotUnique) {
		t.Fatalf("1 after 1 -> 1.0: %v, want ErrNotUnique", err)
	}
}

// A string, a number and a binary of the same text are three values, as
// DynamoDB compares them; each is unique among its own kind.
func TestUniqueKindsAreDistinct(t *testing.T) {
	t.Parallel()
	client, e, owner := localBadges(t, "Code")
	ctx := context.Background()
	codes := keyfirst.Must(txn.NewUnique(e, "Code"))
	mustWrite(t, ctx, client, codes.Create(Badge{ID: "s", Code: "1"}))
	mustWrite(t, ctx, client, codes.Create(Badge{ID: "n", Code: 1}))
	mustWrite(t, ctx, client, codes.Create(Badge{ID: "b", Code: []byte("1")}))
	for marker, want := range map[string]string{
		"UNIQUE#BADGE#code#1":      `("BADGE#s", "BADGE")`,
		"UNIQUE:N#BADGE#code#1":    `("BADGE#n", "BADGE")`,
		"UNIQUE:B#BADGE#code#MQ==": `("BADGE#b", "BADGE")`,
	} {
		if got := owner(marker); got != want {
			t.Errorf("marker %s: owner %q, want %q", marker, got, want)
		}
	}
	for name, v := range map[string]any{"string": "1", "number": attributevalue.Number("1.0"), "binary": []byte("1")} {
		if err := txn.Write(ctx, client, []txn.Action{codes.Create(Badge{ID: "again", Code: v})}); !errors.Is(err, txn.ErrNotUnique) {
			t.Errorf("a second %s 1: %v, want ErrNotUnique", name, err)
		}
	}
	// A value holding the separator is one value: "x#1" is not "x" and "1".
	mustWrite(t, ctx, client, codes.Create(Badge{ID: "sep", Code: "x#1"}))
	if got := owner("UNIQUE#BADGE#code#x#1"); got != `("BADGE#sep", "BADGE")` {
		t.Fatalf("the marker of x#1 is owned by %q", got)
	}
}

// An entity type or attribute name with the separator '#' would make two
// declarations share markers ("code" = "x#1" and "code#x" = "1"): such a
// unique attribute is refused when declared.
func TestUniqueRefusesSeparatorInNames(t *testing.T) {
	t.Parallel()
	type Coded struct {
		ID    string `dynamodbav:"id"`
		Code  string `dynamodbav:"code"`
		CodeX string `dynamodbav:"code#x"`
	}
	spec := keyfirst.EntitySpec[Coded]{Type: "CODED", Unique: []string{"Code"}, Keys: []keyfirst.Binding{typedKey("CODED").Fields("ID")}}
	table := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "coded", PartitionKey: keyfirst.StringAttr("PK"), SortKey: keyfirst.StringAttr("SK")}))
	coded := keyfirst.Must(keyfirst.NewEntity(table, spec))
	if _, err := txn.NewUnique(coded, "Code"); err != nil {
		t.Fatalf("code: %v", err)
	}
	var oe *keyfirst.OptionError
	x := spec
	x.Type, x.Unique, x.Keys = "CODEDX", []string{"CodeX"}, []keyfirst.Binding{typedKey("CODEDX").Fields("ID")}
	if _, err := txn.NewUnique(keyfirst.Must(keyfirst.NewEntity(table, x)), "CodeX"); !errors.As(err, &oe) || oe.Option != "CodeX" {
		t.Fatalf("the attribute code#x: %v, want an *OptionError", err)
	}
	spec.Type = "CODED#V2"
	v2 := keyfirst.Must(keyfirst.NewEntity(table, spec))
	if _, err := txn.NewUnique(v2, "Code"); !errors.Is(err, keyfirst.ErrInvalidOption) {
		t.Fatalf("the entity type CODED#V2: %v, want ErrInvalidOption", err)
	}
}

// A marker key is a key: over DynamoDB's 1,024 bytes for a sort key, it
// is refused before any request, on every action that writes or deletes
// a marker. The longest value is written, and DynamoDB Local refuses a
// marker one byte longer sent raw.
func TestUniqueMarkerKeyLength(t *testing.T) {
	t.Parallel()
	client, e, owner := localBadges(t, "Long")
	ctx := context.Background()
	longs := keyfirst.Must(txn.NewUnique(e, "Long"))
	prefix := "UNIQUE#BADGE#long#"
	longest := strings.Repeat("x", 1024-len(prefix))
	create := longs.Create(Badge{ID: "l1", Long: longest})
	mustWrite(t, ctx, client, create)
	if got := owner(prefix + longest); got != `("BADGE#l1", "BADGE")` {
		t.Fatalf("the longest marker is owned by %q", got)
	}
	stored, _ := create.Item()

	for _, n := range []int{len(longest) + 1, 1100} {
		tooLong := strings.Repeat("y", n)
		changed := stored
		changed.Long = tooLong
		for name, a := range map[string]txn.Action{
			"Create": longs.Create(Badge{ID: "l2", Long: tooLong}),
			"Change": longs.Change(stored, changed),
			"Delete": longs.Delete(changed),
		} {
			err := txn.Write(ctx, noCalls{T: t}, []txn.Action{a})
			var ie *keyfirst.ItemError
			if !errors.As(err, &ie) || ie.Problem != keyfirst.ItemKeyTooLong || ie.Attribute != "long" {
				t.Errorf("%s of a %d-byte value: %v, want an *ItemError %q on long", name, n, err, keyfirst.ItemKeyTooLong)
			}
		}
	}

	// A binary's marker holds its base64 text: 760 bytes are 1,016.
	codes := keyfirst.Must(txn.NewUnique(badgesBy["Code"], "Code"))
	err := txn.Write(ctx, noCalls{T: t}, []txn.Action{codes.Create(Badge{ID: "l3", Code: make([]byte, 760)})})
	var ie *keyfirst.ItemError
	if !errors.As(err, &ie) || ie.Problem != keyfirst.ItemKeyTooLong || ie.Attribute != "code" {
		t.Errorf("a 760-byte binary: %v, want an *ItemError %q on code", err, keyfirst.ItemKeyTooLong)
	}

	// The marker one byte longer, sent raw: DynamoDB Local refuses it.
	id := prefix + longest + "y"
	_, err = client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(e.Table().Name()),
		Item: map[string]types.AttributeValue{"PK": sv(id), "SK": sv(id)}})
	if !isValidationException(err) {
		t.Fatalf("a %d-byte marker key sent raw: %v, want DynamoDB Local's ValidationException", len(id), err)
	}
}

// Marker gives the marker item of a stored item, for a backfill: put
// raw, it holds the value as a marker Create wrote would.
func TestUniqueMarkerBackfill(t *testing.T) {
	t.Parallel()
	client, e, owner := localBadges(t, "Num")
	ctx := context.Background()
	nums := keyfirst.Must(txn.NewUnique(e, "Num"))
	if _, ok, err := nums.Marker(Badge{ID: "none"}); ok || err != nil {
		t.Fatalf("an item without the value: ok %v, %v", ok, err)
	}
	// An item written before the markers (or with an old-format one),
	// by a program whose entity did not declare the field unique.
	old := Badge{ID: "old", Num: "2.50"}
	item, err := e.Item(old)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(e.Table().Name()), Item: item}); err != nil {
		t.Fatal(err)
	}
	m, ok, err := nums.Marker(old)
	if err != nil || !ok {
		t.Fatalf("Marker: %v, %v", ok, err)
	}
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(e.Table().Name()), Item: m}); err != nil {
		t.Fatal(err)
	}
	if got := owner("UNIQUE:N#BADGE#num#2.5"); got != `("BADGE#old", "BADGE")` {
		t.Fatalf("the backfilled marker is owned by %q", got)
	}
	if err := txn.Write(ctx, client, []txn.Action{nums.Create(Badge{ID: "new", Num: "2.5"})}); !errors.Is(err, txn.ErrNotUnique) {
		t.Fatalf("2.5 after the backfill of 2.50: %v, want ErrNotUnique", err)
	}
	// The marker moves with the item once it is written through Unique.
	moved := old
	moved.Num = "3"
	mustWrite(t, ctx, client, nums.Change(old, moved))
	if owner("UNIQUE:N#BADGE#num#2.5") != "" || owner("UNIQUE:N#BADGE#num#3") != `("BADGE#old", "BADGE")` {
		t.Fatal("the change did not move the backfilled marker")
	}
}
