package migrate

import (
	"encoding/json"
	"testing"
)

// SealedJSON is data, the JSON of a checkpoint written by hand (its format
// and seal left out), as a run of this version writes it: in the current
// format, sealed by its checksum. A test's hand-made checkpoint then fails
// for what it says, not for its missing seal.
func SealedJSON(t testing.TB, data string) []byte {
	t.Helper()
	var in checkpointJSON
	if err := json.Unmarshal([]byte(data), &in); err != nil {
		t.Fatal(err)
	}
	in.Format, in.HMAC, in.SHA256 = checkpointFormat, nil, nil
	content, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	in.SHA256 = sealOf(content, nil)
	out, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
