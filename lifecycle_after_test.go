package keyfirst_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// Session expires a duration after one of its times: its last write
// (Updated), its creation (Created) or when it was last seen (Seen). No
// field holds the expiry: the table's TimeToLive attribute "expires" is
// derived.
type Session struct {
	ID      string    `dynamodbav:"id"`
	Owner   string    `dynamodbav:"owner"`
	Body    string    `dynamodbav:"body"`
	Created time.Time `dynamodbav:"created"`
	Updated time.Time `dynamodbav:"updated"`
	Seen    time.Time `dynamodbav:"seen"`
}

// sessionSpec is an entity of type typ whose expiry is After its field.
func sessionSpec(c *clock, typ, field string, after time.Duration) keyfirst.EntitySpec[Session] {
	spec := keyfirst.EntitySpec[Session]{Type: typ, Keys: []keyfirst.Binding{selfKey("PK", "SK", typ)},
		ExpiresAfter: keyfirst.ExpiresAfter{Field: field, After: after}, Clock: c.Now}
	if field != "Seen" {
		spec.Created, spec.Updated = "Created", "Updated"
	}
	return spec
}

// storedTTL is the stored expiry of the session typ#id: its epoch
// seconds, -1 when it has none.
func storedTTL(t *testing.T, client *dynamodb.Client, e *keyfirst.Entity[Session], typ, id string) int64 {
	t.Helper()
	item := rawItem(t, client, e.Table().Name(), map[string]types.AttributeValue{"PK": sAV(typ + "#" + id), "SK": sAV(typ + "#" + id)})
	n, ok := item["expires"].(*types.AttributeValueMemberN)
	if !ok {
		if item["expires"] != nil {
			t.Fatalf("expires stored as %T, want a Number", item["expires"])
		}
		return -1
	}
	sec, err := strconv.ParseInt(n.Value, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return sec
}

// TestExpiresAfterUpdated: an expiry a day after the last write is
// derived again by every write path, the partial update included, from
// the write's updated time; Refresh repairs a stale one; and a read
// WithoutExpired-style check (Entity.Expired) reads it.
func TestExpiresAfterUpdated(t *testing.T) {
	t.Parallel()
	client, notes, c := localNotes(t, noteEntitySpec)
	sessions := keyfirst.Must(keyfirst.NewEntity(notes.Table(), sessionSpec(c, "SLIDE", "Updated", 24*time.Hour)))
	ctx := context.Background()
	at := func(h int) time.Time { c.now = day.Add(time.Duration(h) * time.Hour); return c.now }
	want := func(what string, h int) {
		t.Helper()
		if got, w := storedTTL(t, client, sessions, "SLIDE", "s1"), day.Add(time.Duration(h+24)*time.Hour).Unix(); got != w {
			t.Errorf("%s: stored expiry %d, want %d (a day after the write at +%dh)", what, got, w, h)
		}
	}
	at(0)
	s, err := sessions.Put(ctx, client, Session{ID: "s1", Owner: "ann"})
	noErr(t, err)
	want("Put", 0)
	at(1)
	s, err = sessions.Replace(ctx, client, s)
	noErr(t, err)
	want("Replace", 1)
	at(2)
	_, err = sessions.Modify(ctx, client, mustKey(t, sessions, s), func(v *Session) { v.Body = "m" })
	noErr(t, err)
	want("Modify", 2)
	at(3)
	_, err = sessions.Update(ctx, client, mustKey(t, sessions, s), keyfirst.Set("Body", "u"))
	noErr(t, err)
	want("Update", 3)
	at(4)
	a, _, err := sessions.TransactPut(Session{ID: "s1", Owner: "ann"}, keyfirst.TransactOptions{})
	noErr(t, err)
	_, err = client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{a.Action()}})
	noErr(t, err)
	want("TransactPut", 4)
	at(5)
	a, err = sessions.TransactUpdate(mustKey(t, sessions, s), keyfirst.Set("Body", "t"))
	noErr(t, err)
	_, err = client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{a.Action()}})
	noErr(t, err)
	want("TransactUpdate", 5)

	// Another program left the expiry stale: Refresh derives it again.
	key := map[string]types.AttributeValue{"PK": sAV("SLIDE#s1"), "SK": sAV("SLIDE#s1")}
	_, err = client.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(notes.Table().Name()), Key: key,
		UpdateExpression: aws.String("SET expires = :e"), ExpressionAttributeValues: map[string]types.AttributeValue{":e": &types.AttributeValueMemberN{Value: "1"}}})
	noErr(t, err)
	at(6)
	res, err := sessions.Refresh(ctx, client, rawItem(t, client, notes.Table().Name(), key))
	if err != nil || res.Outcome != keyfirst.RefreshChanged {
		t.Fatalf("Refresh of a stale expiry: %v, %v", res.Outcome, err)
	}
	want("Refresh", 6)
	stored := rawItem(t, client, notes.Table().Name(), key)
	if sessions.ExpiresAttribute() != "expires" || sessions.Expired(stored, day.Add(29*time.Hour)) || !sessions.Expired(stored, day.Add(30*time.Hour)) {
		t.Errorf("Expired: the item expires at +30h")
	}
}

