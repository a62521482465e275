package query_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/keyjson"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// ---- a scoreboard: a sort key of each type ----
//
//	PK            SK          GSIs and LSI
//	PLAYER#<p>    GAME#<g>    ByPoints (Player; Points N), ByBadge (Player; Badge B),
//	                          ByRegionGame (Player; NRegion, NGame: native),
//	                          LSI ByPointsLocal (PK; Points N)

type Score struct {
	Player string `dynamodbav:"Player"`
	Game   string `dynamodbav:"Game"`
	Points int    `dynamodbav:"Points"`
	Badge  []byte `dynamodbav:"Badge"`
	Region string `dynamodbav:"Region"`
}

var (
	playerPK   = keys.NewKey1(keys.ID[string](), keys.WithPrefix("PLAYER"))
	gameSK     = keys.NewKey1(keys.ID[string](), keys.WithPrefix("GAME"))
	regionGame = keys.NewKey2(keys.ID[string](), keys.ID[string]())

	scoreByID       = keyfirst.OnTable(keyfirst.Composite("PK", playerPK), keyfirst.Composite("SK", gameSK))
	scorePoints     = keyfirst.Num[int]("Points")
	scoreByPoints   = keyfirst.OnIndex("ByPoints", keyfirst.Str("Player"), scorePoints)
	scoreBadge      = keyfirst.Bin("Badge")
	scoreByBadge    = keyfirst.OnIndex("ByBadge", keyfirst.Str("Player"), scoreBadge)
	scoreByRegion   = keyfirst.OnIndex("ByRegionGame", keyfirst.Str("Player"), keyfirst.Native(regionGame, "NRegion", "NGame"))
	scorePointsLS   = keyfirst.Num[int]("Points")
	scoreByPointsLS = keyfirst.OnIndex("ByPointsLocal", keyfirst.Composite("PK", playerPK), scorePointsLS)
)

// newScores is the scoreboard's table and entity, named name.
func newScores(t testing.TB, name string) (*keyfirst.Table, *keyfirst.Entity[Score]) {
	t.Helper()
	table, err := keyfirst.NewTable(keyfirst.TableSpec{Name: name, Key: scoreByID,
		GSIs: []keyfirst.Index{scoreByPoints.Index(), scoreByBadge.Index(), scoreByRegion.Index()},
		LSIs: []keyfirst.Index{scoreByPointsLS.Index()}})
	noErr(t, err)
	scores, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Score]{Type: "SCORE", Keys: []keyfirst.Binding{
		scoreByID.Fields("Player", "Game"),
		scoreByPoints.Fields("Player", "Points"),
		scoreByBadge.Fields("Player", "Badge"),
		scoreByRegion.Fields("Player", "Region", "Game"),
		scoreByPointsLS.Fields("Player", "Points"),
	}})
	noErr(t, err)
	return table, scores
}

// forgedCursor is a query cursor's payload as a caller without the
// CursorKey can write it: the library's JSON (TestForgedIsGenuine checks
// it), so that what a test refuses is the content, never the form.
type forgedCursor struct {
	V int            `json:"v"`
	B string         `json:"b"`
	K []keyjson.Attr `json:"k"`
}

// forge writes the unsigned cursor of q that resumes after key.
func forge(t testing.TB, q query.Query[Score], key map[string]types.AttributeValue) query.Cursor {
	t.Helper()
	bind, err := q.Fingerprint()
	noErr(t, err)
	p := forgedCursor{V: 1, B: bind, K: []keyjson.Attr{}}
	for name, av := range key {
		a, _ := keyjson.From(name, av)
		p.K = append(p.K, a)
	}
	slices.SortFunc(p.K, func(a, b keyjson.Attr) int { return cmp.Compare(a.N, b.N) })
	return forgeJSON(t, p)
}

func forgeJSON(t testing.TB, p forgedCursor) query.Cursor {
	t.Helper()
	raw, err := json.Marshal(p)
	noErr(t, err)
	return query.Cursor(base64.RawURLEncoding.EncodeToString(raw))
}

