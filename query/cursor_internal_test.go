package query

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/avequal"
	"github.com/keyfirst/keyfirst/keys"
)

type thing struct {
	Owner string `dynamodbav:"Owner"`
	Name  string `dynamodbav:"Name"`
	Rank  int    `dynamodbav:"Rank"`
}

// The things' patterns: the table (PK S; SK S), O#<owner> and T#<name>,
// and the GSI ByRank (Owner S; Rank N), fields of thing as they are.
var (
	ownerPK     = keys.NewKey1(keys.ID[string](), keys.WithPrefix("O"))
	thingSK     = keys.NewKey1(keys.ID[string](), keys.WithPrefix("T"))
	thingByName = keyfirst.OnTable(keyfirst.Composite("PK", ownerPK), keyfirst.Composite("SK", thingSK))
	thingRank   = keyfirst.Num[int]("Rank")
	thingByRank = keyfirst.OnIndex("ByRank", keyfirst.Str("Owner"), thingRank)
)

// thingPlan is the plan of a query of owner's things by rank, on a GSI
// whose key is (Owner S; Rank N), on a table keyed (PK S; SK S).
func thingPlan(t testing.TB, owner string, optFns ...func(*keyfirst.Options)) (*plan, Query[thing]) {
	t.Helper()
	table, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "things", Key: thingByName, GSIs: []keyfirst.Index{thingByRank.Index()}})
	if err != nil {
		t.Fatal(err)
	}
	e, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[thing]{Type: "THING",
		Keys: []keyfirst.Binding{thingByName.Fields("Owner", "Name"), thingByRank.Fields("Owner", "Rank")}})
	if err != nil {
		t.Fatal(err)
	}
	q := On(e, thingByRank, owner, optFns...).SortValue(thingRank.Ge(0))
	p, err := q.plan(nil)
	if err != nil {
		t.Fatal(err)
	}
	return p, q
}

func goodKey() item {
	return item{
		"PK":    &types.AttributeValueMemberS{Value: "O#ann"},
		"SK":    &types.AttributeValueMemberS{Value: "T#x"},
		"Owner": &types.AttributeValueMemberS{Value: "ann"},
		"Rank":  &types.AttributeValueMemberN{Value: "7"},
	}
}

// forge writes a cursor payload by hand, as a hostile caller could.
func forge(t testing.TB, p cursorPayload) Cursor {
	raw, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return Cursor(base64.RawURLEncoding.EncodeToString(raw))
}

