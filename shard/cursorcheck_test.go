package shard_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/keyjson"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/shard"
)

// shardCursor is a shard cursor's payload as a caller without the
// CursorKey can write it: the library's JSON (a cursor decoded and
// encoded again is the same, TestShardCursorEditsRefused checks it), so
// that what a test refuses is the content, never the form.
type shardCursor struct {
	V int               `json:"v"`
	B string            `json:"b"`
	L []placeAttr       `json:"l"`
	P map[string]string `json:"p"`
}

// placeAttr is an attribute of the place, in the JSON of cursor keys.
type placeAttr = keyjson.Attr

func decodeCursor(t testing.TB, c shard.Cursor) shardCursor {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(string(c))
	if err != nil {
		t.Fatal(err)
	}
	var p shardCursor
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func (p shardCursor) encode(t testing.TB) shard.Cursor {
	t.Helper()
	raw, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return shard.Cursor(base64.RawURLEncoding.EncodeToString(raw))
}

// edit is a copy of p changed by fn (the place and positions copied).
func (p shardCursor) edit(fn func(*shardCursor)) shardCursor {
	q := p
	q.L = append([]placeAttr(nil), p.L...)
	q.P = make(map[string]string, len(p.P))
	for k, v := range p.P {
		q.P[k] = v
	}
	fn(&q)
	return q
}

// rewrite is the unsigned query cursor c with old replaced by new in its
// JSON: a hand edit of a shard's position.
func rewrite(t testing.TB, c, old, new string) string {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || !strings.Contains(string(raw), old) {
		t.Fatalf("%s is not in the position %s (%v)", old, raw, err)
	}
	return base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(raw), old, new, 1)))
}

// cannedRun is the cursor after the first n items of r's read of vs, all
// on partition part (in the read's order), made against a canned client.
func cannedRun(t testing.TB, r shard.Reader[Item], part string, vs []Item, n int) shard.Cursor {
	t.Helper()
	page, err := r.Limit(n).Page(context.Background(), cannedShard{part: part, item: mergeItems, vs: vs})
	if err != nil || page.Next == "" || len(page.Items) != n {
		t.Fatalf("canned page: %v %+v", err, page)
	}
	return page.Next
}

// readRefused asserts that r is refused with a ReadCursor *ReadError
// wrapping want, by every terminal call, before any request.
func readRefused(t *testing.T, r shard.Reader[Item], want error) {
	t.Helper()
	ctx := context.Background()
	check := func(call string, err error) {
		t.Helper()
		var re *shard.ReadError
		if !errors.As(err, &re) || re.Problem != shard.ReadCursor || !errors.Is(err, shard.ErrInvalidRead) || !errors.Is(err, want) {
			t.Errorf("%s: %v, want a ReadCursor *shard.ReadError wrapping %v", call, err, want)
		}
	}
	_, err := r.Page(ctx, noCalls{T: t})
	check("Page", err)
	_, err = r.Collect(ctx, noCalls{T: t})
	check("Collect", err)
}

// emptyShards answers every query with no items: a read that is accepted
// ends at once.
type emptyShards struct{}

func (emptyShards) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return &dynamodb.QueryOutput{}, nil
}

