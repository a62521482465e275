package shard

import (
	"bytes"
	"cmp"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

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

var strict = base64.RawURLEncoding.Strict()

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
	body := base64.RawURLEncoding.EncodeToString(raw)
	if len(secret) == 0 {
		return Cursor(body)
	}
	return Cursor(body + "." + base64.RawURLEncoding.EncodeToString(sign(secret, body)))
}

func sign(secret []byte, body string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(body))
	return m.Sum(nil)
}

// open decodes c for the read with the given binding: size, signature,
// format, binding, in that order.
func (c Cursor) open(bind string, secret []byte) (cursorPayload, error) {
	var p cursorPayload
	if len(c) > maxCursorLen {
		return p, fmt.Errorf("%w: %d bytes, at most %d", query.ErrCursorMalformed, len(c), maxCursorLen)
	}
	body, mac, signed := strings.Cut(string(c), ".")
	if len(secret) > 0 {
		got, err := strict.DecodeString(mac)
		if !signed || err != nil || !hmac.Equal(got, sign(secret, body)) {
			return p, query.ErrCursorTampered
		}
	} else if signed {
		return p, fmt.Errorf("%w: the cursor is signed but the read has no CursorKey", query.ErrCursorMismatch)
	}
	raw, err := strict.DecodeString(body)
	if err != nil {
		return p, fmt.Errorf("%w: %v", query.ErrCursorMalformed, err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil || dec.More() {
		return p, fmt.Errorf("%w: not a shard cursor", query.ErrCursorMalformed)
	}
	switch {
	case p.V != cursorVersion:
		return p, fmt.Errorf("%w: version %d", query.ErrCursorMalformed, p.V)
	case p.B != bind:
		return p, fmt.Errorf("%w: the cursor belongs to another index, condition or direction", query.ErrCursorMismatch)
	}
	return p, nil
}

// compareOrder orders two keys as DynamoDB orders key values: S and B by
// their bytes, N by value, attribute after attribute.
func compareOrder(a, b orderKey) int {
	for i := range a {
		if c := compareValue(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

func compareValue(a, b types.AttributeValue) int {
	switch x := a.(type) {
	case *types.AttributeValueMemberS:
		if y, ok := b.(*types.AttributeValueMemberS); ok {
			return strings.Compare(x.Value, y.Value)
		}
	case *types.AttributeValueMemberB:
		if y, ok := b.(*types.AttributeValueMemberB); ok {
			return bytes.Compare(x.Value, y.Value)
		}
	case *types.AttributeValueMemberN:
		if y, ok := b.(*types.AttributeValueMemberN); ok {
			if x.Value == y.Value {
				return 0
			}
			// DynamoDB numbers have at most 38 significant digits:
			// 256 bits hold them exactly.
			fx, _ := new(big.Float).SetPrec(256).SetString(x.Value)
			fy, _ := new(big.Float).SetPrec(256).SetString(y.Value)
			if fx != nil && fy != nil {
				return fx.Cmp(fy)
			}
		}
	}
	// Absent or of different types: cannot happen for keys of one index.
	return cmp.Compare(fmt.Sprintf("%T", a), fmt.Sprintf("%T", b))
}