// Without a key a caller can write any payload: the resume key is still
// checked against the query's index and partition.
func TestCursorForgery(t *testing.T) {
	p, _ := thingPlan(t, "ann")
	good, err := encodeKey(goodKey())
	if err != nil {
		t.Fatal(err)
	}
	with := func(edit func(k item)) []cursorKey {
		k := goodKey()
		edit(k)
		ck, err := encodeKey(k)
		if err != nil {
			t.Fatal(err)
		}
		return ck
	}
	tests := []struct {
		name string
		c    Cursor
		want error
	}{
		{"another partition", forge(t, cursorPayload{V: 1, B: p.binding(), K: with(func(k item) { k["Owner"] = &types.AttributeValueMemberS{Value: "bob"} })}), ErrCursorPartition},
		{"a missing attribute", forge(t, cursorPayload{V: 1, B: p.binding(), K: with(func(k item) { delete(k, "Rank") })}), ErrCursorPartition},
		{"an extra attribute", forge(t, cursorPayload{V: 1, B: p.binding(), K: with(func(k item) { k["Other"] = &types.AttributeValueMemberS{Value: "x"} })}), ErrCursorPartition},
		{"a renamed attribute", forge(t, cursorPayload{V: 1, B: p.binding(), K: with(func(k item) { k["Rank2"] = k["Rank"]; delete(k, "Rank") })}), ErrCursorPartition},
		{"a mistyped attribute", forge(t, cursorPayload{V: 1, B: p.binding(), K: with(func(k item) { k["Rank"] = &types.AttributeValueMemberS{Value: "7"} })}), ErrCursorPartition},
		{"not a number", forge(t, cursorPayload{V: 1, B: p.binding(), K: with(func(k item) { k["Rank"] = &types.AttributeValueMemberN{Value: "1e99999999"} })}), ErrCursorPartition},
		{"an empty value", forge(t, cursorPayload{V: 1, B: p.binding(), K: with(func(k item) { k["SK"] = &types.AttributeValueMemberS{Value: ""} })}), ErrCursorPartition},
		{"another binding", forge(t, cursorPayload{V: 1, B: "x", K: good}), ErrCursorMismatch},
		{"another version", forge(t, cursorPayload{V: 2, B: p.binding(), K: good}), ErrCursorMalformed},
		{"no key", forge(t, cursorPayload{V: 1, B: p.binding()}), ErrCursorMalformed},
		{"an unknown type", forge(t, cursorPayload{V: 1, B: p.binding(), K: []cursorKey{{N: "PK", T: "M"}}}), ErrCursorMalformed},
		{"a repeated attribute", forge(t, cursorPayload{V: 1, B: p.binding(), K: append(good, good[0])}), ErrCursorMalformed},
		{"an unnamed attribute", forge(t, cursorPayload{V: 1, B: p.binding(), K: []cursorKey{{T: "S", S: "x"}}}), ErrCursorMalformed},
		{"unknown fields", Cursor(base64.RawURLEncoding.EncodeToString([]byte(`{"v":1,"b":"` + p.binding() + `","k":[],"z":1}`))), ErrCursorMalformed},
		{"trailing data", Cursor(base64.RawURLEncoding.EncodeToString([]byte(`{"v":1,"b":"x","k":[]} {}`))), ErrCursorMalformed},
		{"not base64", "!!", ErrCursorMalformed},
		{"not JSON", Cursor(base64.RawURLEncoding.EncodeToString([]byte("v=1"))), ErrCursorMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := p.resume(tt.c)
			var qe *Error
			if !errors.Is(err, tt.want) || !errors.As(err, &qe) || qe.Problem != ProblemCursor {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}

	// The genuine article passes, and numbers compare by value.
	k := goodKey()
	k["Owner"] = &types.AttributeValueMemberS{Value: "ann"}
	for _, n := range []string{"7", "7.0", "70e-1"} {
		k["Rank"] = &types.AttributeValueMemberN{Value: n}
		c, err := newCursor(p.binding(), k, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.resume(c)
		if err != nil || got["Rank"].(*types.AttributeValueMemberN).Value != n {
			t.Fatalf("%s: %v %v", n, got, err)
		}
	}
}

// A signed cursor verifies only with its key; any change of its body or
// its signature is tampering.
func TestCursorSignature(t *testing.T) {
	key := []byte(strings.Repeat("k", 32))
	p, _ := thingPlan(t, "ann", keyfirst.WithCursorKey(key))
	c, err := p.cursorAt(goodKey())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.resume(c); err != nil {
		t.Fatal(err)
	}
	body, mac, ok := strings.Cut(string(c), ".")
	if !ok {
		t.Fatal("unsigned")
	}
	for i := range len(c) {
		b := []byte(c)
		b[i] ^= 0x01
		if _, err := p.resume(Cursor(b)); !errors.Is(err, ErrCursorTampered) && !errors.Is(err, ErrCursorMalformed) {
			t.Fatalf("byte %d changed: got %v", i, err)
		}
	}
	for _, bad := range []string{body, body + ".", body + "." + mac[:len(mac)-2], "." + mac} {
		if _, err := p.resume(Cursor(bad)); !errors.Is(err, ErrCursorTampered) {
			t.Fatalf("%q: got %v", bad, err)
		}
	}
}

// Cursors are a codec: every key of the index round-trips, and no input
// makes open panic or accept what the library does not write: a cursor
// accepted is the one the library makes of its key (one form), and its
// key lies in the partition and in the condition (Rank >= 0).
func FuzzCursor(f *testing.F) {
	f.Add("ann", "T#x", "7", "")
	f.Add("ann", "T#\x00é", "-1.5e3", "not a cursor")
	f.Add("ann", "x", "0", "eyJ2IjoxfQ")
	f.Add("ann", "x", "0.0e5", "")
	f.Add("ann", strings.Repeat("s", 1025), "1", "")
	p, _ := thingPlan(f, "ann")
	zero := &types.AttributeValueMemberN{Value: "0"}
	f.Fuzz(func(t *testing.T, owner, sk, rank, raw string) {
		if !utf8.ValidString(owner) || !utf8.ValidString(sk) || !utf8.ValidString(rank) {
			return // DynamoDB strings are UTF-8
		}
		if k, err := p.resume(Cursor(raw)); err == nil {
			if !avEqual(k["Owner"], &types.AttributeValueMemberS{Value: "ann"}) || avequal.Compare(k["Rank"], zero) < 0 {
				t.Fatalf("accepted a key outside the partition or the condition: %v", k)
			}
			if again, err := newCursor(p.binding(), k, nil); err != nil || again != Cursor(raw) {
				t.Fatalf("accepted %q, the library writes %q for its key", raw, again)
			}
		}
		k := goodKey()
		k["Owner"] = &types.AttributeValueMemberS{Value: owner}
		k["SK"] = &types.AttributeValueMemberS{Value: sk}
		k["Rank"] = &types.AttributeValueMemberN{Value: rank}
		c, err := newCursor(p.binding(), k, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.open(p.binding(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for name, v := range k {
			if avString(got[name]) != avString(v) {
				t.Fatalf("%s: %s became %s", name, avString(v), avString(got[name]))
			}
		}
		_, err = p.resume(c)
		inside := owner == "ann" && sk != "" && len(sk) <= 1024 && avProblem(k["Rank"]) == "" && avequal.Compare(k["Rank"], zero) >= 0
		if (err == nil) != inside {
			t.Fatalf("owner %q sk %q rank %q: %v", owner, sk, rank, err)
		}
	})
}

// The largest key DynamoDB allows (two table and eight index key
// attributes, partition values of 2,048 bytes and sort values of 1,024,
// names of 255, every byte a control character JSON escapes as \u00XX)
// makes a signed cursor that opens: FuzzCursor found a 2,021-byte
// partition value whose cursor was refused as too long (16,387 bytes, at
// most 16,384).
func TestLargestKeyCursor(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	key := map[string]types.AttributeValue{}
	for i := range 10 {
		size := 2048
		if i%2 == 1 {
			size = 1024
		}
		name := strings.Repeat(string(rune('a'+i)), 255)
		key[name] = &types.AttributeValueMemberS{Value: strings.Repeat("\x1f", size)}
	}
	c, err := newCursor("bind", key, secret)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.open("bind", secret)
	if err != nil || len(got) != 10 || len(c) > MaxCursorLen {
		t.Fatalf("a cursor of %d bytes (at most %d): %v", len(c), MaxCursorLen, err)
	}
	t.Logf("the largest key's cursor: %d bytes", len(c))
}