// A cursor of a read of a sharded index whose place or positions were
// edited by hand is refused before any request, as strictly as the
// signature would refuse it: a place (the last item's sort key and table
// key) of another type, outside the sort key condition, empty, too long or
// in another spelling; a position for a partition that is not a shard of
// the index, empty, of another shard, outside the condition, or not
// before the place. The cursors the read made, and a position older than
// the one the read wrote, are accepted.
func TestShardCursorEditsRefused(t *testing.T) {
	ge := spreadSK.Ge("B1")
	r := shard.Query(mergeItems, spreadShards).SortValue(ge)
	run := []Item{{ID: "i-1", Bucket: "B3", Shard: 3}, {ID: "i-2", Bucket: "B4", Shard: 3}, {ID: "i-3", Bucket: "B5", Shard: 3}, {ID: "i-4", Bucket: "B6", Shard: 3}, {ID: "i-5", Bucket: "B7", Shard: 3}}
	// cN is the cursor after N items: its place is at item N, its
	// position on S#3 after item N-1.
	c2, c3, c4 := cannedRun(t, r, "S#3", run, 2), cannedRun(t, r, "S#3", run, 3), cannedRun(t, r, "S#3", run, 4)
	p2, p3, p4 := decodeCursor(t, c2), decodeCursor(t, c3), decodeCursor(t, c4)
	if p2.encode(t) != c2 || len(p2.L) != 2 || p2.L[0].S != "B4" || p2.P["S#3"] == "" {
		t.Fatalf("the forger does not write the library's cursor: %+v", p2)
	}
	rd := r.Desc()
	desc := []Item{run[4], run[3], run[2], run[1], run[0]}
	d2, d3 := decodeCursor(t, cannedRun(t, rd, "S#3", desc, 2)), decodeCursor(t, cannedRun(t, rd, "S#3", desc, 3))
	// A read of 12 shards of the same index (a shard count since
	// reduced to 10) leaves a position on S#11.
	spread12 := spreadSpec(12, 0) // one declaration, bound and read (TestReadOtherDeclaration)
	items12 := keyfirst.Must(keyfirst.NewEntity(keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: mergeTable.Name(), Key: orderByID,
		GSIs: []keyfirst.Index{spreadIx.Index()}})), keyfirst.EntitySpec[Item]{Type: "ITEM",
		Keys: []keyfirst.Binding{itemByID.Fields("ID"), spread12.Binding()}}))
	r12 := shard.Query(items12, spread12).SortValue(ge)
	on11 := []Item{{ID: "i-1", Bucket: "B3", Shard: 11}, {ID: "i-2", Bucket: "B4", Shard: 11}, {ID: "i-3", Bucket: "B5", Shard: 11}}
	page, err := r12.Limit(2).Page(context.Background(), cannedShard{part: "S#11", item: items12, vs: on11})
	if err != nil || decodeCursor(t, page.Next).P["S#11"] == "" {
		t.Fatalf("a read of 12 shards: %v, %+v", err, page)
	}
	from12 := page.Next

	accepted := []struct {
		name string
		r    shard.Reader[Item]
		c    shard.Cursor
	}{
		{"after 2", r, c2}, {"after 3", r, c3}, {"after 4", r, c4},
		{"desc after 2", rd, d2.encode(t)}, {"desc after 3", rd, d3.encode(t)},
		{"an older position", r, p3.edit(func(p *shardCursor) { p.P = p2.P }).encode(t)},
		{"no position", r, p3.edit(func(p *shardCursor) { p.P = map[string]string{} }).encode(t)},
		{"a position on a shard no longer read", r, from12},
	}
	for _, c := range accepted {
		t.Run("accepted: "+c.name, func(t *testing.T) {
			if _, err := c.r.After(c.c).Page(context.Background(), emptyShards{}); err != nil {
				t.Fatal(err)
			}
		})
	}

	place := func(i int, a placeAttr) shard.Cursor {
		return p2.edit(func(p *shardCursor) { p.L[i] = a }).encode(t)
	}
	position := func(part, c string) shard.Cursor {
		return p2.edit(func(p *shardCursor) { p.P[part] = c }).encode(t)
	}
	pos3 := p2.P["S#3"]
	refusals := []struct {
		name string
		r    shard.Reader[Item]
		c    shard.Cursor
		want error
	}{
		// The place: a key of the index's sort key and the table's key.
		{"the place's sort value as a number", r, place(0, placeAttr{N: "spread_sk", T: "N", S: "4"}), query.ErrCursorPartition},
		{"the place's sort value as bytes", r, place(0, placeAttr{N: "spread_sk", T: "B", B: []byte("B4")}), query.ErrCursorPartition},
		{"the place's table key as a number", r, place(1, placeAttr{N: "PK", T: "N", S: "1"}), query.ErrCursorPartition},
		{"the place's sort value below the condition", r, place(0, placeAttr{N: "spread_sk", T: "S", S: "B0"}), query.ErrCursorPartition},
		{"the place's sort value below the condition, desc", rd, d2.edit(func(p *shardCursor) { p.L[0].S = "A9" }).encode(t), query.ErrCursorPartition},
		{"the place's sort value empty", r, place(0, placeAttr{N: "spread_sk", T: "S"}), query.ErrCursorPartition},
		{"the place's table key empty", r, place(1, placeAttr{N: "PK", T: "S"}), query.ErrCursorPartition},
		{"the place's sort value of 1,025 bytes", r, place(0, placeAttr{N: "spread_sk", T: "S", S: "B" + strings.Repeat("x", 1024)}), query.ErrCursorPartition},
		{"the place's sort value not a number DynamoDB stores", r, place(0, placeAttr{N: "spread_sk", T: "N", S: "1e99999999"}), query.ErrCursorPartition},
		{"the place's attribute renamed", r, place(0, placeAttr{N: "spread", T: "S", S: "B4"}), query.ErrCursorMalformed},
		{"the place's attribute of no type", r, place(0, placeAttr{N: "spread_sk", S: "B4"}), query.ErrCursorMalformed},
		{"the place short of an attribute", r, p2.edit(func(p *shardCursor) { p.L = p.L[:1] }).encode(t), query.ErrCursorMalformed},
		{"the place with an escaped surrogate", r, shard.Cursor(base64.RawURLEncoding.EncodeToString([]byte(
			strings.Replace(string(mustJSON(t, p2)), `"B4"`, `"B4\udc80"`, 1)))), query.ErrCursorMalformed},
		{"the place in invalid UTF-8", r, shard.Cursor(base64.RawURLEncoding.EncodeToString([]byte(
			strings.Replace(string(mustJSON(t, p2)), `"B4"`, "\"B4\xff\"", 1)))), query.ErrCursorMalformed},
		{"another spelling", r, shard.Cursor(base64.RawURLEncoding.EncodeToString([]byte(
			strings.Replace(string(mustJSON(t, p2)), `{"v":`, `{ "v":`, 1)))), query.ErrCursorMalformed},
		// The positions: a query cursor per shard of the index.
		{"a position for shard 100 (MaxShards is 100)", r, position("S#100", pos3), query.ErrCursorPartition},
		{"a position for shard -1", r, position("S#-1", pos3), query.ErrCursorPartition},
		{"a position for shard 03", r, position("S#03", pos3), query.ErrCursorPartition},
		{"a position for shard 3x", r, position("S#3x", pos3), query.ErrCursorPartition},
		{"a position for another base", r, position("T#3", pos3), query.ErrCursorPartition},
		{"a position for no shard", r, position("S#", pos3), query.ErrCursorPartition},
		{"a position of shard 3 under shard 4", r, p2.edit(func(p *shardCursor) { p.P = map[string]string{"S#4": pos3} }).encode(t), query.ErrCursorPartition},
		{"a position of shard 3 under shard 11, no longer read", r, p2.edit(func(p *shardCursor) { p.P = map[string]string{"S#11": pos3} }).encode(t), query.ErrCursorPartition},
		{"an empty position", r, position("S#5", ""), query.ErrCursorMalformed},
		{"a position that is not a cursor", r, position("S#3", "!!"), query.ErrCursorMalformed},
		{"a position outside the condition", r, position("S#3", rewrite(t, pos3, `"B3"`, `"B0"`)), query.ErrCursorPartition},
		{"a position of another type", r, position("S#3", rewrite(t, pos3, `"t":"S","s":"B3"`, `"t":"N","s":"3"`)), query.ErrCursorPartition},
		{"a position at the place's sort value", r, p2.edit(func(p *shardCursor) { p.P = p3.P }).encode(t), query.ErrCursorMalformed},
		{"a position past the place", r, p2.edit(func(p *shardCursor) { p.P = p4.P }).encode(t), query.ErrCursorMalformed},
		{"a position past the place, desc", rd, d2.edit(func(p *shardCursor) { p.P = d3.P }).encode(t), query.ErrCursorMalformed},
	}
	for _, c := range refusals {
		t.Run(c.name, func(t *testing.T) {
			readRefused(t, c.r.After(c.c), c.want)
		})
	}
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// counted answers every query with no items and counts the requests
// (the shard queries run concurrently).
type counted struct{ n *atomic.Int32 }

