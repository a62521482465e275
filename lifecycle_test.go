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
	"github.com/keyfirst/keyfirst/integration"
)

// Note has the three lifecycle fields: created and updated times set by
// keyfirst, and an expiry stored as DynamoDB's TTL requires.
type Note struct {
	ID      string    `dynamodbav:"id"`
	Owner   string    `dynamodbav:"owner"`
	Body    string    `dynamodbav:"body"`
	Created time.Time `dynamodbav:"created"`
	Updated time.Time `dynamodbav:"updated"`
	Expires time.Time `dynamodbav:"expires"`
}

func notesSpec() keyfirst.TableSpec {
	return keyfirst.TableSpec{
		Name:         "notes",
		PartitionKey: keyfirst.StringAttr("PK"),
		SortKey:      keyfirst.StringAttr("SK"),
		GSIs: []keyfirst.Index{{Name: "by-created", PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("owner")},
			SortKey: []keyfirst.Attribute{keyfirst.StringAttr("created")}}},
		TimeToLive: "expires",
	}
}

// clock is a test's clock: the time every write takes, set by the test.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

func noteEntitySpec(c *clock) keyfirst.EntitySpec[Note] {
	return keyfirst.EntitySpec[Note]{Type: "NOTE", Keys: []keyfirst.Binding{selfKey("PK", "SK", "NOTE")},
		Created: "Created", Updated: "Updated", Expires: "Expires", Clock: c.Now}
}

// localNotes creates the notes table in DynamoDB Local, for this test.
func localNotes(t *testing.T, spec func(*clock) keyfirst.EntitySpec[Note]) (*dynamodb.Client, *keyfirst.Entity[Note], *clock) {
	t.Helper()
	c := &clock{now: day}
	table := localBinding(t, keyfirst.Must(keyfirst.NewTable(notesSpec())))
	e, err := keyfirst.NewEntity(table, spec(c))
	if err != nil {
		t.Fatal(err)
	}
	return integration.Client(t), e, c
}

// storedNote reads the raw item of the note with id.
func storedNote(t *testing.T, client *dynamodb.Client, e *keyfirst.Entity[Note], id string) map[string]types.AttributeValue {
	t.Helper()
	out, err := client.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(e.Table().Name()),
		Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "NOTE#" + id}, "SK": &types.AttributeValueMemberS{Value: "NOTE#" + id}}, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	return out.Item
}