func sv(s string) types.AttributeValue  { return &types.AttributeValueMemberS{Value: s} }
func nv(n string) types.AttributeValue  { return &types.AttributeValueMemberN{Value: n} }
func bv(b ...byte) types.AttributeValue { return &types.AttributeValueMemberB{Value: b} }

// annKey is the key of ann's score in game g in every index: the table's
// attributes and every index's.
func annKey() map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"PK": sv("PLAYER#ann"), "SK": sv("GAME#m"), "Player": sv("ann"),
		"Points": nv("7"), "Badge": bv(5), "NRegion": sv("eu"), "NGame": sv("m"),
	}
}

// keyIn is annKey in the index of q (its table's key attributes and the
// index's), with edits applied: a nil value deletes the attribute.
func keyIn(index string, edits map[string]types.AttributeValue) map[string]types.AttributeValue {
	attrs := map[string][]string{
		"":              {"PK", "SK"},
		"ByPoints":      {"PK", "SK", "Player", "Points"},
		"ByBadge":       {"PK", "SK", "Player", "Badge"},
		"ByRegionGame":  {"PK", "SK", "Player", "NRegion", "NGame"},
		"ByPointsLocal": {"PK", "SK", "Points"},
	}[index]
	all, key := annKey(), map[string]types.AttributeValue{}
	for _, a := range attrs {
		key[a] = all[a]
	}
	for a, v := range edits {
		if v == nil {
			delete(key, a)
		} else {
			key[a] = v
		}
	}
	return key
}

// The forger writes the library's own cursors: the cursor of a page read
// from a canned client, byte for byte.
func TestForgedIsGenuine(t *testing.T) {
	_, scores := newScores(t, "scores")
	s := Score{Player: "ann", Game: "m", Points: 7, Badge: []byte{5}, Region: "eu"}
	it, err := scores.Item(s)
	noErr(t, err)
	for _, q := range []query.Query[Score]{
		query.On(scores, scoreByID, "ann"),
		query.On(scores, scoreByPoints, "ann").SortValue(scorePoints.Ge(0)).Desc(),
		query.On(scores, scoreByRegion, "ann"),
	} {
		page, err := q.Limit(1).Page(context.Background(), &canned{items: []map[string]types.AttributeValue{it}, last: it})
		noErr(t, err)
		key := page.Key(0)
		if got := forge(t, q, key); got != page.Next {
			t.Fatalf("forged %s\nwant   %s", got, page.Next)
		}
	}
}

// condCase is a sort key condition and resume keys inside and outside it.
type condCase struct {
	name    string
	q       query.Query[Score]
	index   string
	in, out []map[string]types.AttributeValue // edits of the key in the index
}

