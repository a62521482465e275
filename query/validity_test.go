package query_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/query"
)

// mangle returns cursor c with old replaced by new in its payload, which a
// cursor not signed with a key allows.
func mangle(t *testing.T, c query.Cursor, old, new string) query.Cursor {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(string(c))
	noErr(t, err)
	changed := bytes.Replace(raw, []byte(old), []byte(new), 1)
	if bytes.Equal(changed, raw) {
		t.Fatalf("%q not in the cursor %s", old, raw)
	}
	return query.Cursor(base64.RawURLEncoding.EncodeToString(changed))
}

// TestCursorOfAnyStoredNumberResumes: DynamoDB returns numbers in plain
// notation ("0.000…001" for 1E-100, over a hundred characters); the cursor
// of such an item resumes.
func TestCursorOfAnyStoredNumberResumes(t *testing.T) {
	_, rows := newBoardScores(t)
	q := query.On(rows, scoreByBoard, "b")
	for _, score := range []string{"0." + strings.Repeat("0", 99) + "1", "-1" + strings.Repeat("0", 125), "12.5"} {
		f, err := strconv.ParseFloat(score, 64)
		noErr(t, err)
		item, err := rows.Item(BoardScore{"b", f})
		noErr(t, err)
		// The number as DynamoDB returns it: in plain notation.
		item["Score"] = &types.AttributeValueMemberN{Value: score}
		page, err := q.Limit(1).Page(context.Background(), &canned{items: []map[string]types.AttributeValue{item}, last: item})
		noErr(t, err)
		client := &canned{}
		if _, err := q.After(page.Next).Page(context.Background(), client); err != nil {
			t.Fatalf("score %s: the cursor is refused: %v", score, err)
		}
		if len(client.ins) != 1 || client.ins[0].ExclusiveStartKey["Score"].(*types.AttributeValueMemberN).Value != score {
			t.Fatalf("score %s: requests %+v", score, client.ins)
		}
	}
}
