package shard

import (
	"encoding/json"
	"fmt"

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
// [query.ErrCursorTampered]; each shard's position is also checked by the
// query package (its partition, its binding). All of this is checked
// before any request.
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
