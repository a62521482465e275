package txn

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// maxTokenLen is the longest client request token DynamoDB takes.
const maxTokenLen = 36

func validToken(t string) bool {
	if len(t) > maxTokenLen {
		return false
	}
	for i := range len(t) { // bytes: a byte of a non-ASCII character is none of these
		if r := t[i]; !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// tokenize gives the call a random token when the caller set none and
// derives none: one per call of Write, kept for its retries, so that a
// retry after a lost response is not applied twice.
func (o *options) tokenize() error {
	if o.Token != "" || o.ContentToken {
		return nil
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return fmt.Errorf("txn: client request token: %w", err)
	}
	o.Token = hex.EncodeToString(b[:])
	return nil
}

// sdkOptions are the SDK options of a TransactWriteItems: the SDK's own
// token provider is off (it would write a token into the input) and,
// with c (nil: none), the body is canonical JSON, its object keys sorted,
// so that one transaction is always the same bytes, whatever order Go's
// maps gave the SDK. With ContentToken the token is a hash of those
// bytes.
func sdkOptions(c *canonicalBody) func(*dynamodb.Options) {
	if c == nil {
		return noTokenProvider
	}
	return func(so *dynamodb.Options) {
		noTokenProvider(so)
		so.APIOptions = append(so.APIOptions, func(s *middleware.Stack) error {
			return s.Serialize.Add(c, middleware.After)
		})
	}
}

// noTokenProvider turns the SDK's own token provider off.
func noTokenProvider(so *dynamodb.Options) { so.IdempotencyTokenProvider = nil }

// canonicalBody is a serialize step after the SDK's serializer: it rewrites
// the JSON body with sorted object keys and, with derive, adds the
// ClientRequestToken hashed from it.
type canonicalBody struct {
	derive bool
	token  string // the token derived, for messages
}

// derived is the token c derived ("" for none, or no c).
func (c *canonicalBody) derived() string {
	if c == nil {
		return ""
	}
	return c.token
}

func (*canonicalBody) ID() string { return "keyfirst/txn.CanonicalBody" }

func (c *canonicalBody) HandleSerialize(ctx context.Context, in middleware.SerializeInput, next middleware.SerializeHandler) (
	middleware.SerializeOutput, middleware.Metadata, error) {
	req, ok := in.Request.(*smithyhttp.Request)
	if !ok || req.GetStream() == nil {
		return next.HandleSerialize(ctx, in)
	}
	raw, err := io.ReadAll(req.GetStream())
	if err != nil {
		return middleware.SerializeOutput{}, middleware.Metadata{}, err
	}
	body, err := canonicalJSON(raw, c.derive, &c.token)
	if err != nil {
		return middleware.SerializeOutput{}, middleware.Metadata{}, err
	}
	sreq, err := req.SetStream(bytes.NewReader(body))
	if err != nil {
		return middleware.SerializeOutput{}, middleware.Metadata{}, err
	}
	*req = *sreq
	return next.HandleSerialize(ctx, in)
}

// canonicalJSON re-encodes a JSON object with its object keys sorted at
// every level (encoding/json sorts map keys), numbers and strings kept
// as they are. With derive it sets ClientRequestToken to the first 36 hex
// digits of the SHA-256 of the canonical request without a token.
func canonicalJSON(raw []byte, derive bool, token *string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("txn: canonical request body: %w", err)
	}
	encode := func() ([]byte, error) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		err := enc.Encode(doc)
		return bytes.TrimRight(buf.Bytes(), "\n"), err
	}
	if derive {
		delete(doc, "ClientRequestToken")
		body, err := encode()
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(body)
		*token = hex.EncodeToString(sum[:])[:maxTokenLen]
		doc["ClientRequestToken"] = *token
	}
	return encode()
}
