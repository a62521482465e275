package query

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// Cursor is an opaque token that resumes a query exactly after the last
// item a call returned. It holds that item's key (the table's key
// attributes and the index's), not DynamoDB's LastEvaluatedKey, so it is
// right also when an iteration stops in the middle of a page.
//
// A cursor is bound to its query: the table, the index, the sort key
// condition and the direction. Handed to another query it is refused with
// [ErrCursorMismatch]. Its resume key must be a key of the query's index
// in the query's partition, or it is refused with [ErrCursorPartition]: a
// cursor never lets a read leave the partition its query names. With
// [Options.CursorKey] set, a cursor carries an HMAC-SHA256 and a changed
// or unsigned one is refused with [ErrCursorTampered]. All of this is
// checked before any request.
//
// A cursor is not encrypted: it shows the key of an item to whoever holds
// it. The empty Cursor means "from the start" when passed to
// [Query.After], and "no more items" when returned.
type Cursor string

// cursorVersion is the format of the payload, for future changes.
const cursorVersion = 1

// maxCursorLen bounds the cursors accepted: three key values of at most
// 2 KB, base64 in JSON, fit well within it.
const maxCursorLen = 16 << 10

// strict decodes cursors: one encoding of each payload, so that a changed
// character is never read as the same bytes.
var strict = base64.RawURLEncoding.Strict()

// cursorPayload is what a Cursor holds before encoding.
type cursorPayload struct {
	V int         `json:"v"`
	B string      `json:"b"` // binding: digest of the query, see binding
	K []cursorKey `json:"k"` // resume key, sorted by attribute name
}

// cursorKey is one attribute of a resume key. Key attributes are scalars:
// S, N or B (B base64 in JSON).
type cursorKey struct {
	N string `json:"n"`
	T string `json:"t"`
	S string `json:"s,omitempty"`
	B []byte `json:"x,omitempty"`
}

// binding identifies a query for its cursors: the operation, table, index,
// the names of the partition key attributes, the sort key comparisons and
// the direction. The partition key values are not part of it: the resume
// key carries them and is checked against the query's (so a cursor of the
// same query in another partition is [ErrCursorPartition]).
func binding(op, table, index string, partition []keyfirst.Attribute, sortTerms []term, desc bool) string {
	// Each field is length-prefixed, so that no two queries write the
	// same bytes.
	buf := make([]byte, 0, 256)
	field := func(s string) {
		buf = binary.AppendUvarint(buf, uint64(len(s)))
		buf = append(buf, s...)
	}
	value := func(av types.AttributeValue) {
		switch v := av.(type) {
		case *types.AttributeValueMemberS:
			field("S")
			field(v.Value)
		case *types.AttributeValueMemberN:
			field("N")
			field(v.Value)
		case *types.AttributeValueMemberB:
			field("B")
			field(string(v.Value))
		default:
			field("")
		}
	}
	field(op)
	field(table)
	field(index)
	buf = binary.AppendUvarint(buf, uint64(len(partition)))
	for _, a := range partition {
		field(a.Name)
	}
	buf = binary.AppendUvarint(buf, uint64(len(sortTerms)))
	for _, t := range sortTerms {
		field(t.attr)
		buf = append(buf, byte(t.op))
		value(t.lo)
		value(t.hi)
	}
	if desc {
		buf = append(buf, 1)
	} else {
		buf = append(buf, 0)
	}
	sum := sha256.Sum256(buf)
	return base64.RawURLEncoding.EncodeToString(sum[:18])
}

// encodeKey turns a key of scalar attributes into its sorted cursor form.
func encodeKey(key map[string]types.AttributeValue) ([]cursorKey, error) {
	out := make([]cursorKey, 0, len(key))
	for name, av := range key {
		switch v := av.(type) {
		case *types.AttributeValueMemberS:
			out = append(out, cursorKey{N: name, T: "S", S: v.Value})
		case *types.AttributeValueMemberN:
			out = append(out, cursorKey{N: name, T: "N", S: v.Value})
		case *types.AttributeValueMemberB:
			out = append(out, cursorKey{N: name, T: "B", B: v.Value})
		default:
			return nil, fmt.Errorf("%w: key attribute %q is not a scalar (S, N or B)", ErrCursorMalformed, name)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].N < out[j].N })
	return out, nil
}

// decodeKey is the inverse of encodeKey.
func decodeKey(keys []cursorKey) (map[string]types.AttributeValue, error) {
	out := make(map[string]types.AttributeValue, len(keys))
	for _, k := range keys {
		if _, dup := out[k.N]; dup || k.N == "" {
			return nil, fmt.Errorf("%w: attribute %q repeated or unnamed", ErrCursorMalformed, k.N)
		}
		switch k.T {
		case "S":
			out[k.N] = &types.AttributeValueMemberS{Value: k.S}
		case "N":
			out[k.N] = &types.AttributeValueMemberN{Value: k.S}
		case "B":
			out[k.N] = &types.AttributeValueMemberB{Value: k.B}
		default:
			return nil, fmt.Errorf("%w: attribute %q has type %q", ErrCursorMalformed, k.N, k.T)
		}
	}
	return out, nil
}