func (c counted) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.n.Add(1)
	return &dynamodb.QueryOutput{}, nil
}

// Shard cursors are decoded strictly: no input makes a read panic, a
// refused cursor is a ReadCursor *ReadError wrapping a cursor sentinel of
// the query package and sends nothing, and a cursor accepted is in the
// library's one form, its place a key inside the condition
// (spread_sk >= B1). A place of any values is accepted exactly when they
// are a key inside the condition after the cursor's position on S#3 (at
// B3).
func FuzzCursor(f *testing.F) {
	ge := spreadSK.Ge("B1")
	r := shard.Query(mergeItems, spreadShards).SortValue(ge)
	run := []Item{{ID: "i-1", Bucket: "B3", Shard: 3}, {ID: "i-2", Bucket: "B4", Shard: 3}, {ID: "i-3", Bucket: "B5", Shard: 3}}
	genuine := cannedRun(f, r, "S#3", run, 2)
	f.Add("B4", "ORDER#i-2", string(genuine))
	f.Add("B3", "ORDER#i-1", "")
	f.Add("B1", "x", "!!")
	f.Add("B4\u2028<&>", strings.Repeat("k", 2048), "eyJ2IjoyfQ")
	p := decodeCursor(f, genuine)
	sentinels := []error{query.ErrCursorMalformed, query.ErrCursorMismatch, query.ErrCursorTampered, query.ErrCursorPartition}
	f.Fuzz(func(t *testing.T, sortValue, id, raw string) {
		read := func(c shard.Cursor) error {
			var n atomic.Int32
			_, err := r.After(c).Page(context.Background(), counted{&n})
			var re *shard.ReadError
			switch {
			case err == nil:
			case !errors.As(err, &re) || re.Problem != shard.ReadCursor || !slices.ContainsFunc(sentinels, func(s error) bool { return errors.Is(err, s) }):
				t.Fatalf("%q: %v, want a ReadCursor *ReadError", c, err)
			case n.Load() > 0:
				t.Fatalf("%q: refused after %d requests", c, n.Load())
			}
			return err
		}
		if read(shard.Cursor(raw)) == nil && raw != "" {
			q := decodeCursor(t, shard.Cursor(raw))
			if q.encode(t) != shard.Cursor(raw) || len(q.L) != 2 || q.L[0].T != "S" || q.L[0].S < "B1" || q.L[1].T != "S" || q.L[1].S == "" {
				t.Fatalf("accepted %q: %+v", raw, q)
			}
		}
		if !utf8.ValidString(sortValue) || !utf8.ValidString(id) {
			return // JSON would write another string
		}
		c := p.edit(func(p *shardCursor) { p.L[0].S, p.L[1].S = sortValue, id }).encode(t)
		inside := sortValue > "B3" && len(sortValue) <= 1024 && id != "" && len(id) <= 2048
		if err := read(c); (err == nil) != inside {
			t.Fatalf("place (%q, %q): %v", sortValue, id, err)
		}
	})
}
