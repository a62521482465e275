package query

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/internal/avequal"
	"github.com/keyfirst/keyfirst/internal/envelope"
	"github.com/keyfirst/keyfirst/internal/keyjson"
	"github.com/keyfirst/keyfirst/keys"
)

// Cursor is an opaque token that resumes a query exactly after the last
// item a call returned. It holds that item's key (the table's key
// attributes and the index's), not DynamoDB's LastEvaluatedKey, so it is
// right also when an iteration stops in the middle of a page.
//
// A cursor is bound to its query: the table, the index, the sort key
// condition and the direction. Handed to another query it is refused with
// [ErrCursorMismatch]. Its resume key must be a key the query can return
// (a key of the query's index, of values DynamoDB stores, in the query's
// partition and within its sort key condition), or it is refused with
// [ErrCursorPartition]: a cursor never lets a read leave what its query
// names, nor sends DynamoDB a start key it refuses. It must be written
// exactly as the library writes it (one JSON form, attributes in order),
// or it is [ErrCursorMalformed]. With [keyfirst.WithCursorKey] set, a cursor
// carries an HMAC-SHA256 and a changed or unsigned one is refused with
// [ErrCursorTampered]. All of this is checked before any request.
//
// A cursor is not encrypted: it shows the key of an item to whoever holds
// it. The empty Cursor means "from the start" when passed to
// [Query.After], and "no more items" when returned.
type Cursor string

// cursorVersion is the format of the payload, for future changes.
const cursorVersion = 1

// MaxCursorLen is the length of the longest [Cursor] a query makes and
// accepts: the one of the largest key DynamoDB allows (a table key of a
// 2,048-byte partition value and a 1,024-byte sort value, an index key of
// up to [keyfirst.MaxKeyAttributes] attributes on each side, attribute
// names of 255 bytes), every byte a control character that JSON writes as
// \u00XX, in base64, and signed: about 150 KB. A column that stores
// cursors needs this much room; an ordinary key makes a cursor of a few
// hundred bytes.
const MaxCursorLen = 256 << 10

// cursorPayload is what a Cursor holds before encoding.
type cursorPayload struct {
	V int         `json:"v"`
	B string      `json:"b"` // binding: digest of the query, see binding
	K []cursorKey `json:"k"` // resume key, sorted by attribute name
}

// cursorKey is one attribute of a resume key (internal/keyjson).
type cursorKey = keyjson.Attr

// binding identifies a query for its cursors: the operation, table, index,
// the names of the partition key attributes (all in prefix, see
// bindingPrefix), the sort key comparisons and the direction. The
// partition key values are not part of it: the resume key carries them
// and is checked against the query's (so a cursor of the same query in
// another partition is [ErrCursorPartition]).
func binding(prefix []byte, sortTerms []term, desc bool) string {
	var scratch [256]byte
	return digest(bindingInput(scratch[:0], prefix, sortTerms, desc))
}

// bindingInput appends to buf what the binding of a query hashes: prefix,
// then the sort key comparisons and the direction.
func bindingInput(buf, prefix []byte, sortTerms []term, desc bool) []byte {
	// Each field is length-prefixed, so that no two queries write the
	// same bytes.
	buf = append(buf, prefix...)
	buf = binary.AppendUvarint(buf, uint64(len(sortTerms)))
	for _, t := range sortTerms {
		buf = appendField(buf, t.attr)
		buf = append(buf, byte(t.op))
		buf = appendValue(buf, t.lo)
		buf = appendValue(buf, t.hi)
	}
	if desc {
		return append(buf, 1)
	}
	return append(buf, 0)
}

// digest is the binding of its input: 18 bytes of its SHA-256, base64.
func digest(in []byte) string {
	sum := sha256.Sum256(in)
	var out [24]byte
	base64.RawURLEncoding.Encode(out[:], sum[:18])
	return string(out[:])
}