// condCases are conditions of every kind (=, <, <=, >, >=, BETWEEN,
// begins_with) on sort keys of every type (S, N, B, native
// multi-attribute), with resume keys on both sides of each.
func condCases(scores *keyfirst.Entity[Score]) []condCase {
	table := query.On(scores, scoreByID, "ann")
	points := query.On(scores, scoreByPoints, "ann")
	badge := query.On(scores, scoreByBadge, "ann")
	region := query.On(scores, scoreByRegion, "ann")
	local := query.On(scores, scoreByPointsLS, "ann")
	sk := func(vs ...string) []map[string]types.AttributeValue {
		out := make([]map[string]types.AttributeValue, len(vs))
		for i, v := range vs {
			out[i] = map[string]types.AttributeValue{"SK": sv(v)}
		}
		return out
	}
	attr := func(name string, vs ...types.AttributeValue) []map[string]types.AttributeValue {
		out := make([]map[string]types.AttributeValue, len(vs))
		for i, v := range vs {
			out[i] = map[string]types.AttributeValue{name: v}
		}
		return out
	}
	rg := func(pairs ...string) []map[string]types.AttributeValue {
		var out []map[string]types.AttributeValue
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, map[string]types.AttributeValue{"NRegion": sv(pairs[i]), "NGame": sv(pairs[i+1])})
		}
		return out
	}
	r := gameSK.Range()
	return []condCase{
		// S, the table's sort key, keys conditions on whole keys.
		{"S =", table.Sort(r.Eq("m")), "", sk("GAME#m"), sk("GAME#l", "GAME#n", "GAME#ma")},
		{"S <", table.Sort(gameSK.At("m").Lt()), "", sk("GAME#l", "GAME#", "A"), sk("GAME#m", "GAME#n")},
		{"S <=", table.Sort(gameSK.At("m").Le()), "", sk("GAME#m", "GAME#a"), sk("GAME#ma", "GAME#n")},
		{"S >", table.Sort(gameSK.At("m").Gt()), "", sk("GAME#ma", "Z"), sk("GAME#m", "GAME#a")},
		{"S >=", table.Sort(gameSK.At("m").Ge()), "", sk("GAME#m", "GAME#z"), sk("GAME#lz", "A")},
		{"S BETWEEN", table.Sort(r.Between("f", "p")), "", sk("GAME#f", "GAME#k", "GAME#p"), sk("GAME#e", "GAME#pa", "GAME#q")},
		{"S begins_with", table.Sort(r.BeginsWith()), "", sk("GAME#m", "GAME#"), sk("GAMF#m", "GAM", "FAME#m")},
		// N: by value, whatever the form.
		{"N =", points.SortValue(scorePoints.Eq(7)), "ByPoints",
			attr("Points", nv("7"), nv("7.0"), nv("70e-1")), attr("Points", nv("6"), nv("8"), nv("7.000001"))},
		{"N <", points.SortValue(scorePoints.Lt(7)), "ByPoints",
			attr("Points", nv("6.99"), nv("-1e3")), attr("Points", nv("7"), nv("8"))},
		{"N <=", points.SortValue(scorePoints.Le(7)), "ByPoints",
			attr("Points", nv("7"), nv("-7")), attr("Points", nv("7.0001"), nv("1e2"))},
		{"N >", points.SortValue(scorePoints.Gt(7)), "ByPoints",
			attr("Points", nv("7.5"), nv("1e10")), attr("Points", nv("7"), nv("-8"))},
		{"N >=", points.SortValue(scorePoints.Ge(7)), "ByPoints",
			attr("Points", nv("7"), nv("70")), attr("Points", nv("6.999"), nv("-7"))},
		{"N BETWEEN", points.SortValue(scorePoints.Between(-5, 5)), "ByPoints",
			attr("Points", nv("-5"), nv("0"), nv("5")), attr("Points", nv("-5.1"), nv("5.01"), nv("50"))},
		{"N > on an LSI", local.SortValue(scorePointsLS.Gt(7)), "ByPointsLocal",
			attr("Points", nv("8")), attr("Points", nv("7"), nv("0"))},
		// B: by bytes.
		{"B =", badge.SortValue(scoreBadge.Eq([]byte{1, 2})), "ByBadge",
			attr("Badge", bv(1, 2)), attr("Badge", bv(1), bv(1, 2, 0), bv(2))},
		{"B <", badge.SortValue(scoreBadge.Lt([]byte{5})), "ByBadge",
			attr("Badge", bv(4, 255), bv(0)), attr("Badge", bv(5), bv(5, 0), bv(6))},
		{"B <=", badge.SortValue(scoreBadge.Le([]byte{5})), "ByBadge",
			attr("Badge", bv(5), bv(1)), attr("Badge", bv(5, 0), bv(255))},
		{"B >", badge.SortValue(scoreBadge.Gt([]byte{5})), "ByBadge",
			attr("Badge", bv(5, 0), bv(6)), attr("Badge", bv(5), bv(4, 255))},
		{"B >=", badge.SortValue(scoreBadge.Ge([]byte{5})), "ByBadge",
			attr("Badge", bv(5), bv(200)), attr("Badge", bv(4, 255), bv(0))},
		{"B BETWEEN", badge.SortValue(scoreBadge.Between([]byte{2}, []byte{8})), "ByBadge",
			attr("Badge", bv(2), bv(5, 5), bv(8)), attr("Badge", bv(1, 255), bv(8, 0), bv(9))},
		// Native: equality on the leading attribute, a condition on the
		// next, each checked.
		{"native =, >", region.Sort(regionGame.With1("eu").Gt("m")), "ByRegionGame",
			rg("eu", "n", "eu", "z"), rg("eu", "m", "eu", "a", "us", "n", "e", "n")},
		{"native =, BETWEEN", region.Sort(regionGame.With1("eu").Between("f", "p")), "ByRegionGame",
			rg("eu", "f", "eu", "p"), rg("eu", "e", "eu", "q", "us", "k")},
		{"native = alone", region.Sort(regionGame.With1("eu").BeginsWith()), "ByRegionGame",
			rg("eu", "a", "eu", "z"), rg("us", "a", "e", "a", "eu2", "a")},
		{"native =, <", region.Sort(regionGame.With1("eu").Lt("m")), "ByRegionGame",
			rg("eu", "l"), rg("eu", "m", "us", "a")},
	}
}