func timeKey(t *testing.T, at time.Time) string {
	t.Helper()
	s, err := keyfirst.FormatTimeKey(at)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkTimes asserts the stored created and updated attributes.
func checkTimes(t *testing.T, what string, item map[string]types.AttributeValue, created, updated time.Time) {
	t.Helper()
	if got := item["created"]; !sameS(got, timeKey(t, created)) {
		t.Errorf("%s: stored created = %v, want %s", what, got, timeKey(t, created))
	}
	if got := item["updated"]; !sameS(got, timeKey(t, updated)) {
		t.Errorf("%s: stored updated = %v, want %s", what, got, timeKey(t, updated))
	}
}

func sameS(av types.AttributeValue, want string) bool {
	s, ok := av.(*types.AttributeValueMemberS)
	return ok && s.Value == want
}

// TestLifecyclePutKeepsCreated: a Put sets both times on a new item; a Put
// over the stored item (a fresh T whose Created is zero, or one whose
// Created is another time) keeps the stored created time and returns it,
// and sets the updated time. The Put is an UpdateItem: an attribute
// keyfirst does not know is kept, where a PutItem would drop it.
func TestLifecyclePutKeepsCreated(t *testing.T) {
	t.Parallel()
	client, notes, c := localNotes(t, noteEntitySpec)
	ctx := context.Background()
	t0, t1, t2 := day, day.Add(time.Hour), day.Add(2*time.Hour)
	expires := day.AddDate(100, 0, 0)

	got, err := notes.Put(ctx, client, Note{ID: "n1", Owner: "ann", Body: "v1", Expires: expires})
	if err != nil {
		t.Fatal(err)
	}
	if !got.Created.Equal(t0) || !got.Updated.Equal(t0) {
		t.Errorf("first Put returned created %v updated %v, want both %v", got.Created, got.Updated, t0)
	}
	item := storedNote(t, client, notes, "n1")
	checkTimes(t, "first Put", item, t0, t0)
	if n, ok := item["expires"].(*types.AttributeValueMemberN); !ok || n.Value != strconv.FormatInt(expires.Unix(), 10) {
		t.Errorf("expires stored as %#v, want the Number %d (epoch seconds)", item["expires"], expires.Unix())
	}
	if _, err := client.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(notes.Table().Name()),
		Key: map[string]types.AttributeValue{"PK": item["PK"], "SK": item["SK"]}, UpdateExpression: aws.String("SET #x = :o"), ExpressionAttributeNames: map[string]string{"#x": "other"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":o": &types.AttributeValueMemberS{Value: "kept"}}}); err != nil {
		t.Fatal(err)
	}

	c.now = t1
	got, err = notes.Put(ctx, client, Note{ID: "n1", Owner: "ann", Body: "v2"})
	if err != nil {
		t.Fatal(err)
	}
	if !got.Created.Equal(t0) || !got.Updated.Equal(t1) {
		t.Errorf("Put over the item returned created %v updated %v, want %v and %v", got.Created, got.Updated, t0, t1)
	}
	item = storedNote(t, client, notes, "n1")
	checkTimes(t, "Put over the item", item, t0, t1)
	if _, ok := item["expires"]; ok {
		t.Errorf("a Put with no expiry left the old one: %v", item["expires"])
	}
	if !sameS(item["other"], "kept") || !sameS(item["body"], "v2") {
		t.Errorf("Put over the item: other = %v (want kept), body = %v", item["other"], item["body"])
	}

	c.now = t2
	if got, err = notes.Put(ctx, client, Note{ID: "n1", Owner: "ann", Body: "v3", Created: t2.AddDate(1, 0, 0)}); err != nil {
		t.Fatal(err)
	}
	checkTimes(t, "Put with another created time", storedNote(t, client, notes, "n1"), t0, t2)
	if !got.Created.Equal(t0) {
		t.Errorf("Put with another created time returned %v, want the stored %v", got.Created, t0)
	}

	// The created time is an index sort key: notes by owner, oldest first.
	c.now = t0.Add(-time.Hour)
	if _, err := notes.Put(ctx, client, Note{ID: "n0", Owner: "ann"}); err != nil {
		t.Fatal(err)
	}
	out, err := client.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(notes.Table().Name()), IndexName: aws.String("by-created"),
		KeyConditionExpression: aws.String("#o = :o"), ExpressionAttributeNames: map[string]string{"#o": "owner"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":o": &types.AttributeValueMemberS{Value: "ann"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Items) != 2 || !sameS(out.Items[0]["id"], "n0") || !sameS(out.Items[1]["id"], "n1") {
		t.Errorf("by-created: %v, want n0 then n1", out.Items)
	}
}