// TestExpiresAfterCreated: an expiry 30 days after creation is kept as
// the created time is, whatever a later write holds in Created; an
// expiry after an ordinary field follows it through a batch put and a
// partial update (Set, Remove).
func TestExpiresAfterCreated(t *testing.T) {
	t.Parallel()
	client, notes, c := localNotes(t, noteEntitySpec)
	fixed := keyfirst.Must(keyfirst.NewEntity(notes.Table(), sessionSpec(c, "FIXED", "Created", 30*24*time.Hour)))
	ctx := context.Background()
	month := day.Add(30 * 24 * time.Hour).Unix()
	s, err := fixed.Put(ctx, client, Session{ID: "s1", Owner: "ann"})
	noErr(t, err)
	c.now = day.Add(time.Hour)
	for what, write := range map[string]func() error{
		"Put of a fresh T":             func() error { return second(fixed.Put(ctx, client, Session{ID: "s1", Owner: "ann"})) },
		"Replace with another Created": func() error { s.Created = day.AddDate(1, 0, 0); return second(fixed.Replace(ctx, client, s)) },
		"Modify changing Created": func() error {
			return second(fixed.Modify(ctx, client, mustKey(t, fixed, s), func(v *Session) { v.Created = day.AddDate(2, 0, 0) }))
		},
		"Update of another field": func() error {
			return second(fixed.Update(ctx, client, mustKey(t, fixed, s), keyfirst.Set("Body", "b")))
		},
		"TransactReplace, Created zero": func() error {
			a, _, err := fixed.TransactReplace(Session{ID: "s1", Owner: "ann"}, keyfirst.TransactOptions{})
			return sendAlone(ctx, client, a, err)
		},
	} {
		noErr(t, write())
		if got := storedTTL(t, client, fixed, "FIXED", "s1"); got != month {
			t.Errorf("%s: stored expiry %d, want %d (30 days after the creation)", what, got, month)
		}
	}

	seen := keyfirst.Must(keyfirst.NewEntity(notes.Table(), sessionSpec(c, "SEEN", "Seen", time.Hour)))
	noErr(t, notes.Table().BatchWrite(ctx, client, []keyfirst.WriteRequest{seen.PutRequest(Session{ID: "s1", Owner: "ann", Created: day, Seen: day})}))
	if got := storedTTL(t, client, seen, "SEEN", "s1"); got != day.Add(time.Hour).Unix() {
		t.Errorf("batch put: expiry %d", got)
	}
	k := keyfirst.Must(seen.Key(Session{ID: "s1"}))
	_, err = seen.Update(ctx, client, k, keyfirst.Set("Seen", day.Add(5*time.Hour)))
	noErr(t, err)
	if got := storedTTL(t, client, seen, "SEEN", "s1"); got != day.Add(6*time.Hour).Unix() {
		t.Errorf("Update Set: expiry %d", got)
	}
	_, err = seen.Update(ctx, client, k, keyfirst.Remove("Seen"))
	noErr(t, err)
	if got := storedTTL(t, client, seen, "SEEN", "s1"); got != -1 {
		t.Errorf("Update Remove: expiry %d, want none", got)
	}
	_, err = seen.Replace(ctx, client, Session{ID: "s1", Owner: "ann", Created: day, Seen: day})
	noErr(t, err)
	_, err = seen.Replace(ctx, client, Session{ID: "s1", Owner: "ann", Created: day})
	noErr(t, err)
	if got := storedTTL(t, client, seen, "SEEN", "s1"); got != -1 {
		t.Errorf("Replace with a zero Seen: expiry %d, want none", got)
	}
}

// sendAlone sends one action alone.
func sendAlone(ctx context.Context, client *dynamodb.Client, a keyfirst.TransactWrite, err error) error {
	if err != nil {
		return err
	}
	_, err = client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{a.Action()}})
	return err
}

