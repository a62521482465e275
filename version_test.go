package keyfirst_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
)

// Counter is versioned by a field of type V.
type Counter[V any] struct {
	ID  string `dynamodbav:"id"`
	N   int    `dynamodbav:"n"`
	Rev V      `dynamodbav:"rev"`
}

func counterSpec[V any](typ string) keyfirst.EntitySpec[Counter[V]] {
	return keyfirst.EntitySpec[Counter[V]]{Type: typ, Keys: []keyfirst.Binding{selfKey("PK", "SK", typ)}, Version: "rev"}
}

type (
	rev8  int8
	rev32 int32
)

// TestNarrowVersionFieldsRefused: a version field of 8 or 16 bits would
// make its item unwritable after 127 to 65,535 writes; NewEntity refuses it
// and says what to use.
func TestNarrowVersionFieldsRefused(t *testing.T) {
	t.Parallel()
	table := newShop(t, "").table
	for name, err := range map[string]error{
		"int8":   newCounter[int8](table, "I8"),
		"uint8":  newCounter[uint8](table, "U8"),
		"int16":  newCounter[int16](table, "I16"),
		"uint16": newCounter[uint16](table, "U16"),
		"rev8":   newCounter[rev8](table, "R8"),
	} {
		var ee *keyfirst.EntityError
		if !errors.Is(err, keyfirst.ErrInvalidEntity) || !errors.As(err, &ee) || ee.Problem != keyfirst.EntityVersion || ee.Attribute != "rev" {
			t.Errorf("%s version: %v", name, err)
		}
	}
	for name, err := range map[string]error{
		"int32": newCounter[int32](table, "I32"), "uint32": newCounter[uint32](table, "U32"),
		"int": newCounter[int](table, "I"), "uint64": newCounter[uint64](table, "U64"), "rev32": newCounter[rev32](table, "R32"),
	} {
		if err != nil {
			t.Errorf("%s version refused: %v", name, err)
		}
	}
}

func newCounter[V any](table *keyfirst.Table, typ string) error {
	_, err := keyfirst.NewEntity(table, counterSpec[V](typ))
	return err
}

// TestVersionNeverOverflows: for every integer kind a version may have, the
// write that would store a version the field cannot read back is refused
// before any request, on Put, Replace and Modify; the write to the largest
// version the field holds succeeds and reads back.
func TestVersionNeverOverflows(t *testing.T) {
	t.Parallel()
	client, table := localTable(t)
	t.Run("int32", func(t *testing.T) { versionLimit(t, client, table, "I32", int32(math.MaxInt32)) })
	t.Run("uint32", func(t *testing.T) { versionLimit(t, client, table, "U32", uint32(math.MaxUint32)) })
	t.Run("rev32", func(t *testing.T) { versionLimit(t, client, table, "R32", rev32(math.MaxInt32)) })
	t.Run("int64", func(t *testing.T) { versionLimit(t, client, table, "I64", int64(math.MaxInt64)) })
	t.Run("int", func(t *testing.T) { versionLimit(t, client, table, "I", int(math.MaxInt)) })
	// keyfirst counts versions in an int64: an unsigned 64-bit version
	// stops there, and one beyond it is refused.
	t.Run("uint64", func(t *testing.T) { versionLimit(t, client, table, "U64", uint64(math.MaxInt64)) })
	t.Run("uint64 beyond int64", func(t *testing.T) { versionLimit(t, client, table, "U64B", uint64(math.MaxInt64)+2) })
	t.Run("uint", func(t *testing.T) { versionLimit(t, client, table, "U", uint(math.MaxInt64)) })
}

func versionLimit[V ~int32 | ~uint32 | ~int64 | ~uint64 | ~int | ~uint](t *testing.T, client *dynamodb.Client, table *keyfirst.Table, typ string, top V) {
	t.Helper()
	e, err := keyfirst.NewEntity(table, counterSpec[V](typ))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	refused := func(op string, err error) {
		t.Helper()
		var ie *keyfirst.ItemError
		if !errors.Is(err, keyfirst.ErrInvalidItem) || !errors.As(err, &ie) || ie.Attribute != "rev" || ie.Problem != keyfirst.ItemVersionMax {
			t.Fatalf("%s at version %d: %v", op, top, err)
		}
	}
	full := Counter[V]{ID: "full", Rev: top}
	_, err = e.Put(ctx, noCalls{T: t}, full)
	refused("Put", err)
	_, err = e.Replace(ctx, noCalls{T: t}, full)
	refused("Replace", err)

	// An item stored at the top version (by another program) cannot be
	// modified: nothing is written.
	item := mustItem(t, e, full)
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: ptr(table.Name()), Item: item}); err != nil {
		t.Fatal(err)
	}
	_, err = e.Modify(ctx, client, mustKey(t, e, full), func(c *Counter[V]) { c.N++ })
	refused("Modify", err)
	if got, err := e.Get(ctx, client, mustKey(t, e, full), keyfirst.ConsistentRead()); err != nil || got != full {
		t.Fatalf("after the refused Modify: %+v, %v", got, err)
	}

	if top < 0 || uint64(top) > math.MaxInt64 {
		return
	}
	// One below the top: the write stores the top version, which reads
	// back.
	last := Counter[V]{ID: "last", Rev: top - 1}
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: ptr(table.Name()), Item: mustItem(t, e, last)}); err != nil {
		t.Fatal(err)
	}
	last.N = 1
	written, err := e.Replace(ctx, client, last)
	if err != nil || written.Rev != top {
		t.Fatalf("Replace to the top version: %+v, %v", written, err)
	}
	got, err := e.Get(ctx, client, mustKey(t, e, last), keyfirst.ConsistentRead())
	if err != nil || got != written {
		t.Fatalf("read back %+v, %v; want %+v", got, err, written)
	}
	key := map[string]typesAV{"PK": sAV(typ + "#last"), "SK": sAV(typ + "#last")}
	if raw := rawItem(t, client, table.Name(), key); avText(raw["rev"]) != fmt.Sprint(top) {
		t.Fatalf("stored version %s, want %d", avText(raw["rev"]), top)
	}
}