// TestLifecycleReplaceModifyUpdate: Replace, Modify and the partial
// Update set the updated time and keep the created time, whatever the
// item passed or the change function says.
func TestLifecycleReplaceModifyUpdate(t *testing.T) {
	t.Parallel()
	client, notes, c := localNotes(t, noteEntitySpec)
	ctx := context.Background()
	t0 := day
	if _, err := notes.Put(ctx, client, Note{ID: "n1", Owner: "ann", Body: "v1"}); err != nil {
		t.Fatal(err)
	}
	key := keyfirst.Must(notes.Key(Note{ID: "n1"}))

	c.now = t0.Add(time.Hour)
	got, err := notes.Replace(ctx, client, Note{ID: "n1", Owner: "ann", Body: "v2", Created: t0.AddDate(5, 0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	checkTimes(t, "Replace", storedNote(t, client, notes, "n1"), t0, c.now)
	if !got.Created.Equal(t0) || !got.Updated.Equal(c.now) {
		t.Errorf("Replace returned created %v updated %v", got.Created, got.Updated)
	}

	c.now = t0.Add(2 * time.Hour)
	got, err = notes.Modify(ctx, client, key, func(n *Note) { n.Body, n.Created = "v3", t0.AddDate(7, 0, 0) })
	if err != nil {
		t.Fatal(err)
	}
	checkTimes(t, "Modify", storedNote(t, client, notes, "n1"), t0, c.now)
	if !got.Created.Equal(t0) || !got.Updated.Equal(c.now) || got.Body != "v3" {
		t.Errorf("Modify returned %+v", got)
	}

	c.now = t0.Add(3 * time.Hour)
	expires := t0.AddDate(50, 0, 0)
	got, err = notes.Update(ctx, client, key, keyfirst.Set("Body", "v4").Set("Expires", expires))
	if err != nil {
		t.Fatal(err)
	}
	item := storedNote(t, client, notes, "n1")
	checkTimes(t, "Update", item, t0, c.now)
	if n, ok := item["expires"].(*types.AttributeValueMemberN); !ok || n.Value != strconv.FormatInt(expires.Unix(), 10) {
		t.Errorf("Update stored expires as %#v, want the Number %d", item["expires"], expires.Unix())
	}
	if !got.Updated.Equal(c.now) || !got.Expires.Equal(expires) || got.Body != "v4" {
		t.Errorf("Update returned %+v", got)
	}
	c.now = t0.Add(4 * time.Hour)
	if _, err = notes.Update(ctx, client, key, keyfirst.Remove("Expires")); err != nil {
		t.Fatal(err)
	}
	if item := storedNote(t, client, notes, "n1"); item["expires"] != nil {
		t.Errorf("Remove(Expires) left %v", item["expires"])
	}
}

// TestLifecycleTransactions: a transaction's put over a stored item keeps
// its created time (the action is an Update), its replace too, and every
// action that writes sets the updated time.
func TestLifecycleTransactions(t *testing.T) {
	t.Parallel()
	client, notes, c := localNotes(t, noteEntitySpec)
	ctx := context.Background()
	t0 := day
	if _, err := notes.Put(ctx, client, Note{ID: "n1", Owner: "ann"}); err != nil {
		t.Fatal(err)
	}
	send := func(w keyfirst.TransactWrite, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{w.Action()}}); err != nil {
			t.Fatal(err)
		}
	}
	c.now = t0.Add(time.Hour)
	w, _, err := notes.TransactPut(Note{ID: "n1", Owner: "ann", Body: "put"}, keyfirst.TransactOptions{})
	if w.Action().Put != nil {
		t.Errorf("TransactPut of an entity with a created time is a Put, which would overwrite it")
	}
	send(w, err)
	checkTimes(t, "TransactPut", storedNote(t, client, notes, "n1"), t0, c.now)

	c.now = t0.Add(2 * time.Hour)
	w, _, err = notes.TransactReplace(Note{ID: "n1", Owner: "ann", Body: "replace", Created: t0.AddDate(3, 0, 0)}, keyfirst.TransactOptions{})
	send(w, err)
	checkTimes(t, "TransactReplace", storedNote(t, client, notes, "n1"), t0, c.now)

	c.now = t0.Add(3 * time.Hour)
	send(notes.TransactUpdate(keyfirst.Must(notes.Key(Note{ID: "n1"})), keyfirst.Set("Body", "update")))
	item := storedNote(t, client, notes, "n1")
	checkTimes(t, "TransactUpdate", item, t0, c.now)
	if !sameS(item["body"], "update") {
		t.Errorf("body = %v", item["body"])
	}

	c.now = t0.Add(4 * time.Hour)
	w, _, err = notes.TransactPut(Note{ID: "n2", Owner: "ann"}, keyfirst.TransactOptions{CreateOnly: true})
	send(w, err)
	checkTimes(t, "TransactPut CreateOnly", storedNote(t, client, notes, "n2"), c.now, c.now)
}

// TestLifecycleBatchAndRefresh: a batch put of an entity with a created
// time is refused before any request (BatchWriteItem could not keep the
// stored one); one with an updated time only stores the clock's time.
// Refresh leaves an item that is up to date alone (its updated time
// too), and sets the updated time when it rewrites one.
func TestLifecycleBatchAndRefresh(t *testing.T) {
	t.Parallel()
	client, notes, c := localNotes(t, noteEntitySpec)
	ctx := context.Background()
	err := notes.Table().BatchWrite(ctx, noCalls{T: t}, []keyfirst.WriteRequest{notes.PutRequest(Note{ID: "b1", Owner: "ann"})})
	var ie *keyfirst.ItemError
	if !errors.As(err, &ie) || ie.Problem != keyfirst.ItemCreated {
		t.Fatalf("batch put of an entity with a created time: %v, want ItemCreated", err)
	}

	updatedOnly, err := keyfirst.NewEntity(notes.Table(), keyfirst.EntitySpec[Note]{Type: "UNOTE", Keys: []keyfirst.Binding{selfKey("PK", "SK", "NOTE")},
		Updated: "Updated", Clock: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	c.now = day.Add(time.Minute)
	if err := notes.Table().BatchWrite(ctx, client, []keyfirst.WriteRequest{updatedOnly.PutRequest(Note{ID: "b1", Owner: "ann"})}); err != nil {
		t.Fatal(err)
	}
	if item := storedNote(t, client, notes, "b1"); !sameS(item["updated"], timeKey(t, c.now)) {
		t.Errorf("batch put stored updated %v, want %s", item["updated"], timeKey(t, c.now))
	}

	c.now = day
	if _, err := notes.Put(ctx, client, Note{ID: "r1", Owner: "ann"}); err != nil {
		t.Fatal(err)
	}
	c.now = day.Add(time.Hour)
	res, err := notes.Refresh(ctx, client, storedNote(t, client, notes, "r1"))
	if err != nil || res.Outcome != keyfirst.RefreshUnchanged {
		t.Fatalf("Refresh of an item up to date: %v %v", res.Outcome, err)
	}
	checkTimes(t, "Refresh unchanged", storedNote(t, client, notes, "r1"), day, day)

	// An item whose index key is stale (written by another program).
	stale := storedNote(t, client, notes, "r1")
	stale["created"] = &types.AttributeValueMemberS{Value: day.Format(time.RFC3339)} // not TimeKeyLayout
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(notes.Table().Name()), Item: stale}); err != nil {
		t.Fatal(err)
	}
	res, err = notes.Refresh(ctx, client, storedNote(t, client, notes, "r1"))
	if err != nil || res.Outcome != keyfirst.RefreshChanged {
		t.Fatalf("Refresh of a stale item: %v %v", res.Outcome, err)
	}
	checkTimes(t, "Refresh changed", storedNote(t, client, notes, "r1"), day, c.now)
}

// TestLifecycleBadInput: an expiry DynamoDB's TTL cannot hold, a missing
// one where it is required, a created time TimeKeyLayout cannot store and
// a change of a time keyfirst sets are refused on every write path before
// any request.
func TestLifecycleBadInput(t *testing.T) {
	t.Parallel()
	c := &clock{now: day}
	table := keyfirst.Must(keyfirst.NewTable(notesSpec()))
	notes := keyfirst.Must(keyfirst.NewEntity(table, noteEntitySpec(c)))
	required := noteEntitySpec(c)
	required.Type, required.ExpiresRequired = "RNOTE", true
	mustExpire := keyfirst.Must(keyfirst.NewEntity(table, required))
	ctx, api := context.Background(), noCalls{T: t}
	key := keyfirst.Must(notes.Key(Note{ID: "n1"}))
	before1970 := Note{ID: "n1", Owner: "ann", Expires: time.Date(1969, 12, 31, 23, 59, 59, 0, time.UTC)}
	farCreated := Note{ID: "n1", Owner: "ann", Created: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}
	cases := []struct {
		name    string
		err     error
		problem any
	}{
		{"Put before 1970", second(notes.Put(ctx, api, before1970)), keyfirst.ItemExpires},
		{"Replace before 1970", second(notes.Replace(ctx, api, before1970)), keyfirst.ItemExpires},
		{"TransactPut before 1970", third(notes.TransactPut(before1970, keyfirst.TransactOptions{})), keyfirst.ItemExpires},
		{"TransactReplace before 1970", third(notes.TransactReplace(before1970, keyfirst.TransactOptions{})), keyfirst.ItemExpires},
		{"batch put before 1970", notes.Table().BatchWrite(ctx, api, []keyfirst.WriteRequest{keyfirst.Must(keyfirst.NewEntity(keyfirst.Must(keyfirst.NewTable(notesSpec())),
			keyfirst.EntitySpec[Note]{Type: "N", Keys: []keyfirst.Binding{selfKey("PK", "SK", "N")}, Expires: "Expires"})).PutRequest(before1970)}), keyfirst.ItemExpires},
		{"Update before 1970", second(notes.Update(ctx, api, key, keyfirst.Set("Expires", before1970.Expires))), keyfirst.ItemExpires},
		{"Put without a required expiry", second(mustExpire.Put(ctx, api, Note{ID: "n1", Owner: "ann"})), keyfirst.ItemExpires},
		{"Update removing a required expiry", second(mustExpire.Update(ctx, api, keyfirst.Must(mustExpire.Key(Note{ID: "n1"})), keyfirst.Remove("Expires"))), keyfirst.ItemExpires},
		{"Put of a created time in year 10000", second(notes.Put(ctx, api, farCreated)), keyfirst.ItemTime},
		{"Update of Created", second(notes.Update(ctx, api, key, keyfirst.Set("Created", day))), keyfirst.UpdateLifecycleField},
		{"Update of Updated", second(notes.Update(ctx, api, key, keyfirst.Remove("Updated"))), keyfirst.UpdateLifecycleField},
		{"TransactUpdate of Created", second(notes.TransactUpdate(key, keyfirst.Set("Created", day))), keyfirst.UpdateLifecycleField},
	}
	for _, tc := range cases {
		var ie *keyfirst.ItemError
		var ue *keyfirst.UpdateError
		switch want := tc.problem.(type) {
		case keyfirst.ItemProblem:
			if !errors.Is(tc.err, keyfirst.ErrInvalidItem) || !errors.As(tc.err, &ie) || ie.Problem != want {
				t.Errorf("%s: %v, want %v", tc.name, tc.err, want)
			}
		case keyfirst.UpdateProblem:
			if !errors.As(tc.err, &ue) || ue.Problem != want {
				t.Errorf("%s: %v, want %v", tc.name, tc.err, want)
			}
		}
	}
	// The earliest expiry that TTL holds is accepted.
	if _, err := notes.Item(Note{ID: "n1", Owner: "ann", Expires: time.Unix(0, 0)}); err != nil {
		t.Errorf("expiry at the epoch: %v", err)
	}
}

func second[A any](_ A, err error) error        { return err }
func third[A, B any](_ A, _ B, err error) error { return err }

// TestLifecycleSpecRefused: NewEntity refuses lifecycle fields it cannot
// set or store.
func TestLifecycleSpecRefused(t *testing.T) {
	t.Parallel()
	type bad struct {
		ID      string    `dynamodbav:"id"`
		When    string    `dynamodbav:"when"`
		At      time.Time `dynamodbav:"at"`
		Expires time.Time `dynamodbav:"expires"`
	}
	noTTL := notesSpec()
	noTTL.TimeToLive = ""
	for name, tc := range map[string]struct {
		spec  keyfirst.EntitySpec[bad]
		table keyfirst.TableSpec
	}{
		"unknown field":        {keyfirst.EntitySpec[bad]{Created: "Nope"}, notesSpec()},
		"attribute name":       {keyfirst.EntitySpec[bad]{Created: "at"}, notesSpec()},
		"not a time":           {keyfirst.EntitySpec[bad]{Updated: "When"}, notesSpec()},
		"one field twice":      {keyfirst.EntitySpec[bad]{Created: "At", Updated: "At"}, notesSpec()},
		"required, no Expires": {keyfirst.EntitySpec[bad]{ExpiresRequired: true}, notesSpec()},
		"table without TTL":    {keyfirst.EntitySpec[bad]{Expires: "Expires"}, noTTL},
		"TTL on another field": {keyfirst.EntitySpec[bad]{Expires: "At"}, notesSpec()},
	} {
		tc.spec.Type, tc.spec.Keys = "BAD", []keyfirst.Binding{selfKey("PK", "SK", "BAD")}
		_, err := keyfirst.NewEntity(keyfirst.Must(keyfirst.NewTable(tc.table)), tc.spec)
		var ee *keyfirst.EntityError
		if !errors.Is(err, keyfirst.ErrInvalidEntity) || !errors.As(err, &ee) || ee.Problem != keyfirst.EntityLifecycle {
			t.Errorf("%s: %v, want EntityLifecycle", name, err)
		}
	}
}
