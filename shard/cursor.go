package shard

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/avequal"
	"github.com/keyfirst/keyfirst/internal/envelope"
	"github.com/keyfirst/keyfirst/internal/keyjson"
	"github.com/keyfirst/keyfirst/query"
)

// Cursor is an opaque token that resumes a read of a sharded index
// ([Reader.After]) exactly after the last item a call returned. It holds
// that item's place in the merged order (its index sort key and table
// key) and, for each shard, where the run of that item's sort value
// starts in it: a resumed read queries every shard from there and skips
// what comes at or before the place. An item that moves from one shard to
// another between two calls (a re-shard, [Index.Reshard]) keeps its place
// in the merged order, so it is neither missed nor returned twice; a
// cursor therefore survives a change of the shard count.
//
// It is bound to the read: the table, the index, the sort key condition
// and the direction; handed to another read it is refused with
// [query.ErrCursorMismatch]. With [keyfirst.WithCursorKey] it
// carries an HMAC-SHA256 and a changed or unsigned one is refused with
// [query.ErrCursorTampered]. Unsigned, it is checked as strictly as the
// read can check it: it must be written in the library's one form
// ([query.ErrCursorMalformed]); its place must be a key the shard queries
// can return (its attributes of the index's types, values DynamoDB
// stores, within the sort key condition: [query.ErrCursorPartition]);
// each position must be a cursor of a shard of the index, <Base>#0 to
// <Base>#<MaxShards-1> ([query.ErrCursorPartition]; a shard the read no
// longer covers after a change of the shard count keeps its position),
// checked by the query package as its own cursors are, and lie before the
// place's sort value ([query.ErrCursorMalformed]). All of this is checked
// before any request, and a refused cursor is a [*ReadError]
// ([ReadCursor]).
type Cursor string

// cursorVersion 2: the place in the merged order and the start of its run
// per shard (1 held the shards' positions after their last items, bound
// to the number of shards).
const cursorVersion = 2

// maxCursorLen bounds the cursors accepted: a position (a query cursor)
// per shard and the place (one key), each at most query.MaxCursorLen,
// in base64. An ordinary cursor is a few hundred bytes per shard.
const maxCursorLen = (MaxShards + 1) * query.MaxCursorLen * 4 / 3

// cursorPayload is what a Cursor holds before encoding.
type cursorPayload struct {
	V int               `json:"v"`
	B string            `json:"b"` // the shard queries' binding (query.Query.Fingerprint)
	L []keyjson.Attr    `json:"l"` // the last item's place: sort key, then table key
	P map[string]string `json:"p"` // partition: query.Cursor at the start of L's run
}

func seal(bind string, p cursorPayload, secret []byte) Cursor {
	p.V, p.B = cursorVersion, bind
	raw, _ := json.Marshal(p) // strings, bytes and maps of strings always encode
	return Cursor(envelope.Seal(nil, raw, secret))
}

// open decodes c for the read with the given binding and merged order:
// size, signature, format (internal/envelope), then version, binding and
// the place's attributes.
func (c Cursor) open(bind string, order []string, secret []byte) (cursorPayload, orderKey, error) {
	var p cursorPayload
	if err := envelope.Open(string(c), maxCursorLen, secret, &p); err != nil {
		return p, nil, err
	}
	switch {
	case p.V != cursorVersion:
		return p, nil, fmt.Errorf("%w: version %d", query.ErrCursorMalformed, p.V)
	case p.B != bind:
		return p, nil, fmt.Errorf("%w: the cursor belongs to another index, condition or direction", query.ErrCursorMismatch)
	case len(p.L) != len(order):
		return p, nil, fmt.Errorf("%w: a place of %d attributes, the merged order has %d", query.ErrCursorMalformed, len(p.L), len(order))
	}
	place := make(orderKey, len(order))
	for i, a := range p.L {
		av, ok := a.Value()
		if !ok || a.N != order[i] {
			return p, nil, fmt.Errorf("%w: attribute %d of the place is %q of type %q, want %q", query.ErrCursorMalformed, i, a.N, a.T, order[i])
		}
		place[i] = av
	}
	return p, place, nil
}

// resume opens the read's cursor ([Reader.After]) for shard queries bound
// to bind and checks it as strictly as its signature would, before any
// request: the place (the last item's sort key and table key) must be a
// key the shard queries can return (query.Query.CheckKey: its types, its
// values, the sort key condition); each position must be one of a shard
// of the index (<Base>#<n>, n from 0 to MaxShards-1, in its one spelling:
// a shard the read no longer covers, after a change of the shard count,
// keeps its position), a cursor of that shard's query, and, when the
// index has a sort key, before the place's sort value in the read's
// direction (a position past it would skip the items between). It
// returns the positions of the cursor, by partition, and the place.
func (r Reader[T]) resume(bind string) (map[string]query.Cursor, orderKey, error) {
	refuse := func(detail string, err error) (map[string]query.Cursor, orderKey, error) {
		return nil, nil, &ReadError{Index: r.index, Problem: ReadCursor, Detail: detail, Err: err}
	}
	p, place, err := r.after.open(bind, r.order, r.secret)
	if err != nil {
		return refuse("", err)
	}
	key := make(map[string]types.AttributeValue, len(place)+1)
	for i, name := range r.order {
		key[name] = place[i]
	}
	key[r.pkey] = &types.AttributeValueMemberS{Value: r.parts[0]}
	if err := r.partQuery(r.parts[0]).CheckKey(key); err != nil {
		return refuse("the place of the last item returned", err)
	}
	base := strings.TrimSuffix(r.parts[0], "0") // <Base>#
	pos := make(map[string]query.Cursor, len(p.P))
	for _, part := range slices.Sorted(maps.Keys(p.P)) {
		c := query.Cursor(p.P[part])
		n, err := strconv.Atoi(strings.TrimPrefix(part, base))
		switch {
		case !strings.HasPrefix(part, base) || err != nil || n < 0 || n >= MaxShards || base+strconv.Itoa(n) != part:
			return refuse(fmt.Sprintf("a position for %q, which is no shard of the index (%s0 to %s%d)", part, base, base, MaxShards-1), query.ErrCursorPartition)
		case c == "":
			return refuse(fmt.Sprintf("an empty position for %q", part), query.ErrCursorMalformed)
		}
		at, err := r.partQuery(part).After(c).ResumeKey()
		if err != nil {
			return refuse(fmt.Sprintf("the position for %q", part), err)
		}
		if r.nSort > 0 {
			order := compareOrder(newOrderKey(at, r.order[:r.nSort]), place[:r.nSort])
			if r.desc {
				order = -order
			}
			if order >= 0 {
				return refuse(fmt.Sprintf("the position for %q is not before the place's sort value: the items between would be skipped", part), query.ErrCursorMalformed)
			}
		}
		pos[part] = c
	}
	return pos, place, nil
}

// placeOf is the JSON form of place, attribute i named order[i].
func placeOf(place orderKey, order []string) ([]keyjson.Attr, error) {
	out := make([]keyjson.Attr, len(place))
	for i, av := range place {
		a, ok := keyjson.From(order[i], av)
		if !ok {
			return nil, fmt.Errorf("%w: key attribute %q is not a scalar (S, N or B)", query.ErrCursorMalformed, order[i])
		}
		out[i] = a
	}
	return out, nil
}

// compareOrder orders two keys as DynamoDB orders key values, attribute
// after attribute.
func compareOrder(a, b orderKey) int {
	for i := range a {
		if c := avequal.Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}
