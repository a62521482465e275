package keys_test

import (
	"errors"
	"testing"
	"time"

	"github.com/keyfirst/keyfirst/keys"
)

// TestKeptDefinitionError: a definition that cannot work is kept as the
// key's error, and every use of the key returns it, so declarations need
// no Must and a bad one cannot encode, decode or compare anything.
func TestKeptDefinitionError(t *testing.T) {
	day := time.Date(2019, 7, 1, 0, 0, 0, 0, time.UTC)
	bad := keys.NewKey2(keys.ID[string](), keys.Time(keys.Day), keys.WithPrefix("ORDER#"))
	if err := bad.Err(); !errors.Is(err, keys.ErrSeparator) {
		t.Fatalf("Err() = %v, want ErrSeparator", err)
	}
	if !bad.ID().IsZero() {
		t.Fatalf("an invalid definition has identity %v", bad.ID())
	}
	good := keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORDER"))
	if err := good.Err(); err != nil {
		t.Fatalf("valid definition: Err() = %v", err)
	}
	var zero keys.Key1[string]
	if err := zero.Err(); !errors.Is(err, keys.ErrDefinition) {
		t.Fatalf("zero key: Err() = %v, want ErrDefinition", err)
	}
	uses := map[string]error{}
	_, uses["Encode"] = bad.Encode("o1", day)
	_, uses["Append"] = bad.Append(nil, "o1", day)
	_, _, uses["Decode"] = bad.Decode("ORDER##o1#2019-07-01")
	_, uses["Parts"] = bad.Parts("o1", day)
	_, uses["With1.Eq"] = bad.With1("o1").Eq(day)
	_, uses["Range.Eq"] = bad.Range().Eq("o1")
	_, uses["At.Eq"] = bad.At("o1", day).Eq()
	_, uses["Start.Gt"] = bad.Start().Gt()
	_, uses["EncodeValue"] = bad.EncodeValue(keys.Of2("o1", day))
	for use, err := range uses {
		if !errors.Is(err, keys.ErrSeparator) {
			t.Errorf("%s of an invalid definition: %v, want its kept ErrSeparator", use, err)
		}
	}
}
