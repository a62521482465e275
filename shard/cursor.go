package shard

import (
	"encoding/json"
	"fmt"

	"github.com/keyfirst/keyfirst/internal/avequal"
	"github.com/keyfirst/keyfirst/internal/envelope"
	"github.com/keyfirst/keyfirst/query"
)

// Cursor is an opaque token that resumes a read of a sharded index
// ([Reader.After]) exactly after the last item a call returned. It holds
// every shard's position: a [query.Cursor] after the last item the merge
// consumed from that shard (none for a shard not started), so it is exact
// whatever the order of equal sort values.
//
// It is bound to the read: the table, the index, the sort key condition,
// the direction and the number of shards read; handed to another read it
// is refused with
// [query.ErrCursorMismatch]. With the query package's CursorKey option it
// carries an HMAC-SHA256 and a changed or unsigned one is refused with
// [query.ErrCursorTampered]; each shard's position is also checked by the
// query package (its partition, its binding). All of this is checked
// before any request. A change of the number of shards read (Shards or
// PreviousShards) ends the cursors made before it.
type Cursor string

const cursorVersion = 1

// maxCursorLen bounds the cursors accepted: 100 shard positions of
// query cursors and one key.
const maxCursorLen = 1 << 20

// cursorPayload is what a Cursor holds before encoding.
type cursorPayload struct {
	V int               `json:"v"`
	B string            `json:"b"` // the shard queries' binding (query.Query.Fingerprint)
	N int               `json:"n"` // the number of shards read
	P map[string]string `json:"p"` // partition: query.Cursor
}

func seal(bind string, p cursorPayload, secret []byte) Cursor {
	p.V, p.B = cursorVersion, bind
	raw, _ := json.Marshal(p) // strings, bytes and maps of strings always encode
	return Cursor(envelope.Seal(nil, raw, secret))
}

// open decodes c for the read with the given binding: size, signature,
// format (internal/envelope), then version and binding.
func (c Cursor) open(bind string, secret []byte) (cursorPayload, error) {
	var p cursorPayload
	if err := envelope.Open(string(c), maxCursorLen, secret, &p); err != nil {
		return p, err
	}
	switch {
	case p.V != cursorVersion:
		return p, fmt.Errorf("%w: version %d", query.ErrCursorMalformed, p.V)
	case p.B != bind:
		return p, fmt.Errorf("%w: the cursor belongs to another index, condition or direction", query.ErrCursorMismatch)
	}
	return p, nil
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