// TestExpiresAfterBadInput: an expiry before 1970, or none where one is
// required, is refused on every write path before any request; a spec
// that cannot derive it is refused by NewEntity.
func TestExpiresAfterBadInput(t *testing.T) {
	t.Parallel()
	c := &clock{now: day}
	table := keyfirst.Must(keyfirst.NewTable(notesSpec()))
	seen := keyfirst.Must(keyfirst.NewEntity(table, sessionSpec(c, "SEEN", "Seen", time.Hour)))
	req := sessionSpec(c, "RSEEN", "Seen", time.Hour)
	req.ExpiresRequired = true
	required := keyfirst.Must(keyfirst.NewEntity(table, req))
	ctx, api := context.Background(), noCalls{T: t}
	old := Session{ID: "s1", Owner: "ann", Created: day, Seen: time.Date(1969, 12, 31, 22, 0, 0, 0, time.UTC)} // + 1h: before 1970
	key := keyfirst.Must(seen.Key(old))
	for name, err := range map[string]error{
		"Put before 1970":             second(seen.Put(ctx, api, old)),
		"Replace before 1970":         second(seen.Replace(ctx, api, old)),
		"TransactPut before 1970":     third(seen.TransactPut(old, keyfirst.TransactOptions{})),
		"batch put before 1970":       table.BatchWrite(ctx, api, []keyfirst.WriteRequest{seen.PutRequest(old)}),
		"Update before 1970":          second(seen.Update(ctx, api, key, keyfirst.Set("Seen", old.Seen))),
		"Put without required":        second(required.Put(ctx, api, Session{ID: "s1", Owner: "ann", Created: day})),
		"Update removing required":    second(required.Update(ctx, api, keyfirst.Must(required.Key(old)), keyfirst.Remove("Seen"))),
		"TransactUpdate before 1970":  second(seen.TransactUpdate(key, keyfirst.Set("Seen", old.Seen))),
		"TransactReplace no required": third(required.TransactReplace(Session{ID: "s1", Owner: "ann", Created: day}, keyfirst.TransactOptions{})),
	} {
		var ie *keyfirst.ItemError
		if !errors.As(err, &ie) || ie.Problem != keyfirst.ItemExpires {
			t.Errorf("%s: %v, want ItemExpires", name, err)
		}
	}

	noTTL := notesSpec()
	noTTL.TimeToLive = ""
	for name, tc := range map[string]struct {
		spec  keyfirst.EntitySpec[Session]
		table keyfirst.TableSpec
	}{
		"with Expires too":  {keyfirst.EntitySpec[Session]{Expires: "Seen", ExpiresAfter: keyfirst.ExpiresAfter{Field: "Created", After: time.Hour}}, notesSpec()},
		"no duration":       {keyfirst.EntitySpec[Session]{ExpiresAfter: keyfirst.ExpiresAfter{Field: "Seen"}}, notesSpec()},
		"negative":          {keyfirst.EntitySpec[Session]{ExpiresAfter: keyfirst.ExpiresAfter{Field: "Seen", After: -time.Hour}}, notesSpec()},
		"not a time":        {keyfirst.EntitySpec[Session]{ExpiresAfter: keyfirst.ExpiresAfter{Field: "Body", After: time.Hour}}, notesSpec()},
		"unknown field":     {keyfirst.EntitySpec[Session]{ExpiresAfter: keyfirst.ExpiresAfter{Field: "Nope", After: time.Hour}}, notesSpec()},
		"table without TTL": {keyfirst.EntitySpec[Session]{ExpiresAfter: keyfirst.ExpiresAfter{Field: "Seen", After: time.Hour}}, noTTL},
	} {
		tc.spec.Type, tc.spec.Keys = "BAD", []keyfirst.Binding{selfKey("PK", "SK", "BAD")}
		_, err := keyfirst.NewEntity(keyfirst.Must(keyfirst.NewTable(tc.table)), tc.spec)
		var ee *keyfirst.EntityError
		if !errors.As(err, &ee) || ee.Problem != keyfirst.EntityLifecycle {
			t.Errorf("%s: %v, want EntityLifecycle", name, err)
		}
	}
	// The TTL attribute is a field of Note: no attribute to derive.
	_, err := keyfirst.NewEntity(keyfirst.Must(keyfirst.NewTable(notesSpec())), keyfirst.EntitySpec[Note]{Type: "BAD",
		Keys: []keyfirst.Binding{selfKey("PK", "SK", "BAD")}, ExpiresAfter: keyfirst.ExpiresAfter{Field: "Created", After: time.Hour}})
	var ee *keyfirst.EntityError
	if !errors.As(err, &ee) || ee.Problem != keyfirst.EntityLifecycle {
		t.Errorf("TTL attribute a field: %v, want EntityLifecycle", err)
	}
}

func noErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