// refused asserts that q (resumed after a bad cursor) is refused with
// want, as a ProblemCursor *query.Error, by every terminal call, before
// any request.
func refused(t *testing.T, q query.Query[Score], want error) {
	t.Helper()
	ctx := context.Background()
	check := func(call string, err error) {
		t.Helper()
		var qe *query.Error
		if !errors.Is(err, want) || !errors.As(err, &qe) || qe.Problem != query.ProblemCursor || !errors.Is(err, query.ErrInvalidQuery) {
			t.Errorf("%s: %v, want a ProblemCursor *query.Error wrapping %v", call, err, want)
		}
	}
	_, err := q.Page(ctx, noCalls{T: t})
	check("Page", err)
	_, err = q.Collect(ctx, noCalls{T: t})
	check("Collect", err)
	_, err = q.Fingerprint()
	check("Fingerprint", err)
}

// A cursor whose resume key lies outside the query's sort key condition,
// on either side and in either direction, is refused before any request
// (DynamoDB refuses it: "The provided starting key does not match the
// range key predicate"); one inside is accepted.
func TestCursorOutsideTheConditionRefused(t *testing.T) {
	_, scores := newScores(t, "scores")
	for _, c := range condCases(scores) {
		for _, desc := range []bool{false, true} {
			q := c.q
			name := c.name
			if desc {
				q, name = q.Desc(), name+" desc"
			}
			t.Run(name, func(t *testing.T) {
				for _, edit := range c.in {
					if _, err := q.After(forge(t, q, keyIn(c.index, edit))).Fingerprint(); err != nil {
						t.Errorf("inside %v: %v", edit, err)
					}
				}
				for _, edit := range c.out {
					refused(t, q.After(forge(t, q, keyIn(c.index, edit))), query.ErrCursorPartition)
				}
			})
		}
	}
}