// bindingPrefix is the part of a binding that a query's shape fixes: the
// operation, table, index and partition key attribute names.
func bindingPrefix(op, table, index string, partition []keyfirst.Attribute) []byte {
	var buf []byte
	buf = appendField(buf, op)
	buf = appendField(buf, table)
	buf = appendField(buf, index)
	buf = binary.AppendUvarint(buf, uint64(len(partition)))
	for _, a := range partition {
		buf = appendField(buf, a.Name)
	}
	return buf
}

// appendField appends s, length-prefixed.
func appendField(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

// appendValue appends a sort key operand (nil: none), typed.
func appendValue(buf []byte, av types.AttributeValue) []byte {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return appendField(appendField(buf, "S"), v.Value)
	case *types.AttributeValueMemberN:
		return appendField(appendField(buf, "N"), v.Value)
	case *types.AttributeValueMemberB:
		return appendField(appendField(buf, "B"), string(v.Value))
	}
	return appendField(buf, "")
}

// encodeKey turns a key of scalar attributes into its sorted cursor form.
func encodeKey(key map[string]types.AttributeValue) ([]cursorKey, error) {
	out := make([]cursorKey, 0, len(key))
	for name, av := range key {
		k, err := newCursorKey(name, av)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	slices.SortFunc(out, compareCursorKeys)
	return out, nil
}

// compareCursorKeys orders a cursor's key by attribute name.
func compareCursorKeys(a, b cursorKey) int { return strings.Compare(a.N, b.N) }

// newCursorKey is the cursor form of key attribute name.
func newCursorKey(name string, av types.AttributeValue) (cursorKey, error) {
	k, ok := keyjson.From(name, av)
	if !ok {
		return cursorKey{}, fmt.Errorf("%w: key attribute %q is not a scalar (S, N or B)", ErrCursorMalformed, name)
	}
	return k, nil
}

// decodeKey is the inverse of encodeKey: the attributes must come in
// the order encodeKey writes them, each once.
func decodeKey(keys []cursorKey) (map[string]types.AttributeValue, error) {
	out := make(map[string]types.AttributeValue, len(keys))
	for i, k := range keys {
		if k.N == "" || (i > 0 && keys[i-1].N >= k.N) {
			return nil, fmt.Errorf("%w: attribute %q unnamed, repeated or out of order", ErrCursorMalformed, k.N)
		}
		av, ok := k.Value()
		if !ok {
			return nil, fmt.Errorf("%w: attribute %q has type %q", ErrCursorMalformed, k.N, k.T)
		}
		out[k.N] = av
	}
	return out, nil
}

// newCursor encodes a resume key for the query with the given binding.
func newCursor(bind string, key map[string]types.AttributeValue, secret []byte) (Cursor, error) {
	keys, err := encodeKey(key)
	if err != nil {
		return "", err
	}
	return seal(bind, keys, secret), nil
}

// seal encodes a resume key, sorted by attribute name, for the query with
// the given binding: the payload as encoding/json writes a cursorPayload
// (appendPayload), base64, and its signature when secret is set.
func seal(bind string, keys []cursorKey, secret []byte) Cursor {
	var scratch [1024]byte
	raw := appendPayload(scratch[:0], cursorPayload{V: cursorVersion, B: bind, K: keys})
	var out [2048]byte
	return Cursor(envelope.Seal(out[:0], raw, secret))
}

// appendPayload appends p as JSON, byte for byte as json.Marshal writes
// it (so that a cursor made before keeps its meaning), without reflection.
func appendPayload(buf []byte, p cursorPayload) []byte {
	buf = append(buf, `{"v":`...)
	buf = strconv.AppendInt(buf, int64(p.V), 10)
	buf = append(buf, `,"b":`...)
	buf = appendJSONString(buf, p.B)
	if p.K == nil {
		return append(buf, `,"k":null}`...)
	}
	buf = append(buf, `,"k":[`...)
	for i, k := range p.K {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"n":`...)
		buf = appendJSONString(buf, k.N)
		buf = append(buf, `,"t":`...)
		buf = appendJSONString(buf, k.T)
		if k.S != "" {
			buf = append(buf, `,"s":`...)
			buf = appendJSONString(buf, k.S)
		}
		if len(k.B) > 0 {
			buf = append(buf, `,"x":"`...)
			buf = base64.StdEncoding.AppendEncode(buf, k.B)
			buf = append(buf, '"')
		}
		buf = append(buf, '}')
	}
	return append(buf, "]}"...)
}