// newCursor encodes a resume key for the query with the given binding.
func newCursor(bind string, key map[string]types.AttributeValue, secret []byte) (Cursor, error) {
	keys, err := encodeKey(key)
	if err != nil {
		return "", err
	}
	raw, err := json.Marshal(cursorPayload{V: cursorVersion, B: bind, K: keys})
	if err != nil {
		return "", err
	}
	body := base64.RawURLEncoding.EncodeToString(raw)
	if len(secret) == 0 {
		return Cursor(body), nil
	}
	return Cursor(body + "." + base64.RawURLEncoding.EncodeToString(sign(secret, body))), nil
}

// sign is the HMAC-SHA256 of a cursor body.
func sign(secret []byte, body string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(body))
	return m.Sum(nil)
}

// open decodes c for the query with the given binding and returns its
// resume key. It checks the size, then the signature (when secret is set),
// then the format, then the binding.
func (c Cursor) open(bind string, secret []byte) (map[string]types.AttributeValue, error) {
	if len(c) > maxCursorLen {
		return nil, fmt.Errorf("%w: %d bytes, at most %d", ErrCursorMalformed, len(c), maxCursorLen)
	}
	body, mac, signed := strings.Cut(string(c), ".")
	if len(secret) > 0 {
		got, err := strict.DecodeString(mac)
		if !signed || err != nil || !hmac.Equal(got, sign(secret, body)) {
			return nil, ErrCursorTampered
		}
	} else if signed {
		return nil, fmt.Errorf("%w: the cursor is signed but the query has no CursorKey", ErrCursorMismatch)
	}
	raw, err := strict.DecodeString(body)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCursorMalformed, err)
	}
	if !utf8.Valid(raw) {
		// encoding/json would read each invalid byte as U+FFFD: another key.
		return nil, fmt.Errorf("%w: not valid UTF-8", ErrCursorMalformed)
	}
	var p cursorPayload
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCursorMalformed, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: trailing data", ErrCursorMalformed)
	}
	if p.V != cursorVersion {
		return nil, fmt.Errorf("%w: version %d", ErrCursorMalformed, p.V)
	}
	if p.B != bind {
		return nil, ErrCursorMismatch
	}
	if len(p.K) == 0 {
		return nil, fmt.Errorf("%w: no key", ErrCursorMalformed)
	}
	return decodeKey(p.K)
}

// resume opens c for the plan and checks that its key is a key of the
// plan's index in the plan's partition.
func (p *plan) resume(c Cursor) (map[string]types.AttributeValue, error) {
	f := failer{table: p.table, index: p.index}
	key, err := c.open(p.bind, p.opts.CursorKey)
	if err != nil {
		return nil, f.fail("", ProblemCursor, "", err)
	}
	outside := func(attr, detail string) error {
		return f.fail(attr, ProblemCursor, detail, ErrCursorPartition)
	}
	if len(key) != len(p.keyAttrs) {
		return nil, outside("", fmt.Sprintf("the resume key has %d attributes, a key of the index has %d %s",
			len(key), len(p.keyAttrs), describe(p.keyAttrs)))
	}
	for _, a := range p.keyAttrs {
		v, ok := key[a.Name]
		switch {
		case !ok:
			return nil, outside(a.Name, "the resume key lacks a key attribute of the index")
		case avType(v) != a.Type || avProblem(v) != "" || avEmpty(v):
			return nil, outside(a.Name, fmt.Sprintf("the resume key holds %s for an attribute of type %s", avString(v), a.Type))
		}
	}
	for _, t := range p.partition {
		if !avEqual(key[t.attr], t.lo) {
			return nil, outside(t.attr, fmt.Sprintf("the resume key is in partition %s, the query's is %s",
				avString(key[t.attr]), avString(t.lo)))
		}
	}
	return key, nil
}

// cursorAt is the cursor that resumes after item, which the plan's
// request returned.
func (p *plan) cursorAt(item map[string]types.AttributeValue) (Cursor, error) {
	key := make(map[string]types.AttributeValue, len(p.keyAttrs))
	for _, a := range p.keyAttrs {
		v, ok := item[a.Name]
		if !ok {
			return "", &Error{Table: p.table, Index: p.index, Attribute: a.Name, Problem: ProblemCursor,
				Detail: "an item returned lacks a key attribute of the index", Err: ErrCursorMalformed}
		}
		key[a.Name] = v
	}
	return newCursor(p.bind, key, p.opts.CursorKey)
}
