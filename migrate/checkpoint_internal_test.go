package migrate

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// TestForgedCheckpoint: an unsigned checkpoint whose checksum was
// computed again after an edit passes its checksum (the documented limit
// of an unsigned checkpoint), but a resume key that is not a key of the
// table is still refused before any request: an attribute dropped, added
// or of another type. A signature does not verify under another key.
func TestForgedCheckpoint(t *testing.T) {
	t.Parallel()
	key := keyfirst.KeySchema{PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("PK")}, SortKey: []keyfirst.Attribute{keyfirst.StringAttr("SK")}}
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	base := &Checkpoint{table: "t", name: "n", definition: "d", segments: []segmentState{
		{last: map[string]types.AttributeValue{"PK": s("a"), "SK": s("b")}}, {done: true}}}
	want := &Checkpoint{table: "t", name: "n", definition: "d"}
	// forge seals c as a run would, serialises it and reads it back.
	forge := func(c *Checkpoint, secret []byte) *Checkpoint {
		data, err := json.Marshal(c.sealed(secret))
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseCheckpoint(data)
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		return back
	}
	if err := want.accepts(forge(base, nil), nil, key); err != nil {
		t.Fatalf("the checkpoint as a run writes it: %v", err)
	}
	for name, last := range map[string]map[string]types.AttributeValue{
		"SK dropped":         {"PK": s("a")},
		"an attribute added": {"PK": s("a"), "SK": s("b"), "X": s("c")},
		"SK renamed":         {"PK": s("a"), "sk": s("b")},
		"SK a number":        {"PK": s("a"), "SK": &types.AttributeValueMemberN{Value: "1"}},
	} {
		c := base.clone()
		c.segments[0].last = last
		var ce *CheckpointError
		if err := want.accepts(forge(c, nil), nil, key); !errors.As(err, &ce) || ce.Problem != CheckpointCorrupt {
			t.Errorf("a forged checkpoint, %s: %v", name, err)
		}
	}
	signed := forge(base, []byte("0123456789abcdef"))
	if err := want.accepts(signed, []byte("0123456789abcdef"), key); err != nil {
		t.Fatalf("signed: %v", err)
	}
	var ce *CheckpointError
	if err := want.accepts(signed, []byte("0123456789abcdeF"), key); !errors.As(err, &ce) || ce.Problem != CheckpointTampered {
		t.Errorf("signed, verified with another key: %v", err)
	}
}