// A resume key that is not a key of the query's index in the query's
// partition, or holds a value DynamoDB does not store, is refused before
// any request: attributes of another type (S, N, B; the table's key
// attributes in an index's key included), missing or extra, another
// partition, a number not in DynamoDB's form, an empty or too long value.
func TestCursorNotAKeyRefused(t *testing.T) {
	_, scores := newScores(t, "scores")
	queries := map[string]query.Query[Score]{
		"":              query.On(scores, scoreByID, "ann"),
		"ByPoints":      query.On(scores, scoreByPoints, "ann"),
		"ByBadge":       query.On(scores, scoreByBadge, "ann"),
		"ByRegionGame":  query.On(scores, scoreByRegion, "ann"),
		"ByPointsLocal": query.On(scores, scoreByPointsLS, "ann"),
	}
	for index, q := range queries {
		good := keyIn(index, nil)
		t.Run("genuine on "+index, func(t *testing.T) {
			if _, err := q.After(forge(t, q, good)).Fingerprint(); err != nil {
				t.Fatal(err)
			}
		})
		for name := range good {
			others := map[string]types.AttributeValue{"S": sv("7"), "N": nv("7"), "B": bv('7')}
			for typ, v := range others {
				if fmt.Sprintf("%T", good[name]) == fmt.Sprintf("%T", v) {
					continue
				}
				t.Run(index+"/"+name+" as "+typ, func(t *testing.T) {
					refused(t, q.After(forge(t, q, keyIn(index, map[string]types.AttributeValue{name: v}))), query.ErrCursorPartition)
				})
			}
			t.Run(index+"/"+name+" missing", func(t *testing.T) {
				refused(t, q.After(forge(t, q, keyIn(index, map[string]types.AttributeValue{name: nil}))), query.ErrCursorPartition)
			})
		}
		t.Run(index+"/an extra attribute", func(t *testing.T) {
			extra := "Region"
			refused(t, q.After(forge(t, q, keyIn(index, map[string]types.AttributeValue{extra: sv("eu")}))), query.ErrCursorPartition)
		})
		partition := map[string]types.AttributeValue{"Player": sv("bob")}
		if index == "" || index == "ByPointsLocal" {
			partition = map[string]types.AttributeValue{"PK": sv("PLAYER#bob")}
		}
		t.Run(index+"/another partition", func(t *testing.T) {
			refused(t, q.After(forge(t, q, keyIn(index, partition))), query.ErrCursorPartition)
		})
	}

	points := queries["ByPoints"]
	for _, n := range []string{"1e99999999", "1e126", "1e-131", "NaN", "Infinity", "-Inf", "0x10", " 7", "7 ", "", "1.2.3", "+", "-", "1e", "e5", "7_0",
		strings.Repeat("1", 39), "١"} {
		t.Run("number "+n, func(t *testing.T) {
			refused(t, points.After(forge(t, points, keyIn("ByPoints", map[string]types.AttributeValue{"Points": nv(n)}))), query.ErrCursorPartition)
		})
	}
	long := func(n int) string { return strings.Repeat("x", n) }
	for _, c := range []struct {
		name  string
		index string
		edit  map[string]types.AttributeValue
	}{
		{"empty table sort key", "", map[string]types.AttributeValue{"SK": sv("")}},
		{"empty binary sort key", "ByBadge", map[string]types.AttributeValue{"Badge": bv()}},
		{"table sort key of 1,025 bytes", "", map[string]types.AttributeValue{"SK": sv("GAME#" + long(1020))}},
		{"table sort key of 1,025 bytes in a GSI's key", "ByPoints", map[string]types.AttributeValue{"SK": sv("GAME#" + long(1020))}},
		{"table partition key of 2,049 bytes in a GSI's key", "ByPoints", map[string]types.AttributeValue{"PK": sv("PLAYER#" + long(2042))}},
		{"binary sort key of 1,025 bytes", "ByBadge", map[string]types.AttributeValue{"Badge": bv(bytes.Repeat([]byte{1}, 1025)...)}},
		{"native sort attribute of 1,025 bytes", "ByRegionGame", map[string]types.AttributeValue{"NGame": sv(long(1025))}},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := queries[c.index]
			refused(t, q.After(forge(t, q, keyIn(c.index, c.edit))), query.ErrCursorPartition)
		})
	}
	// The longest values a key holds are accepted.
	for _, c := range []struct {
		index string
		edit  map[string]types.AttributeValue
	}{
		{"", map[string]types.AttributeValue{"SK": sv("GAME#" + long(1019))}},
		{"ByPoints", map[string]types.AttributeValue{"PK": sv("PLAYER#" + long(2041))}},
		{"ByBadge", map[string]types.AttributeValue{"Badge": bv(bytes.Repeat([]byte{1}, 1024)...)}},
	} {
		q := queries[c.index]
		if _, err := q.After(forge(t, q, keyIn(c.index, c.edit))).Fingerprint(); err != nil {
			t.Errorf("longest values on %q: %v", c.index, err)
		}
	}
}