// appendJSONString appends s as a JSON string, escaped as encoding/json
// escapes it: quotes, backslashes and control characters, <, > and &,
// U+2028 and U+2029, and each byte of invalid UTF-8 as U+FFFD.
func appendJSONString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			buf = append(buf, s[start:i]...)
			switch b {
			case '\\', '"':
				buf = append(buf, '\\', b)
			case '\b':
				buf = append(buf, '\\', 'b')
			case '\f':
				buf = append(buf, '\\', 'f')
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\', 'u', '2', '0', '2', hex[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// open decodes c for the query with the given binding and returns its
// resume key. It checks the size, then the signature (when secret is set),
// then the format, then the binding.
func (c Cursor) open(bind string, secret []byte) (map[string]types.AttributeValue, error) {
	var p cursorPayload
	if err := envelope.Open(string(c), MaxCursorLen, secret, &p); err != nil {
		return nil, err
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

// resume opens c for the plan and checks its key (checkKey).
func (p *plan) resume(c Cursor) (map[string]types.AttributeValue, error) {
	key, err := c.open(p.binding(), p.opts.CursorKey)
	if err != nil {
		return nil, failer{table: p.table, index: p.index}.fail("", ProblemCursor, "", err)
	}
	if err := p.checkKey(key); err != nil {
		return nil, err
	}
	return key, nil
}

// checkKey checks that key is a key the plan's request can return, as a
// cursor the library made holds: the key attributes of the index (the
// table's and the index's, each once, nothing else), each of its type and
// of a value DynamoDB stores in a key (valid UTF-8, a number in its range,
// not empty, within the key size limits), the plan's partition key
// values, and sort key values that meet every comparison of the plan's
// sort key condition. DynamoDB refuses a start key outside the condition
// ("the provided starting key does not match the range key predicate");
// one in another partition would leave the query's.
func (p *plan) checkKey(key map[string]types.AttributeValue) error {
	f := failer{table: p.table, index: p.index}
	outside := func(attr, detail string) error {
		return f.fail(attr, ProblemCursor, detail, ErrCursorPartition)
	}
	if len(key) != len(p.keyAttrs) {
		return outside("", fmt.Sprintf("the resume key has %d attributes, a key of the index has %d %s",
			len(key), len(p.keyAttrs), describe(p.keyAttrs)))
	}
	for i, a := range p.keyAttrs {
		v, ok := key[a.Name]
		switch {
		case !ok:
			return outside(a.Name, "the resume key lacks a key attribute of the index")
		case avType(v) != a.Type || avProblem(v) != "" || avEmpty(v):
			return outside(a.Name, fmt.Sprintf("the resume key holds %s for an attribute of type %s", avString(v), a.Type))
		case avLen(v) > p.shape.keyMax[i]:
			return outside(a.Name, fmt.Sprintf("the resume key holds %d bytes, a key value of the attribute has at most %d", avLen(v), p.shape.keyMax[i]))
		}
	}
	for i, a := range p.partition {
		if want := p.partitionValue(i); !avEqual(key[a.Name], want) {
			return outside(a.Name, fmt.Sprintf("the resume key is in partition %s, the query's is %s",
				avString(key[a.Name]), avString(want)))
		}
	}
	var scratch [keyfirst.MaxKeyAttributes]term
	for _, t := range p.tmpl.sortTerms(p.exprValues, scratch[:0]) {
		if v := key[t.attr]; !t.holds(v) {
			return outside(t.attr, fmt.Sprintf("the resume key holds %s, outside the sort key condition %s", avString(v), t))
		}
	}
	return nil
}

// CheckKey checks key as the terminal calls check the resume key of a
// cursor ([Query.After]), and sends nothing: it must be a key the query
// can return (see [Cursor]), or it is refused with an [*Error]
// ([ProblemCursor]) wrapping [ErrCursorPartition]. The query is checked
// first, as [Query.Fingerprint] checks it. A reader that merges the
// queries of several partitions (the shard package) checks with it the
// keys its own cursors hold, as strictly as a query checks its cursor's.
func (q Query[T]) CheckKey(key map[string]types.AttributeValue, optFns ...func(*keyfirst.Options)) error {
	p, err := q.plan(optFns)
	if err != nil {
		return err
	}
	return p.checkKey(key)
}

// ResumeKey returns the key of the item the query resumes after: the key
// its cursor ([Query.After]) holds, checked as the terminal calls check
// it; nil without a cursor. Nothing is sent. The map is the caller's.
func (q Query[T]) ResumeKey(optFns ...func(*keyfirst.Options)) (map[string]types.AttributeValue, error) {
	p, err := q.plan(optFns)
	if err != nil {
		return nil, err
	}
	return p.start, nil
}

// holds reports whether v meets the comparison, as DynamoDB compares key
// values (strings and bytes by their bytes, numbers by value). v is of
// the type of the term's operands, as checkKey has checked.
func (t term) holds(v types.AttributeValue) bool {
	c := avequal.Compare(v, t.lo)
	switch t.op {
	case keys.OpEq:
		return c == 0
	case keys.OpLt:
		return c < 0
	case keys.OpLe:
		return c <= 0
	case keys.OpGt:
		return c > 0
	case keys.OpGe:
		return c >= 0
	case keys.OpBetween:
		return c >= 0 && avequal.Compare(v, t.hi) <= 0
	case keys.OpBeginsWith:
		s, ok := v.(*types.AttributeValueMemberS)
		return ok && strings.HasPrefix(s.Value, t.lo.(*types.AttributeValueMemberS).Value)
	}
	return false
}

// String renders the comparison for messages: Points BETWEEN N:1 AND N:5.
func (t term) String() string {
	switch t.op {
	case keys.OpBetween:
		return fmt.Sprintf("%s BETWEEN %s AND %s", t.attr, avString(t.lo), avString(t.hi))
	case keys.OpBeginsWith:
		return fmt.Sprintf("begins_with(%s, %s)", t.attr, avString(t.lo))
	}
	return fmt.Sprintf("%s %s %s", t.attr, t.op, avString(t.lo))
}

// keyLimits is, for each attribute of attrs (the key of an item in index
// ks of a table keyed table), the longest value in bytes a key holds in
// it: DynamoDB's 1,024 for an attribute of a sort key (the table's or the
// index's), 2,048 for one of a partition key only.
func keyLimits(table, ks keyfirst.KeySchema, attrs []keyfirst.Attribute) []int {
	out := make([]int, len(attrs))
	for i, a := range attrs {
		out[i] = maxPartitionKeyBytes
		if slices.Contains(table.SortKey, a) || slices.Contains(ks.SortKey, a) {
			out[i] = maxSortKeyBytes
		}
	}
	return out
}

// cursorAt is the cursor that resumes after item, which the plan's
// request returned.
func (p *plan) cursorAt(item map[string]types.AttributeValue) (Cursor, error) {
	var scratch [3 * keyfirst.MaxKeyAttributes]cursorKey
	keys := scratch[:0]
	for _, a := range p.keyAttrs {
		v, ok := item[a.Name]
		if !ok {
			return "", &Error{Table: p.table, Index: p.index, Attribute: a.Name, Problem: ProblemCursor,
				Detail: "an item returned lacks a key attribute of the index", Err: ErrCursorMalformed}
		}
		k, err := newCursorKey(a.Name, v)
		if err != nil {
			return "", err
		}
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareCursorKeys)
	return seal(p.binding(), keys, p.opts.CursorKey), nil
}