// A cursor is accepted only in the one form the library writes it:
// anything else (another spelling of the same JSON, a string that JSON
// decodes to another value, keys out of order) is malformed.
func TestCursorOneForm(t *testing.T) {
	_, scores := newScores(t, "scores")
	q := query.On(scores, scoreByPoints, "ann")
	good := forge(t, q, keyIn("ByPoints", nil))
	raw, err := base64.RawURLEncoding.DecodeString(string(good))
	noErr(t, err)
	if _, err := q.After(good).Fingerprint(); err != nil {
		t.Fatal(err)
	}
	var p forgedCursor
	noErr(t, json.Unmarshal(raw, &p))
	replace := func(old, new string) query.Cursor {
		if !strings.Contains(string(raw), old) {
			t.Fatalf("%s not in %s", old, raw)
		}
		return query.Cursor(base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(raw), old, new, 1))))
	}
	swapped := p
	swapped.K = slices.Clone(p.K)
	swapped.K[0], swapped.K[1] = swapped.K[1], swapped.K[0]
	badge := query.On(scores, scoreByBadge, "ann")
	badgeRaw, err := base64.RawURLEncoding.DecodeString(string(forge(t, badge, keyIn("ByBadge", map[string]types.AttributeValue{"Badge": bv(5, 5)}))))
	noErr(t, err)
	for _, c := range []struct {
		name string
		q    query.Query[Score]
		c    query.Cursor
	}{
		{"a space", q, replace(`{"v":1`, `{ "v":1`)},
		{"a field name in capitals", q, replace(`"v":1`, `"V":1`)},
		{"a repeated field", q, replace(`{"v":1`, `{"v":1,"v":1`)},
		{"an escaped letter", q, replace(`"ann"`, `"\u0061nn"`)},
		{"an escaped surrogate, U+FFFD once decoded", q, replace(`"GAME#m"`, `"GAME#m\udc80"`)},
		{"invalid UTF-8", q, replace(`"GAME#m"`, "\"GAME#m\xff\"")},
		{"a version of 1.0", q, replace(`"v":1`, `"v":1.0`)},
		{"keys out of order", q, forgeJSON(t, swapped)},
		{"a key repeated", q, forgeJSON(t, forgedCursor{V: 1, B: p.B, K: append(slices.Clone(p.K), p.K[len(p.K)-1])})},
		{"bytes in padded base64", badge, query.Cursor(base64.RawURLEncoding.EncodeToString(
			[]byte(strings.Replace(string(badgeRaw), `"BQU="`, `"BQV="`, 1))))},
	} {
		t.Run(c.name, func(t *testing.T) {
			refused(t, c.q.After(c.c), query.ErrCursorMalformed)
		})
	}
}

// CheckKey checks a key as After checks a cursor's, and ResumeKey returns
// the key a cursor holds, checked; neither sends a request.
func TestCheckKeyAndResumeKey(t *testing.T) {
	_, scores := newScores(t, "scores")
	q := query.On(scores, scoreByPoints, "ann").SortValue(scorePoints.Ge(0))
	inside, outside := keyIn("ByPoints", nil), keyIn("ByPoints", map[string]types.AttributeValue{"Points": nv("-1")})
	var qe *query.Error
	if err := q.CheckKey(inside); err != nil {
		t.Errorf("CheckKey inside: %v", err)
	}
	if err := q.CheckKey(outside); !errors.Is(err, query.ErrCursorPartition) || !errors.As(err, &qe) || qe.Problem != query.ProblemCursor || qe.Attribute != "Points" {
		t.Errorf("CheckKey outside: %v", err)
	}
	if err := q.Limit(0).CheckKey(inside); !errors.As(err, &qe) || qe.Problem != query.ProblemLimit {
		t.Errorf("CheckKey of a query that cannot be sent: %v", err)
	}
	if key, err := q.ResumeKey(); key != nil || err != nil {
		t.Errorf("ResumeKey without a cursor: %v, %v", key, err)
	}
	key, err := q.After(forge(t, q, inside)).ResumeKey()
	if err != nil || len(key) != len(inside) {
		t.Fatalf("ResumeKey: %v, %v", key, err)
	}
	for name, v := range inside {
		if fmt.Sprint(key[name]) != fmt.Sprint(v) {
			t.Errorf("ResumeKey: %s is %v, want %v", name, key[name], v)
		}
	}
	if _, err := q.After(forge(t, q, outside)).ResumeKey(); !errors.Is(err, query.ErrCursorPartition) {
		t.Errorf("ResumeKey outside: %v", err)
	}
}
